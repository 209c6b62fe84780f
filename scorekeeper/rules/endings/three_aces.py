"""Three aces shown as fire: the round ends at once and every other player loses a life."""

from __future__ import annotations

from ..round import RoundError, RoundState
from ..ruleset import RuleSet
from ..words import _, gettext_noop
from .base import Ending, declared


@declared
class ThreeAces(Ending):
    id = "three_aces"
    order = 50
    words = gettext_noop("three aces (fire)")
    chip = gettext_noop("Three aces")
    knocker = "allowed"
    shows = "one"
    shown_question = gettext_noop("who showed three aces")
    shown_word = gettext_noop("three aces")
    say_who_showed = gettext_noop("say who showed three aces")
    only_one_shows = gettext_noop("only one player can show three aces to end the round")
    knocker_cannot_show = gettext_noop(
        "%(name)s knocked, and a knocker's hand stays as it is after the knock: "
        "%(name)s cannot also show three aces"
    )
    not_offered = gettext_noop("under these rules three aces do not end the round")

    def offered(self, rules: RuleSet) -> bool:
        return rules.three_aces_fire

    def check_shown(self, state: RoundState, name: str) -> None:
        if name not in state.values:
            return
        hand = state.hands.get(name)
        aces = hand is not None and all(card.rank == "A" for card in hand.cards)
        if not aces and not (hand is None and state.values[name] == state.rules.three_aces_worth):
            raise RoundError(_("%(name)s does not hold three aces") % {"name": name}, "shown_by")

    def score(self, state: RoundState) -> None:
        who = state.outcome.shown_by[0]
        state.story.append(_("%(name)s showed three aces (fire).") % {"name": who})
        for name in state.playing:
            if name != who:
                state.lose(
                    name,
                    1,
                    _("%(name)s showed three aces, which cost every other player a life")
                    % {"name": who},
                )
