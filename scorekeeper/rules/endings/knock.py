"""A knock, and the showdown after everyone else's last turn."""

from __future__ import annotations

from ..lowest import showdown
from ..round import Choice, RoundState, pick
from ..ruleset import RuleSet
from ..words import _, gettext_noop
from ..words import lives as lives_word
from .base import Ending


class Knock(Ending):
    id = "knock"
    words = gettext_noop("a knock and a showdown")
    chip = gettext_noop("Knock")
    knocker = "required"

    def asks_lowest(self, rules: RuleSet) -> bool:
        return True

    def score(self, state: RoundState) -> None:
        knocker = state.outcome.knocker
        assert knocker is not None
        state.story.append(_("%(name)s knocked.") % {"name": knocker})
        showdown(state, knocker)
        if state.rules.knocker_beaten and _beaten(state, knocker):
            more = state.rules.knocker_beaten
            before = state.losses.get(knocker, 0)
            if before:
                why = _("%(reason)s, and %(more)s more: a knocker must have the top hand") % {
                    "reason": state.why[knocker],
                    "more": lives_word(more),
                }
            else:
                why = _("knocked and someone had a better hand: a knocker must have the top hand")
            state.lose(knocker, before + more, why)


def _beaten(state: RoundState, knocker: str) -> bool:
    """Whether a hand beat the knocker's: by the cards, when everyone's were entered, or by
    the table's word (tied for the top is the top hand)."""
    if all(name in state.values for name in state.playing):
        mine = state.values[knocker]
        return any(state.values[name] > mine for name in state.playing)
    choices = (
        Choice("top", _("%(name)s had the top hand") % {"name": knocker}),
        Choice("beaten", _("Someone beat %(name)s's hand") % {"name": knocker}),
    )
    why = _(
        "under these rules a knocker without the top hand loses a life more, and not every "
        "hand was entered"
    )
    return pick(state, choices, why) == "beaten"
