"""A tournament on paper: the table cards of a round (table, players in seat order, who deals
first, a QR code of the table's scoring link) and the results sheet, each one A4 page."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

import segno
from django.utils.translation import gettext as _

from .printing import Sheet
from .tournaments import Placing


@dataclass
class Card:
    number: int
    players: list[str]
    deals: str
    url: str


def table_cards_pdf(title: str, round_words: str, cards: Sequence[Card], paper: str) -> bytes:
    """Every table of a round on one page: two cards a row, as many rows as fit."""
    pdf = Sheet(paper)
    pdf.set_title(title)
    pdf.style(14, bold=True)
    pdf.cell(0, 8, pdf.say(f"{title} · {round_words}"), new_x="LMARGIN", new_y="NEXT")
    width = (pdf.w - 24 - 6) / 2
    rows = -(-len(cards) // 2)
    height = min(62.0, (pdf.h - 12 - pdf.get_y() - 2 * max(rows - 1, 0)) / max(rows, 1))
    top = pdf.get_y() + 2
    qr = min(height - 8, 40.0)
    size = min(12.0, max(6.0, height / 6))
    for i, card in enumerate(cards):
        x = 12 + (i % 2) * (width + 6)
        y = top + (i // 2) * (height + 2)
        pdf.rect(x, y, width, height)
        pdf.set_xy(x + 3, y + 2)
        pdf.style(size + 4, bold=True)
        pdf.cell(width - qr - 6, size * 0.6, pdf.say(_("Table %(n)d") % {"n": card.number}))
        pdf.style(size)
        line = size * 0.45
        for seat, name in enumerate(card.players, start=1):
            pdf.set_xy(x + 3, y + 4 + size * 0.6 + seat * line)
            pdf.cell(width - qr - 6, line, pdf.say(f"{seat}. {name}"))
        pdf.set_xy(x + 3, y + height - line - 2)
        pdf.cell(width - qr - 6, line, pdf.say(_("%(name)s deals first") % {"name": card.deals}))
        image = io.BytesIO()
        segno.make(card.url, error="m").save(image, kind="png", scale=8, border=1)
        image.seek(0)
        pdf.image(image, x=x + width - qr - 3, y=y + (height - qr) / 2, w=qr, h=qr)
    return bytes(pdf.output())


def results_pdf(title: str, placings: Sequence[Placing], left_words: str, paper: str) -> bytes:
    """The final standings on one page (up to 40 players at full size; more, smaller)."""
    pdf = Sheet(paper)
    pdf.set_title(title)
    pdf.style(16, bold=True)
    pdf.cell(0, 9, pdf.say(title), new_x="LMARGIN", new_y="NEXT")
    room = pdf.h - 12 - pdf.get_y() - 8
    line = min(6.0, room / max(len(placings) + 1, 1))
    size = max(4.0, min(10.0, line * 1.7))
    columns = [
        (14.0, _("Place")),
        (70.0, _("Name")),
        (22.0, _("Points")),
        (26.0, _("Games won")),
        (30.0, left_words),
        (20.0, _("Games")),
    ]
    pdf.style(size, bold=True)
    for width, words in columns:
        pdf.cell(width, line, pdf.say(words))
    pdf.ln(line)
    for p in placings:
        pdf.style(size, bold=p.prize)
        values = [f"{p.place}.", p.name + (" *" if p.prize else ""), p.points, p.wins, p.left]
        for (width, _words), value in zip(columns, [*values, p.games], strict=True):
            pdf.cell(width, line, pdf.say(str(value)))
        pdf.ln(line)
    pdf.style(max(4.0, size - 1))
    pdf.cell(0, line, pdf.say(_("* a prize place")))
    return bytes(pdf.output())
