"""Who may see and change what. A club's secret link (or API key) records rounds and changes the
club; its view link only looks. Every check lives here, in the views' decorators, never only in a
template: a partial can be asked for on its own. The lookup itself is the models' one
(``Club.objects.opened_by``, ``Game.objects.opened_by``), which the API uses too."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, ClassVar

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from ..models import Club, Game, RetiredKey

REMEMBERED_CLUBS = 20


def _gone_or_404(request: HttpRequest, key: str) -> HttpResponse:
    """A link that was replaced gets a page that says so; anything else is simply not found."""
    if RetiredKey.was_replaced(key):
        return render(request, "scorekeeper/link_replaced.html", status=410)
    raise Http404("No club at this link")


@dataclass(frozen=True)
class Link:
    """How a request reached a club: its secret link (may record and change) or its view link
    (``read_only``: only looks). Views and templates check ``read_only``; pages build their
    links with ``url``, so the view link's pages link to the view link's pages."""

    key: str
    read_only: bool
    # A tournament table's scoring key: records its one game (``Game.objects.opened_by_table``).
    table: bool = False

    # The pages the view link has, by the name of the secret link's page.
    VIEW_PAGES: ClassVar[dict[str, str]] = {
        "club": "view-club",
        "game": "view-game",
        "round-log": "view-round-log",
        "game-version": "view-game-version",
        "game-events": "view-game-events",
        "stats": "view-stats",
        "standings": "view-standings",
        "player-stats": "view-player-stats",
        "tournaments": "view-tournaments",
    }

    def url(self, page: str, *args: object) -> str:
        name = self.VIEW_PAGES[page] if self.read_only else page
        return reverse(name, args=[self.key, *args])


def url_link(kwargs: dict[str, Any], read_only_ok: bool) -> Link:
    """The key a URL carries: ``key`` (the secret link's) or ``view_key``, which only the pages
    that change nothing have in their URL."""
    if "view_key" in kwargs:
        assert read_only_ok, "a page that changes the club has no view-link URL"
        return Link(kwargs.pop("view_key"), read_only=True)
    return Link(kwargs.pop("key"), read_only=False)


View = Callable[..., HttpResponse]


def club_link(read_only_ok: bool = False) -> Callable[[View], View]:
    """Open the club the URL's key opens, once, and hand it to the view; ``request.link`` says
    how it was opened. A replaced link is told so (410); anything else is not found."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            link = url_link(kwargs, read_only_ok)
            club = Club.objects.opened_by(link.key, link.read_only)
            if club is None:
                return _gone_or_404(request, link.key)
            _opened(request, link, club)
            return view(request, club, **kwargs)

        return wrapper

    return decorator


def game_link(read_only_ok: bool = False, table_ok: bool = False) -> Callable[[View], View]:
    """As ``club_link``, for a game of the club: the game, its club and its seats in one
    lookup (two statements). With ``table_ok``, a tournament table's scoring key in the secret
    link's place opens its own game (``Link.table``); any other page is not found by it."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, game_id: Any, **kwargs: Any) -> HttpResponse:
            link = url_link(kwargs, read_only_ok)
            game = Game.objects.opened_by(game_id, link.key, link.read_only)
            if game is None and table_ok and not link.read_only:
                game = Game.objects.opened_by_table(game_id, link.key)
                if game is not None:
                    request.link = Link(link.key, read_only=False, table=True)  # type: ignore[attr-defined]
                    return view(request, game, **kwargs)
            if game is None:
                if Club.objects.opened_by(link.key, link.read_only) is None:
                    return _gone_or_404(request, link.key)
                raise Http404("No such game in this club")
            _opened(request, link, game.club)
            return view(request, game, **kwargs)

        return wrapper

    return decorator


def _opened(request: HttpRequest, link: Link, club: Club) -> None:
    request.link = link  # type: ignore[attr-defined]  # what HtmxHttpRequest.link is
    if not link.read_only:
        remember_club(request, club.key, club.name)


def remember_club(request: HttpRequest, key: str, name: str) -> None:
    """The home page lists the clubs this browser has opened (by secret link), newest first."""
    clubs = request.session.get("clubs", [])
    if clubs and clubs[0] == [key, name]:
        return  # unchanged: no new cookie
    others = [entry for entry in clubs if entry[0] != key]
    request.session["clubs"] = [[key, name], *others][:REMEMBERED_CLUBS]


def client_address(request: HttpRequest) -> str:
    """Who is asking, for counting: their address, or for IPv6 their /64 network, which one
    household or phone gets whole, so that it cannot take a new allowance from every address.

    Behind ``KNOCK_TRUSTED_PROXIES`` proxies, each of which appends the address it saw to
    ``KNOCK_CLIENT_IP_HEADER`` (X-Forwarded-For, as the shipped proxy configurations do), the
    client is the address the outermost trusted proxy appended: that many hops from the right.
    Whatever the client wrote itself stands to the left of it, and is never read.
    """
    address = request.META.get("REMOTE_ADDR", "")
    trusted = settings.KNOCK_TRUSTED_PROXIES
    if trusted:
        said = request.headers.get(settings.KNOCK_CLIENT_IP_HEADER, "")
        hops = [hop.strip() for hop in said.split(",") if hop.strip()]
        if len(hops) >= trusted:
            address = hops[-trusted]
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def client_ip(request: HttpRequest) -> str:
    """``client_address`` as one address (an IPv6 network as its first one), for the admin's
    lockout, which keeps addresses."""
    address = client_address(request)
    return address.split("/")[0] if "/" in address else address


def client_digest(request: HttpRequest) -> str:
    """A keyed digest of ``client_address``: enough to count, never the address itself."""
    secret = settings.SECRET_KEY.encode()
    return hmac.new(secret, client_address(request).encode(), hashlib.sha256).hexdigest()
