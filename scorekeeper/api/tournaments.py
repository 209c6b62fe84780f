"""The JSON API for tournaments (version 1): start one in a club, draw its next round, read its
tables and standings, and everything the organiser does between (late entries, withdrawals,
swaps, closing a table, the end). The club's key opens them; each table's game is then played through the
game endpoints, with the club's key or the table's own scoring key."""

from __future__ import annotations

from typing import Annotated, Any

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from ninja import Router, Status
from ninja.errors import AuthenticationError
from pydantic import Field

from .. import tournaments
from ..models import Club, Entry, Tournament
from ..models.tournaments import MOST_ROUNDS
from ..reports.tournaments import DrawnTable, drawn_tables, standings
from ..rules import build_rules
from ..rules.errors import InputError
from ..rules.ruleset import json_value
from .games import ClubKey, club_from, with_lives
from .schemas import (
    KEYED,
    CloseTableIn,
    DrawnRoundOut,
    EntriesIn,
    HereIn,
    ReinstateIn,
    SwapIn,
    TournamentIn,
    TournamentOut,
    WithdrawIn,
)

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


def tournament_data(
    request: HttpRequest, club: Club, tournament: Tournament, number: int | None = None
) -> dict[str, Any]:
    """The tournament as it stands, with the tables of round ``number`` (the round drawn last
    when None): four queries, and as long in round 20 as in round 2."""
    number = number or tournament.drawn_rounds
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
        "round_minutes": tournament.round_minutes,
        "round_ends": tournament.round_ends(number),
        "tables": [_table_data(request, club, t) for t in drawn_tables(tournament, number)],
        "standings": [
            {
                "place": p.place,
                "name": p.name,
                "points": p.points,
                "games_won": p.wins,
                "left": p.left,
                "games": p.games,
                "withdrew": p.withdrew,
                "here": p.here,
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
        round_minutes=payload.round_minutes,
    )
    return Status(201, tournament_data(request, found, tournament))


@router.get(
    "/tournaments/{tournament}",
    response={200: TournamentOut, **KEYED},
    auth=ClubKey(),
    url_name="tournament",
)
def tournament(
    request: HttpRequest,
    tournament: str,
    round: Annotated[int | None, Field(ge=1, le=MOST_ROUNDS)] = None,
):
    """The tournament: the tables of one round with their scoring keys (`round`; the round
    drawn last without it), and the standings in order (points, then games won, then what was
    left at the ends of games, then the lot). A round not drawn yet is not there: `404`, field
    `round`."""
    club, found = _tournament_from(request, tournament)
    if round is not None and round > found.drawn_rounds:
        said = ngettext(
            "round %(n)d is not drawn: %(drawn)d round is",
            "round %(n)d is not drawn: %(drawn)d rounds are",
            found.drawn_rounds,
        )
        return Status(
            404, {"error": said % {"n": round, "drawn": found.drawn_rounds}, "field": "round"}
        )
    return tournament_data(request, club, found, round)


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


# ---- the organiser's actions: each the tournament's verb (scorekeeper/tournaments.py), each
# answered with the tournament as it then stands, each refusal naming why -------------------


def _entry_of(found: Tournament, name: str, field: str) -> Entry:
    entry = found.entries.select_related("player").filter(player__name=name).first()
    if entry is None:
        raise InputError(_("%(name)s is not in this tournament") % {"name": name}, field)
    return entry


@router.post(
    "/tournaments/{tournament}/entries",
    response={200: TournamentOut, **KEYED},
    auth=ClubKey(),
    url_name="tournament-entries",
)
def enter_players(request: HttpRequest, tournament: str, payload: EntriesIn):
    """Late entries, before the next round is drawn: the club's players by name, or new names."""
    club, found = _tournament_from(request, tournament)
    tournaments.enter(found, payload.players)
    return tournament_data(request, club, found)


@router.post(
    "/tournaments/{tournament}/withdraw",
    response={200: TournamentOut, **KEYED},
    auth=ClubKey(),
    url_name="tournament-withdraw",
)
def withdraw_player(request: HttpRequest, tournament: str, payload: WithdrawIn):
    """A player leaves: not drawn again, keeping their points (and no prize place)."""
    club, found = _tournament_from(request, tournament)
    tournaments.withdraw(_entry_of(found, payload.player, "player"))
    return tournament_data(request, club, found)


@router.post(
    "/tournaments/{tournament}/reinstate",
    response={200: TournamentOut, **KEYED},
    auth=ClubKey(),
    url_name="tournament-reinstate",
)
def reinstate_player(request: HttpRequest, tournament: str, payload: ReinstateIn):
    """A withdrawn player back in, drawn again from the next round with the points they kept."""
    club, found = _tournament_from(request, tournament)
    tournaments.reinstate(_entry_of(found, payload.player, "player"))
    return tournament_data(request, club, found)


@router.post(
    "/tournaments/{tournament}/here",
    response={200: TournamentOut, **KEYED},
    auth=ClubKey(),
    url_name="tournament-here",
)
def check_in_player(request: HttpRequest, tournament: str, payload: HereIn):
    """Check-in before round 1: once anyone is checked in, round 1 seats only those who are
    (the others are withdrawn, and can be taken back in when they come). Refused once round 1
    is drawn (field `player`)."""
    club, found = _tournament_from(request, tournament)
    tournaments.check_in(_entry_of(found, payload.player, "player"), payload.here)
    return tournament_data(request, club, found)


@router.post(
    "/tournaments/{tournament}/swap",
    response={200: TournamentOut, **KEYED},
    auth=ClubKey(),
    url_name="tournament-swap",
)
def swap_players(request: HttpRequest, tournament: str, payload: SwapIn):
    """Two players of the round just drawn swap seats, before either table records a round. A
    swap that seats someone with a player they met before is refused (field `repeat_ok`, naming
    who) unless `repeat_ok` is true."""
    club, found = _tournament_from(request, tournament)
    if len(payload.players) != 2:
        raise InputError(_("swap two players at two tables of the round just drawn"), "players")
    first, second = (_entry_of(found, name, "players").player for name in payload.players)
    tournaments.swap_players(found, first, second, repeat_ok=payload.repeat_ok)
    return tournament_data(request, club, found)


@router.post(
    "/tournaments/{tournament}/close",
    response={200: TournamentOut, **KEYED},
    auth=ClubKey(),
    url_name="tournament-close",
)
def close_table(request: HttpRequest, tournament: str, payload: CloseTableIn):
    """A table of the round just drawn closed by hand: its key records no more, its game keeps
    what it recorded, and the next round may be drawn."""
    club, found = _tournament_from(request, tournament)
    table = found.tables.filter(round=found.drawn_rounds, number=payload.table).first()
    if table is None:
        raise InputError(_("no such table in this round"), "table")
    tournaments.close_table(table)
    return tournament_data(request, club, found)


@router.post(
    "/tournaments/{tournament}/end",
    response={200: TournamentOut, **KEYED},
    auth=ClubKey(),
    url_name="tournament-end",
)
def end_tournament(request: HttpRequest, tournament: str):
    """The tournament ends: every table closes, and the standings are final."""
    club, found = _tournament_from(request, tournament)
    tournaments.end_tournament(found)
    return tournament_data(request, club, found)


@router.post(
    "/tournaments/{tournament}/reopen",
    response={200: TournamentOut, **KEYED},
    auth=ClubKey(),
    url_name="tournament-reopen",
)
def reopen_tournament(request: HttpRequest, tournament: str):
    """An ended tournament open again: its tables stay closed, and the next round may be drawn
    while rounds remain. Refused (field `finished`) for a tournament not over."""
    club, found = _tournament_from(request, tournament)
    tournaments.reopen(found)
    return tournament_data(request, club, found)
