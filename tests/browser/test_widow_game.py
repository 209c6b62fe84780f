"""A night of Thirty-One with a widow and a pot in Chromium, on both phones: a hand is the
winner tapped and Record (a knocker too, when the table says who knocked), the tiles show the
coins, a tie splits the pot, End the game shows the coins won and lost; and the same in German."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Game

from ..factory import make_game
from .test_one_hand import (  # noqa: F401 (the live server, for open_table)
    PHONES,
    Thumb,
    _live_url,
    _remember_live_server,
    chip,
    open_table,
    record_button,
    shot,
    tile,
)

pytestmark = pytest.mark.django_db(transaction=True)


def coins_on(page, name):
    return tile(page, name).locator(".coins")


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_pot_night_in_two_taps_a_hand(browser, size):
    game = make_game(players=("Ana", "Ben", "Cara", "Dev"), preset="widow", ante=2)
    context, page = open_table(browser, game, size)
    thumb = Thumb(page)
    expect(page.locator(".pot")).to_have_text("0 coins in the pot")

    # The winner, then Record: "Ana takes 8" on the toast and +6 on her tile.
    thumb.tap(tile(page, "Ana"))
    expect(tile(page, "Ana").locator("[data-role]")).to_have_text(re.compile(r"wins$"))
    expect(page.locator("#preview")).to_contain_text("Ana takes 8")
    thumb.tap(record_button(page))
    expect(page.locator("#toast")).to_contain_text("Ana takes 8")
    assert thumb.round() == (2, 0)
    expect(coins_on(page, "Ana")).to_have_text("+6")
    expect(coins_on(page, "Ben")).to_have_text("−2")

    # The winner and who knocked: a second tap on a player marks the knock.
    thumb.tap(tile(page, "Ben"))
    thumb.tap(tile(page, "Cara"))
    thumb.tap(tile(page, "Cara"))
    expect(tile(page, "Cara").locator("[data-role]")).to_have_text(re.compile(r"knocked$"))
    thumb.tap(record_button(page))
    expect(page.locator("#toast")).to_contain_text("Ben takes 8")
    assert Game.objects.get(pk=game.pk).state.coins == (4, 4, -4, -4)

    # Two tie: they share the pot.
    thumb.tap(tile(page, "Cara"))
    thumb.tap(tile(page, "Dev"))
    thumb.tap(record_button(page))
    expect(page.locator("#toast")).to_contain_text("Cara and Dev take 4 each")
    shot(page, f"widow-{size[0]}x{size[1]}-table")

    # A 31 wins at once.
    thumb.tap(chip(page, "31"))
    thumb.tap(tile(page, "Dev"))
    thumb.tap(record_button(page))
    expect(page.locator("#toast")).to_contain_text("Dev takes 8")

    # The table stops: the coins won and lost, the most first.
    thumb.tap(chip(page, "End the game"))
    thumb.tap(record_button(page))
    expect(page.locator(".winner")).to_contain_text("Dev wins!")
    expect(page.locator(".winner")).to_contain_text(re.compile(r"Dev \+\d+, "))
    shot(page, f"widow-{size[0]}x{size[1]}-over")
    context.close()


def test_a_pot_night_in_german(browser):
    game = make_game(players=("Ana", "Ben", "Cara"), preset="widow")
    width, height = PHONES[0]
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, locale="de-DE"
    )
    page = context.new_page()
    page.goto(_live_url[0] + game.get_absolute_url())  # it speaks as the browser asks
    expect(page.locator("#table h1")).to_have_text("Runde 1")
    expect(page.locator(".pot")).to_have_text("0 Münzen im Pott")
    thumb = Thumb(page)
    thumb.tap(tile(page, "Ben"))
    expect(tile(page, "Ben").locator("[data-role]")).to_have_text(re.compile(r"gewinnt$"))
    thumb.tap(record_button(page))
    expect(page.locator("#toast")).to_contain_text("Ben nimmt 3")
    expect(coins_on(page, "Ben")).to_have_text("+2")
    expect(page.locator(".story")).to_contain_text("Ben nimmt den Pott: 3.")
    shot(page, "widow-de")
    context.close()
