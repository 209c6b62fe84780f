"""What happened at the table: clubs, their links and their players (``clubs``); games, their
seats and their rounds (``games``). The verbs that change them are in ``scorekeeper.play``.

May import only ``lib`` and ``rules``."""

from .clubs import Club, Player, RetiredKey, Season, key_digest, new_key
from .games import BIN_DAYS, Game, GameSeat, MadeByANewerKnock, Round, RoundInputs

__all__ = [
    "BIN_DAYS",
    "Club",
    "Game",
    "GameSeat",
    "MadeByANewerKnock",
    "Player",
    "RetiredKey",
    "Round",
    "RoundInputs",
    "Season",
    "key_digest",
    "new_key",
]
