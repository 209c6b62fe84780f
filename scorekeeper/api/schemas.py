"""The JSON API's bodies and answers as pydantic schemas: one source both for checking what
arrives and for the OpenAPI description, so that the two cannot drift apart.

Each value type below reads what a client sent with a message a person understands ("give a list
of player names") rather than pydantic's own, and says in its JSON schema what it accepts. What
only the rules can judge (is this round possible?) is left to the engine, which names the field
at fault in the same way.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from ..lib.text import clean_name_text
from ..models.tournaments import (
    DEFAULT_TIE_BREAKS,
    MOST_ENTRIES,
    MOST_ROUNDS,
    ROUND_MINUTES,
    TIE_BREAKS,
)
from ..rules import ENDINGS, PRESETS, ROUND_ENDINGS, SWITCHES
from ..rules.errors import InputError
from ..rules.numbers import read_points
from ..rules.ruleset import BY_NAME, most_lost_under_any_rules

# ---- reading values ------------------------------------------------------------------------


def _refuse(message: str) -> PydanticCustomError:
    return PydanticCustomError("knock", _(message))


def _text(message: str, longest: int, empty: bool = False) -> Callable[[Any], str]:
    """A reader of plain text: a string, trimmed, with no control characters or lone
    surrogates, at most ``longest`` characters."""

    def read(value: Any) -> str:
        if not isinstance(value, str) or (not empty and not value.strip()):
            raise _refuse(message)
        if len(value) > longest:
            raise _refuse(_("at most %(n)d characters") % {"n": longest})
        try:
            return clean_name_text(value.strip(), "")
        except InputError as refusal:
            raise _refuse(refusal.message) from None

    return read


def _whole(message: str) -> Callable[[Any], int]:
    def read(value: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # 3.0 is the whole number 3, to JSON as to its schemas
        if isinstance(value, bool) or not isinstance(value, int) or not -1 < value < 10_000:
            raise _refuse(message)
        return value

    return read


def _flag(message: str) -> Callable[[Any], bool]:
    def read(value: Any) -> bool:
        if not isinstance(value, bool):
            raise _refuse(message)
        return value

    return read


def _names(value: Any) -> list[str]:
    if not isinstance(value, list) or len(value) > 20:
        raise _refuse(gettext_noop("give a list of player names"))
    return [_NAME(item) for item in value]


def _cards(value: Any) -> str | list[str]:
    if isinstance(value, str) and len(value) <= 60:
        return _text(gettext_noop('cards are a list like ["AS", "KS", "9D"]'), 60, empty=True)(
            value
        )
    if (
        isinstance(value, list)
        and len(value) <= 10
        and all(isinstance(card, str) and len(card) <= 6 for card in value)
    ):
        return [_text(gettext_noop("a card is text"), 6, empty=True)(card) for card in value]
    raise _refuse(gettext_noop('cards are a list like ["AS", "KS", "9D"]'))


def _points(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _refuse(gettext_noop("a hand's value is a number, such as 19 or 30.5"))
    try:
        read_points(value, "value")
    except InputError as refusal:
        raise _refuse(refusal.message) from None
    return value


def _switch_value(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float):
        return _points_or_flag(value)
    if isinstance(value, str) and len(value) <= 40:
        return _text(gettext_noop("a house rule's value is text"), 40, empty=True)(value)
    raise _refuse(gettext_noop("a house rule's value is a number, a word, true, false or null"))


def _points_or_flag(value: Any) -> Any:
    if isinstance(value, float) and not -10_000 < value < 10_000:  # inf and nan included
        raise _refuse(gettext_noop("a house rule's value is a small number"))
    if isinstance(value, int) and not isinstance(value, bool) and not -10_000 < value < 10_000:
        raise _refuse(gettext_noop("a house rule's value is a small number"))
    return value


_NAME = _text(gettext_noop("must be some text"), 100)


def _player_list(value: Any) -> list[str]:
    """A new game's players: names in seat order, each a name a club can keep."""
    message = gettext_noop("players are a list of names in seat order, each at most 60 characters")
    if not isinstance(value, list) or len(value) > 20:
        raise _refuse(message)
    return [_text(message, 60)(name) for name in value]


