"""Clubs and their players: created in one step, reached by a secret link."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ... import play
from ...lib.marks import PALETTE
from ...lib.qr import qr_svg
from ...lib.text import sentence
from ...models import BIN_DAYS, Club, Game, Player, key_digest
from ...models.clubs import name_key
from ...reports.ratings import club_ratings
from ...reports.standings import current, periods, standings
from ...reports.stats import (
    HEAD_TO_HEAD,
    club_records,
    club_stats,
    player_games,
    stats_filters,
    win_rate_bars,
)
from ...rules import PRESETS
from ...rules.errors import InputError
from ...rules.words import names as names_in_words
from ..access import client_digest, club_link, remember_club
from ..forms.clubs import (
    ClubForm,
    PlayerMarkForm,
    PlayerNameForm,
    PlayerNamesForm,
    ReplaceLinkForm,
    SeasonForm,
)
from ..http import HtmxHttpRequest

GAMES_PER_PAGE = 10
PLAYERS_PER_PAGE = 40  # the club page lists its players a page at a time, and finds one by name


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    clubs = request.session.get("clubs", [])
    response = render(
        request,
        "scorekeeper/home.html",
        {
            "form": ClubForm(),
            "clubs": clubs,
            "going_on": _games_going_on(clubs),
        },
    )
    if clubs:
        # It lists the secret links of the clubs this phone remembers: no cache keeps it.
        patch_cache_control(response, no_store=True)
    return response


def _games_going_on(clubs: list[list[str]]) -> list[dict[str, Any]]:
    """The games in progress of the clubs this browser knows, newest first, to continue."""
    keys = {key_digest(key): key for key, _name in clubs}
    games = (
        Game.objects.in_progress()
        .filter(club__key_hash__in=keys)
        .select_related("club")
        .for_listing()[:10]
    )
    return [
        {"game": game, "url": reverse("game", args=[keys[game.club.key_hash], game.id])}
        for game in games
    ]


@require_POST
def create_club(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST)
    status = 400
    if form.is_valid():
        club = play.create_club(
            form.cleaned_data["name"], client_digest(request), settings.KNOCK_CLUBS_PER_HOUR
        )
        if club is not None:
            remember_club(request, club.key, club.name)
            messages.success(
                request, _("Your club is ready. Bookmark this page: its link is the key.")
            )
            return redirect(club)
        form.add_error(
            "name", _("Too many clubs were started from here in the last hour: try later.")
        )
        status = 429
    context = {"form": form, "clubs": request.session.get("clubs", [])}
    return render(request, "scorekeeper/home.html", context, status=status)


@require_GET
@club_link(read_only_ok=True)
def club(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    """The club's page: its games, and through the secret link its players and links too. The
    view link shows the games, live, and nothing that changes them."""
    can_record = not request.link.read_only
    period = current(periods(club, timezone.localdate()), timezone.localdate())
    context = {
        "club": club,
        "can_record": can_record,
        "games": _games(request, club),
        "period": period,
        "leader": next(iter(standings(club, period)), None),
        "standings_url": request.link.url("standings"),
    }
    if can_record:
        context["bin"] = _bin(club)
        link = request.build_absolute_uri(club.get_absolute_url())
        view_link = request.build_absolute_uri(club.get_view_url())
        find = request.GET.get("find", "").strip()[:60]
        players = club.players.all()
        if find:
            players = players.filter(name_key__contains=name_key(find))
        context.update(
            players=Paginator(players, PLAYERS_PER_PAGE).get_page(request.GET.get("players")),
            find=find,
            link=link,
            qr=qr_svg(link),
            view_link=view_link,
            view_qr=qr_svg(view_link),
            player_form=PlayerNameForm(),
        )
    return render(request, "scorekeeper/club.html", context)


def _games(request: HttpRequest, club: Club):
    return Paginator(club.games.listed().for_listing(), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )


def _bin(club: Club) -> list[Game]:
    """The games in the club's bin; those there for longer than BIN_DAYS go for good first."""
    club.games.filter(deleted__lt=timezone.now() - timedelta(days=BIN_DAYS)).delete()
    return list(club.games.filter(deleted__isnull=False).for_listing())


@require_POST
@club_link()
def replace_link(request: HttpRequest, club: Club) -> HttpResponse:
    """A new secret or view link; the old one stops working at once."""
    form = ReplaceLinkForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say which link to replace."))
        return redirect(club)
    which = form.cleaned_data["which"]
    old_key = club.key
    try:
        play.replace_link(club, which, form.cleaned_data["generation"])
    except play.StaleLink:
        # Two phones pressed Replace at once: the first one's new link stands.
        messages.warning(
            request,
            _("Another phone replaced the secret link a moment ago: nothing more was changed.")
            if which == "secret"
            else _("Another phone replaced the view link a moment ago: nothing more was changed."),
        )
        return redirect(club)
    if which == "secret":
        request.session["clubs"] = [e for e in request.session.get("clubs", []) if e[0] != old_key]
        remember_club(request, club.key, club.name)
        messages.success(
            request,
            _(
                "This club has a new secret link and a new view link: the "
                "old ones no longer work. Bookmark this page again and share "
                "the new links."
            ),
        )
    else:
        messages.success(request, _("The club has a new view link: the old one no longer works."))
    return redirect(club)


