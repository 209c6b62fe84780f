"""A knock, and the showdown after everyone else's last turn."""

from __future__ import annotations

from ..lowest import knocker_beaten, showdown
from ..round import RoundState
from ..ruleset import RuleSet
from ..words import _, gettext_noop
from .base import Ending, declared


@declared
class Knock(Ending):
    id = "knock"
    order = 10
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
        knocker_beaten(state, knocker)
