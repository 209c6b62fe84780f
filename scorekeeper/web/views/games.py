"""A game at the table: start it, record rounds, undo, edit, and look back. Each view reads
the request, calls a verb (``scorekeeper.play``) and draws a page."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.core.cache import caches
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response
from django.utils.functional import SimpleLazyObject
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from ... import live, play
from ...lib.qr import qr_svg
from ...lib.text import sentence
from ...models import Club, Game, Night, RoundInputs
from ...models.clubs import key_digest
from ...play import AlreadyRecorded, StaleGame, TableMustChoose, Unusual
from ...reports.chart import lives_chart, sheet_rows
from ...reports.picture import THEMES, picture
from ...reports.rounds import lives_over_rounds, round_page
from ...reports.summary import summarise
from ...reports.tournaments import night_line_words, night_standings, night_title
from ...rules import ROUND_ENDINGS, Result, Status
from ...rules.errors import InputError
from ...rules.game import GameState, Step, stored_state
from ...rules.numbers import read_whole
from ...rules.resolve import SHOWN_BY_ONE
from ...rules.view import SeatView, saved_words, table_view, toast_words
from .. import contract, engine
from ..access import Link, client_address, club_link, game_link, url_link
from ..forms.games import GameNameForm, NewGameForm, PlayAgainForm, RecordForm, VersionForm
from ..http import HtmxHttpRequest
from .app import engine_urls


@require_http_methods(["GET", "POST"])
@club_link()
def new_game(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    form = NewGameForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            game = form.start()
        except InputError as refusal:
            form.add_error(None, sentence(refusal.message))
        else:
            return redirect(game)
    return render(request, "scorekeeper/new_game.html", {"club": club, "form": form})


def links(game: Game, link: Link) -> dict[str, object]:
    """Where a page's links and live updates go: the secret link's pages, or the viewer's."""
    return {
        "can_record": not link.read_only,
        # A tournament table's scoring link records its game and opens nothing else.
        "table_link": link.table,
        "club_url": "" if link.table else link.url("club"),
        "table_url": link.url("game", game.id),
        "log_url": link.url("round-log", game.id),
        "poll_url": link.url("game-version", game.id),
        "events_url": link.url("game-events", game.id),
        # How long a stream may say nothing before the page polls again: its beat, and a margin.
        "quiet_ms": (live.HEARTBEAT + 5) * 1000,
    }


def _night(game: Game) -> dict[str, object] | None:
    """The night this game ended, where it is one of several played back to back."""
    night = cast(Night, game.night)
    count, lines = night_standings(night)
    if count < 2:
        return None
    title = night_title(night)
    games = ngettext("%(n)d game", "%(n)d games", count) % {"n": count}
    best = f"{lines[0].name}: {night_line_words(lines[0], game.rules.played_for_pot)}"
    return {
        "night": night,
        "games": count,
        "lines": lines,
        # Shared as a finished game is: its picture, under the view link.
        "image": reverse("night-picture", args=[game.club.view_key, night.pk]),
        "share_text": f"{title}: {games}. {best}",
    }


