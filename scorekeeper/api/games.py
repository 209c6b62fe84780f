"""The JSON API for clubs and games (version 1). A club's key travels as
``Authorization: Bearer <key>``: without one, or with one that opens no club, the answer is 401;
with a club's key that does not open what the request names it is 404, so whether another club
or game exists is not revealed."""

from __future__ import annotations

from typing import Annotated, Any

from django.conf import settings
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer
from pydantic import Field, WithJsonSchema

from .. import play
from ..models import Club, Game, RoundInputs
from ..play import AlreadyRecorded, StaleGame, TapReused, Unusual
from ..reports.stats import DAY, club_stats, stats_filters
from ..rules import PRESETS, build_rules
from ..rules.cards import CardError, parse_cards
from ..rules.errors import InputError
from ..web.access import client_digest
from .schemas import (
    KEYED,
    REFUSALS,
    UNAVAILABLE,
    ClubIn,
    ClubOut,
    ErrorOut,
    GameIn,
    GameOut,
    GameStateOut,
    RecordOut,
    RoundIn,
    StaleOut,
    StatsOut,
    UndoIn,
)
from .serialise import game_data, round_data, state_data

router = Router()


class ClubKey(HttpBearer):
    """The club's key as a bearer token; which club it opens is checked by each endpoint."""

    def authenticate(self, request: HttpRequest, token: str) -> str | None:
        return token.strip() or None


def club_from(request: HttpRequest, club_id: str) -> Club:
    """The club, if the request holds its key: 401 for a key that opens no club, 404 for one
    that opens another (whether the club named exists is not revealed)."""
    club = Club.objects.opened_by(request.auth)  # type: ignore[attr-defined]
    if club is None:
        raise AuthenticationError
    if str(club.pk) != club_id.lower():
        raise Http404("No such club")
    return club


def game_from(request: HttpRequest, game_id: str, table_ok: bool = False) -> Game:
    """The game, if the request holds its club's key: 401 for a key that opens no club, 404
    for a game that is not its club's (none, or another club's: the two are not told apart).
    With ``table_ok`` (reading, recording, undoing), a tournament table's scoring key opens its
    own game too, and nothing else."""
    game = Game.objects.opened_by(game_id, request.auth)  # type: ignore[attr-defined]
    if game is None and table_ok:
        game = Game.objects.opened_by_table(game_id, request.auth)  # type: ignore[attr-defined]
    if game is None:
        if Club.objects.opened_by(request.auth) is None:  # type: ignore[attr-defined]
            raise AuthenticationError
        raise Http404("No such game")
    return game


def _seat(game: Game, name: str, field: str) -> int:
    names = game.state.names
    if name in names:
        return names.index(name)
    raise InputError(_("%(name)s is not playing in this game") % {"name": name}, field)


@router.post(
    "/clubs", response={201: ClubOut, 429: ErrorOut, **REFUSALS, **UNAVAILABLE}, url_name="clubs"
)
def create_club(request: HttpRequest, payload: ClubIn):
    """A new club; its key opens it (keep it as you would a password)."""
    club = play.create_club(payload.name, client_digest(request), settings.KNOCK_CLUBS_PER_HOUR)
    if club is None:
        return Status(
            429,
            {
                "error": _("too many clubs were started from here in the last hour"),
                "field": "name",
            },
        )
    url = request.build_absolute_uri(club.get_absolute_url())
    return Status(201, {"id": str(club.id), "key": club.key, "url": url})


def with_lives(spec: dict[str, Any], lives: int | None) -> dict[str, Any]:
    """The rules spec with the starting lives given beside it folded into the overrides."""
    if lives is None:
        return spec
    return {**spec, "overrides": {**spec.get("overrides", {}), "lives": lives}}


