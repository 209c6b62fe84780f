"""A tournament: several tables drawn and scored at once, over rounds, its entries and its tables.

A tournament's tables are ordinary games (``Game``), each reached by its own scoring link: a key
made from the club's secret key and the table (``table_key_for``), so that the organiser can
always show it again and the database keeps only its digest, as it does of the club's keys.
The standings are counted from the seats' places (``GameSeat.place``), which every change of a
game keeps, in one query (``reports.tournaments``)."""

from __future__ import annotations

import base64
import hmac
import uuid
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.db import connections, models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from ..rules import RuleSet
from ..rules.ruleset import RULES_VERSION
from .clubs import Club, Player, key_digest
from .games import Game, stored_rules

MOST_ENTRIES = 200  # players in a tournament
MOST_ROUNDS = 20  # rounds (a game at every table) in a tournament
ROUND_MINUTES = (5, 240)  # the least and most minutes a round's clock runs
# What may settle equal points, in the organiser's order (the lot drawn at entry settles the
# rest): games won, lives (or coins) left at the ends of the games, and the opponents' points
# (the points of every player met, summed); the first two unless the organiser says otherwise.
TIE_BREAKS = ("games_won", "left", "opponents")
DEFAULT_TIE_BREAKS = ("games_won", "left")


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


TABLE_SIZES = range(3, 7)  # players a table is drawn for, as the organiser asks


def table_key_for(club_key: str, table_id: uuid.UUID) -> str:
    """A table's scoring key, made from the club's secret key: whoever holds the secret link
    can always print the table cards again, and a copy of the database opens no table."""
    mac = hmac.new(
        club_key.encode("utf-8", "surrogatepass"), f"table:{table_id}".encode(), "sha256"
    )
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode()


# What a leaderboard shows changes only with these, in this order (``board_version``).
BOARD_VERSION = ("game_versions", "table_count", "closed_count", "playing_count", "ended")


class TournamentQuerySet(models.QuerySet["Tournament"]):
    def with_board_version(self) -> TournamentQuerySet:
        """Each tournament with what its leaderboard shows changes with (``BOARD_VERSION``: the
        sum of its games' versions, its tables and closed tables, its players still in, whether
        it is over) and how many entries it lists, counted in the same statement."""

        def per_tournament(model: type[Table | Entry], total: Any, **where: Any) -> Coalesce:
            rows = model._default_manager.filter(tournament=OuterRef("pk"), **where).order_by()
            return Coalesce(
                Subquery(rows.values("tournament").annotate(total=total).values("total")), 0
            )

        return self.annotate(
            game_versions=per_tournament(Table, models.Sum("game__version")),
            table_count=per_tournament(Table, models.Count("pk")),
            closed_count=per_tournament(Table, models.Count("pk"), closed=True),
            playing_count=per_tournament(Entry, models.Count("pk"), left=False),
            ended=models.ExpressionWrapper(
                models.Q(finished__isnull=False), output_field=models.BooleanField()
            ),
            entry_count=per_tournament(Entry, models.Count("pk")),
        )

    def board_version_opened_by(
        self, tournament_id: uuid.UUID, key: str, read_only: bool
    ) -> tuple[str, int] | None:
        """The leaderboard's version and how many players it lists, if ``key`` opens the
        tournament's club: what every big screen asks twice a second, in one statement.

        As a game's poll (``Game.objects.version_opened_by``), the ORM writes the statement once
        per database and link, and each ask runs it with its own values: built anew each time,
        it took 8.8 ms of an ask where /healthz takes 0.5 ms (SQLite, in process, 200 players),
        and running it 0.3 ms."""
        connection = connections[self.db]
        sql, params, where = _board_version_query(self.db, read_only)
        values = list(params)
        values[where[0]] = Tournament._meta.pk.get_db_prep_value(tournament_id, connection)
        values[where[1]] = key_digest(key)
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            row = cursor.fetchone()
        return None if row is None else board_version(row[:-1], row[-1])


def board_version(counted: tuple[Any, ...], entries: int) -> tuple[str, int]:
    """The leaderboard's version from ``BOARD_VERSION`` counted, and how many players it lists."""
    return "-".join(str(int(value)) for value in counted), int(entries)


_SENTINEL = uuid.UUID(int=0)