def _string(schema: dict[str, Any] | None = None, **extra: Any) -> WithJsonSchema:
    return WithJsonSchema({"type": "string", **(schema or {}), **extra})


# What ``_text`` refuses, in the JSON schemas' words: control characters, and for a text that
# may not be empty, nothing but spaces (the spaces str.strip() takes away). It also refuses
# lone surrogates, which a JSON schema's pattern cannot name.
def _format_ranges() -> str:
    """The format characters of the Basic Multilingual Plane (bidi overrides, zero-width
    characters), as a character class's ranges: names refuse them (``clean_name_text``). The
    few beyond it are left to the check, which the pattern cannot name in every dialect."""
    chars = [c for c in range(0x10000) if unicodedata.category(chr(c)) == "Cf"]
    ranges, start = [], chars[0]
    for before, c in itertools.pairwise([*chars, -1]):
        if c != before + 1:
            ranges.append(f"\\u{start:04X}" + ("" if before == start else f"-\\u{before:04X}"))
            start = c
    return "".join(ranges)


_FORMAT = _format_ranges()
_CLEAN = f"[^\\u0000-\\u001F\\u007F-\\u009F{_FORMAT}]"
_SHOWN = (
    "[^\\u0000-\\u0020\\u007F-\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000"
    f"{_FORMAT}]"
)
CLEAN = f"^{_CLEAN}*$"
SOME = f"^{_CLEAN}*{_SHOWN}{_CLEAN}*$"


Name = Annotated[str, BeforeValidator(_NAME), _string(pattern=SOME, maxLength=100)]
Names = Annotated[
    list[str],
    BeforeValidator(_names),
    WithJsonSchema(
        {
            "type": "array",
            "items": {"type": "string", "pattern": SOME, "maxLength": 100},
            "maxItems": 20,
        }
    ),
]
ClubName = Annotated[
    str,
    BeforeValidator(_text(gettext_noop("a club needs a name"), 100)),
    _string(pattern=SOME, maxLength=100),
]
Choice = Annotated[
    str,
    BeforeValidator(_text(gettext_noop("a choice is one of the ids the table was offered"), 40)),
    _string(
        description="The table's pick among the choices of an earlier answer",
        pattern=SOME,
        maxLength=40,
    ),
]
ClientId = Annotated[
    str,
    BeforeValidator(
        _text(gettext_noop("a client id is text of at most 64 characters"), 64, empty=True)
    ),
    _string(description="Made once per tap: a repeat is applied once", pattern=CLEAN, maxLength=64),
]
Cards = Annotated[
    str | list[str],
    BeforeValidator(_cards),
    WithJsonSchema(
        {
            "oneOf": [
                {
                    "type": "array",
                    "items": {"type": "string", "pattern": CLEAN, "maxLength": 6},
                    "minItems": 3,
                    "maxItems": 3,
                },
                {
                    "type": "string",
                    "description": "Cards separated by spaces or commas",
                    "pattern": CLEAN,
                    "maxLength": 60,
                },
            ],
            "description": "Rank then suit: AS, 10h, Th, K♦, 7c",
            "examples": [["AS", "KS", "9D"]],
        }
    ),
]
Points = Annotated[
    int | float,
    BeforeValidator(_points),
    WithJsonSchema({"type": "number", "minimum": 0, "maximum": 40, "multipleOf": 0.5}),
]
Version = Annotated[
    int,
    BeforeValidator(_whole(gettext_noop("the version is the whole number the game last showed"))),
    WithJsonSchema({"type": "integer", "minimum": 0, "description": "The version this client saw"}),
]
Ending = Annotated[
    str,
    BeforeValidator(_text(gettext_noop("say how the round ended"), 20)),
    _string(enum=list(ENDINGS)),
]
RoundEnding = Annotated[
    str,
    BeforeValidator(_text(gettext_noop("say how the round ended"), 20)),
    _string(enum=list(ROUND_ENDINGS)),
]
LIVES = BY_NAME["lives"]
Lost = Annotated[
    int,
    BeforeValidator(_whole(gettext_noop("lives lost are a whole number"))),
    # The most a round costs under any rules; each game's own most is the engine's to check.
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": most_lost_under_any_rules()}),
]
Status = Annotated[
    str,
    BeforeValidator(_text(gettext_noop("a status is “in”, “county” or “out”"), 10)),
    _string(enum=["in", "county", "out"]),
]
SwitchValue = Annotated[
    Any,
    BeforeValidator(_switch_value),
    WithJsonSchema({"type": ["number", "string", "boolean", "null"]}),
]


