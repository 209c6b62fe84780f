"""Any three of a kind dealt, shown as fire before play (gamexpla.in's rules): the round ends
at once and every other player loses a life."""

from __future__ import annotations

from ..round import RoundError, RoundState
from ..ruleset import RuleSet
from ..words import _, gettext_noop
from .base import Ending, declared


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
        if hand is not None and len({card.rank for card in hand.cards}) != 1:
            raise RoundError(
                _("%(name)s was not dealt three of a kind") % {"name": name}, "shown_by"
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
