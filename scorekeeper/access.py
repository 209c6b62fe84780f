"""Who may see and change what. A club's secret link (or API key) records rounds and changes the
club; its view link only looks. Every check lives here, in the views' decorators, never only in a
template: a partial can be asked for on its own."""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta
from functools import wraps

from django.conf import settings
from django.http import Http404, HttpRequest
from django.shortcuts import render
from django.utils import timezone

from .models import Club, Game, RetiredKey, key_digest

REMEMBERED_CLUBS = 20


def _gone_or_404(request: HttpRequest, key: str):
    """A link that was replaced gets a page that says so; anything else is simply not found."""
    if RetiredKey.was_replaced(key):
        return render(request, "scorekeeper/link_replaced.html", status=410)
    raise Http404("No club at this link")


def _club_from_link(secret: bool):
    def decorator(view):
        @wraps(view)
        def wrapper(request: HttpRequest, key: str = "", view_key: str = "", **kwargs):
            key = key or view_key
            club = Club.objects.with_key(key) if secret else Club.objects.with_view_key(key)
            if club is None:
                return _gone_or_404(request, key)
            if secret:
                remember_club(request, club)
            return view(request, club, **kwargs)

        return wrapper

    return decorator


# The club through its secret link (may record and change), or its view link (only looks).
club_view = _club_from_link(secret=True)
viewer_view = _club_from_link(secret=False)


def _game_from_link(key_field: str, secret: bool):
    def decorator(view):
        @wraps(view)
        def wrapper(request: HttpRequest, game_id, key: str = "", view_key: str = "", **kwargs):
            key = key or view_key
            # One query for the club and the game: every tap at the table passes here.
            lookup = {f"club__{key_field}_hash": key_digest(key)}
            game = Game.objects.select_related("club").filter(pk=game_id, **lookup).first()
            stored = getattr(game.club, key_field) if game else ""
            if game is None or not hmac.compare_digest(stored.encode(), key.encode()):
                opens = Club.objects.with_key(key) if secret else Club.objects.with_view_key(key)
                if opens is None:
                    return _gone_or_404(request, key)
                raise Http404("No such game in this club")
            if secret:
                remember_club(request, game.club)
            return view(request, game, **kwargs)

        return wrapper

    return decorator


# A game through the club's secret link (may record), or through its view link (only looks).
game_view = _game_from_link("key", secret=True)
viewer_game_view = _game_from_link("view_key", secret=False)


def remember_club(request: HttpRequest, club: Club) -> None:
    """The home page lists the clubs this browser has opened, newest first."""
    clubs = request.session.get("clubs", [])
    if clubs and clubs[0] == [club.key, club.name]:
        return  # unchanged: no new cookie
    others = [entry for entry in clubs if entry[0] != club.key]
    request.session["clubs"] = [[club.key, club.name], *others][:REMEMBERED_CLUBS]


def client_digest(request: HttpRequest) -> str:
    """Who is asking, as a keyed digest of their address: enough to count, never the address.

    Behind a proxy, KNOCK_CLIENT_IP_HEADER names the header it sets (X-Forwarded-For: the
    address the proxy saw is the last one).
    """
    address = request.META.get("REMOTE_ADDR", "")
    header = settings.KNOCK_CLIENT_IP_HEADER
    if header:
        forwarded = request.headers.get(header, "")
        address = forwarded.split(",")[-1].strip() or address
    secret = settings.SECRET_KEY.encode()
    return hmac.new(secret, address.encode(), hashlib.sha256).hexdigest()


def may_create_club(request: HttpRequest) -> tuple[bool, str]:
    """Creating clubs is rate-limited per client address, so a script cannot fill the database."""
    who = client_digest(request)
    since = timezone.now() - timedelta(hours=1)
    limit = settings.KNOCK_CLUBS_PER_HOUR
    allowed = Club.objects.filter(created_by=who, created__gte=since).count() < limit
    return allowed, who
