"""An open's paper: the table cards of 50 tables and the results of 200 players, read back with
poppler's tools (the words and their boxes with pdftotext, the QR codes' printed size with
pdfimages), so that what is checked is what a printer prints."""

import re
import subprocess

import pytest
from django.urls import reverse

from scorekeeper import tournaments
from scorekeeper.models import Entry

from ..factory import make_club
from .test_printing import poppler, read_pdf
from .test_tournaments import finish, new_tournament, seated

pytestmark = pytest.mark.django_db

NAMES = [f"Player {n:03d}" for n in range(1, 201)]
SMALLEST = 8.0  # points: the least a player reads at arm's length


def word_heights(content: bytes, tmp_path, name: str) -> list[float]:
    """The height of every word's box on every page, in points (about its type size)."""
    pdf = tmp_path / f"{name}-boxes.pdf"
    pdf.write_bytes(content)
    boxes = subprocess.run(
        [poppler("pdftotext"), "-bbox", pdf, "-"], capture_output=True, text=True, check=True
    ).stdout
    return [
        float(bottom) - float(top)
        for top, bottom in re.findall(
            r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)"', boxes
        )
    ]


def as_drawn(content: bytes, tmp_path) -> str:
    """The PDF's text in the order it was drawn (not laid out in columns)."""
    pdf = tmp_path / "drawn.pdf"
    pdf.write_bytes(content)
    return subprocess.run(
        [poppler("pdftotext"), "-raw", pdf, "-"], capture_output=True, text=True, check=True
    ).stdout


def qr_sizes_mm(content: bytes, tmp_path) -> list[float]:
    """The printed width of every image (the QR codes) in millimetres."""
    pdf = tmp_path / "qr.pdf"
    pdf.write_bytes(content)
    listed = subprocess.run(
        [poppler("pdfimages"), "-list", pdf], capture_output=True, text=True, check=True
    ).stdout.splitlines()[2:]
    # page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
    return [int(row.split()[3]) / int(row.split()[12]) * 25.4 for row in listed if row.split()]


def test_fifty_tables_cards_eight_to_a_page_each_with_its_qr_code_and_its_link(client, tmp_path):
    club = make_club()
    tournament = new_tournament(club, NAMES)
    tables = tournaments.draw_round(tournament, club.key)
    assert len(tables) == 50
    pdf = client.get(reverse("table-cards-pdf", args=[club.key, tournament.pk])).content
    text, pages = read_pdf(pdf, tmp_path, "table-cards-50")
    assert pages == 7  # 8 a page: 6 full pages and 2 cards on the last
    assert all(f"Table {n} " in text for n in range(1, 51))
    # Each table's link typed in full (it wraps over two lines), for a phone that cannot scan:
    # read in the order it was drawn, so that two cards side by side do not interleave.
    typed = "".join(as_drawn(pdf, tmp_path).split())
    page = client.get(reverse("table-cards", args=[club.key, tournament.pk])).content.decode()
    links = set(re.findall(r'<p class="link"><a href="([^"]+)"', page))
    assert len(links) == 50 and all(link in typed for link in links), sorted(links)[:2]
    sizes = qr_sizes_mm(pdf, tmp_path)
    assert len(sizes) == 50 and min(sizes) >= 30, sizes
    assert min(word_heights(pdf, tmp_path, "table-cards-50")) >= SMALLEST


def test_two_hundred_players_results_over_pages_at_a_readable_size(client, tmp_path):
    club = make_club(name="Fair play")
    tournament = new_tournament(club, NAMES)
    first, *_rest = tournaments.draw_round(tournament, club.key)
    finish(first.game, seated(first))
    gone = Entry.objects.get(tournament=tournament, player__name="Player 200")
    tournaments.withdraw(gone)
    pdf = client.get(reverse("results-pdf", args=[club.key, tournament.pk])).content
    text, pages = read_pdf(pdf, tmp_path, "tournament-results-200")
    assert pages >= 4
    assert f"Page 1 of {pages}" in text and f"Page {pages} of {pages}" in text
    assert all(name in text for name in NAMES)
    assert "Player 200 (withdrew)" in text
    assert "Fair play · " in text and "1 round · 200 players" in text
    assert "Points by place: 3·2·1·0 at tables of 4. Equal points: games won" in text
    # The column heads stand on every page.
    assert text.count("Games won") == pages
    assert min(word_heights(pdf, tmp_path, "tournament-results-200")) >= SMALLEST
