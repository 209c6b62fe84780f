"""A club's statistics: who wins, who gets caught knocking, who beats whom.

Summed from each seat's tallies (``GameSeat``: kept with every round, worked out again on undo
and edit), so a club of a thousand games opens its statistics in three queries, however long
its games were.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum
from django.utils.translation import gettext as _

from ..lib.marks import Mark
from ..models import Club, GameSeat
from ..rules import PRESETS
from ..rules.errors import InputError
from ..rules.game import TALLIES
from ..rules.words import coins as signed


@dataclass
class PlayerStats:
    name: str
    retired: bool
    pk: int = 0
    mark: Mark | None = None  # the player's colour and initials
    url: str = ""  # the player's page, through the link the page was opened with
    games: int = 0
    finished: int = 0
    wins: int = 0
    ties: int = 0
    rounds: int = 0  # rounds of the games the player sat in
    rounds_lost: int = 0
    lives_lost: int = 0
    knocks: int = 0
    knocks_caught: int = 0
    thirty_ones: int = 0
    last_chances: int = 0
    hands_won: int = 0  # in games played for a pot
    coins: int = 0  # up or down, in games played for a pot
    nemesis: str | None = None
    victim: str | None = None
    beaten_by: Counter[str] = field(default_factory=Counter)

    @property
    def win_rate(self) -> float:
        return self.wins / self.finished if self.finished else 0.0

    @property
    def knock_success(self) -> float | None:
        """Knocks not caught, as a share of knocks."""
        return (self.knocks - self.knocks_caught) / self.knocks if self.knocks else None

    @property
    def coins_words(self) -> str:
        return signed(self.coins)

    @property
    def lives_per_10_rounds(self) -> float | None:
        return 10 * self.lives_lost / self.rounds if self.rounds else None

    def as_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "retired": self.retired,
            "games": self.games,
            "finished": self.finished,
            "wins": self.wins,
            "ties": self.ties,
            **{name: getattr(self, name) for name in TALLIES},
            "nemesis": self.nemesis,
        }


@dataclass
class ClubStats:
    players: list[PlayerStats]
    games: int
    # (winner, loser) → finished games the winner won alone with the loser at the table
    beat: dict[tuple[str, str], int]

    @property
    def pot_games(self) -> bool:
        """Whether any game counted was played for a pot (its columns then show)."""
        return any(p.hands_won or p.coins for p in self.players)

    def leaderboard(self) -> list[PlayerStats]:
        """By win rate, but a rate over few games ranks below the same rate over many."""
        played = [p for p in self.players if p.finished]
        return sorted(
            played, key=lambda p: (-_lower_bound(p.wins, p.finished), -p.finished, p.name)
        )

    def head_to_head(self) -> list[dict[str, Any]]:
        """Who beat whom among the leaderboard's top ``HEAD_TO_HEAD`` players: a table that
        grows with the square of the players is bounded (2,000 players once drew 4 million
        cells, 42 MB); each player's own page names their nemesis and victim among all."""
        board = self.leaderboard()[:HEAD_TO_HEAD]
        names = [p.name for p in board]
        return [
            {
                "name": a,
                "mark": p.mark,
                "cells": [
                    {
                        "against": b,
                        "won": self.beat.get((a, b), 0),
                        "lost": self.beat.get((b, a), 0),
                    }
                    for b in names
                ],
            }
            for a, p in zip(names, board, strict=True)
        ]


HEAD_TO_HEAD = 12  # the leaderboard's top players the head-to-head table compares


def _lower_bound(wins: int, games: int, z: float = 1.0) -> float:
    """The Wilson lower bound of a win rate: 1 of 1 ranks below 9 of 20."""
    if not games:
        return 0.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * ((p * (1 - p) + z * z / (4 * games)) / games) ** 0.5
    return (centre - spread) / (1 + z * z / games)


DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")  # a day as the filters write it: 2026-12-01


def stats_filters(preset: str | None, since: str | None) -> tuple[str | None, date | None]:
    """The filters as a page or the API sends them; refuses what it cannot read, naming it."""
    if preset and preset not in PRESETS:
        raise InputError(
            _("the rules are one of %(presets)s") % {"presets": ", ".join(PRESETS)}, "preset"
        )
    try:
        if since and not DAY.fullmatch(since):
            raise ValueError(since)
        day = date.fromisoformat(since) if since else None
    except ValueError:
        raise InputError(_("a date is written YYYY-MM-DD"), "since") from None
    return preset or None, day


