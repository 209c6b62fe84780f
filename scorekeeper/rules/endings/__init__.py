"""The ways a round of 31 ends, one object each: under which rules it is offered, what it asks
the table, how it is checked and scored, and its words (the engine's, the chip's, the hint's).

The engine, the forms, the page's chips and hints and the API's schema all read them from here.
Adding an ending is its own module here, registered below, with its cases and its words in the
catalogue.
"""

from __future__ import annotations

from .base import COUNTED, Ending
from .counted import CountedByHand
from .dealt import DealtThirtyOne
from .knock import Knock
from .pot import Highest, PotThirtyOne, Stop
from .second_knock import SecondKnock
from .stock_out import StockOut
from .thirty_one import ThirtyOne
from .three_aces import ThreeAces

# In the order a table meets them.
ENDINGS: dict[str, Ending] = {
    ending.id: ending
    for ending in (
        Knock(),
        SecondKnock(),
        ThirtyOne(),
        DealtThirtyOne(),
        ThreeAces(),
        StockOut(),
        # A game played for a pot (``RuleSet.form``) has its own.
        Highest(),
        PotThirtyOne(),
        Stop(),
    )
}
# A round may also be counted by hand, as on a paper sheet: not a way a hand of 31 ends, so the
# referee never offers it; the rules apply what the table counted.
BY_HAND = CountedByHand()
ROUND_ENDINGS: dict[str, Ending] = {**ENDINGS, COUNTED: BY_HAND}


def ending_of(id: str) -> Ending | None:
    return ROUND_ENDINGS.get(id)


__all__ = ["BY_HAND", "COUNTED", "ENDINGS", "ROUND_ENDINGS", "Ending", "ending_of"]
