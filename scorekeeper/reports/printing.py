"""Printed: a rules card and a score sheet made for 31 (lives, not points), as PDFs on one page.

fpdf2 draws them (pure Python). Text is set in DejaVu Sans where the system has it (the suits
and quotes of the rules' words need a Unicode font; Debian's fonts-dejavu-core has it, and
KNOCK_PDF_FONT names another), and in the PDF's own Helvetica otherwise, with the few
characters it lacks spelled out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.utils.translation import gettext as _
from fpdf import FPDF

from ..lib import fonts
from ..lib.marks import PALETTE, Mark

PAPERS = {"a4": "A4", "letter": "Letter"}
PER_PAGE = 26  # rows of a score sheet on one page: a start and 25 rounds
LATIN = str.maketrans(
    {
        "♠": "S",
        "♥": "H",
        "♦": "D",
        "♣": "C",
        "“": '"',
        "”": '"',
        "’": "'",
        "…": "...",
        "−": "-",
        "—": "-",
        "–": "-",
        "×": "x",
    }
)


class Sheet(FPDF):
    """A page with Knock's fonts set up, and text that always fits the font."""

    def __init__(self, paper: str) -> None:
        super().__init__(orientation="P", unit="mm", format=PAPERS.get(paper, "A4"))
        self.set_auto_page_break(auto=False)
        self.set_margins(12, 12, 12)
        font, heavy = fonts.regular(), fonts.bold()
        self.unicode = font is not None and heavy is not None
        if font is not None and heavy is not None:
            self.add_font("Knock", "", str(font))
            self.add_font("Knock", "B", str(heavy))
        self.family = "Knock" if self.unicode else "Helvetica"
        self.set_creator("Knock")
        self.add_page()

    def say(self, text: str) -> str:
        return (
            text
            if self.unicode
            else text.translate(LATIN).encode("latin-1", "replace").decode("latin-1")
        )

    def style(self, size: float, bold: bool = False) -> None:
        self.set_font(self.family, "B" if bold else "", size)


