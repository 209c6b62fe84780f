"""A tournament on paper: the table cards of a round (table, players in seat order, who deals
first, a QR code of the table's scoring link and the link typed), and the results sheet, each
over as many pages as it takes at a size a player reads at arm's length."""

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


# A table card: two a row, four rows a page (A4 or Letter), each big enough to read across a
# table, its QR code 36 mm wide and its link typed under it for a phone that cannot scan.
CARDS_ACROSS, CARDS_DOWN = 2, 4
CARD_GAP = 4.0
QR = 36.0
# The results: never smaller than this, over as many pages as it takes.
RESULTS_SIZE = 10.0


def table_cards_pdf(title: str, round_words: str, cards: Sequence[Card], paper: str) -> bytes:
    """Every table of a round, eight cards to a page, over as many pages as it takes."""
    pdf = Sheet(paper)
    pdf.set_title(title)
    width = (pdf.w - pdf.l_margin - pdf.r_margin - CARD_GAP * (CARDS_ACROSS - 1)) / CARDS_ACROSS
    per_page = CARDS_ACROSS * CARDS_DOWN
    for first in range(0, max(len(cards), 1), per_page):
        if first:
            pdf.add_page()
        pdf.set_xy(pdf.l_margin, pdf.t_margin)
        pdf.style(14, bold=True)
        pdf.cell(0, 8, pdf.say(f"{title} · {round_words}"), new_x="LMARGIN", new_y="NEXT")
        top = pdf.get_y() + 2
        room = pdf.h - pdf.t_margin - top  # (a Sheet breaks no page itself: no bottom margin)
        height = min(64.0, (room - CARD_GAP * (CARDS_DOWN - 1)) / CARDS_DOWN)
        for i, card in enumerate(cards[first : first + per_page]):
            x = pdf.l_margin + (i % CARDS_ACROSS) * (width + CARD_GAP)
            y = top + (i // CARDS_ACROSS) * (height + CARD_GAP)
            _card(pdf, card, x, y, width, height)
    return bytes(pdf.output())


def _card(pdf: Sheet, card: Card, x: float, y: float, width: float, height: float) -> None:
    pdf.rect(x, y, width, height)
    text = width - QR - 7
    link = 8.0  # points: the typed link, two lines under the card's words and its QR code
    link_top = y + height - 2 - 2 * link * 0.42
    pdf.set_xy(x + 3, y + 2)
    pdf.style(16, bold=True)
    pdf.cell(text, 8, pdf.say(_("Table %(n)d") % {"n": card.number}))
    # The players in seat order, at the largest size from 11 pt down to 8 pt that fits.
    room = link_top - (y + 11) - 6
    size = next((s for s in (11.0, 10.0, 9.0) if len(card.players) * s * 0.45 <= room), 8.0)
    line = size * 0.45
    pdf.style(size)
    for seat, name in enumerate(card.players):
        pdf.set_xy(x + 3, y + 11 + seat * line)
        pdf.cell(text, line, pdf.say(f"{seat + 1}. {name}"))
    pdf.set_xy(x + 3, link_top - line - 1)
    pdf.cell(text, line, pdf.say(_("%(name)s deals first") % {"name": card.deals}))
    image = io.BytesIO()
    segno.make(card.url, error="m").save(image, kind="png", scale=8, border=1)
    image.seek(0)
    qr = min(QR, link_top - y - 4)
    pdf.image(image, x=x + width - qr - 3, y=y + 2, w=qr, h=qr)
    pdf.style(link)
    pdf.set_xy(x + 3, link_top)
    pdf.multi_cell(width - 6, link * 0.42, pdf.say(card.url), max_line_height=link * 0.42)


def results_pdf(
    title: str, about: str, scheme: str, placings: Sequence[Placing], left_words: str, paper: str
) -> bytes:
    """The standings at 10 pt over as many pages as it takes, the column heads on each page:
    what the tournament was (``about``: club, date, rounds, players), how points and ties were
    counted (``scheme``), prize places starred and withdrawn players marked."""
    pdf = Sheet(paper)
    pdf.set_title(title)
    pdf.alias_nb_pages()
    width = pdf.w - pdf.l_margin - pdf.r_margin
    pdf.style(16, bold=True)
    pdf.multi_cell(width, 8, pdf.say(title), new_x="LMARGIN", new_y="NEXT")
    pdf.style(9)
    for said in (about, scheme):
        pdf.multi_cell(width, 4.4, pdf.say(said), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    line = RESULTS_SIZE * 0.5
    columns = [
        (14.0, _("Place")),
        (70.0, _("Name")),
        (20.0, _("Points")),
        (26.0, _("Games won")),
        (30.0, left_words),
        (20.0, _("Games")),
    ]
    # A Sheet breaks no page itself (it has no bottom margin): the rows stop a top margin above
    # the foot, where the page's number goes.
    foot = pdf.h - pdf.t_margin - line

    def heads() -> None:
        pdf.style(RESULTS_SIZE, bold=True)
        for column, words in columns:
            pdf.cell(column, line, pdf.say(words))
        pdf.ln(line)

    def page_number() -> None:
        pdf.style(8)
        pdf.set_xy(pdf.l_margin, pdf.h - pdf.t_margin + 2)
        pdf.cell(
            width, 4, pdf.say(_("Page %(n)s of %(total)s") % {"n": pdf.page_no(), "total": "{nb}"})
        )

    heads()
    for p in placings:
        if pdf.get_y() + line > foot:
            page_number()
            pdf.add_page()
            pdf.set_xy(pdf.l_margin, pdf.t_margin)
            heads()
        pdf.style(RESULTS_SIZE, bold=p.prize)
        name = p.name + (" *" if p.prize else "") + (" " + _("(withdrew)") if p.withdrew else "")
        values = [f"{p.place}.", name, p.points, p.wins, p.left, p.games]
        for (column, _words), value in zip(columns, values, strict=True):
            pdf.cell(column, line, pdf.say(str(value)))
        pdf.ln(line)
    if pdf.get_y() + line > foot:
        page_number()
        pdf.add_page()
        pdf.set_xy(pdf.l_margin, pdf.t_margin)
    pdf.style(9)
    pdf.cell(width, line, pdf.say(_("* a prize place")))
    page_number()
    return bytes(pdf.output())
