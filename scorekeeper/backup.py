"""A club as one JSON file (players, games, rules, every round with its inputs, undone and
edited rounds included), and back. The file holds the club's secret key, so that a restored club
opens with the same links: keep it as safe as the secret link.

An import passes every check a recording passes, or imports nothing: the file's shape is checked
against a schema, its text like any name typed at the table, its keys for length and for clubs
already here, and every game's rounds are worked out again by the rules engine.

May import the verbs (``play``, ``tournaments``), ``models``, ``lib`` and ``rules``; the pages
and the commands call it.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic import ValidationError as SchemaError

from . import play
from .lib.marks import PALETTE, clean_initials
from .lib.spreadsheet import spreadsheet
from .lib.text import clean_name_text
from .models import Club, Entry, Game, GameSeat, Night, Round, Table, Tournament
from .models.clubs import clean_name, key_digest, view_key_for
from .models.games import stored_rules
from .models.tournaments import (
    DEFAULT_TIE_BREAKS,
    MOST_ENTRIES,
    MOST_ROUNDS,
    ROUND_MINUTES,
    TABLE_SIZES,
    TIE_BREAKS,
)
from .rules import ROUND_ENDINGS, SWITCHES, Result, RuleSet, build_rules
from .rules.cards import CardError, check_hand, parse_cards
from .rules.errors import InputError
from .rules.ruleset import RULES_VERSION, most_lost_under_any_rules, stored_form

FORMAT = "knock-club"
# 2: the view link is derived from the secret key; 3: nights and tournaments (1 and 2 still read)
VERSION = 3
ROUND_FIELDS = (
    "number",
    "state",
    "ending",
    "knocker",
    "shown_by",
    "lowest",
    "hands",
    "choice",
    "losses",
    "winners",
    "client_id",
)
KEY = re.compile(r"^[A-Za-z0-9_-]{32,64}$")
# A seat number as Knock writes it: 0 to 19, one way only ("0", never "00"; never "x0y").
SEAT_KEY = r"^(?:0|1?[1-9]|10)$"


def _when(value) -> str | None:
    return None if value is None else value.isoformat()


def export_club(club: Club) -> dict[str, Any]:
    """The club as a file; ``club`` must have been opened with its secret key."""
    assert club.key, "export a club opened with its secret key"
    games = club.games.order_by("created", "id").prefetch_related("seats__player", "rounds")
    nights = list(club.nights.order_by("created", "id"))
    night_index = {night.pk: i for i, night in enumerate(nights)}
    tournaments = club.tournaments.order_by("created", "id").prefetch_related(
        "entries__player", "tables"
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {
            "id": str(club.id),
            "name": club.name,
            "key": club.key,
            "view_generation": club.view_generation,
            "created": _when(club.created),
            "our_rules": club.our_rules,
        },
        "players": [
            {
                "name": p.name,
                "retired": p.retired,
                "created": _when(p.created),
                "colour": p.mark.colour,
                "initials": p.mark.initials,
            }
            for p in club.players.order_by("created", "id")
        ],
        "games": [
            {
                "id": str(game.id),
                "preset": game.preset,
                "rules": game.rules_data,
                "rules_version": game.rules_version,
                "readings": game.readings,
                "first_dealer": game.first_dealer,
                "mode": game.mode,
                "name": game.name,
                "abandoned": game.abandoned,
                "deleted": _when(game.deleted),
                "created": _when(game.created),
                "version": game.version,
                "night": night_index.get(game.night_id),  # type: ignore[arg-type]
                "seats": [
                    seat.player.name for seat in sorted(game.seats.all(), key=lambda s: s.position)
                ],
                "rounds": [
                    {
                        **{name: getattr(r, name) for name in ROUND_FIELDS},
                        "created": _when(r.created),
                        "changed": _when(r.changed),
                    }
                    for r in sorted(game.rounds.all(), key=lambda r: (r.created, r.pk))
                ],
            }
            for game in games
        ],
        "nights": [{"name": n.name, "created": _when(n.created)} for n in nights],
        "tournaments": [
            {
                "id": str(t.id),
                "name": t.name,
                "preset": t.preset,
                "rules": t.rules_data,
                "rules_version": t.rules_version,
                "table_size": t.table_size,
                "rounds": t.rounds,
                "points": t.points,
                "method": t.method,
                "prizes": t.prizes,
                "tie_breaks": t.tie_breaks,
                "round_minutes": t.round_minutes,
                "created": _when(t.created),
                "finished": _when(t.finished),
                "entries": [
                    {"name": e.player.name, "lot": e.lot, "left": e.left, "here": e.here}
                    for e in sorted(t.entries.all(), key=lambda e: e.lot)
                ],
                "tables": [
                    {
                        "id": str(table.id),
                        "round": table.round,
                        "number": table.number,
                        "game": str(table.game_id),
                        "closed": table.closed,
                    }
                    for table in sorted(t.tables.all(), key=lambda t: (t.round, t.number))
                ],
            }
            for t in tournaments
        ],
    }


# ---- the file's shape ------------------------------------------------------------------------


def _plain(longest: int):
    def read(value: Any) -> Any:
        if isinstance(value, str):
            if len(value) > longest:
                raise ValueError(f"at most {longest} characters")
            clean_name_text(value, "")
        return value

    return BeforeValidator(read)


def _one_of(allowed: Iterable[str], words: str) -> AfterValidator:
    known = frozenset(allowed)

    def check(value: str) -> str:
        if value not in known:
            raise ValueError(f"{words} {', '.join(sorted(known))}")
        return value

    return AfterValidator(check)


def _a_moment_of_the_club(value: datetime) -> datetime:
    """A moment a club can have lived: since 2000, and not in the future (a day's leeway for
    clocks); one without a zone is UTC."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    if not EARLIEST <= value <= timezone.now() + timedelta(days=1):
        raise ValueError("a moment of the club is between 2000 and now")
    return value


EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
Moment = Annotated[datetime, Field(strict=False), AfterValidator(_a_moment_of_the_club)]
Text = Annotated[str, _plain(100)]
Small = Annotated[int, Field(ge=0, le=100_000)]
Seat = Annotated[int, Field(ge=0, le=20)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ClubEntry(Strict):
    id: uuid.UUID = Field(strict=False)
    name: Annotated[str, _plain(100), Field(min_length=1)]
    key: Annotated[str, Field(pattern=KEY.pattern)]
    view_key: str | None = None  # version 1 only: replaced by the derived view link
    view_generation: Small = 0
    created: Moment
    our_rules: dict[str, Any] | None = None


def _initials(value: str) -> str:
    try:
        return clean_initials(value)
    except ValueError:
        raise ValueError("1 to 3 letters or digits") from None


class PlayerEntry(Strict):
    name: Annotated[str, _plain(60)]
    retired: bool = False
    created: Moment
    # The player's mark (files made before marks have none: the import gives one).
    colour: Annotated[int, Field(ge=0, lt=len(PALETTE))] | None = None
    initials: Annotated[str, AfterValidator(_initials)] | None = None


class RoundEntry(Strict):
    number: Annotated[int, Field(ge=1, le=100_000)]
    state: Literal["active", "undone", "edited"]
    ending: Annotated[str, _one_of(ROUND_ENDINGS, "a round ends with")]
    knocker: Seat | None = None
    shown_by: list[Seat] = Field(default_factory=list, max_length=20)
    lowest: Annotated[list[Seat], Field(max_length=20)] | None = None
    winners: Annotated[list[Seat], Field(max_length=20)] | None = None
    hands: (
        Annotated[
            dict[
                Annotated[str, Field(pattern=SEAT_KEY)],
                Annotated[list[Annotated[str, Field(max_length=4)]], Field(max_length=3)],
            ],
            Field(max_length=20),
        ]
        | None
    ) = None
    choice: Annotated[str, _plain(40)] = ""
    losses: (
        Annotated[
            dict[
                Annotated[str, Field(pattern=SEAT_KEY)],
                Annotated[int, Field(ge=1, le=most_lost_under_any_rules())],
            ],
            Field(max_length=20),
        ]
        | None
    ) = None
    client_id: Annotated[str, _plain(64)] = ""
    created: Moment
    changed: Moment | None = None


class GameEntry(Strict):
    id: uuid.UUID = Field(strict=False)
    preset: Annotated[str, _plain(20)]
    rules: dict[str, Any]
    rules_version: Annotated[int, Field(ge=1, le=RULES_VERSION)] = 1  # absent: stored before it
    readings: list[
        Annotated[str, _one_of([f.name for f in SWITCHES], "a reading names a switch:")]
    ] = Field(default_factory=list)
    first_dealer: Seat
    mode: Literal["referee", "count"] = "referee"
    name: Annotated[str, _plain(100)] = ""
    abandoned: bool = False
    deleted: Moment | None = None
    created: Moment
    version: Small = 0
    night: Annotated[int, Field(ge=0, le=100_000)] | None = None  # its place in ``nights``
    seats: list[Annotated[str, _plain(60)]] = Field(min_length=2, max_length=20)
    rounds: list[RoundEntry] = Field(default_factory=list, max_length=100_000)


def _once_each(value: list[str]) -> list[str]:
    if len(set(value)) != len(value):
        raise ValueError("each tie-break once")
    return value


class NightEntry(Strict):
    name: Annotated[str, _plain(100)] = ""
    created: Moment


class EntryEntry(Strict):
    name: Annotated[str, _plain(60)]
    lot: Annotated[int, Field(ge=1, lt=10**9)]
    left: bool = False
    here: bool = False


class TableEntry(Strict):
    id: uuid.UUID = Field(strict=False)
    round: Annotated[int, Field(ge=1, le=MOST_ROUNDS)]
    number: Annotated[int, Field(ge=1, le=MOST_ENTRIES)]
    game: uuid.UUID = Field(strict=False)
    closed: bool = False


class TournamentEntry(Strict):
    id: uuid.UUID = Field(strict=False)
    name: Annotated[str, _plain(100), Field(min_length=1)]
    preset: Annotated[str, _plain(20)]
    rules: dict[str, Any]
    rules_version: Annotated[int, Field(ge=1, le=RULES_VERSION)]
    table_size: Annotated[int, Field(ge=min(TABLE_SIZES), le=max(TABLE_SIZES))]
    rounds: Annotated[int, Field(ge=1, le=MOST_ROUNDS)]
    points: dict[str, Any]
    method: Literal["mixed", "swiss"]
    prizes: Annotated[int, Field(ge=0, le=MOST_ENTRIES)]
    tie_breaks: Annotated[
        list[Annotated[str, _one_of(TIE_BREAKS, "a tie-break is")]],
        Field(max_length=len(TIE_BREAKS)),
        AfterValidator(_once_each),
    ] = Field(default_factory=lambda: list(DEFAULT_TIE_BREAKS))
    round_minutes: Annotated[int, Field(ge=ROUND_MINUTES[0], le=ROUND_MINUTES[1])] | None = None
    created: Moment
    finished: Moment | None = None
    entries: list[EntryEntry] = Field(max_length=MOST_ENTRIES)
    tables: list[TableEntry] = Field(max_length=MOST_ENTRIES * MOST_ROUNDS)


class ClubFile(Strict):
    format: Literal["knock-club"]
    version: Literal[1, 2, 3]
    club: ClubEntry
    players: list[PlayerEntry] = Field(max_length=10_000)
    games: list[GameEntry] = Field(max_length=100_000)
    nights: list[NightEntry] = Field(default_factory=list, max_length=100_000)
    tournaments: list[TournamentEntry] = Field(default_factory=list, max_length=10_000)


_PATTERNS = {
    "key": "a key is 32 to 64 letters, digits, “-” and “_”, as Knock makes them",
    "[key]": "hands and losses are keyed by seat number (0, 1, 2…)",
}


def _where(loc: tuple[Any, ...]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "file"


def read_file(data: Any) -> ClubFile:
    """The file checked against its schema; an ``InputError`` naming the first thing wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError("this is not a Knock club file", "format")
    if data.get("version") not in (1, 2, 3):
        raise InputError(
            f"this file is version {data.get('version')!r}; Knock reads 1 to {VERSION}", "version"
        )
    try:
        return ClubFile.model_validate(data)
    except SchemaError as error:
        first = error.errors(include_url=False)[0]
        message = first["msg"].removeprefix("Value error, ")
        if first["type"] == "string_pattern_mismatch":
            message = _PATTERNS.get(str(first["loc"][-1]), "this is not written as Knock writes it")
        raise InputError(message[:1].lower() + message[1:], _where(first["loc"])) from None


# ---- what a recording would check --------------------------------------------------------------


def _check_sizes(file: ClubFile) -> None:
    """The limits a club is held to when it plays hold when it is imported."""
    limits = (
        (
            len(file.players),
            settings.KNOCK_MOST_PLAYERS,
            "players",
            "a club has at most %s players",
        ),
        (len(file.games), settings.KNOCK_MOST_GAMES, "games", "a club keeps at most %s games"),
        (
            len(file.tournaments),
            settings.KNOCK_MOST_TOURNAMENTS,
            "tournaments",
            "a club keeps at most %s tournaments",
        ),
    )
    for count, most, where, words in limits:
        if count > most:
            raise InputError(words % f"{most:,}", where)
    for g, game in enumerate(file.games):
        if sum(r.state == "active" for r in game.rounds) > settings.KNOCK_MOST_ROUNDS:
            raise InputError(
                f"a game has at most {settings.KNOCK_MOST_ROUNDS:,} rounds", f"games[{g}].rounds"
            )


def _check_club(entry: ClubEntry) -> None:
    if entry.view_key is not None and entry.view_key == entry.key:
        raise InputError("the view key must not be the secret key", "club.view_key")
    digests = [key_digest(entry.key), key_digest(view_key_for(entry.key, entry.view_generation))]
    taken = Club.objects.filter(key_hash__in=digests) | Club.objects.filter(
        view_key_hash__in=digests
    )
    if Club.objects.filter(pk=entry.id).exists() or taken.exists():
        raise InputError("this club, or a club with the same key, is already here", "club")
    if entry.our_rules is not None:
        saved = entry.our_rules
        if (
            set(saved) - {"preset", "overrides", "mode"}
            or saved.get("mode") not in Game.Mode.values
        ):
            raise InputError("our rules are a preset, its overrides and a mode", "club.our_rules")
        try:
            build_rules({"preset": saved.get("preset"), "overrides": saved.get("overrides", {})})
        except InputError as refusal:
            raise InputError(refusal.message, f"club.our_rules.{refusal.field}") from None


def _check_rounds(entry: GameEntry, where: str) -> None:
    """Every seat a round names sits at this table and every card is a card; the active rounds
    are numbered 1, 2, 3… in order; no tap is recorded twice."""
    seats = len(entry.seats)
    if entry.first_dealer >= seats:
        raise InputError(f"seat {entry.first_dealer} is not at this table", f"{where}.first_dealer")
    active = [r.number for r in entry.rounds if r.state == "active"]
    if sorted(active) != list(range(1, len(active) + 1)):
        raise InputError(
            "the rounds in play must be numbered 1, 2, 3… once each", f"{where}.rounds"
        )
    taps = [r.client_id for r in entry.rounds if r.client_id]
    if len(set(taps)) != len(taps):
        raise InputError("a tap is recorded twice", f"{where}.rounds")
    for i, r in enumerate(entry.rounds):
        at = f"{where}.rounds[{i}]"
        named = [
            ("knocker", [] if r.knocker is None else [r.knocker]),
            ("shown_by", r.shown_by),
            ("lowest", r.lowest or []),
            ("winners", r.winners or []),
            ("hands", [int(k) for k in r.hands or {}]),
            ("losses", [int(k) for k in r.losses or {}]),
        ]
        for field, positions in named:
            for position in positions:
                if position >= seats:
                    raise InputError(f"seat {position} is not at this table", f"{at}.{field}")
        for seat, codes in (r.hands or {}).items():
            try:
                check_hand(parse_cards(codes), 52)
            except CardError as refusal:
                raise InputError(str(refusal), f"{at}.hands.{seat}") from None


def import_club(data: Any) -> Club:
    """Restore a club from ``export_club``'s file into this instance: all of it or nothing."""
    file = read_file(data)
    _check_club(file.club)
    _check_sizes(file)
    with transaction.atomic():
        club = Club(
            id=file.club.id,
            name=file.club.name,
            our_rules=file.club.our_rules,
            view_generation=file.club.view_generation,
            created=file.club.created,
        )
        club.set_key(file.club.key)
        club.save(force_insert=True)
        players = {}
        for i, player_entry in enumerate(file.players):
            try:
                player = play.add_player(club, player_entry.name)
            except InputError as refusal:
                raise InputError(refusal.message, f"players[{i}].name") from None
            if player.name != player_entry.name:
                raise InputError(
                    "a name has no spaces around it or twice in a row", f"players[{i}].name"
                )
            player.retired, player.created = player_entry.retired, player_entry.created
            if player_entry.colour is not None:
                player.colour = player_entry.colour
            if player_entry.initials is not None:
                player.initials = player_entry.initials
            player.save(update_fields=["retired", "created", "colour", "initials"])
            players[player.name] = player
        nights = [
            Night.objects.create(club=club, name=n.name, created=n.created) for n in file.nights
        ]
        for g, game_entry in enumerate(file.games):
            _import_game(club, players, game_entry, f"games[{g}]", nights)
        for t, tournament_entry in enumerate(file.tournaments):
            _import_tournament(club, players, tournament_entry, f"tournaments[{t}]")
    return club


def _import_tournament(club: Club, players: dict, entry: TournamentEntry, where: str) -> None:
    """A tournament of the file: its rules and points checked as a new one's are, its players
    the club's, each table's game one of the club's games, at one table only."""
    from .tournaments import read_points

    rules = _rules_of(entry, where)
    try:
        points = read_points(entry.points, entry.table_size)
    except InputError as refusal:
        raise InputError(refusal.message, f"{where}.points") from None
    if Tournament.objects.filter(pk=entry.id).exists():
        raise InputError("a tournament with this id is already here", f"{where}.id")
    rules_data, rules_version = stored_form(rules)
    tournament = Tournament.objects.create(
        id=entry.id,
        club=club,
        name=entry.name,
        preset=entry.preset,
        rules_data=rules_data,
        rules_version=rules_version,
        table_size=entry.table_size,
        rounds=entry.rounds,
        points=points,
        method=entry.method,
        prizes=entry.prizes,
        tie_breaks=entry.tie_breaks,
        round_minutes=entry.round_minutes,
        created=entry.created,
        finished=entry.finished,
    )
    entered = [e.name for e in entry.entries]
    for i, name in enumerate(entered):
        if name not in players:
            raise InputError(
                f"{clean_name(name)} is not a player of the club", f"{where}.entries[{i}].name"
            )
        if entered.index(name) != i:
            raise InputError("a player is entered once", f"{where}.entries[{i}].name")
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=players[e.name], lot=e.lot, left=e.left, here=e.here)
        for e in entry.entries
    )
    games = club.games.in_bulk([t.game for t in entry.tables])
    tables = []
    for i, t in enumerate(entry.tables):
        game = games.get(t.game)
        if game is None or Table.objects.filter(game=game).exists():
            raise InputError(
                "a table plays one of the club's games, each once", f"{where}.tables[{i}].game"
            )
        table = Table(
            id=t.id,
            tournament=tournament,
            round=t.round,
            number=t.number,
            size=len(game.names),
            game=game,
            closed=t.closed,
        )
        table.set_key(club.key)
        tables.append(table)
    if len({t.id for t in tables}) != len(tables):
        raise InputError("a table's id is used once", f"{where}.tables")
    if len({(t.round, t.number) for t in tables}) != len(tables):
        raise InputError("a table number is used once a round", f"{where}.tables")
    if (
        len({t.game_id for t in tables}) != len(tables)
        or Table.objects.filter(pk__in=[t.id for t in tables]).exists()
    ):
        raise InputError("a table plays one of the club's games, each once", f"{where}.tables")
    Table.objects.bulk_create(tables)


