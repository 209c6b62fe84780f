"""The ways a round of 31 ends, one object each: under which rules it is offered, what it asks
the table, how it is checked and scored, and its words (the engine's, the chip's, the hint's).

The engine, the forms, the page's chips and hints and the API's schema all read them from here.
Adding an ending is its own module here, its class ``@declared`` with its place among the others
(``order``), its cases and its words in the catalogue; nothing else names it. The endings read
the rules, the round and the hands below them and never import what uses them (``resolve``,
``possible``, ``game``).
"""

from __future__ import annotations

import importlib
import os

from ..ruleset import RuleSet
from .base import COUNTED, DECLARED, Ending, Question

# Each module of this folder declares its endings as it is imported.
for _file in sorted(os.listdir(os.path.dirname(__file__))):
    if _file.endswith(".py") and _file not in ("__init__.py", "base.py"):
        importlib.import_module(f"{__name__}.{_file.removesuffix('.py')}")

# Every way a round ends, in the order a table meets them. A round may also be counted by
# hand, as on a paper sheet: not a way a hand of 31 ends, so the referee never offers it; the
# rules apply what the table counted.
ROUND_ENDINGS: dict[str, Ending] = {e.id: e for e in sorted(DECLARED, key=lambda e: e.order)}
ENDINGS: dict[str, Ending] = {id: e for id, e in ROUND_ENDINGS.items() if not e.by_hand}
BY_HAND = ROUND_ENDINGS[COUNTED]


def offered(rules: RuleSet) -> tuple[str, ...]:
    """The ways a round can end under these rules, in the order a table meets them (a game
    played for a pot has its own, ``RuleSet.form``)."""
    return tuple(e.id for e in ENDINGS.values() if e.form == rules.form and e.offered(rules))


def lowest_endings(rules: RuleSet) -> tuple[str, ...]:
    """The endings after which the table must say who was lowest (or enter the cards)."""
    return tuple(id for id in offered(rules) if ENDINGS[id].asks_lowest(rules))


def asks(rules: RuleSet, ending: str) -> tuple[Question, ...]:
    """The questions a table answers about a round that ended so: of ``knocker``,
    ``shown_by`` and ``lowest``."""
    return ROUND_ENDINGS[ending].asks(rules)


def endings_asking(rules: RuleSet, question: Question) -> tuple[str, ...]:
    return tuple(ending for ending in offered(rules) if question in asks(rules, ending))


def ending_of(id: str) -> Ending | None:
    return ROUND_ENDINGS.get(id)


__all__ = [
    "BY_HAND",
    "COUNTED",
    "ENDINGS",
    "ROUND_ENDINGS",
    "Ending",
    "asks",
    "ending_of",
    "endings_asking",
    "lowest_endings",
    "offered",
]
