"""A tournament's leaderboard on the big screen, as Chromium shows it at 1920×1080: forty players
on one screen without scrolling, and a table's result there within the board's one-second beat
of its last round, without a reload; in English and in German."""

import time
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scorekeeper import play, tournaments
from scorekeeper.models import Game, RoundInputs
from scorekeeper.rules import build_rules

from ..factory import make_club

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(__file__).resolve().parent.parent.parent / "test-results"
BIG_SCREEN = {"width": 1920, "height": 1080}
NAMES = [f"Player {n:02d}" for n in range(1, 41)]


def knock(game: Game, lowest: int) -> None:
    """The first seat knocks and seat ``lowest`` goes out (one life each)."""
    play.record_round(
        Game.objects.get(pk=game.pk), RoundInputs("knock", knocker=0, lowest=(lowest,))
    )


def finish(game: Game) -> None:
    """``game`` played to its end: the others go out from the last seat, and the first wins."""
    for lowest in reversed(range(1, len(game.names))):
        knock(game, lowest)


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "en-GB",
            {
                "round": "Round 1 of 3",
                "playing": "Round 1 still playing at table 10",
                "scheme": "Points by place: 3·2·1·0 at tables of 4. Equal points: games won,"
                " lives left, the lot.",
                "points": "Points",
            },
        ),
        (
            "de-DE",
            {
                "round": "Runde 1 von 3",
                "playing": "Runde 1 spielt noch an Tisch 10",
                "scheme": "Punkte je Platz: 3·2·1·0 an Tischen zu 4. Bei gleichen Punkten: die"
                " gewonnenen Spiele, übrige Leben, das Los.",
                "points": "Punkte",
            },
        ),
    ],
)
def test_the_big_screen_shows_a_tables_result_within_its_beat_without_a_reload(
    browser, live_server, locale, words
):
    club = make_club()
    rules, _ = build_rules({"preset": "friendly", "overrides": {"lives": 1}})
    tournament = tournaments.start_tournament(club, "Kirmes", rules, "friendly", NAMES)
    tables = tournaments.draw_round(tournament, club.key, seed=31)
    assert len(tables) == 10
    for table in tables[:-1]:
        finish(table.game)
    last = tables[-1].game
    knock(last, 3)
    knock(last, 2)  # table 10 plays its third round

    context = browser.new_context(viewport=BIG_SCREEN, locale=locale)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(live_server.url + reverse("tournament-board", args=[club.view_key, tournament.pk]))
    board = page.locator("#board")
    expect(board.locator(".board-meta")).to_have_text(words["round"])
    expect(board.locator(".board-playing")).to_have_text(words["playing"])
    expect(board.locator(".board-scheme")).to_have_text(words["scheme"])
    expect(board.locator("thead th").nth(2)).to_have_text(words["points"])
    # Forty players, one screen: no scrolling, no control to press.
    expect(board.locator("tbody tr")).to_have_count(40)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"tournament-board-{locale}.png")
    assert page.evaluate("document.documentElement.scrollHeight") <= BIG_SCREEN["height"]
    assert page.locator("#board button, #board a, #board input").count() == 0
    page.evaluate("window.sameDocument = true")

    knock(last, 1)  # its last round
    winner = last.names[0]
    said = time.monotonic()
    expect(board.locator(".board-playing")).to_have_count(0, timeout=5_000)
    seen = time.monotonic() - said
    print(f"the big screen showed table 10's result {seen * 1000:.0f} ms after its last round")
    row = board.locator("tbody tr", has=page.get_by_text(winner, exact=True))
    expect(row.locator("td").nth(1)).to_have_text("3")
    assert page.evaluate("window.sameDocument") is True  # redrawn in place, not reloaded
    # The board asks twice a second (a 204 while nothing changed).
    assert board.get_attribute("hx-trigger") == "every 500ms"
    context.close()


def test_an_open_of_200_with_50_tables_playing_shows_every_row_of_its_page(browser, live_server):
    """Fifty tables playing at once: the line naming them stays one line (cut short with an
    ellipsis), so the page's forty rows all stay on a screen that cannot scroll."""
    club = make_club()
    rules, _ = build_rules({"preset": "friendly", "overrides": {"lives": 1}})
    names = [f"Player {n:03d}" for n in range(1, 201)]
    tournament = tournaments.start_tournament(club, "Open", rules, "friendly", names)
    assert len(tournaments.draw_round(tournament, club.key, seed=200)) == 50
    context = browser.new_context(viewport=BIG_SCREEN)
    page = context.new_page()
    page.goto(live_server.url + reverse("tournament-board", args=[club.view_key, tournament.pk]))
    playing = page.locator(".board-playing")
    expect(playing).to_contain_text("Round 1 still playing at tables 1, 2, 3")
    line = playing.evaluate("p => [p.scrollWidth > p.clientWidth, p.getClientRects().length]")
    assert line == [True, 1]
    expect(page.locator("#board tbody tr")).to_have_count(40)
    assert page.evaluate("document.documentElement.scrollHeight") <= BIG_SCREEN["height"]
    context.close()
