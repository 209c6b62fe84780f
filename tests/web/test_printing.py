"""The printed rules card and score sheet: print pages, and PDFs read back with poppler's tools
(pdftotext for the words, pdfinfo for the pages, pdftoppm for a picture a person can look at)."""

import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse
from PIL import Image

from scorekeeper import play
from scorekeeper.lib.marks import PALETTE
from scorekeeper.models import RoundInputs
from scorekeeper.rules import PRESETS

from ..factory import make_game

pytestmark = pytest.mark.django_db
SHOTS = Path(__file__).resolve().parent.parent.parent / "test-results"


def poppler(tool: str) -> str:
    path = shutil.which(tool)
    if not path:
        pytest.fail(f"{tool} is needed to read the PDFs back: apt-get install poppler-utils")
    return path


def read_pdf(content: bytes, tmp_path: Path, name: str) -> tuple[str, int]:
    """The PDF's text and its number of pages; its first page saved as a PNG to look at."""
    assert content[:5] == b"%PDF-"
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(content)
    text = subprocess.run(
        [poppler("pdftotext"), "-layout", pdf, "-"], capture_output=True, text=True, check=True
    ).stdout
    info = subprocess.run(
        [poppler("pdfinfo"), pdf], capture_output=True, text=True, check=True
    ).stdout
    pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    SHOTS.mkdir(exist_ok=True)
    subprocess.run(
        [
            poppler("pdftoppm"),
            "-png",
            "-r",
            "60",
            "-singlefile",
            "-f",
            "1",
            pdf,
            SHOTS / f"print-{name}",
        ],
        check=True,
    )
    return " ".join(text.split()), pages


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_presets_rules_card_is_one_page_with_every_rule(client, tmp_path, preset, paper):
    response = client.get(reverse("preset-rules-pdf", args=[preset]) + f"?paper={paper}")
    assert response["Content-Type"] == "application/pdf"
    text, pages = read_pdf(response.content, tmp_path, f"rules-{preset}-{paper}")
    assert pages == 1
    found = PRESETS[preset]
    assert f"Rules of 31: {found.name}"[:30] in text
    for row in found.rules.describe(found.readings):
        assert " ".join(row["label"].split())[:25] in text, row["label"]
    for reading in found.readings:
        assert "(our reading)" in text, reading


def test_a_games_rules_card_names_its_house_rules(client, tmp_path):
    game = make_game(players=("Ana", "Ben"), knocker_alone=1)
    page = client.get(reverse("game-rules", args=[game.club.key, game.id])).content.decode()
    assert "House rules: Knocker alone lowest." in page
    response = client.get(reverse("game-rules-pdf", args=[game.club.key, game.id]))
    text, pages = read_pdf(response.content, tmp_path, "rules-of-a-game")
    assert pages == 1 and "House rules: Knocker alone lowest." in text and "Loses 1" in text


@pytest.mark.parametrize("players", [2, 9])
def test_a_blank_score_sheet_for_2_to_9_players(client, tmp_path, players):
    response = client.get(reverse("blank-sheet-pdf") + f"?players={players}&lives=5&paper=letter")
    text, pages = read_pdf(response.content, tmp_path, f"blank-sheet-{players}")
    assert pages == 1 and "Score sheet for 31" in text and "5 lives each" in text
    assert "Start" in text and " 20 " in f" {text} "
    page = client.get(reverse("blank-sheet") + f"?players={players}&lives=5").content.decode()
    assert page.count('<th scope="col">') == players + 1
    assert page.count('class="box"') == players * 5 * 21  # a box per life, per round and start


def test_a_filled_score_sheet_from_a_games_rounds(client, tmp_path):
    game = make_game(players=("Ana", "Ben", "Cara"), lives=2)
    play.record_round(game, RoundInputs("knock", knocker=0, lowest=(1,)))
    play.record_round(game, RoundInputs("knock", knocker=0, lowest=(1,)))  # Ben on the county
    page = client.get(reverse("game-sheet", args=[game.club.key, game.id])).content.decode()
    assert page.count("box crossed") == 1 + 2  # Ben: one life crossed after round 1, two after 2
    assert "<small>−1 on the county</small>" in page
    response = client.get(reverse("game-sheet-pdf", args=[game.club.key, game.id]))
    text, pages = read_pdf(response.content, tmp_path, "filled-sheet")
    assert pages == 1
    assert "Ana" in text and "Ben" in text and "Cara" in text and "on the county" in text
    # Each name with its player's mark: the initials, on the colour they wear.
    for mark in game.marks:
        assert f"{mark.initials} " in text
    picture = Image.open(SHOTS / "print-filled-sheet.png").convert("RGB")
    shades = {PALETTE[mark.colour].light for mark in game.marks}
    seen = {"#{:02x}{:02x}{:02x}".format(*pixel) for pixel in picture.get_flattened_data()}
    assert shades <= seen, shades - seen


def test_the_printed_pages_print_black_on_white_without_controls(client):
    page = client.get(reverse("preset-rules", args=["scat"])).content.decode()
    assert 'class="printed rules-print"' in page and "PDF (A4)" in page and "PDF (Letter)" in page
    css = Path(__file__).resolve().parent.parent.parent / "static" / "css" / "knock.css"
    print_css = css.read_text().split("@media print")[1]
    assert "header.site" in print_css and "button" in print_css and "#000" in print_css


def test_a_long_game_goes_on_to_a_second_sheet(client, tmp_path):
    game = make_game(players=("Ana", "Ben"), lives=10, stock_out="draw")
    for _ in range(30):
        play.record_round(game, RoundInputs("stock_out"))
    response = client.get(reverse("game-sheet-pdf", args=[game.club.key, game.id]))
    text, pages = read_pdf(response.content, tmp_path, "long-sheet")
    assert pages == 2 and " 30 " in f" {text} " and text.count("Round") >= 2
