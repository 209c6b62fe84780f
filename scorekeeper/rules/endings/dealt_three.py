"""Any three of a kind dealt, shown as fire before play (gamexpla.in's rules): the round ends
at once and every other player loses a life."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from ..hands import points, three_of_a_kind_values
from ..round import RoundError, RoundState
from ..ruleset import RuleSet
from ..words import _, gettext_noop
from .base import Ending, declared


def _three_of_a_kind(cards: Sequence[Card]) -> bool:
    return len({card.rank for card in cards}) == 1


def _seat(state: RoundState, name: str) -> int:
    return [seat.name for seat in state.table.players].index(name)


def _first_dealt(state: RoundState) -> str | None:
    """The first player in turn from the dealer's left whose entered cards are a three of a
    kind, or None where the dealer is not known."""
    dealer = state.table.dealer
    seats = [seat.name for seat in state.table.players]
    if dealer not in seats:
        return None
    start = seats.index(dealer) + 1
    for name in seats[start:] + seats[:start]:
        hand = state.hands.get(name)
        if name in state.playing and hand is not None and _three_of_a_kind(hand.cards):
            return name
    return None


@declared
class DealtThreeOfAKind(Ending):
    id = "dealt_three"
    order = 45
    words = gettext_noop("a three of a kind dealt (fire)")
    chip = gettext_noop("Dealt three")
    no_knocker = gettext_noop("nobody knocked: a dealt hand is shown before anyone plays")
    shows = "one"
    shown_question = gettext_noop("who was dealt three of a kind")
    shown_word = gettext_noop("dealt three")
    say_who_showed = gettext_noop("say who was dealt three of a kind")
    only_one_shows = gettext_noop(
        "only one player shows a dealt three of a kind: the first in turn from the dealer's left"
    )
    not_offered = gettext_noop("under these rules a three of a kind dealt does not end the round")

    def offered(self, rules: RuleSet) -> bool:
        return rules.dealt_three_fire

    def check_shown(self, state: RoundState, name: str) -> None:
        hand = state.hands.get(name)
        if hand is not None and not _three_of_a_kind(hand.cards):
            raise RoundError(
                _("%(name)s was not dealt three of a kind") % {"name": name}, "shown_by"
            )
        value = state.values.get(name)
        if hand is None and value is not None and value not in three_of_a_kind_values(state.rules):
            raise RoundError(
                _("no three of a kind is worth %(value)s, so %(name)s was not dealt one")
                % {"value": points(value), "name": name},
                "cards",
                seat=_seat(state, name),
            )
        # Two dealt at once: the first in turn from the dealer's left shows (the card says so).
        first = _first_dealt(state)
        if first is not None and first != name:
            raise RoundError(
                _(
                    "%(first)s was dealt three of a kind too and plays before %(name)s from the "
                    "dealer's left: %(first)s shows"
                )
                % {"first": first, "name": name},
                "shown_by",
            )

    def score(self, state: RoundState) -> None:
        who = state.outcome.shown_by[0]
        state.story.append(_("%(name)s was dealt three of a kind (fire).") % {"name": who})
        for name in state.playing:
            if name != who:
                state.lose(
                    name,
                    1,
                    _("%(name)s was dealt three of a kind, which cost every other player a life")
                    % {"name": who},
                )
