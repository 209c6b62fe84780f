"""Who may see and change what: a club's secret link (or API key) opens it; nothing else does."""

from __future__ import annotations

from functools import wraps

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from .models import Club, Game

REMEMBERED_CLUBS = 20


def club_view(view):
    """Load the club whose secret key is in the URL, or answer 404: a wrong key reveals nothing."""

    @wraps(view)
    def wrapper(request: HttpRequest, key: str, *args, **kwargs):
        club = Club.objects.filter(key=key).first()
        if club is None:
            raise Http404("No club at this link")
        remember_club(request, club)
        return view(request, club, *args, **kwargs)

    return wrapper


def game_of(club: Club, game_id) -> Game:
    game = get_object_or_404(Game, pk=game_id, club=club)
    game.club = club  # already loaded: no second query for it
    return game


def remember_club(request: HttpRequest, club: Club) -> None:
    """The home page lists the clubs this browser has opened, newest first."""
    clubs = [entry for entry in request.session.get("clubs", []) if entry[0] != club.key]
    request.session["clubs"] = [[club.key, club.name], *clubs][:REMEMBERED_CLUBS]
