"""A tournament's standings and a night's: counted from the seats' places and tallies (kept
with every round, worked out again on undo and edit), two queries whatever the rounds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Count, F, IntegerField, Q, Sum, Value, When
from django.db.models.functions import Coalesce
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..lib.marks import Mark
from ..models import GameSeat, Night, Player, Table, Tournament
from ..rules.words import coins as signed


@dataclass
class Placing:
    place: int
    player_id: int
    name: str
    mark: Mark
    points: int
    wins: int
    left: int  # lives (or coins) left at the ends of their games: the second tie-break
    games: int
    lot: int  # drawn at entry: the last tie-break
    withdrew: bool
    prize: bool = False
    here: bool = False  # checked in before round 1
    # The points of every player met in a game that counted, summed (once a game together):
    # counted only where the organiser settles ties by it.
    opponents: int = 0


def _counted(seats: Any, points: dict[str, list[int]], lives: int, pot: bool) -> Any:
    whens = [
        When(game__table__size=int(size), place=place, then=Value(earned))
        for size, row in points.items()
        for place, earned in enumerate(row, start=1)
        if earned
    ]
    left = Sum("coins") if pot else Sum(Value(lives) - F("lives_lost"))
    return seats.values("player_id").annotate(
        points=Coalesce(Sum(Case(*whens, default=Value(0), output_field=IntegerField())), 0),
        wins=Count("pk", filter=Q(result="won")),
        left=Coalesce(left, 0),
        games=Count("pk"),
    )


# The tie-breaks an organiser may put after points, by name (``Tournament.tie_breaks``).
_BREAKS: dict[str, Callable[[Placing], int]] = {
    "games_won": lambda p: p.wins,
    "left": lambda p: p.left,
    "opponents": lambda p: p.opponents,
}


def scheme(tournament: Tournament, sizes: set[int]) -> str:
    """How the standings are counted, in a line: each place's points at tables of ``sizes``
    (of the tournament's table size before a draw), then what settles equal points."""
    shown = sorted(sizes) or [tournament.table_size]
    rows = [
        _("%(points)s at tables of %(n)d")
        % {"points": "·".join(str(p) for p in tournament.points.get(str(n), [])), "n": n}
        for n in shown
        if str(n) in tournament.points
    ]
    ties = {
        "games_won": _("games won"),
        "left": _("coins left") if tournament.rules.played_for_pot else _("lives left"),
        "opponents": _("opponents' points"),
    }
    settled = [ties[name] for name in tournament.tie_breaks if name in ties] + [_("the lot")]
    return _("Points by place: %(points)s. Equal points: %(ties)s.") % {
        "points": ", ".join(rows),
        "ties": ", ".join(settled),
    }


def standings(tournament: Tournament) -> list[Placing]:
    """Every entry in order: points, then the tie-breaks in the organiser's order (by default
    games won, then lives or coins left at the ends of their games), then the lot drawn at
    entry; the first ``prizes`` places of those still in marked. Only finished
    games count (a place is known only then); an abandoned or binned game counts nothing."""
    rules = tournament.rules
    entries = list(tournament.entries.select_related("player"))
    seats = GameSeat.objects.filter(
        game__table__tournament=tournament,
        game__abandoned=False,
        game__deleted__isnull=True,
        place__isnull=False,
    )
    counted = {
        row["player_id"]: row
        for row in _counted(seats, tournament.points, rules.lives, rules.played_for_pot)
    }
    placings = [
        Placing(
            place=0,
            player_id=e.player_id,
            name=e.player.name,
            mark=e.player.mark,
            points=counted.get(e.player_id, {}).get("points", 0),
            wins=counted.get(e.player_id, {}).get("wins", 0),
            left=counted.get(e.player_id, {}).get("left", 0),
            games=counted.get(e.player_id, {}).get("games", 0),
            lot=e.lot,
            withdrew=e.left,
            here=e.here,
        )
        for e in entries
    ]
    if "opponents" in tournament.tie_breaks:
        _count_opponents(placings, seats)
    breaks = [_BREAKS[name] for name in tournament.tie_breaks if name in _BREAKS]
    placings.sort(key=lambda p: (-p.points, *(-b(p) for b in breaks), p.lot))
    # The prize places: the first of those still in, once a game has counted (no star on 0
    # points before anyone has played); a player who withdrew keeps their points, not a prize.
    scored = any(p.games for p in placings)
    prized = 0
    for i, placing in enumerate(placings, start=1):
        placing.place = i
        placing.prize = scored and not placing.withdrew and prized < tournament.prizes
        prized += placing.prize
    return placings


def _count_opponents(placings: list[Placing], seats: Any) -> None:
    """Each player's opponents' points: the points of everyone they sat with in a game that
    counted, summed (one query)."""
    points = {p.player_id: p.points for p in placings}
    tables: dict[Any, list[int]] = {}
    for game_id, player_id in seats.values_list("game_id", "player_id"):
        tables.setdefault(game_id, []).append(player_id)
    met: dict[int, int] = {}
    for players in tables.values():
        for player in players:
            met[player] = met.get(player, 0) + sum(points.get(o, 0) for o in players if o != player)
    for placing in placings:
        placing.opponents = met.get(placing.player_id, 0)


@dataclass
class DrawnTable:
    table: Table
    players: list[Player]  # in seat order

    @property
    def first_dealer(self) -> Player:
        return self.players[self.table.game.first_dealer]


def drawn_tables(tournament: Tournament, number: int | None = None) -> list[DrawnTable]:
    """The tables of round ``number`` (of every round drawn when None), each with its game and
    its players in seat order: two queries."""
    tables = tournament.tables.select_related("game").prefetch_related("game__seats__player")
    if number is not None:
        tables = tables.filter(round=number)
    return [
        DrawnTable(
            table, [s.player for s in sorted(table.game.seats.all(), key=lambda s: s.position)]
        )
        for table in tables
    ]


@dataclass
class NightLine:
    name: str
    mark: Mark
    games: int
    wins: int
    lives_lost: int
    coins: int


def night_standings(night: Night) -> tuple[int, list[NightLine]]:
    """A night's finished games, and each player's wins, lives lost (or coins) over them: most
    wins first, then fewest lives lost. Two queries."""
    games = night.games.filter(finished=True, abandoned=False, deleted__isnull=True)
    rows = (
        GameSeat.objects.filter(game__in=games)
        .values("player_id", "player__name", "player__colour", "player__initials")
        .annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(result="won")),
            lives_lost=Sum("lives_lost"),
            coins=Sum("coins"),
        )
        .order_by("-wins", "lives_lost", "-coins", "player__name")
    )
    lines = [
        NightLine(
            row["player__name"],
            Player(
                pk=row["player_id"],
                name=row["player__name"],
                colour=row["player__colour"],
                initials=row["player__initials"],
            ).mark,
            row["games"],
            row["wins"],
            row["lives_lost"] or 0,
            row["coins"] or 0,
        )
        for row in rows
    ]
    return games.count(), lines


def night_title(night: Night) -> str:
    """A night's name, or the day it began: "Night of 5 December 2026"."""
    return night.name or _("Night of %(day)s") % {"day": date_format(night.created, "DATE_FORMAT")}


def night_line_words(line: NightLine, pot: bool) -> str:
    """A line of a night's standings in words: "2 wins · 3 lives lost" (or the coins)."""
    wins = ngettext("%(n)d win", "%(n)d wins", line.wins) % {"n": line.wins}
    if pot:
        return f"{wins} · {signed(line.coins)}"
    lost = ngettext("%(n)d life lost", "%(n)d lives lost", line.lives_lost) % {"n": line.lives_lost}
    return f"{wins} · {lost}"