@lru_cache(maxsize=8)
def _board_version_query(
    using: str, read_only: bool
) -> tuple[str, tuple[Any, ...], tuple[int, int]]:
    """The SQL of ``board_version_opened_by`` as the ORM writes it, its values, and where among
    them the tournament's id and the key's digest go."""
    field = "club__view_key_hash" if read_only else "club__key_hash"
    query = (
        Tournament.objects.using(using)
        .filter(pk=_SENTINEL, **{field: "digest"})
        .with_board_version()
        .values_list(*BOARD_VERSION, "entry_count")
        .order_by()[:1]
        .query
    )
    sql, params = query.sql_with_params()
    prepared = Tournament._meta.pk.get_db_prep_value(_SENTINEL, connections[using])
    where = (params.index(prepared), params.index("digest"))
    assert params.count("digest") == 1 and params.count(prepared) == 1, params
    return sql, params, where


class Tournament(models.Model):
    """Several tables drawn and scored at once, over rounds (a game at every table each)."""

    class Method(models.TextChoices):
        MIXED = "mixed", "Mixed"  # no two players at one table again while it can be avoided
        SWISS = "swiss", "By standings"  # players of like points together, avoiding repeats

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=100)
    # The rules every table plays, frozen as a game's are.
    preset = models.CharField(max_length=20)
    rules_data = models.JSONField()
    rules_version = models.PositiveSmallIntegerField()
    table_size = models.PositiveSmallIntegerField(default=4)
    rounds = models.PositiveSmallIntegerField(default=3)
    # The points each place at a table earns, by the table's size: {"4": [3, 2, 1, 0], ...}.
    points = models.JSONField()
    method = models.CharField(max_length=5, choices=Method, default=Method.MIXED)
    prizes = models.PositiveSmallIntegerField(default=3)  # the places marked as prize places
    tie_breaks = models.JSONField(default=default_tie_breaks)  # some of TIE_BREAKS, in order
    # A round's clock: minutes from each draw, counted down on the board and the organiser's page.
    round_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    created = models.DateTimeField(default=timezone.now)
    finished = models.DateTimeField(null=True, blank=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    @property
    def board_version(self) -> tuple[str, int]:
        """The leaderboard's version and how many players it lists (of a tournament fetched
        ``with_board_version``)."""
        return board_version(
            tuple(getattr(self, name) for name in BOARD_VERSION),
            self.entry_count,  # type: ignore[attr-defined]
        )

    @property
    def rules(self) -> RuleSet:
        import json

        return stored_rules(json.dumps(self.rules_data, sort_keys=True), self.rules_version)

    def points_for(self, size: int) -> list[int]:
        """The points of each place at a table of ``size``: the organiser's row, or the row of
        the tournament's size cut or stretched (a place past the row earns nothing)."""
        row = self.points.get(str(size)) or self.points.get(str(self.table_size)) or []
        return [int(p) for p in row[:size]] + [0] * max(0, size - len(row))

    @property
    def drawn_rounds(self) -> int:
        return self.tables.aggregate(most=models.Max("round"))["most"] or 0

    def round_ends(self, number: int) -> datetime | None:
        """When round ``number``'s clock runs out (its draw, and ``round_minutes``), or None
        without a clock, before a draw, or once the tournament is over."""
        if not self.round_minutes or not number or self.finished:
            return None
        drawn = self.tables.filter(round=number).aggregate(at=models.Min("game__created"))["at"]
        return drawn + timedelta(minutes=self.round_minutes) if drawn else None


class Entry(models.Model):
    """A player in a tournament. ``lot`` is drawn at entry: the last tie-break."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="entries")
    lot = models.PositiveIntegerField()
    left = models.BooleanField(default=False)  # not drawn again; keeps their points
    # Checked in before round 1: once anyone is, round 1 seats only those who are.
    here = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["lot"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Table(models.Model):
    """One table of one round of a tournament: an ordinary game, with its own scoring link."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    size = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="table")
    key_hash = models.CharField(max_length=64, unique=True)
    # Closed by the organiser by hand (the next round may then be drawn), or with the round's
    # end: a closed table's scoring link no longer records.
    closed = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "number"], name="one_table_number_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"table {self.number}, round {self.round} of {self.tournament}"

    def key(self, club_key: str) -> str:
        return table_key_for(club_key, self.id)

    def set_key(self, club_key: str) -> None:
        self.key_hash = key_digest(self.key(club_key))

    @property
    def playing(self) -> bool:
        game = self.game
        return not (self.closed or game.finished or game.abandoned or game.deleted)


def new_rules_fields(rules: RuleSet) -> dict[str, Any]:
    from ..rules.ruleset import stored_form

    data, version = stored_form(rules)
    assert version <= RULES_VERSION
    return {"rules_data": data, "rules_version": version}
