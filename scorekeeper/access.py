"""Who may see and change what. A club's secret link (or API key) records rounds and changes the
club; its view link only looks. Every check lives here, in the views' decorators, never only in a
template: a partial can be asked for on its own."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from datetime import timedelta
from functools import wraps

from django.conf import settings
from django.db import connection, transaction
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
            if game is None:
                opens = Club.objects.with_key(key) if secret else Club.objects.with_view_key(key)
                if opens is None:
                    return _gone_or_404(request, key)
                raise Http404("No such game in this club")
            setattr(game.club, key_field, key)  # the club was opened with this key
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


def client_address(request: HttpRequest) -> str:
    """Who is asking, for counting: their address, or for IPv6 their /64 network, which one
    household or phone gets whole, so that it cannot take a new allowance from every address.

    Behind a proxy, KNOCK_CLIENT_IP_HEADER names the header it sets (X-Forwarded-For: the
    address the proxy saw is the last one).
    """
    address = request.META.get("REMOTE_ADDR", "")
    header = settings.KNOCK_CLIENT_IP_HEADER
    if header:
        forwarded = request.headers.get(header, "")
        address = forwarded.split(",")[-1].strip() or address
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def client_digest(request: HttpRequest) -> str:
    """A keyed digest of ``client_address``: enough to count, never the address itself."""
    secret = settings.SECRET_KEY.encode()
    return hmac.new(secret, client_address(request).encode(), hashlib.sha256).hexdigest()


def create_club(request: HttpRequest, name: str) -> Club | None:
    """A new club, unless this client started its hour's allowance of clubs already (None).

    Counting and creating happen under one lock per client, so that forty requests at once
    cannot all count nineteen: SQLite's write transaction holds the database, and PostgreSQL
    takes an advisory lock on the client's digest.
    """
    who = client_digest(request)
    since = timezone.now() - timedelta(hours=1)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int(who[:15], 16)])
        made = Club.objects.filter(created_by=who, created__gte=since).count()
        if made >= settings.KNOCK_CLUBS_PER_HOUR:
            return None
        return Club.objects.create(name=name, created_by=who)