Overrides = Annotated[
    dict[str, SwitchValue],
    WithJsonSchema(
        {
            "type": "object",
            "description": "House rules: switch → value, over the preset",
            "properties": {s.name: s.schema() for s in SWITCHES},
            "additionalProperties": False,
        }
    ),
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RulesSpec(Strict):
    preset: Annotated[
        str,
        BeforeValidator(_text(gettext_noop("say which preset"), 40)),
        _string(enum=list(PRESETS)),
    ]
    overrides: Overrides = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _preset_id(cls, value: Any) -> Any:
        """A preset id alone stands for the preset with no house rules."""
        return {"preset": value} if isinstance(value, str) else value


Rules = Annotated[
    RulesSpec,
    WithJsonSchema(
        {
            "description": 'A preset id, or {"preset": id, "overrides": {switch: value}}',
            "oneOf": [
                {"type": "string", "enum": list(PRESETS)},
                {
                    "type": "object",
                    "properties": {
                        "preset": {"type": "string", "enum": list(PRESETS)},
                        "overrides": Overrides.__metadata__[0].json_schema,
                    },
                    "required": ["preset"],
                    "additionalProperties": False,
                },
            ],
        }
    ),
]


# ---- bodies --------------------------------------------------------------------------------


class EvaluateIn(Strict):
    rules: Rules
    cards: Cards

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"rules": "scat", "cards": ["AS", "KS", "9D"]}]}
    )


class PlayerIn(Strict):
    name: Name
    cards: Cards | None = None
    value: Points | None = Field(None, description="A value the table agreed instead of cards")
    lives: (
        Annotated[
            int,
            BeforeValidator(_whole(gettext_noop("lives must be a whole number"))),
            WithJsonSchema({"type": "integer", "minimum": 0}),
        ]
        | None
    ) = None
    status: Status | None = None


def _players(value: Any) -> Any:
    if not isinstance(value, list) or not value or len(value) > 20:
        raise _refuse(gettext_noop("list the players, each with a name"))
    for item in value:
        if not isinstance(item, dict):
            raise _refuse(gettext_noop("each player is an object with a name"))
    return value


class ShowdownIn(Strict):
    rules: Rules
    ending: Ending
    knocker: Name | None = None
    shown_by: Names = Field(default_factory=list)
    lowest: Names | None = Field(
        None, description="The lowest players named by the table, instead of entering hands"
    )
    winners: Names | None = Field(
        None,
        description="Who had the top hand (where everyone but the top hand loses) or won the "
        "pot, named by the table instead of entering hands",
    )
    dealer: Name | None = Field(None, description="Who dealt this round; needed for next_dealer")
    pot: Annotated[
        int,
        BeforeValidator(_whole(gettext_noop("the pot must be a whole number from 0 to 9999"))),
        WithJsonSchema({"type": "integer", "minimum": 0, "maximum": 9999}),
    ] = 0
    choice: Choice | None = None
    players: Annotated[list[PlayerIn], BeforeValidator(_players)]

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "rules": "scat",
                    "ending": "knock",
                    "knocker": "Ben",
                    "shown_by": [],
                    "dealer": "Ana",
                    "players": [
                        {"name": "Ben", "cards": ["KS", "9S", "2H"]},
                        {"name": "Cara", "cards": "AC 9C 7C"},
                        {"name": "Ana", "cards": ["A♦", "8♦", "6♣"], "lives": 3, "status": "in"},
                    ],
                }
            ]
        }
    )


