"""A club's ratings: a skill for every player from the order the players finished in every game.

OpenSkill's Plackett-Luce model (Weng and Lin's Bayesian approximation, made for games of more
than two players) takes each finished game of the club, oldest first, with each seat's place
(``GameSeat.place``: 1 for the winner, equal places tied) and moves each player's skill (``mu``,
25 to start) and how unsure it still is (``sigma``, 25/3 to start). The number a player sees is
the skill Knock is almost sure they have at least, ``mu`` less three ``sigma``: it starts at 0,
so that a newcomer's lucky first win does not put them above a player of a hundred games.

Worked out again from the games whenever one of them changes (an edit, an undo, a game binned or
abandoned): a page asks one statement for what the ratings rest on, and works them out only when
that moved, kept meanwhile in the cache (the club's thousand games took about 0.1 s).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from django.core.cache import cache
from django.db.models import Count, Max, QuerySet, Sum
from openskill.models import PlackettLuce, PlackettLuceRating

from ..lib.marks import Mark
from ..models import Club, Game, GameSeat

MODEL = PlackettLuce()
START = MODEL.rating()


@dataclass(frozen=True)
class Rating:
    player_id: int
    name: str
    mark: Mark
    mu: float  # the skill as Knock now believes it
    sigma: float  # how unsure that still is
    games: int  # finished games it rests on

    @property
    def shown(self) -> float:
        """What a player sees: the skill Knock is almost sure (99.5 %) they have at least."""
        return self.mu - 3 * self.sigma


def rated_games(club: Club) -> QuerySet[Game]:
    """The games ratings rest on: every finished game of the club not abandoned or binned."""
    return Game.objects.filter(club=club, finished=True, abandoned=False, deleted__isnull=True)


def club_ratings(club: Club) -> list[Rating]:
    """Every player of the club, the best rating first (players with no finished game at the
    start rating, last by name)."""
    games = rated_games(club)
    basis = games.aggregate(n=Count("pk"), versions=Sum("version"), last=Max("created"))
    last = basis["last"].timestamp() if basis["last"] else 0
    key = f"ratings:{club.pk}:{basis['n']}:{basis['versions']}:{last}"
    found = cache.get(key)
    if found is None:
        found = _rate(club, games)
        cache.set(key, found, 24 * 3600)
    return found


def _rate(club: Club, games: QuerySet[Game]) -> list[Rating]:
    seats = (
        GameSeat.objects.filter(game__in=games, place__isnull=False)
        .order_by("game__created", "game_id", "position")
        .values_list("game_id", "player_id", "place")
    )
    skills: dict[int, PlackettLuceRating] = {}
    counted: dict[int, int] = {}
    for _game, table in groupby(seats, key=lambda seat: seat[0]):
        sat = list(table)
        if len(sat) < 2:
            continue
        # A newcomer's own start: the model tells ratings apart by object, not by value.
        before = [[skills.get(player) or MODEL.rating()] for _g, player, _place in sat]
        after = MODEL.rate(before, ranks=[float(place or 0) for _g, _player, place in sat])
        for (_g, player, _place), (rated,) in zip(sat, after, strict=True):
            skills[player] = rated
            counted[player] = counted.get(player, 0) + 1
    ratings = [
        Rating(
            player.pk,
            player.name,
            player.mark,
            skills.get(player.pk, START).mu,
            skills.get(player.pk, START).sigma,
            counted.get(player.pk, 0),
        )
        for player in club.players.all()
    ]
    ratings.sort(key=lambda r: (-r.shown, r.name.casefold()))
    return ratings