# Said of the players: shown at their list on the club page, where the page comes back to.
PLAYERS = "players"


def _with_a_name(request: HttpRequest, club: Club, act) -> HttpResponse:
    """Read a name from the form, act on it, and say what happened (or why not)."""
    form = PlayerNameForm(request.POST)
    if not form.is_valid():
        # What is wrong with the name (invisible characters…), or that it is empty or too long.
        said = [
            error.messages[0]
            for error in form.errors.as_data().get("name", [])
            if error.code not in ("required", "max_length")
        ]
        messages.error(
            request,
            said[0] if said else _("A player needs a name of at most 60 characters."),
            PLAYERS,
        )
    else:
        try:
            messages.success(request, act(form.cleaned_data["name"]), PLAYERS)
        except InputError as refusal:
            messages.error(request, sentence(refusal.message), PLAYERS)
    return _at_the_players(club)


def _at_the_players(club: Club) -> HttpResponse:
    response = redirect(club)
    response["Location"] += "#players"
    return response


@require_POST
@club_link()
def add_player(request: HttpRequest, club: Club) -> HttpResponse:
    """One player (``name``), or several at once (``names``: "Ana, Ben, Cara" or one a line).
    The page comes back at its list of players, not at the top."""
    if "names" not in request.POST:

        def add(name: str) -> str:
            return _("%(name)s joined the club.") % {"name": play.add_player(club, name).name}

        response = _with_a_name(request, club, add)
    else:
        form = PlayerNamesForm(request.POST)
        if not form.is_valid():
            messages.error(request, " ".join(str(error) for error in form.errors["names"]), PLAYERS)
        else:
            joined, already = [], []
            for name in form.cleaned_data["names"]:
                try:
                    joined.append(play.add_player(club, name).name)
                except InputError:
                    already.append(name)
            if joined:
                messages.success(
                    request,
                    ngettext(
                        "%(names)s joined the club.", "%(names)s joined the club.", len(joined)
                    )
                    % {"names": names_in_words(joined)},
                    PLAYERS,
                )
            if already:
                messages.info(
                    request,
                    ngettext(
                        "%(names)s is already in this club.",
                        "%(names)s are already in this club.",
                        len(already),
                    )
                    % {"names": names_in_words(already)},
                    PLAYERS,
                )
        response = _at_the_players(club)
    return response


@require_POST
@club_link()
def rename_player(request: HttpRequest, club: Club, player_id: int) -> HttpResponse:
    player = get_object_or_404(club.players, pk=player_id)
    old = player.name

    def rename(name: str) -> str:
        play.rename_player(player, name)
        return _("%(old)s is now called %(new)s.") % {"old": old, "new": player.name}

    return _with_a_name(request, club, rename)


@require_http_methods(["GET", "POST"])
@club_link()
def mark_player(request: HttpRequest, club: Club, player_id: int) -> HttpResponse:
    """A player's colour and initials: every colour of the palette, with whoever else of the
    club wears it (one nobody wears is asked for while there is one); a refusal is said beside
    its field, and nothing changes."""
    player = get_object_or_404(club.players, pk=player_id)
    form = PlayerMarkForm(request.POST or None, initial={"initials": player.mark.initials})
    if request.method == "POST" and form.is_valid():
        try:
            play.mark_player(player, form.cleaned_data["initials"], form.cleaned_data["colour"])
        except InputError as refusal:
            form.add_error(refusal.field, sentence(refusal.message))
        else:
            messages.success(
                request,
                _("%(name)s is %(initials)s in %(colour)s now.")
                % {"name": player.name, "initials": player.initials, "colour": player.mark.word},
                PLAYERS,
            )
            return _at_the_players(club)
    wearers: dict[int, Player] = {}
    for other in club.players.filter(retired=False).exclude(pk=player.pk):
        wearers.setdefault(other.mark.colour, other)
    chosen = form["colour"].value() if form.is_bound else player.mark.colour
    swatches = [
        {
            "index": i,
            "css": f"pc-{i}",
            "word": colour.word,
            "checked": str(i) == str(chosen),
            "worn_by": wearers.get(i),
        }
        for i, colour in enumerate(PALETTE)
    ]
    return render(
        request,
        "scorekeeper/player_mark.html",
        {"club": club, "player": player, "form": form, "swatches": swatches},
    )


@require_POST
@club_link()
def retire_player(request: HttpRequest, club: Club, player_id: int) -> HttpResponse:
    player = get_object_or_404(club.players, pk=player_id)
    play.retire_player(player, request.POST.get("retired", "1") == "1")
    said = (
        _("%(name)s retired: their games stay in the history.")
        if player.retired
        else _("%(name)s is back.")
    )
    messages.success(request, said % {"name": player.name}, PLAYERS)
    return _at_the_players(club)


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Alive: the process answers (a supervisor restarts it when it does not). Asks nothing of
    the database, so it is also the floor the load benchmark measures against."""
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def readyz(request: HttpRequest) -> HttpResponse:
    """Ready: the database answers too; 503 while it cannot, so that a load balancer sends the
    players to another server meanwhile."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return HttpResponse("the database does not answer", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")