class ClubIn(Strict):
    name: ClubName

    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "Thursday table"}]})


Lives = Annotated[
    int,
    BeforeValidator(_whole(gettext_noop("lives must be a whole number"))),
    WithJsonSchema(
        {"type": "integer", "minimum": LIVES.low, "maximum": LIVES.high}
    ),  # the switch's
]


class GameIn(Strict):
    rules: Rules
    players: Annotated[
        list[str],
        BeforeValidator(_player_list),
        WithJsonSchema(
            {
                "type": "array",
                "items": {"type": "string", "pattern": SOME, "maxLength": 60},
                "maxItems": 20,
                "description": "Names in seat order, clockwise",
            }
        ),
    ]
    first_dealer: Name | None = None
    lives: Lives | None = None

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"rules": "scat", "players": ["Ann", "Ben", "Cat"], "first_dealer": "Cat"}]
        }
    )


class RoundIn(Strict):
    ending: RoundEnding
    knocker: Name | None = None
    shown_by: Names = Field(default_factory=list)
    lowest: Names | None = None
    winners: Names | None = Field(
        None,
        description="A hand played for a pot (ending “highest”): who won it; where everyone "
        "but the top hand loses (“showdown_loses”), who had the top hand. Named by the table "
        "instead of entering hands; several share it",
    )
    hands: Annotated[dict[Name, Cards], Field(max_length=20)] | None = Field(
        None, description="Everyone's cards, by name, instead of naming the lowest"
    )
    choice: Choice | None = None
    losses: Annotated[dict[Name, Lost], Field(max_length=20)] | None = Field(
        None, description="A round counted by hand (ending “manual”): lives lost, by name"
    )
    version: Version | None = None
    client_id: ClientId = ""
    as_counted: Annotated[
        bool,
        BeforeValidator(_flag(gettext_noop("as_counted is true or false"))),
        WithJsonSchema(
            {
                "type": "boolean",
                "description": "A round counted by hand that no round of the game's rules "
                "gives is refused unless this is true: the table confirmed it",
            }
        ),
    ] = False

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "ending": "knock",
                    "knocker": "Ann",
                    "lowest": ["Ben"],
                    "version": 0,
                    "client_id": "3f2b9c",
                },
                {
                    "ending": "knock",
                    "knocker": "Ann",
                    "hands": {"Ann": ["KS", "9S", "2H"], "Ben": "AC 9C 7C", "Cat": "A♦ 8♦ 6♣"},
                },
                {
                    "ending": "manual",
                    "losses": {"Cat": 1, "Ben": 2},
                    "version": 3,
                    "client_id": "9a0e1d",
                },
                {"ending": "highest", "knocker": "Ann", "winners": ["Cat"]},
            ]
        }
    )


def _entries(value: Any) -> list[str]:
    """A tournament's players: names, each a name a club can keep."""
    message = gettext_noop("players are a list of names, each at most 60 characters")
    if not isinstance(value, list) or len(value) > MOST_ENTRIES:
        raise _refuse(message)
    return [_text(message, 60)(name) for name in value]


def _points_by_size(value: Any) -> dict[str, list[int]]:
    """Points by table size, in shape; what they may be is the tournament's to check."""
    message = gettext_noop('points are an object such as {"4": [3, 2, 1, 0]}')
    if not isinstance(value, dict) or len(value) > 5:
        raise _refuse(message)
    whole = _whole(message)
    for row in value.values():
        if not isinstance(row, list) or len(row) > 7:
            raise _refuse(message)
    return {str(size)[:2]: [whole(p) for p in row] for size, row in value.items()}


def _in_range(low: int, high: int, message: str) -> Callable[[Any], int]:
    def read(value: Any) -> int:
        number = _whole(message)(value)
        if not low <= number <= high:
            raise _refuse(message)
        return number

    return read


def _one_of(words: tuple[str, ...], message: str) -> Callable[[Any], str]:
    def read(value: Any) -> str:
        if value not in words:
            raise _refuse(message)
        return value

    return read


