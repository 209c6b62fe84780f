"""The rules of 31 in plain Python: cards, hands, rule sets and round resolution.

Nothing here imports Django: values in, values out. The modules are floors (docs/architecture.md):
each imports only the ones below it (words and errors at the bottom, then cards, the switches,
the rule set, hands, the round, the endings, the checks, ``possible``, ``resolve``, the game,
the view, and the phone's door at the top), never one that uses it, not even inside a function
(tests/rules/test_engine_shape.py). The browser loads the package as it is.
"""

from .cards import Card, CardError, check_hand, deck, parse_card, parse_cards
from .endings import COUNTED, ENDINGS, ROUND_ENDINGS, Ending
from .hands import Hand, evaluate, points, possible_values
from .presets import PRESETS, Preset, build_rules
from .resolve import resolve_round
from .round import (
    Choice,
    Outcome,
    PlayerAfter,
    Result,
    RoundError,
    RoundResult,
    Seat,
    Status,
    Table,
)
from .ruleset import SWITCHES, RulesError, RuleSet

__all__ = [
    "COUNTED",
    "ENDINGS",
    "PRESETS",
    "ROUND_ENDINGS",
    "SWITCHES",
    "Card",
    "CardError",
    "Choice",
    "Ending",
    "Hand",
    "Outcome",
    "PlayerAfter",
    "Preset",
    "Result",
    "RoundError",
    "RoundResult",
    "RuleSet",
    "RulesError",
    "Seat",
    "Status",
    "Table",
    "build_rules",
    "check_hand",
    "deck",
    "evaluate",
    "parse_card",
    "parse_cards",
    "points",
    "possible_values",
    "resolve_round",
]
