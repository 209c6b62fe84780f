"""The rules of 31 in plain Python: cards, hands, rule sets and round resolution.

Nothing here imports Django: values in, values out.
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