def _tie_breaks(value: Any) -> list[str]:
    message = gettext_noop(
        "the tie-breaks after points are “games_won”, “left” and “opponents”, each once at most,"
        " in order"
    )
    if (
        not isinstance(value, list)
        or not all(isinstance(v, str) and v in TIE_BREAKS for v in value)
        or len(set(value)) != len(value)
    ):
        raise _refuse(message)
    return value


TableSize = Annotated[
    int,
    BeforeValidator(_in_range(3, 6, gettext_noop("tables are of 3 to 6 players"))),
    WithJsonSchema({"type": "integer", "minimum": 3, "maximum": 6}),
]
TournamentRounds = Annotated[
    int,
    BeforeValidator(_in_range(1, MOST_ROUNDS, gettext_noop("a tournament has 1 to 20 rounds"))),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MOST_ROUNDS}),
]
Prizes = Annotated[
    int,
    BeforeValidator(_in_range(0, MOST_ENTRIES, gettext_noop("prize places are from 0 to 200"))),
    WithJsonSchema({"type": "integer", "minimum": 0, "maximum": MOST_ENTRIES}),
]


def _names_schema(description: str, **bounds: int) -> WithJsonSchema:
    """Players named in a tournament's request: names, each one a club can keep."""
    items = {"type": "string", "pattern": SOME, "maxLength": 60}
    schema = {"type": "array", "items": items, "maxItems": MOST_ENTRIES, **bounds}
    return WithJsonSchema({**schema, "description": description})


class TournamentIn(Strict):
    name: Name
    rules: Rules
    lives: Lives | None = None
    players: Annotated[
        list[str],
        BeforeValidator(_entries),
        _names_schema("The players: the club's by name, or new names"),
    ]
    table_size: TableSize = 4
    rounds: TournamentRounds = 3
    points: (
        Annotated[
            dict[str, list[int]],
            BeforeValidator(_points_by_size),
            WithJsonSchema(
                {
                    "type": "object",
                    "description": "Points by place at a table of each size (3 to 7), "
                    "first place first; a size not given earns one point less a place",
                    "propertyNames": {"enum": ["3", "4", "5", "6", "7"]},
                    "additionalProperties": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 0, "maximum": 99},
                        "maxItems": 7,
                    },
                    "maxProperties": 5,
                }
            ),
        ]
        | None
    ) = None
    method: Annotated[
        str,
        BeforeValidator(
            _one_of(("mixed", "swiss"), gettext_noop("the draw is “mixed” or “swiss”"))
        ),
        _string(enum=["mixed", "swiss"]),
    ] = "mixed"
    prizes: Prizes = 3
    tie_breaks: Annotated[
        list[str],
        BeforeValidator(_tie_breaks),
        WithJsonSchema(
            {
                "type": "array",
                "items": {"type": "string", "enum": list(TIE_BREAKS)},
                "maxItems": len(TIE_BREAKS),
                "uniqueItems": True,
                "description": "What settles equal points, in order, before the lot drawn "
                "at entry: games won, lives (coins) left at the ends of the games, and the "
                "opponents' points (the points of every player met, summed); by default the "
                "first two",
            }
        ),
    ] = Field(default_factory=lambda: list(DEFAULT_TIE_BREAKS))
    round_minutes: (
        Annotated[
            int,
            Field(
                ge=ROUND_MINUTES[0],
                le=ROUND_MINUTES[1],
                description="A round's clock: minutes from each draw (none: no clock)",
            ),
        ]
        | None
    ) = None

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "name": "Friday cup",
                    "rules": "schwimmen",
                    "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"],
                    "table_size": 4,
                    "rounds": 3,
                    "points": {"4": [3, 2, 1, 0]},
                    "method": "mixed",
                }
            ]
        }
    )


class UndoIn(Strict):
    version: Version | None = None


_ENTRY_NAME = gettext_noop("a player is named by a name of at most 60 characters")
EntryName = Annotated[
    str, BeforeValidator(_text(_ENTRY_NAME, 60)), _string(pattern=SOME, maxLength=60)
]


