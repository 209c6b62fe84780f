"""The pages: one small view per thing a player does."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from ..forms import blank_referee, referee_from_post
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
        return render(request, "scorekeeper/referee.html", {"referee": blank_referee()})
    adding = "add" in request.POST
    state = referee_from_post(request.POST, settle_now="settle" in request.POST, add_player=adding)
    template = "scorekeeper/referee.html"
    if request.htmx and not adding:
        template += "#live"
    return render(request, template, {"referee": state})