def rules_card_pdf(
    title: str, description: str, card: Sequence[dict[str, Any]], paper: str
) -> bytes:
    """Every switch of a rule set in the players' words, our readings marked, on one page."""
    pdf = Sheet(paper)
    pdf.set_title(title)
    width = pdf.w - pdf.l_margin - pdf.r_margin
    pdf.style(17, bold=True)
    pdf.multi_cell(width, 8, pdf.say(title), new_x="LMARGIN", new_y="NEXT")
    if description:
        pdf.style(9.5)
        pdf.multi_cell(width, 4.6, pdf.say(description), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    # Sized to fit, leaving the page's foot free: one column at the largest of a few type
    # sizes that fits; where none does (a rule set of many switches), two columns.
    room, top = pdf.h - pdf.get_y() - 14, pdf.get_y()
    columns: list[Sequence[dict[str, Any]]] = [card]
    column_width = width
    for size in (9.5, 9, 8.5, 8):
        if sum(_row_heights(pdf, card, width, size)) < room:
            break
    else:
        column_width = (width - COLUMN_GAP) / 2
        for size in (9, 8.5, 8, 7.5, 7, 6.5):
            heights = _row_heights(pdf, card, column_width, size)
            split = _balanced_split(heights)
            if max(sum(heights[:split]), sum(heights[split:])) < room:
                break
        columns = [card[:split], card[split:]]
    line = size * 0.47
    for i, rows in enumerate(columns):
        pdf.set_xy(pdf.l_margin + i * (column_width + COLUMN_GAP), top)
        for row in rows:
            pdf.style(size, bold=True)
            label = row["label"] + (_(" (our reading)") if row["our_reading"] else "")
            pdf.multi_cell(column_width, line, pdf.say(label), new_x="LEFT", new_y="NEXT")
            pdf.style(size)
            pdf.multi_cell(column_width, line, pdf.say(_row_words(row)), new_x="LEFT", new_y="NEXT")
            pdf.set_xy(pdf.get_x(), pdf.get_y() + 0.6)
    pdf.set_xy(pdf.l_margin, pdf.h - 12)
    pdf.style(7.5)
    pdf.cell(
        width,
        4,
        pdf.say(
            _(
                "Knock · the scorekeeper and referee for 31. “Our reading”: "
                "where the written rules are silent, the reading Knock "
                "applies."
            )
        ),
    )
    return bytes(pdf.output())


def _row_words(row: dict[str, Any]) -> str:
    """A card row's value in words, with what the engine decides where the switches leave a
    case open."""
    if not row.get("reading"):
        return row["words"]
    return row["words"] + " " + _("(our reading: %(reading)s)") % {"reading": row["reading"]}


COLUMN_GAP = 6  # mm between the two columns of a long rules card


def _row_heights(
    pdf: Sheet, card: Sequence[dict[str, Any]], width: float, size: float
) -> list[float]:
    """Each card row's height at this width and type size."""
    heights = []
    for row in card:
        height = 0.6
        for text, bold in ((row["label"] + _(" (our reading)"), True), (_row_words(row), False)):
            pdf.style(size, bold)
            lines = cast(
                list[str],
                pdf.multi_cell(width, size * 0.47, pdf.say(text), dry_run=True, output="LINES"),
            )
            height += len(lines) * size * 0.47
        heights.append(height)
    return heights


def _balanced_split(heights: Sequence[float]) -> int:
    """Where to break the rows into two columns of the most even heights, in their order."""
    return min(
        range(1, len(heights)),
        key=lambda i: max(sum(heights[:i]), sum(heights[i:])),
        default=len(heights),
    )


@dataclass
class SheetRow:
    label: str  # "Start", "1", "2"…
    lives: Sequence[int | None]  # per player; None: a blank box to fill in
    notes: Sequence[str] = ()  # per player: "-1", "on the county", "out"


def score_sheet_pdf(
    title: str,
    names: Sequence[str],
    lives: int,
    rows: Sequence[SheetRow],
    paper: str,
    intro: str | None = None,
    marks: Sequence[Mark] = (),
) -> bytes:
    """A column per player, a row per round, a box per life: crossed when it is lost (a game
    played for a pot: no boxes, and ``intro`` says what its notes are). Each player's mark
    (``marks``, in seat order) stands before their name."""
    pdf = Sheet(paper)
    pdf.set_title(title)
    width = pdf.w - pdf.l_margin - pdf.r_margin
    pdf.style(15, bold=True)
    pdf.cell(width, 8, pdf.say(title), new_x="LMARGIN", new_y="NEXT")
    pdf.style(8.5)
    pdf.cell(
        width,
        5,
        pdf.say(
            intro
            or _(
                "%(lives)d lives each: cross out a box for each life lost. A "
                "player with no box left is on the last chance; the next loss "
                "is out."
            )
            % {"lives": lives}
        ),
        new_x="LMARGIN",
        new_y="NEXT",
    )
    pdf.ln(2)
    first, count = 12.0, max(1, len(names))
    column = (width - first) / count
    top = pdf.get_y()
    # Up to PER_PAGE rows on a page, at least 7 mm high; a longer game goes on to more pages.
    per_page = min(len(rows), PER_PAGE) or 1
    row_height = min(11.0, (pdf.h - top - 22) / per_page)
    box = min(4.5, (column - 3) / max(1, lives) - 0.6, row_height - 4)

    def heading(at: float) -> float:
        pdf.style(9, bold=True)
        pdf.set_xy(pdf.l_margin, at)
        pdf.cell(first, 8, pdf.say("Round"), border=1, align="C")
        for i, name in enumerate(names):
            x = pdf.l_margin + first + i * column
            pdf.rect(x, at, column, 8)
            left = x + 1
            if i < len(marks):
                _mark(pdf, marks[i], x + 1.2, at + 1.2)
                left = x + 7.2
                pdf.style(9, bold=True)
            pdf.set_xy(left, at)
            pdf.cell(
                x + column - 1 - left, 8, pdf.say(_fit(pdf, name, x + column - 1 - left)), align="C"
            )
        return at + 8

    y = heading(top)
    for number, row in enumerate(rows):
        if number and number % PER_PAGE == 0:
            pdf.add_page()
            y = heading(pdf.t_margin)
        pdf.set_xy(pdf.l_margin, y)
        pdf.style(8, bold=True)
        pdf.cell(first, row_height, pdf.say(row.label), border=1, align="C")
        for i in range(count):
            x = pdf.l_margin + first + i * column
            pdf.rect(x, y, column, row_height)
            kept = row.lives[i] if i < len(row.lives) else None
            for b in range(lives):
                bx, by = x + 1.5 + b * (box + 0.6), y + 1.2
                pdf.rect(bx, by, box, box)
                if kept is not None and b >= kept:  # a life lost: crossed out
                    pdf.line(bx, by, bx + box, by + box)
                    pdf.line(bx, by + box, bx + box, by)
            note = row.notes[i] if i < len(row.notes) else ""
            if note:
                pdf.style(6.5)
                pdf.set_xy(x + 1, y + row_height - 3.6)
                pdf.cell(column - 2, 3, pdf.say(_fit(pdf, note, column - 2)))
        y += row_height
    pdf.set_y(pdf.h - 12)
    pdf.style(7.5)
    pdf.cell(width, 4, pdf.say(_("Knock · a score sheet made for 31: lives, not points.")))
    return bytes(pdf.output())


def _mark(pdf: Sheet, mark: Mark, x: float, y: float) -> None:
    """A player's mark, 5.6 mm wide from ``x``, ``y``: the light theme's shade (it prints dark
    enough for white initials, in colour or in grey) under the initials."""
    shade = PALETTE[mark.colour].light
    pdf.set_fill_color(*(int(shade[i : i + 2], 16) for i in (1, 3, 5)))
    pdf.circle(x + 2.8, y + 2.8, 2.8, style="F")
    pdf.set_text_color(255, 255, 255)
    pdf.style(6.5, bold=True)
    pdf.set_xy(x, y)
    pdf.cell(5.6, 5.6, pdf.say(mark.initials), align="C")
    pdf.set_text_color(0, 0, 0)


def _fit(pdf: Sheet, text: str, width: float) -> str:
    """Text cut with an ellipsis to fit a width at the current font."""
    if pdf.get_string_width(pdf.say(text)) <= width:
        return text
    while text and pdf.get_string_width(pdf.say(text + "…")) > width:
        text = text[:-1]
    return text + "…"


def sheet_cells(rows: Sequence[SheetRow], lives: int) -> list[dict[str, Any]]:
    """The rows as the print page draws them: each cell's boxes (crossed or not) and note."""
    return [
        {
            "label": row.label,
            "cells": [
                {
                    "boxes": [kept is not None and b >= kept for b in range(lives)],
                    "note": row.notes[i] if i < len(row.notes) else "",
                }
                for i, kept in enumerate(row.lives)
            ],
        }
        for row in rows
    ]
