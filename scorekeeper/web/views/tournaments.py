"""A tournament: its organiser's pages under the club's secret link (start it, draw each round,
print the table cards, close a table, swap two players, enter a late player, end it) and the
big screen's leaderboard under the view link. Each table plays through its own game's pages."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ... import tournaments
from ...lib.qr import qr_svg
from ...lib.spreadsheet import spreadsheet
from ...lib.text import sentence
from ...models import Club, Entry, GameSeat, Tournament
from ...reports.picture import Standing, standings_picture
from ...reports.tournament_printing import Card, results_pdf, table_cards_pdf
from ...reports.tournaments import Placing, drawn_tables, scheme, standings
from ...rules.errors import InputError
from ..access import club_link, url_link
from ..forms.tournaments import EntryForm, SwapForm, TournamentForm
from ..http import HtmxHttpRequest
from .games import picture_answer
from .printing import _paper, _pdf

BOARD_PAGE = 40  # players on one screen of the leaderboard, no scrolling
BOARD_TURN = 15  # seconds each page of a longer leaderboard stays on the screen


def _tournament(club: Club, tournament_id: Any, board: bool = False) -> Tournament:
    """The club's tournament (with what its leaderboard shows changes with, for ``board``)."""
    found = club.tournaments.with_board_version() if board else club.tournaments
    try:
        return found.get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError):
        raise Http404(_("No such tournament")) from None


def _clock(found: Tournament, number: int) -> dict[str, str] | None:
    """Round ``number``'s clock as a page shows it (static/js/clock.js counts it down): when it
    runs out, the words for what is left now, and the words the script says later."""
    ends = found.round_ends(number)
    if ends is None:
        return None
    left = math.ceil((ends - timezone.now()).total_seconds() / 60)
    over = _("Time is up")
    words = over if left <= 0 else ngettext("%(n)s min left", "%(n)s min left", left) % {"n": left}
    return {
        "ends": ends.isoformat(),
        "words": words,
        "one": ngettext("%(n)s min left", "%(n)s min left", 1) % {"n": 1},
        "many": ngettext("%(n)s min left", "%(n)s min left", 2) % {"n": "{n}"},
        "over": over,
    }


def _left_words(tournament: Tournament) -> str:
    return _("Coins") if tournament.rules.played_for_pot else _("Lives left")