class EntriesIn(Strict):
    players: Annotated[
        list[str],
        BeforeValidator(_entries),
        _names_schema("Late entries: the club's players by name, or new names"),
    ]


class WithdrawIn(Strict):
    player: EntryName = Field(description="The player who leaves; they keep their points")


class ReinstateIn(Strict):
    player: EntryName = Field(description="A withdrawn player, back in from the next round")


class HereIn(Strict):
    player: EntryName = Field(description="A player entered in the tournament")
    here: bool = Field(True, description="Here (true), or not checked in after all (false)")


class SwapIn(Strict):
    players: Annotated[
        list[str],
        BeforeValidator(_entries),
        _names_schema("Two players at two tables of the round just drawn", minItems=2, maxItems=2),
    ]
    repeat_ok: bool = Field(
        False,
        description="Swap even where a player would meet someone they met in an earlier round"
        " (without it, such a swap is refused naming who, field `repeat_ok`)",
    )


class CloseTableIn(Strict):
    table: Annotated[
        int,
        BeforeValidator(_whole(gettext_noop("a table is named by its number"))),
        WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MOST_ENTRIES}),
    ] = Field(description="The number of a table of the round just drawn")


# ---- answers -------------------------------------------------------------------------------


class ErrorOut(BaseModel):
    error: str
    field: str = Field(examples=["players[1].cards"])


class UnavailableOut(BaseModel):
    """Knock cannot answer this just now: its database does not answer, or the game was made
    by a newer release of Knock (an upgrade under way). Nothing was saved: send it again after
    ``retry_after`` seconds (the Retry-After header says the same)."""

    error: str
    retry_after: int = Field(examples=[5])


# The answers any endpoint may give to a body it cannot take; one that needs a club's key also
# answers 401 without one and 404 for a key that does not open what it names; one that reads
# the database, 503 while it cannot (scorekeeper/web/outage.py).
REFUSALS: dict[int, type[BaseModel]] = {400: ErrorOut, 413: ErrorOut, 415: ErrorOut}
UNAVAILABLE: dict[int, type[BaseModel]] = {503: UnavailableOut}
KEYED: dict[int, type[BaseModel]] = {**REFUSALS, **UNAVAILABLE, 401: ErrorOut, 404: ErrorOut}


class RuleSetOut(BaseModel):
    id: str
    name: str
    description: str
    rules: dict[str, Any]
    our_reading: list[str]


class RuleSetsOut(BaseModel):
    rulesets: list[RuleSetOut]


class HandOut(BaseModel):
    value: int | float
    counted: list[str]
    explanation: str


class NamedHandOut(HandOut):
    name: str


class PlayerAfterOut(BaseModel):
    name: str
    lives: int
    status: str
    status_label: str
    lost: int
    reason: str
    coins: int | None = Field(description="A game played for a pot: coins up or down after it")


class ChoiceOut(BaseModel):
    id: str
    words: str


class ShowdownOut(BaseModel):
    hands: list[NamedHandOut]
    losses: dict[str, int]
    players: list[PlayerAfterOut]
    pot: int
    result: str = Field(json_schema_extra={"enum": ["scored", "replay", "table_decides"]})
    choices: list[ChoiceOut]
    game_over: bool
    winner: str | None
    tie: list[str]
    next_dealer: str | None
    explanation: list[str]
    winners: list[str] = Field(description="A hand played for a pot: who took the pot")
    coins: dict[str, int] = Field(description="A hand played for a pot: what it did to each")


class ClubOut(BaseModel):
    id: str
    key: str
    url: str


class SeatOut(BaseModel):
    name: str
    lives: int | None = Field(description="Lives left; null in a game played for a pot")
    status: str
    status_label: str
    coins: int | None = Field(description="A game played for a pot: coins up or down; else null")


class RoundOut(BaseModel):
    number: int
    dealer: str
    ending: str
    knocker: str | None
    shown_by: list[str]
    lowest: list[str] | None
    winners: list[str] | None
    hands: list[NamedHandOut]
    choice: str | None
    result: str
    losses: dict[str, int]
    coins: dict[str, int]
    summary: str = Field(description="Who lost what, in a line: “Cat −1, Ben −2”")
    explanation: list[str]