@router.post(
    "/clubs/{club}/games",
    response={201: GameOut, **KEYED},
    auth=ClubKey(),
    url_name="club-games",
)
def create_game(request: HttpRequest, club: str, payload: GameIn):
    """A new game; players unknown to the club are added to it (all or nothing)."""
    found = club_from(request, club)
    rules, preset = build_rules(with_lives(payload.rules.model_dump(), payload.lives))
    clean = [" ".join(name.split()) for name in payload.players]
    first_name = " ".join((payload.first_dealer or (clean[0] if clean else "")).split())
    folded = [name.casefold() for name in clean]
    if first_name.casefold() not in folded:
        raise InputError(
            _("%(name)s is not one of the players") % {"name": first_name}, "first_dealer"
        )
    dealer = folded.index(first_name.casefold())
    game = play.start_game(found, clean, dealer, rules, preset.id)
    return Status(201, game_data(game))


@router.get(
    "/games/{game}",
    response={200: GameOut, 400: ErrorOut, 401: ErrorOut, 404: ErrorOut, **UNAVAILABLE},
    auth=ClubKey(),
    url_name="game",
)
def game(
    request: HttpRequest, game: str, before: Annotated[int, Field(ge=1, le=10**6)] | None = None
):
    """The game as it stands, with its newest 50 rounds (or the 50 before round ``before``)."""
    return game_data(game_from(request, game, table_ok=True), before)


def round_inputs(game: Game, payload: RoundIn) -> RoundInputs:
    codes: dict[int, list[str]] | None = None
    if payload.hands is not None:
        codes = {}
        for name, cards in payload.hands.items():
            position = _seat(game, name, "hands")
            try:
                codes[position] = [card.code for card in parse_cards(cards)]
            except CardError as refusal:
                raise InputError(f"{name}: {refusal}", f"hands.{name}") from None
    return RoundInputs(
        ending=payload.ending,
        knocker=None if payload.knocker is None else _seat(game, payload.knocker, "knocker"),
        shown_by=tuple(_seat(game, n, "shown_by") for n in payload.shown_by),
        lowest=None
        if payload.lowest is None
        else tuple(_seat(game, n, "lowest") for n in payload.lowest),
        winners=None
        if payload.winners is None
        else tuple(_seat(game, n, "winners") for n in payload.winners),
        hands=codes,
        choice=payload.choice or "",
        client_id=payload.client_id,
        losses=None
        if payload.losses is None
        else {_seat(game, n, f"losses.{n}"): lives for n, lives in payload.losses.items()},
        as_counted=payload.as_counted,
    )


def _engine_field(game: Game, refusal: InputError) -> str:
    """The engine names players by seat; this API names them by name (``hands.Ann``)."""
    names = game.state.names
    if refusal.seat is not None and refusal.seat < len(names):
        return f"{'losses' if refusal.part == 'losses' else 'hands'}.{names[refusal.seat]}"
    return refusal.field


@router.post(
    "/games/{game}/rounds",
    response={200: RecordOut, 409: StaleOut, **KEYED},
    auth=ClubKey(),
    url_name="rounds",
)
def record_round(request: HttpRequest, game: str, payload: RoundIn):
    """Record a round: the answer is the game as it stands and the new round (``new_round``;
    ``null`` for a repeated tap: the same ``client_id`` with the same round). If the game
    changed since ``version``, or the ``client_id`` was used for another round, a 409 with the
    game."""
    found = game_from(request, game, table_ok=True)
    inputs = round_inputs(found, payload)
    try:
        step = play.record_round(found, inputs, seen_version=payload.version)
    except (StaleGame, AlreadyRecorded):
        return _stale(found, inputs.client_id)
    except TapReused as clash:
        # The id names another round (or one taken back): a clash, never a success.
        return Status(
            409, {"error": clash.message, "field": "client_id", "game": state_data(found)}
        )
    except Unusual:
        raise InputError(
            _(
                "no round of these rules costs these lives: send “as_counted”: true to keep "
                "it as the table counted it"
            ),
            "losses",
        ) from None
    except InputError as refusal:
        raise InputError(refusal.message, _engine_field(found, refusal)) from None
    return Status(200, {**state_data(found), "new_round": round_data(found.state.names, step)})


