"""A round of 31 being resolved: its inputs (the table, how the round ended), what it gives
(who lost what, and why), and the working state the engine fills in between. No Django here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from .cards import Card
from .errors import InputError
from .hands import Hand
from .ruleset import RuleSet
from .words import _
from .words import lives as lives_word


class Status(StrEnum):
    """Where a player stands. ``COUNTY`` is the last chance under every rule set; each rule
    set has its own word for it (``RuleSet.status_label``)."""

    IN = "in"
    COUNTY = "county"
    OUT = "out"


class Result(StrEnum):
    SCORED = "scored"  # lives were lost (or nobody lost one) and play goes on or ends
    REPLAY = "replay"  # nobody loses and the hand is dealt again
    TABLE_DECIDES = "table_decides"  # the rules leave it open: the table must choose


STATUSES = tuple(Status)


class RoundError(InputError):
    """A round that cannot have happened under these rules; ``field`` says where."""


@dataclass(frozen=True)
class Seat:
    """A player at the table before the round, with what they hold if the table entered it."""

    name: str
    lives: int
    status: str = Status.IN
    cards: tuple[Card, ...] | None = None
    value: Fraction | None = None
    coins: int = 0  # in a game played for a pot: up (or down) since the start

    @property
    def playing(self) -> bool:
        return self.status != Status.OUT


@dataclass(frozen=True)
class Table:
    players: tuple[Seat, ...]  # in seat order, clockwise
    dealer: str | None = None
    pot: int = 0
    rounds_played: int = 0


@dataclass(frozen=True)
class Outcome:
    ending: str
    knocker: str | None = None
    shown_by: tuple[str, ...] = ()
    lowest: tuple[str, ...] | None = None  # named by the table instead of entering hands
    choice: str | None = None
    losses: Mapping[str, int] | None = None  # a round counted by hand: who lost how many
    winners: tuple[str, ...] | None = None  # a hand played for a pot: named by the table


@dataclass(frozen=True)
class Choice:
    id: str
    words: str


@dataclass(frozen=True)
class PlayerAfter:
    name: str
    lives: int
    status: str
    status_label: str
    lost: int = 0
    reason: str = ""
    coins: int = 0  # a game played for a pot: up (or down) since the start, after the hand


@dataclass(frozen=True)
class RoundResult:
    result: Result
    hands: dict[str, Hand]
    losses: dict[str, int]
    players: tuple[PlayerAfter, ...]
    pot: int
    explanation: tuple[str, ...]
    choices: tuple[Choice, ...] = ()
    game_over: bool = False
    winner: str | None = None
    tie: tuple[str, ...] = ()
    next_dealer: str | None = None
    # Whether the rules left something to the table in this round (and so read ``choice``);
    # ``choices`` then lists what it could choose, picked or not.
    choice_asked: bool = False
    # A round counted by hand that no round of these rules gives: kept only when the table
    # confirms it (a paper sheet allows anything).
    unusual: bool = False
    # A hand played for a pot: who took it, and what the hand did to each player's coins.
    winners: tuple[str, ...] = ()
    coins: Mapping[str, int] = field(default_factory=dict)


@dataclass
class RoundState:
    """The working state of one resolution: checked inputs, losses and their reasons."""

    rules: RuleSet
    table: Table
    outcome: Outcome
    hands: dict[str, Hand] = field(default_factory=dict)
    values: dict[str, Fraction] = field(default_factory=dict)
    losses: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    why: dict[str, str] = field(default_factory=dict)  # each reason before it became a sentence
    story: list[str] = field(default_factory=list)
    asked: tuple[Choice, ...] = ()  # what the rules left to the table, if anything
    replayed: bool = False  # nobody loses and the hand is dealt again
    unusual: bool = False  # counted by hand as no round of these rules gives
    winners: list[str] = field(default_factory=list)  # a hand played for a pot: who takes it
    stopped: bool = False  # a game played for a pot: the table ends it here
    void: bool = False  # a tie for lowest voided the hand (``lowest_tie``): nobody loses

    @property
    def seats(self) -> dict[str, Seat]:
        return {seat.name: seat for seat in self.table.players}

    @property
    def playing(self) -> list[str]:
        return [seat.name for seat in self.table.players if seat.playing]

    def lose(self, name: str, lives: int, reason: str) -> None:
        self.losses[name] = lives
        self.why[name] = reason
        self.reasons[name] = _("%(name)s loses %(lives)s: %(reason)s") % {
            "name": name,
            "lives": lives_word(lives),
            "reason": reason,
        }


class TableDecides(Exception):
    """The rules leave this round open: the table must choose among ``choices``, because
    ``why``."""

    def __init__(self, choices: tuple[Choice, ...], why: str) -> None:
        super().__init__(why)
        self.choices, self.why = choices, why


def pick(state: RoundState, choices: tuple[Choice, ...], why: str) -> str:
    """The table's pick among ``choices``; ``TableDecides`` when it has not picked yet."""
    state.asked = choices
    picked = state.outcome.choice
    if picked is None:
        raise TableDecides(choices, why)
    if picked not in {choice.id for choice in choices}:
        raise RoundError(
            _("choose one of %(ids)s") % {"ids": ", ".join(choice.id for choice in choices)},
            "choice",
        )
    words = next(c.words for c in choices if c.id == picked)
    state.story.append(_("The table chose: %(choice)s.") % {"choice": words})
    return picked


def not_playing(state: RoundState, name: str, out: str) -> str:
    """Why ``name`` cannot do something: not at this table, or (``out``) out of the game."""
    seat = state.seats.get(name)
    if seat is None:
        return _("%(name)s is not playing in this game") % {"name": name}
    return out % {"name": name}
