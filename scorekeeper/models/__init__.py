"""What happened at the table: clubs and their players (``clubs``), games, their seats and
their rounds (``games``)."""

from .games import (
    BIN_DAYS,
    CLUB_COLUMNS,
    AlreadyRecorded,
    Club,
    Game,
    GameSeat,
    GameStamp,
    Player,
    RetiredKey,
    Round,
    RoundInputs,
    StaleGame,
    StaleLink,
    clean_name,
    key_digest,
    name_key,
    new_key,
    stamp_for_key,
    stored_rules,
    view_key_for,
    writing,
)

__all__ = [
    "BIN_DAYS", "CLUB_COLUMNS", "AlreadyRecorded", "Club", "Game", "GameSeat", "GameStamp", "Player", "RetiredKey",
    "Round", "RoundInputs", "StaleGame", "StaleLink", "clean_name", "key_digest", "name_key",
    "new_key", "stamp_for_key", "stored_rules", "view_key_for", "writing",
]  # fmt: skip
