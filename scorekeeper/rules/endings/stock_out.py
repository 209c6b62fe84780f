"""The stock ran out: the hands are shown, or the hand is a draw, as the rules say."""

from __future__ import annotations

from ..lowest import showdown
from ..round import RoundState
from ..ruleset import RuleSet
from ..words import _, gettext_noop
from .base import Ending, declared


@declared
class StockOut(Ending):
    id = "stock_out"
    order = 60
    words = gettext_noop("the stock running out")
    chip = gettext_noop("Stock out")
    no_knocker = gettext_noop("nobody knocked: the stock ran out before anyone knocked")
    not_offered = gettext_noop(
        "under these rules the discard pile becomes a new stock: the round goes on"
    )

    def offered(self, rules: RuleSet) -> bool:
        return rules.stock_out != "reshuffle"

    def asks_lowest(self, rules: RuleSet) -> bool:
        return rules.stock_out == "showdown"

    def score(self, state: RoundState) -> None:
        if state.rules.stock_out == "draw":
            state.story.append(_("The stock ran out: under these rules the hand is a draw."))
        else:
            state.story.append(_("The stock ran out and the hands were shown."))
            showdown(state, None)