def table_context(
    game: Game,
    link: Link,
    form: RecordForm | None = None,
    preview: Step | None = None,
    step: Step | None = None,
) -> dict[str, object]:
    """The table page from the state stored with the game: no round is read or worked out.

    Every word of the table is the table view's (``rules/view.py``), the one the phone's engine
    draws too. The latest round's story is told from the ``step`` that was just recorded, or
    else only when the page draws it (it is kept per version of the game). The record form and
    the players' rows are made only when the page draws them, for the same reason."""
    state = game.state
    story = cast(Sequence[str], SimpleLazyObject(lambda: game.last_story))
    view = table_view(game.rules, state, step, story=story)
    recording = not (link.read_only or state.game_over or game.abandoned or game.deleted)
    record_form: Any = None
    if recording:
        record_form = form or SimpleLazyObject(lambda: RecordForm(game=game))
    summary = summarise(game) if state.game_over else None
    night = _night(game) if state.game_over and game.night_id else None
    return {
        **links(game, link),
        "club": game.club,
        "game": game,
        "state": state,
        "summary": summary,
        "night": night,
        "share_text": summary.share_text(game.preset_name) if summary else "",
        # The picture of a finished game and the page it is shared with: the view link's, never
        # the secret link's (share_picture).
        "share": {
            "image": reverse("view-share-picture", args=[game.club.view_key, game.id]),
            "url": reverse("view-game", args=[game.club.view_key, game.id]),
        }
        if summary and not link.table
        else None,
        "view": view,
        "rows": cache(lambda: _rows(game, record_form, view["seats"])),
        # A tile as the phone fills it (board.js): every part, none shown.
        "blank_seat": BLANK_SEAT,
        # Each player's colour and initials (lib.marks), in seat order: part of what keeps a
        # drawn board, as the names are.
        "marks": list(game.marks),
        "recording": recording,
        "form": record_form,
        "bound": form is not None and form.is_bound,
        # What the page's script needs from the rules (static/js/table.js).
        "counting": game.counting,
        "one_each": " ".join(SHOWN_BY_ONE),
        # The id of this page's next tap: a repeat of it is recorded once.
        "tap_id": uuid.uuid4().hex,
        "preview": preview,
        "next_round": state.rounds + 1,
        # The engine on the phone plays the next rounds from here (static/js/engine-client.js, engine-worker.js).
        "engine": engine_urls() if recording else None,
        # "Play again" without a connection: the next game's page, drawn ahead (again.js).
        "stand_in": play.next_game_id(game)
        if not (link.read_only or link.table or game.abandoned or game.deleted)
        else None,
        "engine_table": {
            "rules": game.rules_data,
            "rules_version": game.rules_version,
            "names": list(state.names),
            "state": stored_state(state),
            # The engine this server runs: a phone whose engine is older leaves rounds to it.
            "engine": engine.bundle()[0] if engine.runtime_dir() else "",
        }
        if recording
        else None,
    }


BLANK_SEAT: SeatView = {
    "name": "",
    "name_fit": "",
    "lives": 0,
    "status": "in",
    "out": False,
    "tappable": False,
    "label": "",
    "label_fit": "",
    "deals": False,
    "tokens": [],
    "count": "",
    "coins": None,
    "said": "",
}


def _rows(game: Game, form: RecordForm | None, seats: list[SeatView]) -> list[dict[str, Any]]:
    """Each player as the scoreboard shows them (the table view's seats, which the phone's
    engine draws too), with the record form's tile when recording."""
    tiles = form.tiles() if form else [None] * len(seats)
    marks = list(game.marks)
    return [
        {**seat, "tile": tile, "mark": mark}
        for seat, tile, mark in zip(seats, tiles, marks, strict=True)
    ]


