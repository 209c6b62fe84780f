"""The round log, the stats and the club page on a phone (390×844 and 360×640, English and
German, light and dark): nothing in a box narrower than the phone, every line of the chart
readable, and every action in reach."""

import colorsys
import itertools
import re
from pathlib import Path

import pytest
from django.urls import reverse

from scorekeeper import play
from scorekeeper.models import RoundInputs

from ..factory import make_game
from .test_phone_app import contrast

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = [(390, 844), (360, 640)]
SHOTS = Path(__file__).resolve().parent.parent.parent / "test-results"
NAMES = ("Ana", "Ben", "Cara", "Dev", "Eve", "Francesca-Maria")


def phone(browser, size, **options):
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, **options
    )
    context.set_default_timeout(10_000)
    return context, context.new_page()


def shot(page, name, full_page=False):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"on-a-phone-{name}.png", full_page=full_page)


def long_game(rounds=34):
    """Six players at 5 lives, a knock a round, the lowest in turn; undone when it would end the
    game, so that the game goes on to ``rounds`` rounds."""
    game = make_game(players=NAMES, lives=5, preset="scat")
    seat = 0
    while game.round_count < rounds:
        lowest = seat % 6
        knocker = (lowest + 1) % 6
        if game.state.statuses[lowest] == "out" or game.state.statuses[knocker] == "out":
            seat += 1
            continue
        play.record_round(game, RoundInputs("knock", knocker=knocker, lowest=(lowest,)))
        if game.state.game_over:
            play.undo_round(game, seen_version=game.version)
            break
        seat += 1
    return game


def rgb(css: str) -> tuple[float, float, float]:
    return tuple(int(v) / 255 for v in re.findall(r"\d+", css)[:3])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_lives_chart_is_the_phones_width_and_every_line_stands_out(
    browser, live_server, scheme, size, locale
):
    game = long_game(rounds=12)
    context, page = phone(browser, size, color_scheme=scheme, locale=locale)
    page.goto(live_server.url + reverse("round-log", args=[game.club.key, game.id]))
    chart = page.locator("figure.chart > svg")
    panel = page.locator("figure.chart").evaluate("el => el.parentElement.clientWidth")
    box = chart.bounding_box()
    # The width of the panel it is in (was 240 of 390 px: the figure kept 40 px margins).
    assert box["width"] >= panel - 40, (box["width"], panel)
    assert box["width"] >= size[0] - 60
    ticks = page.locator("figure.chart .tick").all()
    sizes = [t.evaluate("el => el.getBoundingClientRect().height") for t in ticks]
    assert min(sizes) >= 12, sizes  # rendered, not just declared
    # The words of the levels ("on the county", "out") sit in the plot: the numbers' column is
    # narrow (was a third of the width).
    plot_left = page.locator("figure.chart .grid-line").first.bounding_box()["x"]
    assert plot_left - box["x"] <= box["width"] / 8
    background = chart.evaluate("el => getComputedStyle(el).backgroundColor")
    strokes = [
        line.evaluate("el => getComputedStyle(el).stroke")
        for line in page.locator("figure.chart polyline").all()
    ]
    ratios = {stroke: round(contrast(stroke, background), 2) for stroke in strokes}
    print(f"\n{scheme}: {ratios} on {background}")
    assert len(set(strokes)) == len(NAMES)
    assert min(ratios.values()) >= 3, ratios
    hls = [colorsys.rgb_to_hls(*rgb(stroke)) for stroke in strokes]
    hues = sorted(hue * 360 for hue, _light, saturation in hls if saturation > 0.3)
    for a, b in itertools.pairwise(hues):
        assert b - a >= 20, hues  # no two players share a green
    # The legend draws each player in their line's colour.
    legend = [
        line.evaluate("el => getComputedStyle(el).stroke")
        for line in page.locator("figure.chart .legend line").all()
    ]
    assert legend == strokes
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    chart.scroll_into_view_if_needed()
    shot(page, f"chart-{scheme}-{size[0]}x{size[1]}-{locale}")
    context.close()
