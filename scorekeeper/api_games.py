"""The JSON API for clubs and games (version 1). A club's key travels as
``Authorization: Bearer <key>``; a wrong or missing key is a 404, so a club's existence is not
revealed."""

from __future__ import annotations

import hmac
from typing import Any

from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from .access import may_create_club
from .api import error, json_endpoint
from .models import Club, Game, RoundInputs, StaleGame, refuse_control_characters
from .rules import build_rules
from .rules.cards import CardError, parse_cards
from .rules.errors import InputError
from .rules.ruleset import json_value
from .rules.showdown import hand_data


def bearer(request: HttpRequest) -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def authorised_club(request: HttpRequest, club: Club | None) -> Club:
    """The club, if the request holds its key; 404 otherwise. Compared in constant time."""
    token = bearer(request)
    if club is None or not token or not hmac.compare_digest(club.key.encode(), token.encode()):
        raise Http404("No such club")
    return club


def club_from(request: HttpRequest, club_id) -> Club:
    return authorised_club(request, Club.objects.filter(pk=club_id).first())


def game_from(request: HttpRequest, game_id) -> Game:
    game = Game.objects.select_related("club").filter(pk=game_id).first()
    authorised_club(request, game.club if game else None)
    return game


def game_data(game: Game) -> dict[str, Any]:
    story = game.replay()
    steps = story.steps
    return {
        "id": str(game.id),
        "version": game.version,
        "rules": {
            "preset": game.preset,
            **{k: json_value(v) for k, v in game.rules.as_dict().items()},
        },
        "players": [
            {
                "name": name,
                "lives": story.lives[i],
                "status": story.statuses[i],
                "status_label": story.labels[i],
            }
            for i, name in enumerate(story.names)
        ],
        "dealer": story.names[steps[-1].dealer] if steps else None,
        "next_dealer": None if story.game_over else story.names[story.dealer],
        "pot": story.pot,
        "round": len(steps),
        "finished": story.game_over,
        "winner": story.winner,
        "tie": list(story.tie),
        "rounds": [
            {
                "number": step.number,
                "dealer": story.names[step.dealer],
                "ending": step.round.ending,
                "knocker": None if step.round.knocker is None else story.names[step.round.knocker],
                "shown_by": [story.names[p] for p in step.round.shown_by],
                "lowest": None
                if step.round.lowest is None
                else [story.names[p] for p in step.round.lowest],
                "hands": [hand_data(name, hand) for name, hand in step.result.hands.items()],
                "choice": step.round.choice or None,
                "result": step.result.result,
                "losses": step.result.losses,
                "explanation": list(step.result.explanation),
            }
            for step in steps
        ],
    }


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError("must be some text", field)
    return value.strip()


def _seat(game: Game, name: Any, field: str) -> int:
    name = _text(name, field)
    for seat in game.seat_list():
        if seat.player.name == name:
            return seat.position
    raise InputError(f"{name} is not playing in this game", field)


@json_endpoint
def create_club(request: HttpRequest, data: dict[str, Any]):
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError("a club needs a name", "name")
    if len(name.strip()) > 100:
        raise InputError("a club's name is at most 100 characters", "name")
    refuse_control_characters(name, "name")
    allowed, who = may_create_club(request)
    if not allowed:
        return 429, {
            "error": "too many clubs were started from here in the last hour",
            "field": "name",
        }
    club = Club.objects.create(name=name.strip(), created_by=who)
    url = request.build_absolute_uri(club.get_absolute_url())
    return 201, {"id": str(club.id), "key": club.key, "url": url}


def with_lives(spec: Any, lives: Any) -> Any:
    """The rules spec with the starting lives given beside it folded into the overrides."""
    if lives is None:
        return spec
    if isinstance(spec, str):
        return {"preset": spec, "overrides": {"lives": lives}}
    if isinstance(spec, dict) and isinstance(spec.get("overrides") or {}, dict):
        return {**spec, "overrides": {**(spec.get("overrides") or {}), "lives": lives}}
    return spec