def _import_game(
    club: Club, players: dict, entry: GameEntry, where: str, nights: list[Night]
) -> None:
    _check_rounds(entry, where)
    rules = _rules_of(entry, where)
    if len(entry.seats) > rules.max_players or len(set(entry.seats)) != len(entry.seats):
        raise InputError("the seats are not a table these rules allow", f"{where}.seats")
    missing = [name for name in entry.seats if name not in players]
    if missing:
        raise InputError(f"{clean_name(missing[0])} is not a player of the club", f"{where}.seats")
    if Game.objects.filter(pk=entry.id).exists():
        raise InputError("a game with this id is already here", f"{where}.id")
    rules_data, rules_version = stored_form(rules)  # readable by the release before, too
    game = Game.objects.create(
        id=entry.id,
        club=club,
        preset=entry.preset,
        rules_data=rules_data,
        rules_version=rules_version,
        readings=entry.readings,
        first_dealer=entry.first_dealer,
        created=entry.created,
        mode=entry.mode,
        name=entry.name,
        abandoned=entry.abandoned,
        deleted=entry.deleted,
        version=entry.version,
        night=_night(nights, entry.night, where),
    )
    GameSeat.objects.bulk_create(
        GameSeat(game=game, player=players[name], position=i) for i, name in enumerate(entry.seats)
    )
    rounds = Round.objects.bulk_create(
        Round(
            game=game,
            created=r.created,
            changed=r.changed,
            gone_version=None if r.state == Round.ACTIVE else 0,
            **{name: getattr(r, name) for name in ROUND_FIELDS},
        )
        for r in entry.rounds
    )
    active = sorted((r for r in rounds if r.state == Round.ACTIVE), key=lambda r: r.number)
    try:
        # The same work a recording does: every round in play worked out by the engine.
        state, steps = game.steps(active)
    except InputError as refusal:
        raise InputError(refusal.message, f"{where}.rounds") from None
    if any(step.result.result == Result.TABLE_DECIDES for step in steps):
        raise InputError("a round in play waits for the table's choice", f"{where}.rounds")
    play.store(game, state, steps, version=game.version, rounds=active)