@require_GET
@club_link(read_only_ok=True)
def stats(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    """The club's statistics: a leaderboard, knocks, lives and who beats whom."""
    preset, since = request.GET.get("preset", ""), request.GET.get("since", "")
    error = ""
    try:
        filters = stats_filters(preset, since)
    except InputError as refusal:
        error, filters = sentence(refusal.message), (None, None)
    found = club_stats(club, *filters)
    # The leaderboard and its chart a page at a time, as the club page lists its players.
    board = Paginator(found.leaderboard(), PLAYERS_PER_PAGE).get_page(request.GET.get("players"))
    for player in board:
        player.url = request.link.url("player-stats", player.pk)
    rated = Paginator(club_ratings(club), PLAYERS_PER_PAGE).get_page(request.GET.get("rated"))
    return render(
        request,
        "scorekeeper/stats.html",
        {
            "club": club,
            "stats": found,
            "board": board,
            "ratings": [(r, request.link.url("player-stats", r.player_id)) for r in rated],
            "rated": rated,
            "head_to_head_most": HEAD_TO_HEAD,
            "filters": urlencode({"preset": preset, "since": since}),
            "presets": PRESETS.values(),
            "preset": preset,
            "since": since,
            "error": error,
            "club_url": request.link.url("club"),
            "records": club_records(club, *filters),
            "chart": win_rate_bars(list(board)),
            "link": request.link,
            "query": request.GET.urlencode(),
        },
    )


@require_GET
@club_link(read_only_ok=True)
def player_stats(request: HtmxHttpRequest, club: Club, player_id: int) -> HttpResponse:
    """One player's numbers, their nemesis and favourite victim, their form and their games."""
    player = get_object_or_404(club.players, pk=player_id)
    try:
        filters = stats_filters(request.GET.get("preset", ""), request.GET.get("since", ""))
    except InputError:
        filters = (None, None)
    found = club_stats(club, *filters)
    me = next(p for p in found.players if p.name == player.name)
    seats = player_games(club, player.pk, *filters)
    letters = {"won": "W", "tied": "T", "lost": "L"}
    form = [letters[seat.result] for seat in seats if seat.result][:10]
    games = [{"seat": seat, "url": request.link.url("game", seat.game_id)} for seat in seats]
    return render(
        request,
        "scorekeeper/player_stats.html",
        {
            "club": club,
            "player": player,
            "me": me,
            "rating": next(r for r in club_ratings(club) if r.player_id == player.pk),
            "games": games,
            "form": form,
            "link": request.link,
            "stats_url": request.link.url("stats"),
        },
    )


@require_GET
@club_link(read_only_ok=True)
def club_standings(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    """The club's standings over the period asked for (``?period=``: month, year, all, or one
    of its seasons), the season under way or this year when none is asked for; through the
    secret link, its seasons to name or remove too."""
    return _standings_page(request, club, SeasonForm(club=club))


def _standings_page(
    request: HtmxHttpRequest, club: Club, form: SeasonForm, status: int = 200
) -> HttpResponse:
    today = timezone.localdate()
    choices = periods(club, today)
    asked = request.GET.get("period", "")
    period = next((p for p in choices if p.key == asked), None) or current(choices, today)
    # A page of players at a time, as the club page lists them.
    table = Paginator(standings(club, period), PLAYERS_PER_PAGE).get_page(
        request.GET.get("players")
    )
    for standing in table:
        standing.url = request.link.url("player-stats", standing.pk)
    return render(
        request,
        "scorekeeper/standings.html",
        {
            "club": club,
            "club_url": request.link.url("club"),
            "periods": choices,
            "period": period,
            "standings": table,
            "can_record": not request.link.read_only,
            "form": form,
        },
        status=status,
    )


@require_POST
@club_link()
def add_season(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    """A new season of the club's: its standings are shown at once; a refusal says why beside
    the field, and nothing is saved."""
    form = SeasonForm(request.POST, club=club)
    if not form.is_valid():
        return _standings_page(request, club, form, status=200)
    try:
        season = play.add_season(club, **form.cleaned_data)
    except InputError as refusal:
        form.add_error(refusal.field or None, sentence(refusal.message))
        return _standings_page(request, club, form)
    messages.success(request, _("The season %(name)s is counted.") % {"name": season.name})
    return redirect(f"{reverse('standings', args=[club.key])}?period=season-{season.pk}")


@require_POST
@club_link()
def delete_season(request: HtmxHttpRequest, club: Club, season_id: int) -> HttpResponse:
    """A season no longer counted (its games stay, in every other period)."""
    season = get_object_or_404(club.seasons, pk=season_id)
    season.delete()
    messages.success(
        request, _("The season %(name)s is gone; its games stay.") % {"name": season.name}
    )
    return redirect("standings", club.key)
