"""A club's standings over a period it chooses: this month, this year, all time, or a season it
named ("Winter 2026"). Counted from each seat's tallies (``GameSeat``: kept with every round and
worked out again on undo and edit) in one query, however many games the club has played.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Avg, Count, Q, Sum
from django.utils.translation import gettext as _

from ..lib.marks import Mark
from ..models import Club, GameSeat, Player, Season

MONTH, YEAR, ALL = "month", "year", "all"


@dataclass(frozen=True)
class Period:
    key: str  # "month", "year", "all", or "season-<id>"
    words: str
    since: date | None = None  # the first day counted
    until: date | None = None  # the last day counted
    season: Season | None = None


def periods(club: Club, today: date) -> list[Period]:
    """The periods a club's standings can be counted over: the fixed three, then its seasons,
    newest first (one query)."""
    month_start = today.replace(day=1)
    fixed = [
        Period(MONTH, _("This month"), month_start),
        Period(YEAR, _("This year"), today.replace(month=1, day=1)),
        Period(ALL, _("All time")),
    ]
    return fixed + [
        Period(f"season-{season.pk}", season.name, season.starts, season.ends, season)
        for season in club.seasons.all()
    ]


def current(choices: list[Period], today: date) -> Period:
    """The period a club's page leads with: a season under way today, else this year."""
    return next(
        (p for p in choices if p.season and p.since and p.until and p.since <= today <= p.until),
        next(p for p in choices if p.key == YEAR),
    )


@dataclass
class Standing:
    pk: int
    name: str
    mark: Mark
    retired: bool
    games: int
    wins: int
    average_place: float | None
    lives_lost: int
    knocks: int
    knocks_caught: int
    place: int = 0  # in the standings: players level on all counts share one
    url: str = ""  # the player's page, through the link the page was opened with

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def lives_per_game(self) -> float:
        return self.lives_lost / self.games if self.games else 0.0

    @property
    def ranking(self) -> tuple[float, float, int]:
        """Most wins first; then the better average place; then fewer games for as many."""
        return (-self.wins, self.average_place or 0.0, self.games)


def standings(club: Club, period: Period) -> list[Standing]:
    """Each player's finished games in the period (started in it; abandoned and binned games
    do not count), ranked: one query."""
    seats = GameSeat.objects.filter(
        game__club=club, game__finished=True, game__abandoned=False, game__deleted=None
    )
    if period.since:
        seats = seats.filter(game__created__date__gte=period.since)
    if period.until:
        seats = seats.filter(game__created__date__lte=period.until)
    rows = (
        seats.order_by()
        .values(
            "player_id", "player__name", "player__colour", "player__initials", "player__retired"
        )
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(result="won")),
            average_place=Avg("place"),
            lives_lost=Sum("lives_lost"),
            knocks=Sum("knocks"),
            knocks_caught=Sum("knocks_caught"),
        )
    )
    table = []
    for row in rows:
        # The mark as the player's row makes it (``Player.mark``), from the row's values.
        player = Player(
            pk=row["player_id"],
            name=row["player__name"],
            colour=row["player__colour"],
            initials=row["player__initials"],
        )
        table.append(
            Standing(
                pk=row["player_id"],
                name=row["player__name"],
                mark=player.mark,
                retired=row["player__retired"],
                games=row["games"],
                wins=row["wins"],
                average_place=row["average_place"],
                lives_lost=row["lives_lost"] or 0,
                knocks=row["knocks"] or 0,
                knocks_caught=row["knocks_caught"] or 0,
            )
        )
    table.sort(key=lambda s: (s.ranking, s.name.casefold()))
    for i, standing in enumerate(table):
        level = i and table[i - 1].ranking == standing.ranking
        standing.place = table[i - 1].place if level else i + 1
    return table
