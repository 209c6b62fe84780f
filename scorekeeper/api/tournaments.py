"""The JSON API for tournaments (version 1): start one in a club, draw its next round, read its
tables and standings. The club's key opens them; each table's game is then played through the
game endpoints, with the club's key or the table's own scoring key."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest
from django.urls import reverse
from ninja import Router, Status
from ninja.errors import AuthenticationError

from .. import tournaments
from ..models import Club, Tournament
from ..reports.tournaments import DrawnTable, drawn_tables, standings
from ..rules import build_rules
from ..rules.ruleset import json_value
from .games import ClubKey, club_from, with_lives
from .schemas import KEYED, DrawnRoundOut, TournamentIn, TournamentOut

router = Router()


def _tournament_from(request: HttpRequest, tournament_id: str) -> tuple[Club, Tournament]:
    """The tournament, if the request holds its club's key: 401 for a key that opens no club,
    404 for a tournament of another club or none."""
    club = Club.objects.opened_by(request.auth)  # type: ignore[attr-defined]
    if club is None:
        raise AuthenticationError
    try:
        return club, Tournament.objects.get(pk=tournament_id, club=club)
    except (Tournament.DoesNotExist, ValueError, ValidationError):
        raise Http404("No such tournament") from None


def _table_data(request: HttpRequest, club: Club, drawn: DrawnTable) -> dict[str, Any]:
    table = drawn.table
    key = table.key(club.key)
    return {
        "round": table.round,
        "number": table.number,
        "game": str(table.game_id),
        "players": [p.name for p in drawn.players],
        "first_dealer": drawn.first_dealer.name,
        "playing": table.playing,
        "scoring_key": key,
        "scoring_url": request.build_absolute_uri(reverse("game", args=[key, table.game_id])),
    }


def tournament_data(request: HttpRequest, club: Club, tournament: Tournament) -> dict[str, Any]:
    """The tournament as it stands: four queries whatever its rounds and players."""
    return {
        "id": str(tournament.id),
        "name": tournament.name,
        "rules": {
            "preset": tournament.preset,
            **{k: json_value(v) for k, v in tournament.rules.as_dict().items()},
        },
        "table_size": tournament.table_size,
        "rounds": tournament.rounds,
        "drawn_rounds": tournament.drawn_rounds,
        "method": tournament.method,
        "points": tournament.points,
        "prizes": tournament.prizes,
        "tie_breaks": ["points", *tournament.tie_breaks, "lot"],
        "finished": tournament.finished is not None,
        "tables": [_table_data(request, club, t) for t in drawn_tables(tournament)],
        "standings": [
            {
                "place": p.place,
                "name": p.name,
                "points": p.points,
                "games_won": p.wins,
                "left": p.left,
                "games": p.games,
                "withdrew": p.withdrew,
                "prize": p.prize,
            }
            for p in standings(tournament)
        ],
    }


@router.post(
    "/clubs/{club}/tournaments",
    response={201: TournamentOut, **KEYED},
    auth=ClubKey(),
    url_name="club-tournaments",
)
def create_tournament(request: HttpRequest, club: str, payload: TournamentIn):
    """A new tournament of the club, nothing drawn yet; players unknown to the club are added
    to it (all or nothing). Refused with the field at fault: a player named twice, more than
    200 players, points that rise with a lower place."""
    found = club_from(request, club)
    rules, preset = build_rules(with_lives(payload.rules.model_dump(), payload.lives))
    tournament = tournaments.start_tournament(
        found,
        payload.name,
        rules,
        preset.id,
        payload.players,
        table_size=payload.table_size,
        rounds=payload.rounds,
        points=payload.points,
        method=payload.method,
        prizes=payload.prizes,
        tie_breaks=payload.tie_breaks,
    )
    return Status(201, tournament_data(request, found, tournament))


@router.get(
    "/tournaments/{tournament}",
    response={200: TournamentOut, **KEYED},
    auth=ClubKey(),
    url_name="tournament",
)
def tournament(request: HttpRequest, tournament: str):
    """The tournament: its rounds' tables with their scoring keys, and the standings in order
    (points, then games won, then what was left at the ends of games, then the lot)."""
    club, found = _tournament_from(request, tournament)
    return tournament_data(request, club, found)


@router.post(
    "/tournaments/{tournament}/rounds",
    response={201: DrawnRoundOut, **KEYED},
    auth=ClubKey(),
    url_name="tournament-rounds",
)
def draw_round(request: HttpRequest, tournament: str):
    """The next round drawn: its tables, players in seat order and each table's scoring key.
    Refused, naming them, while tables of the round before still play; after the last round;
    with fewer than three players left."""
    club, found = _tournament_from(request, tournament)
    tables = tournaments.draw_round(found, club.key)
    number = tables[0].round
    return Status(
        201,
        {
            "round": number,
            "tables": [_table_data(request, club, t) for t in drawn_tables(found, number)],
        },
    )
