"""What happened at the table: clubs, their links and their players (``clubs``); games, their
seats and their rounds (``games``); nights and tournaments (``nights``). The verbs that change them are in ``scorekeeper.play``.

May import only ``lib`` and ``rules``."""

from .clubs import Club, FaultReport, Player, RetiredKey, Season, key_digest, new_key
from .games import BIN_DAYS, Game, GameSeat, MadeByANewerKnock, Round, RoundInputs
from .nights import Night
from .tournaments import Entry, Table, Tournament, table_key_for

__all__ = [
    "BIN_DAYS",
    "Club",
    "Entry",
    "FaultReport",
    "Game",
    "GameSeat",
    "MadeByANewerKnock",
    "Night",
    "Player",
    "RetiredKey",
    "Round",
    "RoundInputs",
    "Season",
    "Table",
    "Tournament",
    "key_digest",
    "new_key",
    "table_key_for",
]
