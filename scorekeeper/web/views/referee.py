"""The pages: one small view per thing a player does."""

from __future__ import annotations

import uuid

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from ...models import Game
from ...rules import Status
from ..access import game_link
from ..forms.referee import blank_referee, referee_for_game, referee_from_post, verdict_as_round
from ..http import HtmxHttpRequest


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def referee(request: HtmxHttpRequest) -> HttpResponse:
    """Settle a disputed showdown from the cards the players hold.

    Without JavaScript the form posts and the whole page comes back with the verdict. With htmx,
    typing or ticking posts the form in the background and only the hands and the verdict are
    swapped in, so nothing the player is typing is replaced under their thumb.
    """
    if request.method == "GET":
        return render(
            request,
            "scorekeeper/referee.html",
            {"referee": blank_referee(), "post_url": reverse("referee")},
        )
    adding = "add" in request.POST
    state = referee_from_post(request.POST, settle_now="settle" in request.POST, add_player=adding)
    template = "scorekeeper/referee.html"
    if request.htmx and not adding:
        template += "#live"
    return render(request, template, {"referee": state, "post_url": reverse("referee")})


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
@game_link(table_ok=True)
def game_referee(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """The referee with a game's rules and the players still in it; its verdict is recorded
    as the game's next round in one tap."""
    state = game.state
    playing = [name for i, name in enumerate(state.names) if state.statuses[i] != Status.OUT]
    if request.method == "GET":
        referee = referee_for_game(
            game.rules, game.preset, playing, playing.index(state.dealer_name)
        )
    else:
        referee = referee_from_post(
            request.POST, settle_now="settle" in request.POST, add_player="add" in request.POST
        )
    fields = verdict_as_round(referee, list(state.names)) if not state.game_over else None
    context = {
        "referee": referee,
        "game": game,
        "post_url": reverse("game-referee", args=[game.club.key, game.id]),
        "record_url": reverse("record", args=[game.club.key, game.id]),
        "round_fields": fields,
        "next_round": state.rounds + 1,
        "version": game.version,
        "client_id": uuid.uuid4().hex,
    }
    template = "scorekeeper/referee.html"
    if request.htmx and request.method == "POST" and "add" not in request.POST:
        template += "#live"
    return render(request, template, context)