def _stale(game: Game, client_id: str = "") -> Status:
    """A 409 with the game as it is now; a repeat of a tap already recorded is a 200 with no new
    round (it was applied once)."""
    answer = play.stale_answer(game, client_id)
    if answer.recorded:
        return Status(200, {**state_data(game), "new_round": None})
    body = {
        "error": _(
            "the game changed since the version you sent: it is at version %(version)d, with "
            "%(rounds)d rounds; nothing was saved"
        )
        % {"version": game.version, "rounds": game.round_count},
        "field": "version",
        "game": state_data(game),
    }
    return Status(409, body)


@router.post(
    "/games/{game}/undo",
    response={200: GameStateOut, 409: StaleOut, **KEYED},
    auth=ClubKey(),
    url_name="undo",
)
def undo(request: HttpRequest, game: str, payload: UndoIn):
    """Take back the last round (it stays in the log, marked undone)."""
    found = game_from(request, game, table_ok=True)
    try:
        play.undo_round(found, seen_version=payload.version)
    except StaleGame:
        return _stale(found)
    return Status(200, state_data(found))


def _set_aside(request: HttpRequest, game: str, **change: bool) -> dict[str, Any]:
    found = game_from(request, game)
    play.set_aside(found, **change)
    return state_data(found)


@router.post(
    "/games/{game}/abandon",
    response={200: GameStateOut, **KEYED},
    auth=ClubKey(),
    url_name="abandon",
)
def abandon(request: HttpRequest, game: str):
    """End the game with no winner and leave it out of the stats (``restore`` takes it back)."""
    return _set_aside(request, game, abandoned=True)


@router.post(
    "/games/{game}/delete",
    response={200: GameStateOut, **KEYED},
    auth=ClubKey(),
    url_name="delete",
)
def delete(request: HttpRequest, game: str):
    """Put the game in the club's bin: restorable for 30 days, then removed for good. (A POST,
    as abandon and restore are, not a DELETE: the game is still there, to read and restore.)"""
    return _set_aside(request, game, deleted=True)


@router.post(
    "/games/{game}/restore",
    response={200: GameStateOut, **KEYED},
    auth=ClubKey(),
    url_name="restore",
)
def restore(request: HttpRequest, game: str):
    """Take a game out of the bin and back from being abandoned."""
    return _set_aside(request, game, abandoned=False, deleted=False)


__all__ = ["router"]


@router.get(
    "/clubs/{club}/stats",
    response={200: StatsOut, **KEYED},
    auth=ClubKey(),
    url_name="club-stats",
)
def club_stats_api(
    request: HttpRequest,
    club: str,
    # Empty, as a form leaves a filter it was not given, is no filter.
    preset: Annotated[
        str | None, WithJsonSchema({"type": "string", "enum": ["", *PRESETS]})
    ] = None,
    since: Annotated[
        str | None,
        WithJsonSchema(
            {
                "anyOf": [
                    {"type": "string", "format": "date", "pattern": DAY.pattern},
                    {"type": "string", "maxLength": 0},
                ]
            }
        ),
    ] = None,
    page: Annotated[int, Field(ge=1, le=10**4)] = 1,
):
    """Each player's numbers across the club's games, filtered by rule set and start date, a
    hundred players to a page (``next_page``: the page after this one, if any)."""
    found = club_from(request, club)
    stats = club_stats(found, *stats_filters(preset, since))
    shown = stats.players[(page - 1) * STATS_PAGE : page * STATS_PAGE]
    more = len(stats.players) > page * STATS_PAGE
    return {
        "players": [p.as_data() for p in shown],
        "games": stats.games,
        "next_page": page + 1 if more else None,
    }


STATS_PAGE = 100  # players on a page of the API's statistics
