"""A table's view link on a TV in the middle of the room: at 1920×1080 the game is the big
screen's (dark, large, every seat in view without scrolling, no bar or footer), not a phone's
tiles stretched; and it follows the game without a reload."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper import play
from scorekeeper.models import Game, RoundInputs

from ..factory import make_game

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(__file__).resolve().parent.parent.parent / "test-results"
TV = {"width": 1920, "height": 1080}
PLAYERS = ("Ann", "Ben", "Cara", "Dan", "Eve", "Fritz")


def test_a_tables_view_link_on_a_tv_is_the_big_screens_board(browser, live_server):
    game = make_game(players=PLAYERS, preset="schwimmen")
    play.record_round(game, RoundInputs("knock", knocker=0, lowest=(2,)))
    context = browser.new_context(viewport=TV)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(live_server.url + f"/v/{game.club.view_key}/g/{game.id}/")
    expect(page.locator("#table h1")).to_have_text("Round 2")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / "tv-view-link.png")
    # Dark, scaled with the screen, no bar or footer, every seat in view without scrolling.
    root = "getComputedStyle(document.documentElement)"
    assert page.evaluate(f"{root}.backgroundColor") == "rgb(16, 19, 17)"
    assert page.evaluate(f"parseFloat({root}.fontSize)") > 25
    expect(page.locator("header.site")).to_be_hidden()
    expect(page.locator("footer.site")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollHeight") <= TV["height"]
    tops = page.locator("#table .scoreboard .seat").evaluate_all(
        "seats => seats.map(seat => Math.round(seat.getBoundingClientRect().top))"
    )
    assert tops[0] == tops[1] == tops[2] < tops[3] == tops[4] == tops[5]  # three abreast
    # It follows the game as the table plays, without a reload.
    page.evaluate("window.sameDocument = true")
    play.record_round(Game.objects.get(pk=game.pk), RoundInputs("knock", knocker=1, lowest=(3,)))
    expect(page.locator("#table h1")).to_have_text("Round 3")
    assert page.evaluate("window.sameDocument") is True
    context.close()


def test_the_same_link_on_a_phone_keeps_the_phones_tiles(browser, live_server):
    game = make_game(players=PLAYERS, preset="schwimmen")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server.url + f"/v/{game.club.view_key}/g/{game.id}/")
    expect(page.locator("header.site")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "18px"
    tops = page.locator("#table .scoreboard .seat").evaluate_all(
        "seats => seats.map(seat => Math.round(seat.getBoundingClientRect().top))"
    )
    assert tops[0] == tops[1] < tops[2]  # two abreast, as on every phone
    context.close()