def seats_of(club: Club, preset: str | None = None, since: date | None = None) -> QuerySet:
    seats = GameSeat.objects.filter(game__club=club, game__abandoned=False, game__deleted=None)
    if preset:
        seats = seats.filter(game__preset=preset)
    if since:
        seats = seats.filter(game__created__date__gte=since)
    return seats


def club_stats(club: Club, preset: str | None = None, since: date | None = None) -> ClubStats:
    seats = seats_of(club, preset, since)
    totals = {
        row["player_id"]: row
        for row in seats.values("player_id").annotate(
            games=Count("id"),
            finished=Count("id", filter=Q(game__finished=True)),
            wins=Count("id", filter=Q(result="won")),
            ties=Count("id", filter=Q(result="tied")),
            rounds=Sum("game__round_count"),
            **{name: Sum(name) for name in TALLIES},
        )
    }
    players = {}
    for player in club.players.order_by("name_key"):
        stats = PlayerStats(player.name, player.retired, player.pk, player.mark)
        for key, value in totals.get(player.pk, {}).items():
            if key != "player_id":
                setattr(stats, key, value or 0)
        players[player.pk] = stats
    # Who beat whom: each finished game with one winner, against everyone else at its table.
    tables: dict[Any, list[tuple[int, str]]] = defaultdict(list)
    for game_id, player_id, result in seats.filter(game__finished=True).values_list(
        "game_id", "player_id", "result"
    ):
        tables[game_id].append((player_id, result))
    beat: Counter[tuple[str, str]] = Counter()
    for table in tables.values():
        winners = [pid for pid, result in table if result == "won"]
        if len(winners) != 1:
            continue
        winner = players[winners[0]]
        for pid, _result in table:
            if pid != winners[0]:
                players[pid].beaten_by[winner.name] += 1
                beat[(winner.name, players[pid].name)] += 1
    beaten: dict[str, Counter[str]] = defaultdict(Counter)
    for (winner_name, loser), n in beat.items():
        beaten[winner_name][loser] = n
    for stats in players.values():
        stats.nemesis = _most(stats.beaten_by)
        stats.victim = _most(beaten[stats.name])
    games = seats.values("game_id").distinct().count()
    return ClubStats(list(players.values()), games, dict(beat))


def _most(counts: Counter[str]) -> str | None:
    """The one with the most; nobody when there is none or several share the most."""
    top = counts.most_common(2)
    if not top or (len(top) == 2 and top[0][1] == top[1][1]):
        return None
    return top[0][0]


@dataclass
class Records:
    longest: Any = None  # the finished game with the most rounds
    most_31s: Any = None  # the seat with the most 31s in one game
    comeback: Any = None  # the winner who spent the most rounds on the last chance


def club_records(club: Club, preset: str | None = None, since: date | None = None) -> Records:
    seats = seats_of(club, preset, since).select_related("player", "game")
    longest = seats.filter(game__finished=True).order_by("-game__round_count", "game__created")
    return Records(
        longest=longest.first(),
        most_31s=seats.filter(thirty_ones__gt=0).order_by("-thirty_ones", "game__created").first(),
        comeback=seats.filter(result="won", last_chances__gt=0)
        .order_by("-last_chances", "game__created")
        .first(),
    )


def win_rate_bars(board: list[PlayerStats]) -> dict[str, Any]:
    """The leaderboard as a bar chart drawn on the server, with its text alternative."""
    row, label, width = 30, 40, 320
    bars = [
        {
            "name": p.name,
            "mark": p.mark,
            "y": i * row,
            "width": round((width - label - 60) * p.win_rate, 1),
            "words": _("%(wins)d of %(games)d") % {"wins": p.wins, "games": p.finished},
            "x_words": label + round((width - label - 60) * p.win_rate, 1) + 6,
        }
        for i, p in enumerate(board)
    ]
    said = "; ".join(
        _("%(name)s won %(wins)d of %(games)d")
        % {"name": p.name, "wins": p.wins, "games": p.finished}
        for p in board
    )
    desc = _("Games won: %(said)s.") % {"said": said} if board else _("No finished games yet.")
    return {
        "bars": bars,
        "height": max(row, row * len(board)),
        "width": width,
        "label": label,
        "desc": desc,
    }


def player_games(
    club: Club, player_id: int, preset: str | None = None, since: date | None = None
) -> list[GameSeat]:
    """The games a player sat in, newest first, with how each ended for them."""
    return list(
        seats_of(club, preset, since)
        .filter(player_id=player_id)
        .select_related("game")
        .order_by("-game__created")
    )
