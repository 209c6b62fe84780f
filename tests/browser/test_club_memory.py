"""The club's memory in a real Chromium at 390×844: stats, a player's page, naming, abandoning,
deleting and restoring a game, and printing."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper import play
from scorekeeper.models import Game, RoundInputs

from ..factory import make_club, make_game

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = Path(__file__).resolve().parent.parent.parent / "test-results"


@pytest.fixture
def club():
    club = make_club()
    for winner in (0, 0, 1):
        game = make_game(players=("Ana", "Ben", "Cara"), club=club, lives=1)
        loser = [i for i in range(3) if i != winner]
        for seat in loser:
            for _ in range(2):  # on the county, then out
                if not game.state.game_over and game.state.statuses[seat] != "out":
                    play.record_round(game, RoundInputs("knock", knocker=winner, lowest=(seat,)))
    return club


def test_the_stats_page_and_a_players_page(phone, live_server, club):
    phone.goto(live_server.url + club.get_absolute_url())
    phone.get_by_role("link", name="Stats").click()
    board = phone.locator("table").first
    expect(board.locator("tbody tr").first).to_contain_text("Ana")
    expect(board.locator("tbody tr").first).to_contain_text("2 of 3")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    SHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=SHOTS / "club-stats.png", full_page=True)
    board.get_by_role("link", name="Ben").click()
    expect(phone.locator("h1")).to_have_text("Ben")
    expect(phone.locator(".summary")).to_contain_text("Nemesis")
    expect(phone.locator(".summary")).to_contain_text("Ana")
    phone.screenshot(path=SHOTS / "club-player.png", full_page=True)


def test_name_abandon_delete_and_restore_a_game(phone, live_server, club):
    game = make_game(players=("Ana", "Ben"), club=club)
    phone.goto(live_server.url + game.get_absolute_url())
    phone.get_by_role("link", name="Round log").click()
    phone.get_by_text("Name, abandon or delete this game").click()
    phone.get_by_label("Name of the game").fill("Friday at Ana's")
    phone.get_by_role("button", name="Name it").click()
    expect(phone.locator(".messages")).to_contain_text("The game is called Friday at Ana's now.")
    phone.get_by_text("Name, abandon or delete this game").click()
    phone.get_by_role("button", name="Abandon: no winner, not in the stats").click()
    expect(phone.locator(".set-aside")).to_contain_text("Abandoned")
    expect(phone.locator("#record")).to_have_count(0)
    phone.get_by_role("button", name="Resume the game").click()
    expect(phone.locator("#record")).to_be_visible()
    phone.get_by_role("link", name="Round log").click()
    phone.get_by_text("Name, abandon or delete this game").click()
    phone.get_by_role("button", name="Delete: to the bin for 30 days").click()
    bin_ = phone.locator("#bin")
    expect(bin_).to_contain_text("Friday at Ana's")
    expect(phone.locator(".games").first).not_to_contain_text("Friday at Ana's")
    bin_.get_by_role("button", name="Restore").click()
    expect(phone.locator(".messages")).to_contain_text("The game is back.")
    assert Game.objects.get(pk=game.pk).deleted is None


def test_printing_the_rules_and_the_score_sheet(phone, live_server, club):
    phone.goto(live_server.url + club.get_absolute_url())
    phone.get_by_role("link", name="Print a rules card").click()
    expect(phone.locator("h1")).to_contain_text("Rules of 31")
    phone.emulate_media(media="print")
    expect(phone.locator("header.site")).to_be_hidden()
    expect(phone.get_by_role("button", name="Print")).to_be_hidden()
    phone.emulate_media(media="screen")
    href = phone.get_by_role("link", name="PDF (A4)").get_attribute("href")
    pdf = phone.request.get(live_server.url + href)
    assert pdf.headers["content-type"] == "application/pdf" and pdf.body()[:5] == b"%PDF-"
    phone.goto(live_server.url + club.get_absolute_url())
    phone.get_by_role("link", name="Print a score sheet").click()
    phone.get_by_label("Players").fill("6")
    phone.get_by_role("button", name="Draw the sheet").click()
    expect(phone.locator(".score-sheet-print thead th")).to_have_count(7)
    phone.screenshot(path=SHOTS / "print-sheet-page.png", full_page=True)