def _rules_of(entry: GameEntry | TournamentEntry, where: str) -> RuleSet:
    """The rules a game or a tournament of the file plays, checked as a stored game's are."""
    try:
        return stored_rules(json.dumps(entry.rules, sort_keys=True), entry.rules_version)
    except InputError as refusal:
        raise InputError(refusal.message, f"{where}.rules.{refusal.field}") from None


def _night(nights: list[Night], index: int | None, where: str) -> Night | None:
    if index is None:
        return None
    if index >= len(nights):
        raise InputError("the game's night is not one of the file's nights", f"{where}.night")
    return nights[index]


# ---- a spreadsheet -------------------------------------------------------------------------


def games_csv(club: Club) -> str:
    """A club's games for a spreadsheet: one row a game."""
    head = [
        _("started"),
        _("game"),
        _("rules"),
        _("players"),
        _("rounds"),
        _("finished"),
        _("result"),
    ]
    return spreadsheet(
        [
            head,
            *(
                [
                    game.created.isoformat(timespec="minutes"),
                    str(game.id),
                    game.preset_name,
                    "; ".join(seat.player.name for seat in game.seats.all()),
                    game.round_count,
                    _("yes") if game.finished else _("no"),
                    game.result_words if game.finished else "",
                ]
                for game in club.games.for_listing().order_by("created")
            ),
        ]
    )
