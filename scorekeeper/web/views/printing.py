"""The printed pages: a rules card and a score sheet, as print-friendly pages and as PDFs."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ...models import Game
from ...reports.chart import sheet_rows
from ...reports.printing import PAPERS, SheetRow, rules_card_pdf, score_sheet_pdf, sheet_cells
from ...reports.rounds import RoundPage, round_page
from ...rules import PRESETS
from ...rules.errors import InputError
from ...rules.numbers import read_whole
from ..access import game_link
from ..http import HtmxHttpRequest

BLANK_ROUNDS = 20


def _paper(request: HttpRequest) -> str:
    paper = request.GET.get("paper", "a4").lower()
    return paper if paper in PAPERS else "a4"


def _pdf(content: bytes, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def _rules_of_preset(preset: str) -> tuple[str, str, list[dict[str, Any]]]:
    if preset not in PRESETS:
        raise Http404(_("No such rules"))
    found = PRESETS[preset]
    title = _("Rules of 31: %(rules)s") % {"rules": found.title}
    return title, found.summary, found.rules.describe(found.readings)


def _rules_of_game(game: Game) -> tuple[str, str, list[dict[str, Any]]]:
    title = _("Rules of this game: %(rules)s") % {"rules": game.preset_name}
    title += f" · {game.name}" if game.name else ""
    return title, _house_rules_words(game), game.rules_card()


def _house_rules_words(game: Game) -> str:
    preset = PRESETS.get(game.preset)
    if preset is None:
        return ""
    house = game.rules.changed_from(preset.rules)
    changed = [row["label"] for row in game.rules_card() if row["name"] in house]
    if not changed:
        return _("No house rules.")
    return _("House rules: %(switches)s.") % {"switches": ", ".join(changed)}


@require_GET
def preset_rules(request: HttpRequest, preset: str, pdf: bool = False) -> HttpResponse:
    title, description, card = _rules_of_preset(preset)
    if pdf:
        return _pdf(
            rules_card_pdf(title, description, card, _paper(request)), f"knock-{preset}.pdf"
        )
    return render(
        request,
        "scorekeeper/print_rules.html",
        {
            "title": title,
            "description": description,
            "card": card,
            "pdf_url": reverse("preset-rules-pdf", args=[preset]),
            "presets": PRESETS.values(),
        },
    )


@require_GET
@game_link(table_ok=True)
def game_rules(request: HtmxHttpRequest, game: Game, pdf: bool = False) -> HttpResponse:
    title, description, card = _rules_of_game(game)
    if pdf:
        return _pdf(rules_card_pdf(title, description, card, _paper(request)), "knock-rules.pdf")
    return render(
        request,
        "scorekeeper/print_rules.html",
        {
            "title": title,
            "description": description,
            "card": card,
            "game": game,
            "pdf_url": reverse("game-rules-pdf", args=[game.club.key, game.id]),
        },
    )


def _blank(request: HttpRequest) -> tuple[list[str], int]:
    try:
        players = read_whole(request.GET.get("players", "4"), "players", "players", 2, 9)
        lives = read_whole(request.GET.get("lives", "3"), "lives", "lives", 1, 6)
    except InputError:
        players, lives = 4, 3
    return [""] * players, lives


@require_GET
def blank_sheet(request: HttpRequest, pdf: bool = False) -> HttpResponse:
    names, lives = _blank(request)
    rows = [SheetRow(_("Start"), [lives] * len(names))]
    rows += [SheetRow(str(n), [None] * len(names)) for n in range(1, BLANK_ROUNDS + 1)]
    if pdf:
        return _pdf(
            score_sheet_pdf(_("Score sheet for 31"), names, lives, rows, _paper(request)),
            "knock-score-sheet.pdf",
        )
    return render(
        request,
        "scorekeeper/print_sheet.html",
        {
            "title": _("Score sheet for 31"),
            "names": names,
            "lives": lives,
            "rows": sheet_cells(rows, lives),
            "pdf_url": reverse("blank-sheet-pdf") + f"?players={len(names)}&lives={lives}",
        },
    )


SHEET_ROUNDS = 100  # rounds on one printed score sheet (four pages): a longer game has more


def game_rows(game: Game, page: RoundPage) -> list[SheetRow]:
    """The page's rounds as the sheet's rows (the round log's score sheet, on paper): lives
    kept, and what each round did; the start on the first sheet."""
    state = game.state
    if state.coins:  # a game played for a pot: each cell is the coins up or down after it
        start = [] if page.earlier else [SheetRow(_("Start"), [0] * len(state.names))]
        return start + [
            SheetRow(
                str(row["number"]),
                [0] * len(row["cells"]),
                [c["coins_words"] for c in row["cells"]],
            )
            for row in sheet_rows(state, page.steps)
        ]
    rows = [] if page.earlier else [SheetRow(_("Start"), [state.start_lives] * len(state.names))]
    for row in sheet_rows(state, page.steps):
        notes = [
            " ".join(filter(None, [f"−{c['lost']}" if c["lost"] else "", c["label"]]))
            for c in row["cells"]
        ]
        rows.append(SheetRow(str(row["number"]), [c["lives"] for c in row["cells"]], notes))
    return rows


@require_GET
@game_link(table_ok=True)
def game_sheet(request: HtmxHttpRequest, game: Game, pdf: bool = False) -> HttpResponse:
    state = game.state
    before = _before(request)
    page = round_page(game, before, SHEET_ROUNDS)
    rows = game_rows(game, page)
    if game.name:
        title = _("Score sheet: %(name)s") % {"name": game.name}
    else:
        title = _("Score sheet of %(date)s") % {"date": date_format(game.created, "DATE_FORMAT")}
    # A game played for a pot has no lives to cross out: its cells are coins.
    lives = 0 if state.coins else state.start_lives
    intro = _("Coins up or down after each hand.") if state.coins else None
    if pdf:
        return _pdf(
            score_sheet_pdf(title, state.names, lives, rows, _paper(request), intro, game.marks),
            "knock-score-sheet.pdf",
        )
    return render(
        request,
        "scorekeeper/print_sheet.html",
        {
            "title": title,
            "names": state.names,
            # Each player's mark with their name: the sheet's columns on a narrow screen.
            "players": game.seated,
            "lives": lives,
            "intro": intro,
            "rows": sheet_cells(rows, lives),
            "game": game,
            "page": page,
            "sheet_url": reverse("game-sheet", args=[game.club.key, game.id]),
            "pdf_url": reverse("game-sheet-pdf", args=[game.club.key, game.id])
            + (f"?before={before}" if before else ""),
        },
    )


def _before(request: HttpRequest) -> int | None:
    try:
        return read_whole(request.GET.get("before", ""), "before", "before", 1, 10**6)
    except InputError:
        return None
