"""A game night on three screens, as a fast scorer plays it on a flaky Wi-Fi: the scorer's phone
taps each round as soon as the form is clear again (never waiting for an answer), its Wi-Fi cut
and mended at random moments (some mends slow, so taps land while rounds are on their way);
a second phone and the TV's view link follow the game. Several evenings, each from its own seed.
Knock must end with exactly the rounds tapped, in order, as tapped: 0 lost, 0 doubled, 0 left
waiting, 0 stored differently; every screen shows the last of them; and the scorer's page logs no
error of its own, online or offline, and htmx never posts a Record. Every browser test also
fails on a script error or a refusal of the page's security policy (conftest)."""

import random
import re

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Game, Round

from ..factory import make_game
from .phones import open_phone, outbox_empty
from .test_phone_app import wifi_to

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 14
# What a request the Wi-Fi failed writes to the console: the browser's line, and htmx's.
CUT_OFF = re.compile(r"^(Failed to load resource|htmx:(sendError|sendAbort|afterRequest), )")


@pytest.mark.parametrize("seed", [3, 11])
def test_a_fast_scorer_on_a_flaky_wifi_loses_doubles_and_changes_nothing(
    browser, live_server, seed
):
    game = make_game(players=("Ana", "Ben", "Cara", "Dan"), lives=9)
    rng = random.Random(seed)
    played = []
    with wifi_to(live_server) as (wifi, base):
        scorer_context, scorer = open_phone(browser)
        # What the page says went wrong, online or not: nothing but the lines a request the cut
        # Wi-Fi failed makes (the browser's own, and htmx's for the poll and the preview, which
        # htmx logs whatever the page does); and htmx never posts a Record.
        said_wrong: list[str] = []
        scorer.on(
            "console",
            lambda message: (
                message.type == "error"
                and not CUT_OFF.match(message.text)
                and said_wrong.append(message.text)
            ),
        )
        htmx_records: list[str] = []
        scorer.on(
            "request",
            lambda request: (
                request.headers.get("hx-trigger-name") == "confirm"
                and htmx_records.append(request.url)
            ),
        )
        scorer.goto(base + game.get_absolute_url())
        other_context, other = open_phone(browser)
        other.goto(live_server.url + game.get_absolute_url())
        tv_context = browser.new_context(viewport={"width": 1920, "height": 1080})
        tv = tv_context.new_page()
        tv.goto(live_server.url + f"/v/{game.club.view_key}/g/{game.id}/")
        tiles = scorer.locator("#record .tile")
        for _ in range(ROUNDS):
            weather = rng.random()
            if weather < 0.3:
                wifi.cut()
            elif weather < 0.6:
                wifi.mend(delay=rng.choice([0.0, 0.0, 0.8]))
            knocker = rng.randrange(4)
            lowest = rng.choice([seat for seat in range(4) if seat != knocker])
            # A fast thumb: the next round's taps as soon as the form is clear, no waiting for
            # Knock's answer to the one before.
            expect(scorer.locator("#record input[name=lowest]:checked")).to_have_count(0)
            tiles.nth(knocker).click()
            tiles.nth(lowest).click()
            scorer.locator("#record button[name=confirm]").click()
            played.append((knocker, [lowest]))
        wifi.mend()
        # Nobody touches anything: what waits goes by itself once Knock can be reached.
        outbox_empty(scorer, timeout=60_000)
        last = f"Round {ROUNDS + 1}"
        for screen in (scorer, other, tv):
            expect(screen.locator("#table h1")).to_have_text(last, timeout=15_000)
        expect(scorer.locator("#waiting .count")).to_have_count(0)
        assert said_wrong == [] and htmx_records == [], sorted(set(said_wrong))
        for context in (scorer_context, other_context, tv_context):
            context.close()
    rounds = Round.objects.filter(game=game, state=Round.ACTIVE).order_by("number")
    assert [(r.knocker, r.lowest) for r in rounds] == played
    assert Round.objects.filter(game=game).count() == ROUNDS  # none doubled, none undone
    assert Game.objects.get(pk=game.pk).version == ROUNDS
