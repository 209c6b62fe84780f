"""Who may see and change what. A club's secret link (or API key) records rounds and changes the
club; its view link only looks. Every check lives here, in the views' decorators, never only in a
template: a partial can be asked for on its own."""

from __future__ import annotations

from functools import wraps

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404, render

from .models import Club, Game, RetiredKey

REMEMBERED_CLUBS = 20


def _gone_or_404(request: HttpRequest, key: str):
    """A link that was replaced gets a page that says so; anything else is simply not found."""
    if RetiredKey.was_replaced(key):
        return render(request, "scorekeeper/link_replaced.html", status=410)
    raise Http404("No club at this link")


def club_view(view):
    """The club whose secret key is in the URL: it may record and change."""

    @wraps(view)
    def wrapper(request: HttpRequest, key: str, *args, **kwargs):
        club = Club.objects.with_key(key)
        if club is None:
            return _gone_or_404(request, key)
        remember_club(request, club)
        return view(request, club, *args, **kwargs)

    return wrapper


def viewer_view(view):
    """The club whose view key is in the URL: it may only look."""

    @wraps(view)
    def wrapper(request: HttpRequest, view_key: str, *args, **kwargs):
        club = Club.objects.with_view_key(view_key)
        if club is None:
            return _gone_or_404(request, view_key)
        return view(request, club, *args, **kwargs)

    return wrapper


def game_of(club: Club, game_id) -> Game:
    game = get_object_or_404(Game, pk=game_id, club=club)
    game.club = club  # already loaded: no second query for it
    return game


def remember_club(request: HttpRequest, club: Club) -> None:
    """The home page lists the clubs this browser has opened, newest first."""
    clubs = request.session.get("clubs", [])
    if clubs and clubs[0] == [club.key, club.name]:
        return  # unchanged: no new cookie
    others = [entry for entry in clubs if entry[0] != club.key]
    request.session["clubs"] = [[club.key, club.name], *others][:REMEMBERED_CLUBS]