@require_http_methods(["GET", "POST"])
@club_link()
def new_tournament(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    form = TournamentForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = form.start()
        except InputError as refusal:
            form.refuse(refusal)
        else:
            return redirect("tournament", club.key, tournament.pk)
    return render(request, "scorekeeper/tournaments/new.html", {"club": club, "form": form})


def _tables(tournament: Tournament, club: Club, number: int) -> list[dict[str, Any]]:
    """The tables of round ``number``: players in seat order, the scoring link, and how far
    each game has come (two queries)."""
    rows = []
    for drawn in drawn_tables(tournament, number):
        table, game = drawn.table, drawn.table.game
        rows.append(
            {
                "table": table,
                "players": drawn.players,
                "deals": drawn.first_dealer.name,
                "url": reverse("game", args=[table.key(club.key), game.id]),
                "playing": table.playing,
                "round": game.round_count + (0 if game.finished else 1),
                "result": game.result_words if game.finished else "",
            }
        )
    return rows


@require_GET
def tournament(request: HtmxHttpRequest, tournament_id: Any, **keys: str) -> HttpResponse:
    """The organiser's page. It follows the tables: every two seconds it asks whether a game
    moved (204 when not, in one statement, as the big screen asks), and draws its tables and
    standings again when one did."""
    if _unchanged(request, tournament_id, keys, lambda moved, _count: moved):
        return HttpResponse(status=204)
    return _organiser_page(request, tournament_id=tournament_id, **keys)


@club_link()
def _organiser_page(request: HtmxHttpRequest, club: Club, tournament_id: Any) -> HttpResponse:
    return _organise(request, club, _tournament(club, tournament_id, board=True))


def _unchanged(
    request: HtmxHttpRequest,
    tournament_id: Any,
    keys: dict[str, str],
    shown: Callable[[str, int], str],
) -> bool:
    """Whether a page's ask (htmx, ``?v=``) names the version its tournament is at, as
    ``shown`` writes it from the tournament's version and its count of players: one statement
    that opens the club and reads the version, as a game's poll is."""
    if not (request.htmx and "v" in request.GET):
        return False
    link = url_link(dict(keys), read_only_ok=True)
    known = Tournament.objects.board_version_opened_by(tournament_id, link.key, link.read_only)
    return known is not None and request.GET["v"] == shown(*known)


class _Ask(Exception):
    """An action that asks first: the organiser's page again, with the question on it
    (``ask_swap``: a swap that would repeat a meeting; ``ask_end``: the end)."""

    def __init__(self, **question: Any) -> None:
        super().__init__()
        self.question = question


def _organise(
    request: HtmxHttpRequest, club: Club, found: Tournament, **question: Any
) -> HttpResponse:
    """The organiser's page; with a ``question`` (``_Ask``), an action to confirm."""
    number = found.drawn_rounds
    placings = standings(found)
    return render(
        request,
        "scorekeeper/tournaments/organise.html",
        {
            **question,
            "withdrawn": [p for p in placings if p.withdrew],
            "checked_in": sum(p.here for p in placings),
            "clock": _clock(found, number),
            "version": found.board_version[0],
            "club": club,
            "tournament": found,
            "number": number,
            "tables": _tables(found, club, number) if number else [],
            "standings": placings,
            "left_words": _left_words(found),
            "entry_form": EntryForm(),
            "board_url": reverse("tournament-board", args=[club.view_key, found.pk]),
            "share": _share(request, club, found),
        },
    )


def _share(request: HtmxHttpRequest, club: Club, found: Tournament) -> dict[str, str] | None:
    """A finished tournament is shared as a finished game is: its picture and the big screen's
    page, under the view link, never the secret one."""
    if found.finished is None:
        return None
    board = reverse("tournament-board", args=[club.view_key, found.pk])
    image = reverse("tournament-picture", args=[club.view_key, found.pk])
    return {
        "url": request.build_absolute_uri(board),
        "image": request.build_absolute_uri(image),
        "text": _("%(name)s: the final standings") % {"name": found.name},
    }


@require_POST
@club_link()
def tournament_action(
    request: HtmxHttpRequest, club: Club, tournament_id: Any, action: str
) -> HttpResponse:
    """Draw the next round, close a table, enter or withdraw a player, swap two, or end: each
    refusal said on the organiser's page, nothing changed."""
    found = _tournament(club, tournament_id, board=True)
    try:
        said = _act(request, club, found, action)
    except _Ask as ask:
        # Asked on the page itself, with the same action and "yes".
        return _organise(request, club, found, **ask.question)
    except InputError as refusal:
        messages.error(request, sentence(refusal.message))
    else:
        if said:
            messages.success(request, said)
    return redirect("tournament", club.key, found.pk)


def _act(request: HtmxHttpRequest, club: Club, found: Tournament, action: str) -> str:
    """The organiser's action by its name in the address: what it says once done."""
    act = ACTIONS.get(action)
    if act is None:
        raise Http404
    return act(club, found, request.POST)


def _draw(club: Club, found: Tournament, post: QueryDict) -> str:
    tables = tournaments.draw_round(found, club.key)
    return _("Round %(n)d is drawn: %(tables)d tables.") % {
        "n": tables[0].round,
        "tables": len(tables),
    }


def _close(club: Club, found: Tournament, post: QueryDict) -> str:
    table = found.tables.filter(round=found.drawn_rounds, number=_whole(post.get("table"))).first()
    if table is None:
        raise InputError(_("no such table in this round"), "table")
    tournaments.close_table(table)
    return _("Table %(n)d is closed.") % {"n": table.number}


def _enter(club: Club, found: Tournament, post: QueryDict) -> str:
    form = EntryForm(post)
    if not form.is_valid():
        raise InputError(_("give the player's name"), "name")
    tournaments.enter(found, [form.cleaned_data["name"]])
    return _("%(name)s is entered.") % {"name": form.cleaned_data["name"]}


def _entry(found: Tournament, post: QueryDict) -> Entry:
    entry = found.entries.select_related("player", "tournament").filter(
        player_id=_whole(post.get("player"))
    )
    if not entry:
        raise InputError(_("no such player in this tournament"), "player")
    return entry[0]


def _withdraw(club: Club, found: Tournament, post: QueryDict) -> str:
    entry = _entry(found, post)
    tournaments.withdraw(entry)
    return _("%(name)s is withdrawn and keeps their points.") % {"name": entry.player.name}


def _reinstate(club: Club, found: Tournament, post: QueryDict) -> str:
    entry = _entry(found, post)
    tournaments.reinstate(entry)
    return _("%(name)s is back in from the next round.") % {"name": entry.player.name}


def _here(club: Club, found: Tournament, post: QueryDict) -> str:
    entry = _entry(found, post)
    here = post.get("here") != "no"
    tournaments.check_in(entry, here)
    if here:
        return _("%(name)s is here.") % {"name": entry.player.name}
    return _("%(name)s is not checked in.") % {"name": entry.player.name}


def _swap(club: Club, found: Tournament, post: QueryDict) -> str:
    swap = SwapForm(post)
    if not swap.is_valid():
        raise InputError(_("pick two players to swap"), "swap")
    players = club.players.in_bulk([swap.cleaned_data["first"], swap.cleaned_data["second"]])
    if len(players) != 2:
        raise InputError(_("pick two players to swap"), "swap")
    first, second = (players[swap.cleaned_data[k]] for k in ("first", "second"))
    try:
        tournaments.swap_players(found, first, second, repeat_ok=swap.cleaned_data["repeat_ok"])
    except tournaments.WouldMeetAgain as repeat:
        raise _Ask(ask_swap=repeat) from None
    return _("The two players are swapped.")


def _end(club: Club, found: Tournament, post: QueryDict) -> str:
    if post.get("confirm") != "yes":
        raise _Ask(ask_end=True)
    tournaments.end_tournament(found)
    return _("The tournament is over.")


def _reopen(club: Club, found: Tournament, post: QueryDict) -> str:
    tournaments.reopen(found)
    return _("The tournament is open again: draw the next round, or end it.")


ACTIONS: dict[str, Callable[[Club, Tournament, QueryDict], str]] = {
    "draw": _draw,
    "close": _close,
    "enter": _enter,
    "withdraw": _withdraw,
    "reinstate": _reinstate,
    "here": _here,
    "swap": _swap,
    "end": _end,
    "reopen": _reopen,
}


def _whole(said: str | None) -> int:
    """A number a form sent, or 0 (which names nothing)."""
    return int(said) if said and said.isdigit() and len(said) < 10 else 0


@require_GET
@club_link()
def table_cards(
    request: HtmxHttpRequest, club: Club, tournament_id: Any, pdf: bool = False
) -> HttpResponse:
    found = _tournament(club, tournament_id)
    number = found.drawn_rounds
    if not number:
        raise Http404(_("No round is drawn yet"))
    rows = _tables(found, club, number)
    cards = [
        Card(
            row["table"].number,
            [p.name for p in row["players"]],
            row["deals"],
            request.build_absolute_uri(row["url"]),
        )
        for row in rows
    ]
    round_words = _("Round %(n)d") % {"n": number}
    if pdf:
        content = table_cards_pdf(found.name, round_words, cards, _paper(request))
        return _pdf(content, f"tables-round-{number}.pdf")
    for card in cards:
        card.qr = qr_svg(card.url)  # type: ignore[attr-defined]
    return render(
        request,
        "scorekeeper/tournaments/cards.html",
        {
            "club": club,
            "tournament": found,
            "cards": cards,
            "round_words": round_words,
            "title": f"{found.name} · {round_words}",
            "pdf_url": reverse("table-cards-pdf", args=[club.key, found.pk]),
        },
    )


@require_GET
@club_link()
def results(request: HtmxHttpRequest, club: Club, tournament_id: Any) -> HttpResponse:
    found = _tournament(club, tournament_id)
    placings = standings(found)
    content = results_pdf(
        found.name,
        f"{club.name} · {_about(found, len(placings))}",
        scheme(found, set(found.tables.values_list("size", flat=True))),
        placings,
        _left_words(found),
        _paper(request),
    )
    return _pdf(content, "results.pdf")


def _about(found: Tournament, players: int) -> str:
    """What a tournament was, in a line: when, how many rounds and players."""
    rounds = found.drawn_rounds
    return " · ".join(
        [
            date_format(found.created, "DATE_FORMAT"),
            ngettext("%(n)d round", "%(n)d rounds", rounds) % {"n": rounds},
            ngettext("%(n)d player", "%(n)d players", players) % {"n": players},
        ]
    )


@require_GET
def board(request: HtmxHttpRequest, tournament_id: Any, **keys: str) -> HttpResponse:
    """The leaderboard for a big screen: large, dark, no controls, up to 40 players a page. It
    asks twice a second whether anything changed, and draws itself again when a game moves on:
    a second from a table's last round to the screen has to hold the wait for the next ask, the
    answer and the redraw (a beat of one second showed it 0.2–1.5 s after, on a loaded machine;
    half a second keeps it under one).

    "Nothing changed" (204) is one statement that opens the club and reads the tournament's
    version, as a game's poll is: with the club opened first and the version counted in three
    more, it took 14–21 times what ``/healthz`` takes (``bench/tournament.py``), and a hall of
    screens asks it 100 times a second for every 50 of them."""
    if _unchanged(request, tournament_id, keys, partial(_shown, request)):
        return HttpResponse(status=204)
    return _board(request, tournament_id=tournament_id, **keys)


def _shown(request: HtmxHttpRequest, moved: str, count: int) -> str:
    """The version of the page of the leaderboard a screen shows: the tournament's, and which
    page (pinned with ``?page=``, or the one whose turn it is)."""
    pinned = request.GET.get("page")
    return f"{moved}-{_page(pinned, count) if pinned else _turn(count)}"


@club_link(read_only_ok=True)
def _board(request: HtmxHttpRequest, club: Club, tournament_id: Any) -> HttpResponse:
    found = _tournament(club, tournament_id, board=True)
    pinned = request.GET.get("page")
    version = _shown(request, *found.board_version)
    page = int(version.rsplit("-", 1)[1])
    placings = standings(found)
    number = found.drawn_rounds
    playing = [t.number for t in tournaments.still_playing(found) if t.round == number]
    context = {
        "club": club,
        "tournament": found,
        # Two columns of twenty side by side: forty names on a 16:9 screen with no scrolling.
        "columns": _columns(placings[(page - 1) * BOARD_PAGE : page * BOARD_PAGE]),
        "page": page,
        "pinned": bool(pinned),
        "pages": max(1, -(-len(placings) // BOARD_PAGE)),
        "number": number,
        "playing": ngettext(
            "Round %(round)d still playing at table %(tables)s",
            "Round %(round)d still playing at tables %(tables)s",
            len(playing),
        )
        % {"round": number, "tables": ", ".join(str(n) for n in playing)}
        if playing
        else "",
        "scheme": scheme(
            found, set(found.tables.filter(round=number).values_list("size", flat=True))
        ),
        "version": version,
        "clock": _clock(found, number),
        "left_words": _left_words(found),
    }
    template = "scorekeeper/tournaments/board.html" + ("#board" if request.htmx else "")
    response = render(request, template, context)
    response["Cache-Control"] = "no-store"
    return response


def _columns(placings: list[Placing]) -> list[list[Placing]]:
    half = BOARD_PAGE // 2
    return [placings[i : i + half] for i in range(0, len(placings), half)] or [[]]


def _page(said: str, total: int) -> int:
    """The page asked for (``?page=2``: a screen kept on one page), within the pages there are."""
    pages = max(1, -(-total // BOARD_PAGE))
    return min(pages, int(said)) if said.isdigit() and 1 <= len(said) < 6 and int(said) else 1


def _turn(total: int) -> int:
    """The page a screen with no controls shows now: beyond forty players the pages take turns,
    each for ``BOARD_TURN`` seconds (the screen's next ask after a turn brings the next page)."""
    pages = max(1, -(-total // BOARD_PAGE))
    return int(time.time() // BOARD_TURN) % pages + 1


@require_GET
@club_link(read_only_ok=True)
def tournament_picture(request: HtmxHttpRequest, club: Club, tournament_id: Any) -> HttpResponse:
    """A finished tournament's final standings as a picture to share, under the view link, as a
    finished game's is: the first sixteen, the prize places starred."""
    found = _tournament(club, tournament_id, board=True)
    if found.finished is None:
        raise Http404(_("No picture of a tournament still being played"))

    def draw(theme: str) -> bytes:
        placings = standings(found)
        line = f"{_('Final standings')} · {_about(found, len(placings))}"
        rows = [
            Standing(p.place, p.mark, p.name, _placing_words(p), star=p.prize) for p in placings
        ]
        return standings_picture(club.name, found.name, line, rows, theme)

    return picture_answer(request, club, f"tournament-{found.pk}-{found.board_version[0]}", draw)


def _placing_words(placing: Placing) -> str:
    points = ngettext("%(n)d point", "%(n)d points", placing.points) % {"n": placing.points}
    won = ngettext("%(n)d won", "%(n)d won", placing.wins) % {"n": placing.wins}
    return f"{points} · {won}" + (f" · {_('withdrew')}" if placing.withdrew else "")


def placings_csv(placings: list[Placing]) -> str:
    return spreadsheet(
        [
            ["place", "name", "points", "games_won", "left", "games", "prize", "withdrew"],
            *(
                [p.place, p.name, p.points, p.wins, p.left, p.games, int(p.prize), int(p.withdrew)]
                for p in placings
            ),
        ]
    )


@require_GET
@club_link()
def results_csv(request: HtmxHttpRequest, club: Club, tournament_id: Any) -> HttpResponse:
    found = _tournament(club, tournament_id)
    response = HttpResponse(placings_csv(standings(found)), content_type="text/csv")
    response["Content-Disposition"] = 'attachment; filename="results.csv"'
    return response


@require_GET
@club_link()
def rounds_csv(request: HtmxHttpRequest, club: Club, tournament_id: Any) -> HttpResponse:
    """Each round's tables as drawn and as they ended, a row a seat (``?round=n``: one round):
    who sat where, their place and the points it earned once their game counted."""
    found = _tournament(club, tournament_id)
    asked = request.GET.get("round")
    seats = GameSeat.objects.filter(game__table__tournament=found)
    if asked is not None:
        if not asked.isdigit() or not 1 <= int(asked) <= found.drawn_rounds:
            raise Http404(_("Round %(n)s is not drawn") % {"n": asked[:6]})
        seats = seats.filter(game__table__round=int(asked))
    rows: list[list[Any]] = [["round", "table", "seat", "name", "place", "points", "game"]]
    for seat in seats.select_related("player", "game__table").order_by(
        "game__table__round", "game__table__number", "position"
    ):
        game, table = seat.game, seat.game.table
        counts = game.finished and not game.abandoned and game.deleted is None and seat.place
        state = "abandoned" if game.abandoned else "over" if game.finished else "playing"
        if table.closed and state == "playing":
            state = "closed"
        points = found.points_for(table.size)[seat.place - 1] if counts and seat.place else ""
        rows.append(
            [
                table.round,
                table.number,
                seat.position + 1,
                seat.player.name,
                seat.place or "",
                points,
                state,
            ]
        )
    name = f"round-{int(asked)}.csv" if asked else "rounds.csv"
    response = HttpResponse(spreadsheet(rows), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_GET
@club_link(read_only_ok=True)
def tournament_list(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    return render(
        request,
        "scorekeeper/tournaments/list.html",
        {"club": club, "tournaments": club.tournaments.all()[:50]},
    )