class GameStateOut(BaseModel):
    """The game as it stands: what the state stored with it says, without its rounds."""

    id: str
    version: int
    rules: dict[str, Any]
    players: list[SeatOut]
    dealer: str | None = Field(description="Who dealt the latest round")
    next_dealer: str | None
    pot: int
    round: int = Field(description="Rounds played")
    finished: bool
    winner: str | None
    tie: list[str]
    next_game_dealer: str | None = Field(
        description="Once the game is over: who deals first in the game Play again starts "
        "(the rules' first_dealer_again); null before"
    )
    name: str = Field(description="The game's name, if it was given one")
    abandoned: bool = Field(description="Ended with no winner; left out of the stats")
    in_bin_until: str | None = Field(
        description="Deleted: when it goes for good (ISO 8601); null when not in the bin"
    )


class GameOut(GameStateOut):
    rounds: list[RoundOut] = Field(
        description="The newest 50 rounds, oldest first, or the 50 before round `before`"
    )
    earlier_rounds: int | None = Field(
        description="Ask with `before` set to this for the rounds before these; null on the first"
    )


class RecordOut(GameStateOut):
    new_round: RoundOut | None = Field(
        description="The round just recorded; null when the tap had been recorded before"
    )


class TableOut(BaseModel):
    round: int
    number: int
    game: str = Field(description="The table's game: play it through the game endpoints")
    players: list[str] = Field(description="In seat order, clockwise")
    first_dealer: str
    playing: bool = Field(description="Its game goes on and nobody closed the table")
    scoring_key: str = Field(
        description="Opens this table's game only: as `Authorization: Bearer <key>` for the "
        "game endpoints, or in the scoring link"
    )
    scoring_url: str


class DrawnRoundOut(BaseModel):
    round: int
    tables: list[TableOut]


class PlacingOut(BaseModel):
    place: int
    name: str
    points: int
    games_won: int
    left: int = Field(description="Lives (coins, played for a pot) left at the ends of the games")
    games: int = Field(description="Games finished")
    withdrew: bool
    here: bool = Field(description="Checked in before round 1 (``POST …/here``)")
    prize: bool


class TournamentOut(BaseModel):
    id: str
    name: str
    rules: dict[str, Any]
    table_size: int
    rounds: int = Field(description="Rounds agreed")
    drawn_rounds: int
    method: str
    points: dict[str, list[int]]
    prizes: int
    tie_breaks: list[str] = Field(
        description="The order places are settled in, after points: "
        "games won, then what was left at the ends of games, then the lot drawn at entry"
    )
    finished: bool
    round_minutes: int | None = Field(description="A round's clock in minutes, or none")
    round_ends: datetime | None = Field(
        description="When the answered round's clock runs out (none: no clock, or over)"
    )
    tables: list[TableOut] = Field(
        description="The tables of one round: the last drawn, or `?round=n`"
    )
    standings: list[PlacingOut]


class StaleOut(ErrorOut):
    game: GameStateOut


class PlayerStatsOut(BaseModel):
    name: str
    retired: bool
    games: int = Field(description="Games with a seat, abandoned and deleted ones excluded")
    finished: int
    wins: int = Field(description="Finished games won alone")
    ties: int
    rounds_lost: int
    lives_lost: int
    knocks: int
    knocks_caught: int = Field(description="Rounds knocked in which the knocker lost lives")
    thirty_ones: int = Field(description="Rounds ended by the player's 31, shown or dealt")
    last_chances: int = Field(description="Rounds the player ended on the last chance")
    hands_won: int = Field(description="Hands won in games played for a pot")
    coins: int = Field(description="Coins up (or down) in games played for a pot")
    nemesis: str | None = Field(description="Who won most of the player's lost games; null if tied")


class StatsOut(BaseModel):
    players: list[PlayerStatsOut] = Field(description="A hundred players to a page, by name")
    games: int
    next_page: int | None = Field(description="The page after this one; null on the last")