@json_endpoint
def create_game(request: HttpRequest, data: dict[str, Any], club_id):
    club = club_from(request, club_id)
    if "rules" not in data:
        raise InputError('say which rules: a preset id or {"preset", "overrides"}', "rules")
    rules, preset = build_rules(with_lives(data["rules"], data.get("lives")))
    names = data.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        raise InputError("players are a list of names in seat order", "players")
    clean = [" ".join(name.split()) for name in names]
    first = data.get("first_dealer", clean[0] if clean else None)
    first_name = " ".join(_text(first, "first_dealer").split()) if first is not None else ""
    folded = [name.casefold() for name in clean]
    if first_name.casefold() not in folded:
        raise InputError(f"{first_name} is not one of the players", "first_dealer")
    # Adding unknown players and starting the game stand or fall together.
    with transaction.atomic():
        try:
            players = [club.player_named(name) or club.add_player(name) for name in clean]
        except InputError as refusal:
            raise InputError(refusal.message, "players") from None
        game = Game.start(club, players, folded.index(first_name.casefold()), rules, preset.id)
    return 201, game_data(game)


@require_GET
def game(request: HttpRequest, game_id) -> JsonResponse:
    return JsonResponse(game_data(game_from(request, game_id)))


def round_inputs(game: Game, data: dict[str, Any]) -> RoundInputs:
    ending = data.get("ending")
    if not isinstance(ending, str):
        raise InputError("say how the round ended", "ending")
    knocker = None
    if data.get("knocker") is not None:
        knocker = _seat(game, data["knocker"], "knocker")
    shown = data.get("shown_by") or []
    if not isinstance(shown, list):
        raise InputError("give a list of player names", "shown_by")
    lowest = data.get("lowest")
    if lowest is not None and not isinstance(lowest, list):
        raise InputError("give a list of player names", "lowest")
    hands = data.get("hands")
    codes: dict[int, list[str]] | None = None
    if hands is not None:
        if not isinstance(hands, dict):
            raise InputError("hands are {name: [cards]}", "hands")
        codes = {}
        for name, cards in hands.items():
            position = _seat(game, name, "hands")
            if not isinstance(cards, (list, str)) or (
                isinstance(cards, list) and not all(isinstance(c, str) for c in cards)
            ):
                raise InputError('cards are a list like ["AS", "KS", "9D"]', f"hands.{name}")
            try:
                codes[position] = [card.code for card in parse_cards(cards)]
            except CardError as refusal:
                raise InputError(f"{name}: {refusal}", f"hands.{name}") from None
    choice = data.get("choice")
    if choice is not None and (not isinstance(choice, str) or len(choice) > 40):
        raise InputError("a choice is one of the ids the table was offered", "choice")
    refuse_control_characters(choice or "", "choice")
    client_id = data.get("client_id") or ""
    if not isinstance(client_id, str) or len(client_id) > 64:
        raise InputError("a client id is text of at most 64 characters", "client_id")
    refuse_control_characters(client_id, "client_id")
    return RoundInputs(
        ending=ending,
        knocker=knocker,
        shown_by=tuple(_seat(game, n, "shown_by") for n in shown),
        lowest=None if lowest is None else tuple(_seat(game, n, "lowest") for n in lowest),
        hands=codes,
        choice=choice or "",
        client_id=client_id,
    )


def _version(data: dict[str, Any]) -> int | None:
    version = data.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise InputError("the version is the whole number the game last showed", "version")
    return version


def _engine_field(game: Game, field: str) -> str:
    """The engine names players by seat (players[1].cards); the API names them by name."""
    if field.startswith("players[") and "]" in field:
        position = int(field[len("players[") : field.index("]")])
        seats = game.seat_list()
        if position < len(seats):
            return f"hands.{seats[position].player.name}"
    return field


@json_endpoint
def record_round(request: HttpRequest, data: dict[str, Any], game_id):
    game = game_from(request, game_id)
    inputs = round_inputs(game, data)
    try:
        game.record_round(inputs, seen_version=_version(data))
    except StaleGame:
        return _stale(game, inputs)
    except IntegrityError:
        pass  # the same client id twice: already recorded, applied once
    except InputError as refusal:
        raise InputError(refusal.message, _engine_field(game, refusal.field)) from None
    game.reload()
    return game_data(game)


def _stale(game: Game, inputs: RoundInputs | None):
    game.reload()
    if inputs is not None and game.has_round_from(inputs.client_id):
        return game_data(game)  # a retry of a tap already recorded
    body = {
        "error": f"the game changed since version you sent: it is at version {game.version}, "
        f"with {game.round_count} rounds; nothing was saved",
        "field": "version",
        "game": game_data(game),
    }
    return 409, body


@json_endpoint
def undo(request: HttpRequest, data: dict[str, Any], game_id):
    game = game_from(request, game_id)
    try:
        game.undo(seen_version=_version(data))
    except StaleGame:
        return _stale(game, None)
    game.reload()
    return game_data(game)


__all__ = ["create_club", "create_game", "error", "game", "record_round", "undo"]