@require_GET
@vary_on_headers("HX-Request")
@game_link(read_only_ok=True, table_ok=True)
def game(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """The table page, through the secret link (with the record form) or the view link; htmx
    (a refresh after news of a change) gets the table region only."""
    return _render_table(request, game)


def _render_table(request: HtmxHttpRequest, game: Game, **context: Any) -> HttpResponse:
    """The table page; htmx (a refresh, or the answer to a tap) gets the table region only."""
    template = "scorekeeper/game.html"
    if request.htmx:
        template += "#table"
    page = table_context(game, request.link, **context)
    if isinstance(share := page["share"], dict):
        page["share"] = {name: request.build_absolute_uri(url) for name, url in share.items()}
        if isinstance(night := page["night"], dict):
            night["image"] = request.build_absolute_uri(night["image"])
    return render(request, template, page)


def _version_answer(request: HtmxHttpRequest, version: int | None) -> HttpResponse:
    """204 while the game is as the page saw it; otherwise an event that refreshes the page."""
    if version is None:
        raise Http404(_("No such game"))
    if request.GET.get("v", "") == str(version):
        response = HttpResponse(status=204)
    else:
        response = HttpResponse(status=200)
        trigger_client_event(response, "game-changed", {"version": version})
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def game_version(request: HtmxHttpRequest, game_id: Any, **keys: str) -> HttpResponse:
    """Polled every 2 seconds by every open page of a game that has no stream of news open:
    one indexed query that authorises and reads the version, and no rendering."""
    link = url_link(keys, read_only_ok=True)
    version = Game.objects.version_opened_by(game_id, link.key, link.read_only)
    if version is None and not link.read_only:  # a tournament table's scoring key
        version = Game.objects.table_version(game_id, link.key)
    return _version_answer(request, version)


@require_GET
async def game_events(
    request: HtmxHttpRequest, game_id: uuid.UUID, **keys: str
) -> HttpResponseBase:
    """A stream of news of a game (server-sent events), for a page that would otherwise poll.

    It needs an ASGI server (gunicorn's asgi worker: ``config/gunicorn_events.py``), which holds
    thousands of quiet streams in one process. A WSGI server holds a thread per request, so it
    answers 204, which tells the browser not to reconnect soon, and the page keeps polling."""
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    link = url_link(keys, read_only_ok=True)
    news = live.watcher()
    version = await news.run(Game.objects.version_opened_by, game_id, link.key, link.read_only)
    table = False
    if version is None and not link.read_only:  # a tournament table's scoring key
        version = await news.run(Game.objects.table_version, game_id, link.key)
        table = True
    if version is None:
        raise Http404(_("No such game"))
    admitted = news.admit(client_address(request))
    if admitted is None:
        # This client (or this process) holds as many streams as it may: the page polls, and
        # its stream tries again later.
        busy = HttpResponse(status=503, content_type="text/plain")
        busy["Retry-After"] = str(live.LIFETIME // 10)
        return busy
    stream = news.news(
        game_id,
        _heard(request),
        version,
        admitted=admitted,
        key=None if table else key_digest(link.key),
    )
    admitted.follows(stream)
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _heard(request: HtmxHttpRequest) -> int | None:
    """The version a page last heard of, as it says (``Last-Event-ID``, or ``?v=``), read by
    the one strict number reader: anything else is none."""
    said = request.headers.get("Last-Event-ID") or request.GET.get("v") or ""
    try:
        return read_whole(said, "v", "v", 0, 2**31 - 1)
    except InputError:
        return None


# What a Record tap did, for a phone sending the rounds that waited on it (static/js/sender.js).
TAP_OUTCOME = contract.TAP_OUTCOME


@require_POST
@game_link(table_ok=True)
def record(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Preview a round (what will happen), or confirm it (save it)."""
    form = RecordForm(request.POST, game=game)
    if "confirm" not in request.POST:
        return _preview(request, game, form)
    response, outcome = _record(request, game, form)
    response[TAP_OUTCOME] = outcome
    response[contract.TABLE_VERSION] = str(game.version)
    return response


def _preview(request: HtmxHttpRequest, game: Game, form: RecordForm) -> HttpResponse:
    if not form.is_valid():
        return _render_preview(request, game, form)
    try:
        return _render_preview(request, game, form, play.preview_round(game, form.inputs()))
    except InputError as refusal:
        form.place_error(refusal)
        return _render_preview(request, game, form)


def _record(request: HtmxHttpRequest, game: Game, form: RecordForm) -> tuple[HttpResponse, str]:
    if not form.is_valid():
        return _refused(_render_table(request, game, form=form), form.error_sentences()), "refused"
    inputs: RoundInputs | None = None
    try:
        inputs = form.inputs()
        step = play.record_round(game, inputs, seen_version=form.cleaned_data.get("version"))
    except (Unusual, TableMustChoose) as unsaved:
        # Counted as no round of these rules gives: shown first, saved once confirmed. Left to
        # the table and recorded before it chose: its choices stay on the screen.
        return _render_table(request, game, form=form, preview=unsaved.step), "refused"
    except InputError as refusal:
        form.place_error(refusal)
        return _refused(_render_table(request, game, form=form), form.error_sentences()), "refused"
    except (StaleGame, AlreadyRecorded):
        # Another phone changed the game first; or the same tap arrived twice (a double tap,
        # or a retry after a lost answer).
        seen = form.cleaned_data.get("version")
        return _stale(request, game, inputs.client_id if inputs else "", seen)
    if request.htmx:
        # At its new version (record moved it there), with the toast that says what was saved
        # (none at game over: the game-over screen says it, with its one Undo).
        said = toast_words(game.state, step)
        drawn = _render_table(request, game, step=step)
        return _with_toast(request, drawn, game, said, undo=True), "saved"
    messages.success(request, saved_words(step))
    return redirect(game), "saved"


def _with_toast(
    request: HtmxHttpRequest, response: HttpResponse, game: Game, said: str, undo: bool = False
) -> HttpResponse:
    """The answer to a tap, and what it did in the page's toast (a live region) beside it."""
    if said:
        response.write(
            render_to_string(
                "scorekeeper/game.html#toast",
                {
                    "toast": said,
                    "game": game,
                    "undo_url": reverse("undo", args=[game.club.key, game.id]) if undo else "",
                },
                request,
            )
        )
    return response


def _render_preview(
    request: HtmxHttpRequest, game: Game, form: RecordForm, preview: Step | None = None
) -> HttpResponse:
    """What the round would do. A chip tap (htmx, aimed at the preview) gets that part alone;
    the page without JavaScript gets the whole table with the preview in it."""
    if request.htmx and request.htmx.target == "preview":
        # Mid-tap, what the round still lacks is said plainly, not as an alarm.
        return render(
            request,
            "scorekeeper/game.html#preview",
            {"form": form, "preview": preview, "pending": True},
        )
    return _render_table(request, game, form=form, preview=preview)


def _refused(response: HttpResponse, why: list[str]) -> HttpResponse:
    """A tap the form refused, saying why for a phone that sent it from its outbox."""
    response[contract.TAP_WHY] = json.dumps(" ".join(why))
    return response


def _stale(
    request: HtmxHttpRequest, game: Game, client_id: str = "", seen: int | None = None
) -> tuple[HttpResponse, str]:
    """The tap met a game that had changed (or was recorded before): the table as it is now,
    saying which; and, for a phone sending a round it kept, the rounds another phone recorded
    since the table it was made on, so the table can tell whether they are the same hand."""
    answer = play.stale_answer(game, client_id)
    if answer.recorded:
        messages.info(request, answer.said)
    else:
        messages.warning(
            request,
            _("%(change)s. Nothing was saved from this tap.") % {"change": answer.said},
        )
    outcome = "already" if answer.recorded else "stale"
    response = _render_table(request, game) if request.htmx else redirect(game)
    if not answer.recorded:
        response[contract.TAP_WHY] = json.dumps(answer.said)
        if seen is not None:
            response[contract.THEIR_ROUNDS] = json.dumps(play.rounds_since(game, seen))
    return response, outcome


@require_POST
@game_link(table_ok=True)
def undo(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    form = VersionForm(request.POST)
    said = ""
    try:
        if not form.is_valid():
            raise InputError(_("that tap could not be read: nothing was taken back"), "version")
        undone = play.undo_round(game, seen_version=form.cleaned_data["version"])
        said = _("Round %(n)d taken back.") % {"n": undone.number}
    except StaleGame:
        return _stale(request, game)[0]
    except InputError as refusal:
        messages.error(request, sentence(refusal.message))
    if request.htmx:
        return _with_toast(request, _render_table(request, game), game, said)
    if said:
        messages.success(request, said)
    return redirect(game)


@require_POST
@game_link()
def set_aside(request: HtmxHttpRequest, game: Game, action: str) -> HttpResponse:
    """Abandon or resume a game; put it in the bin or restore it. Each can be taken back."""
    said = {
        "abandon": (
            _("The game was abandoned: it ends with no winner and leaves the stats."),
            {"abandoned": True},
        ),
        "resume": (_("The game goes on."), {"abandoned": False}),
        "delete": (
            _("The game is in the bin for 30 days: restore it from the club page."),
            {"deleted": True},
        ),
        "restore": (_("The game is back."), {"deleted": False}),
    }
    words, change = said[action]
    play.set_aside(game, **change)
    messages.success(request, words)
    return redirect(game.club if action == "delete" else game)


@require_POST
@game_link()
def name_game(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Name a game ("Friday at Ana's"), or take its name away; it changes no round."""
    form = GameNameForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["name"]
        play.name_game(game, name)
        messages.success(
            request,
            _("The game is called %(name)s now.") % {"name": name}
            if name
            else _("The game has no name now."),
        )
    else:
        messages.error(request, " ".join(str(e) for e in form.errors["name"]))
    return redirect(request.link.url("round-log", game.id))


@require_GET
@game_link()
def invite(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Another phone at the table: the view link first (it can change nothing), the secret
    link behind a second tap, with what it allows."""
    club = game.club
    view_link = request.build_absolute_uri(reverse("view-game", args=[club.view_key, game.id]))
    secret_link = request.build_absolute_uri(game.get_absolute_url())
    return render(
        request,
        "scorekeeper/invite.html",
        {
            "club": club,
            "game": game,
            "view_link": view_link,
            "view_qr": qr_svg(view_link),
            "secret_link": secret_link,
            "secret_qr": qr_svg(secret_link),
        },
    )


@require_POST
@game_link(table_ok=True)
def game_mode(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """Referee each round, or just count lives: how this game's table page asks for a round."""
    mode = request.POST.get("mode", "")
    if mode in Game.Mode.values:
        play.set_mode(game, mode)  # the page's hint line says it
    else:
        messages.error(request, _("Choose “Referee each round” or “Just count lives”."))
    return redirect(game)


@require_http_methods(["GET", "POST"])
@game_link(table_ok=True)
def edit_round(request: HtmxHttpRequest, game: Game, number: int) -> HttpResponse:
    club = game.club
    round = game.rounds.as_of(game.version).filter(number=number).first()
    if round is None:
        messages.error(request, _("There is no round %(n)d.") % {"n": number})
        return redirect(game)
    step: Step | None = None
    unusual = False
    before = game.state_before(number)  # who was still in when the round was played
    if request.method == "GET":
        form = RecordForm.for_round(game, RoundInputs.of(round), before)
        step = round_page(game, before=number + 1, size=1).steps[0]
    elif "preview" in request.POST:
        return _edit_preview(
            request, game, number, RecordForm(request.POST, game=game, before=before)
        )
    else:
        form = RecordForm(request.POST, game=game, before=before)
        if form.is_valid():
            try:
                inputs = form.inputs()
                step = play.preview_edit(game, number, inputs)
                if step.result.result == Result.TABLE_DECIDES:
                    # The edited round is one the rules leave to the table: it picks below.
                    raise InputError(_("the rules leave this round to the table: choose"), "choice")
                changes = play.edit_round(
                    game, number, inputs, seen_version=form.cleaned_data.get("version")
                )
            except StaleGame:
                return _stale(request, game)[0]
            except InputError as refusal:
                form.place_error(refusal)
                unusual = isinstance(refusal, Unusual)
            else:
                messages.success(
                    request, " ".join([_("Round %(n)d edited.") % {"n": number}, *changes])
                )
                return redirect(game)
    return render(
        request,
        "scorekeeper/edit_round.html",
        {
            "club": club,
            "game": game,
            "form": form,
            "number": number,
            "choices": step.result.choices if step and step.result.choice_asked else (),
            "unusual": unusual,
            "refused": request.method == "POST",
            **_edit_board(game, form, before, number),
        },
    )


def _edit_board(game: Game, form: RecordForm, before: GameState, number: int) -> dict[str, Any]:
    """The tiles of the table page, as the table was when the round was played: an edit is
    tapped as the round was (static/js/table.js)."""
    view = table_view(game.rules, before)
    return {
        "rows": _rows(game, form, view["seats"]),
        "view": view,
        "state": before,
        "counting": False,
        "one_each": " ".join(SHOWN_BY_ONE),
        "next_round": number,
    }


def _edit_preview(
    request: HtmxHttpRequest, game: Game, number: int, form: RecordForm
) -> HttpResponse:
    """What the edit would do, said before it is saved, beside Save: the round as it would be
    and what that changes in the game (or why it cannot be)."""
    step, changes = None, []
    if form.is_valid():
        try:
            inputs = form.inputs()
            step = play.preview_edit(game, number, inputs)
            if step.result.result != Result.TABLE_DECIDES or inputs.choice:
                changes = play.edit_changes(game, number, inputs)
        except InputError as refusal:
            form.place_error(refusal)
            step = None
    template = "scorekeeper/edit_round.html" + ("#preview" if request.htmx else "")
    return render(
        request,
        template,
        {
            "club": game.club,
            "game": game,
            "form": form,
            "number": number,
            "step": step,
            "changes": changes,
            "previewed": True,
            **_edit_board(game, form, form.before or game.state, number),
        },
    )


@require_GET
@vary_on_headers("HX-Request")
@game_link(read_only_ok=True, table_ok=True)
def round_log(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """The round log, newest first, a page of rounds at a time (``?before=``), each worked out
    again from the table before it; the lives chart of the whole game and, for the page's
    rounds, the score sheet."""
    state = game.state
    page = round_page(game, before=_read_before(request))
    taken_back = list(game.rounds.taken_back_by(game.version).order_by("-changed")[:TAKEN_BACK])
    template = "scorekeeper/round_log.html" + ("#log" if request.htmx else "")
    last_chance = game.rules.status_label(Status.COUNTY) if game.rules.last_chance else ""
    out = game.rules.status_label(Status.OUT)
    return render(
        request,
        template,
        {
            **links(game, request.link),
            "club": game.club,
            "game": game,
            "state": state,
            "page": page,
            "steps": page.steps,
            "entries": [log_entry(state, step) for step in reversed(page.steps)],
            "chart": lives_chart(lives_over_rounds(game), list(game.marks), last_chance, out),
            "sheet": sheet_rows(state, page.steps),
            "last_chance": last_chance,
            "out_word": out,
            "taken_back": taken_back,
        },
    )


TAKEN_BACK = 20  # the rounds taken back that the log lists, newest first


def _read_before(request: HtmxHttpRequest) -> int | None:
    """The page of rounds asked for (``?before=N``: the rounds before round N), read strictly."""
    try:
        return read_whole(request.GET.get("before", ""), "before", "before", 1, 10**6)
    except InputError:
        return None


def log_entry(state: GameState, step: Step) -> dict:
    """One round of the log in words: who dealt, how it ended, who lost what and why."""
    names, result, round = state.names, step.result, step.round
    chosen = {choice.id: choice.words for choice in result.choices}
    return {
        "number": step.number,
        "dealer": names[step.dealer],
        "ending": _(ROUND_ENDINGS[round.ending].words),
        "summary": step.summary,
        "knocker": names[round.knocker] if round.knocker is not None else "",
        "shown": [names[p] for p in round.shown_by],
        "choice": chosen.get(round.choice or "", round.choice or ""),
        "hands": [
            {
                "name": name,
                "cards": hand.cards,
                "value": hand.value,
                "explanation": hand.explanation,
            }
            for name, hand in result.hands.items()
        ],
        "explanation": result.explanation,
    }


@require_POST
@game_link()
def play_again(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """The next game, saved; under the id the phone made, where it sends one (sent again, the
    same game). The phone's own request (htmx's headers) is answered with where it is."""
    form = PlayAgainForm(request.POST)
    try:
        if not form.is_valid():
            raise InputError(str(form.errors["id"][0]), "id")
        new = play.play_again(game, form.cleaned_data["id"])
    except InputError as refusal:
        if request.htmx:
            return HttpResponse(
                f"{refusal.field}: {refusal.message}", status=400, content_type="text/plain"
            )
        messages.error(request, capfirst(refusal.message))
        return redirect(game)
    messages.success(request, _("A new game with the same players and rules: the deal moved on."))
    where = reverse("game", args=[game.club.key, new.id])
    return HttpResponseClientRedirect(where) if request.htmx else redirect(where)


@require_GET
@game_link()
def next_game(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """The table page of the game "Play again" starts, drawn before it exists (nothing is
    saved): kept by the phone, which plays again from it without a connection under an id it
    makes (static/js/again.js)."""
    new = play.next_game(game)
    context = {**table_context(new, request.link), "page_path": new.get_absolute_url()}
    response = render(request, "scorekeeper/game.html", context)
    response["Cache-Control"] = "no-store"
    return response


@require_GET
@game_link(read_only_ok=True)
def share_picture(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """A finished game as a picture to share (``reports.picture``), through the view link only:
    ``?theme=dark`` for the dark theme, ``?lang=de`` in German (else the page's language), so
    that a chat app's preview and a phone's share sheet get the same picture at the same URL.
    A game still being played has none."""
    if not game.state.game_over:
        raise Http404(_("No picture of a game still being played"))
    return picture_answer(
        request,
        game.club,
        f"{game.pk}-{game.version}",
        lambda theme: picture(game, list(game.marks), theme),
    )


def picture_answer(
    request: HtmxHttpRequest, club: Club, drawn: str, draw: Callable[[str], bytes]
) -> HttpResponse:
    """A picture to share, of what ``drawn`` names at its version: ``?theme=dark`` for the dark
    theme, ``?lang=de`` in German (else the page's language), so that a chat app's preview and a
    phone's share sheet get the same picture at the same URL."""
    theme = request.GET.get("theme", "light")
    theme = theme if theme in THEMES else "light"
    language = request.GET.get("lang", "")
    if language not in dict(settings.LANGUAGES):
        language = translation.get_language()
    # Keyed on what it shows: the club's name and its players' names and marks as they are now
    # (a player renamed is a new picture), the version, the language and the theme.
    people = club.players.order_by("pk").values_list("name", "colour", "initials")
    shows = hashlib.sha256(repr((club.pk, club.name, list(people))).encode()).hexdigest()[:16]
    drawn = f"{drawn}-{shows}-{language}-{theme}"
    etag = f'"{drawn}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        # Each chat that previews the link asks again: the picture is drawn once and kept (a
        # 2,000-round game took 0.1–0.3 s a drawing), on disk (settings.CACHES["pictures"]).
        png = caches["pictures"].get(drawn)
        if png is None:
            with translation.override(language):
                png = draw(theme)
            caches["pictures"].set(drawn, png)
        response = HttpResponse(png, content_type="image/png")
    response["ETag"] = etag
    # It shows only what the view link shows: caches may keep it (KeyedPagesStayPrivate lets
    # an answer marked shareable keep its own Cache-Control).
    response["Cache-Control"] = "public, max-age=3600"
    response.shareable = True  # type: ignore[attr-defined]
    return response
