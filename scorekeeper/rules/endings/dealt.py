"""A 31 dealt: shown before play. Every other player loses a life (when several were dealt
31, as the rules say or the table decides), or the round ends with a showdown."""

from __future__ import annotations

from ..hands import points
from ..lowest import showdown
from ..round import Choice, RoundError, RoundState, pick
from ..ruleset import RuleSet
from ..words import _, gettext_noop, ngettext
from ..words import names as _names
from .base import Ending, declared, worth_31


@declared
class DealtThirtyOne(Ending):
    id = "dealt_thirty_one"
    order = 40
    words = gettext_noop("a 31 dealt")
    chip = gettext_noop("Dealt 31")
    no_knocker = gettext_noop("nobody knocked: a dealt 31 is shown before anyone plays")
    shows = "several"
    shown_question = gettext_noop("who was dealt 31")
    shown_word = gettext_noop("dealt 31")
    say_who_showed = gettext_noop("say who showed 31")
    counts_as_31 = True
    shows_top = True

    def asks_lowest(self, rules: RuleSet) -> bool:
        return rules.thirty_one_dealt == "showdown"

    def then(self, rules: RuleSet) -> list[str]:
        if rules.thirty_one_dealt == "others_lose_1_redeal":
            return [_("Then the cards are dealt again.")]
        return []

    def check_shown(self, state: RoundState, name: str) -> None:
        worth_31(state, name, at_least=state.rules.thirty_one_dealt == "others_lose_1_redeal")

    def score(self, state: RoundState) -> None:
        rules = state.rules
        _fire_first(state)
        shown = state.outcome.shown_by + _also_dealt(state)
        dealt = {"names": _names(shown), "value": _dealt(state, shown)}
        state.story.append(
            ngettext(
                "%(names)s was dealt %(value)s.", "%(names)s were dealt %(value)s.", len(shown)
            )
            % dealt
        )
        if rules.thirty_one_dealt == "showdown":
            state.story.append(_("A dealt 31 ends the round at once and the lowest hand loses."))
            showdown(state, None, tops=tuple(shown))
            return
        if len(shown) > 1 and rules.several_dealt_31 == "table_decides":
            choices = (
                Choice("without_31_lose_1", _("Every player without 31 loses 1 life")),
                Choice("replay", _("Nobody loses and the cards are dealt again")),
            )
            why = _("these rules do not say what happens when several players are dealt 31")
            if pick(state, choices, why) == "replay":
                state.replayed = True  # "The table chose: nobody loses …" says it all
                return
        lost = ngettext(
            "%(names)s was dealt %(value)s, which costs every other player a life",
            "%(names)s were dealt %(value)s, which costs every other player a life",
            len(shown),
        )
        for name in state.playing:
            if name not in shown:
                state.lose(name, 1, lost % dealt)


def _fire_first(state: RoundState) -> None:
    """Three aces dealt beside a dealt 31, where three aces are fire: the fire ends the round
    (our reading, as outside engines play it), so the round is three aces, not a dealt 31. So
    too any three of a kind dealt, where that is fire (``dealt_three_fire``)."""
    rules = state.rules
    for name in state.playing:
        hand = state.hands.get(name)
        if hand is None or len({card.rank for card in hand.cards}) != 1:
            continue
        if rules.dealt_three_fire:
            raise RoundError(
                _(
                    "%(name)s was dealt three of a kind, fire, which ends the round before any "
                    "31: record a dealt three of a kind"
                )
                % {"name": name},
                "ending",
            )
        if rules.three_aces_fire and hand.cards[0].rank == "A":
            raise RoundError(
                _(
                    "%(name)s was dealt three aces, fire, which ends the round before any 31: "
                    "record three aces"
                )
                % {"name": name},
                "ending",
            )


def _also_dealt(state: RoundState) -> tuple[str, ...]:
    """Players whose entered hand shows they were dealt 31 too, though the table did not name
    them: where a 31 counts whether or not it was shown at once, theirs does (our reading), so
    two 31s dealt are two, as the rules say of several. Where an unshown 31 counts 30, theirs
    is 30, and the story says so."""
    at_least = state.rules.thirty_one_dealt == "others_lose_1_redeal"
    also = []
    for name in state.playing:
        value = state.values.get(name)
        if name in state.outcome.shown_by or value is None:
            continue
        if value == 31 or (at_least and value > 31):
            if state.rules.unshown_31 == "counts_30":
                # (At a showdown, the showdown says so.)
                if value == 31 and state.rules.thirty_one_dealt != "showdown":
                    state.story.append(
                        _("%(name)s's 31 was not shown at once, so it counts as 30.")
                        % {"name": name}
                    )
                continue
            state.story.append(
                _("%(name)s's hand shows a 31 dealt too, though nobody named it.") % {"name": name}
            )
            also.append(name)
    return tuple(also)


def _dealt(state: RoundState, shown: tuple[str, ...]) -> str:
    """What the players who showed a dealt 31 were dealt, in words: 31, 32, or 31 or more."""
    values = {state.values[name] for name in shown if name in state.values}
    if len(values) == 1 and len(shown) == sum(name in state.values for name in shown):
        return points(values.pop())
    if state.rules.thirty_one_dealt == "others_lose_1_redeal":
        return _("31 or more")
    return "31"
