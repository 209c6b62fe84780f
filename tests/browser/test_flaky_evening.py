"""An evening on a flaky Wi-Fi, as a fast scorer plays it: the connection cut and restored at
random moments (some restores slow, so taps land while rounds are on their way and while
answers arrive), an incomplete round tapped offline, a waiting round undone, a dispute typed
offline, a second tab on the same game. Knock must end with exactly the complete rounds tapped,
in order: none lost, none doubled, none blocked. And what a table needs for that: one online
visit makes a phone ready for offline, two phones' same hand is settled with one tap, and a round
costs few requests."""

import random

import pytest
from django.templatetags.static import static
from playwright.sync_api import expect

from scorekeeper.models import Game, Round

from ..factory import make_game
from .phones import all_saved, send_now
from .test_engine import PHONE, engine_ready
from .test_phone_app import wifi_to, worker_ready

pytestmark = pytest.mark.django_db(transaction=True)

OUTBOX = """async (url) => {
    const { openOutbox } = await import(url);
    const outbox = await openOutbox({ indexedDB });
    return (await outbox.read(location.pathname)).rounds.length;
}"""


def waiting_rounds(page) -> int:
    """What waits on the phone for this game, read from its outbox itself."""
    return page.evaluate(OUTBOX, static("js/outbox.js"))


def ready_phone(browser, url):
    """A phone whose one online visit made it ready for offline, with its engine started."""
    context = browser.new_context(engine=True, viewport=PHONE, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(url)
    worker_ready(page)
    page.wait_for_function(
        "() => document.documentElement.dataset.offlineReady === 'yes'", timeout=90_000
    )
    engine_ready(page)
    return context, page


def tile(page, seat):
    return page.locator("#record .tile").nth(seat)


def tap(page, knocker, lowest, number):
    """A knock tapped on the table showing round ``number``, and Record."""
    expect(page.locator("#table h1")).to_have_text(f"Round {number}")
    tile(page, knocker).click()
    tile(page, lowest).click()
    page.locator("#record button[name=confirm]").click()


HANDS = {0: "AS KS QS", 1: "10H 9H 8H", 2: "2C 3D 4H", 3: "JD 9D 5C"}  # seat 2 is lowest


def test_an_evening_on_a_flaky_wifi_loses_doubles_and_blocks_no_round(browser, live_server):
    game = make_game(players=("Ana", "Ben", "Cara", "Dan"), lives=9)
    rng = random.Random(31)
    played = []  # the complete rounds tapped, in order: (knocker, lowest)
    with wifi_to(live_server) as (wifi, base):
        context, page = ready_phone(browser, base + game.get_absolute_url())
        for number in range(1, 25):
            # The Wi-Fi as an evening has it: gone, back (now and then slowly, so this round is
            # tapped while the ones before it are on their way), or as it was.
            weather = rng.random()
            if weather < 0.3:
                wifi.cut()
            elif weather < 0.6:
                wifi.mend(delay=rng.choice([0.0, 0.0, 1.5]))
            knocker, lowest = (number - 1) % 4, number % 4
            if number == 5:
                # An incomplete round offline: refused at the tap as online, nothing kept.
                wifi.cut()
                expect(page.locator("#table h1")).to_have_text("Round 5")
                page.wait_for_timeout(300)  # what was on its way has settled
                before = waiting_rounds(page)
                tile(page, knocker).click()
                page.locator("#record button[name=confirm]").click()
                expect(page.locator("#preview .error")).to_contain_text("Say who was lowest")
                assert waiting_rounds(page) == before
                tile(page, lowest).click()  # the knocker stays marked: the round is finished
                page.locator("#record button[name=confirm]").click()
            elif number == 9:
                # A round tapped offline by mistake, taken back before it was sent.
                wifi.cut()
                tap(page, knocker, (lowest + 1) % 4, 9)
                expect(page.locator("#table h1")).to_have_text("Round 10")
                page.locator("#record button.undo").click()
                expect(page.locator("#toast")).to_contain_text("taken back: it had not been sent")
                tap(page, knocker, lowest, 9)
            elif number == 13:
                # A dispute typed offline: the cards say who was lowest; typing queues nothing.
                wifi.cut()
                expect(page.locator("#table h1")).to_have_text("Round 13")
                page.wait_for_timeout(300)  # what was on its way has settled
                before = waiting_rounds(page)
                tile(page, knocker).click()
                page.locator("#record .part-cards > summary").click()
                for seat, cards in HANDS.items():
                    page.locator(f"#record input[name=cards_{seat}]").fill(cards)
                page.wait_for_timeout(600)  # past the typed cards' delay
                assert waiting_rounds(page) == before
                page.locator("#record button[name=confirm]").click()
                played.append((knocker, None))  # the cards say who was lowest (Cara)
                continue
            elif number == 17:
                # The same game in a second tab of this phone, online, records this round.
                wifi.mend()
                all_saved(page, timeout=30_000)
                second = context.new_page()
                second.goto(base + game.get_absolute_url())
                tap(second, knocker, lowest, 17)
                expect(second.locator("#table h1")).to_have_text("Round 18")
                second.close()
            else:
                tap(page, knocker, lowest, number)
            played.append((knocker, [lowest]))
        wifi.mend()
        # Back for good: the phone sends what waits (at its next poll, or Send now).
        send_now(page)
        all_saved(page, timeout=60_000)
        assert waiting_rounds(page) == 0
        context.close()
    rounds = Round.objects.filter(game=game, state=Round.ACTIVE).order_by("number")
    assert [(r.knocker, r.lowest) for r in rounds] == played
    dispute = rounds[12]
    assert dispute.hands and Game.objects.get(pk=game.pk).state.lives[2] < 9
    assert [r.number for r in rounds] == list(range(1, 25))
    assert Game.objects.get(pk=game.pk).version == 24


# A phone whose engine answers each question `ms` late (a cheap phone, or one busy keeping the
# engine's snapshot): the browser's own Worker, slowed; Knock's code is untouched.
SLOW_ENGINE = """ms => {
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
        if (message && message.play) setTimeout(() => post.call(this, message, ...rest), ms);
        else post.call(this, message, ...rest);
    };
}"""


@pytest.mark.parametrize("engine_late_ms", [0, 3000], ids=["engine-at-once", "engine-slow"])
def test_two_phones_with_the_same_hand_offline_settle_it_in_one_tap(
    browser, live_server, engine_late_ms
):
    """Both phones record Ana's knock, Cara lowest, without a connection. The first to send it
    stands; the second shows its round beside the one saved, the same hand, and one tap drops
    its own: the hand costs Cara one life, not two. On a phone whose engine answers after Knock
    has refused its round, what the round did still shows beside the one saved."""
    game = make_game(players=("Ana", "Ben", "Cara"))
    url = game.get_absolute_url()
    with wifi_to(live_server) as (wifi_a, base_a), wifi_to(live_server) as (wifi_b, base_b):
        context_a, a = ready_phone(browser, base_a + url)
        context_b, b = ready_phone(browser, base_b + url)
        if engine_late_ms:
            b.evaluate(SLOW_ENGINE, engine_late_ms)
        wifi_a.cut()
        wifi_b.cut()
        tap(a, 0, 2, 1)
        tap(b, 0, 2, 1)
        # Each phone has found Knock out of reach (the Wi-Fi does not say it is gone): its round
        # has waited. A send still on its way would reach Knock once mended, answered at once.
        for phone in (a, b):
            expect(phone.locator("#waiting .count")).to_have_text("1 round not sent yet")
        wifi_a.mend()
        send_now(a)
        all_saved(a, timeout=20_000)
        wifi_b.mend()
        send_now(b)
        compare = b.locator("#waiting .compare dd")
        expect(compare.first).to_have_text(
            "Round 1 · Knock · Ana knocked · Cara lowest · Cara −1 · Ben deals next"
        )
        expect(compare.last).to_have_text(
            "Round 1 · Knock · Ana knocked · Cara lowest · Cara −1 · Ben deals next"
        )
        b.get_by_role("button", name="Same hand: drop mine").click()
        all_saved(b, timeout=20_000)
        expect(b.locator("#table h1")).to_have_text("Round 2")
        context_a.close()
        context_b.close()
    assert [(r.knocker, r.lowest) for r in Round.objects.filter(game=game)] == [(0, [2])]


def test_after_one_online_visit_the_table_reloads_and_plays_offline(browser, live_server):
    """A phone's first evening: one visit online, then no connection at all. A reload shows the
    table, the engine starts from what the phone kept, the card picker draws the deck, and no
    script the page asks for fails."""
    game = make_game(players=("Ana", "Ben", "Cara"))
    context, page = ready_phone(browser, live_server.url + game.get_absolute_url())
    expect(page.locator("#offline-ready")).to_have_text("Ready for offline")
    assert page.evaluate("document.documentElement.dataset.engineStart") == "cold"
    cold = page.evaluate("document.documentElement.dataset.engineMs")
    # The started engine is kept once it has started (packed in the background).
    page.wait_for_function("() => document.documentElement.dataset.engineKept", timeout=20_000)
    context.set_offline(True)
    failed = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.reload()
    expect(page.locator("#table h1")).to_have_text("Round 1")
    engine_ready(page)
    # The reload started the engine from the kept snapshot, not from scratch.
    assert page.evaluate("document.documentElement.dataset.engineStart") == "warm"
    warm = page.evaluate("document.documentElement.dataset.engineMs")
    print(
        f"the engine's start in Chromium: {cold} ms from scratch, {warm} ms from the kept snapshot"
    )
    tap(page, 0, 2, 1)
    expect(page.locator("#table h1")).to_have_text("Round 2")
    expect(page.locator("#waiting .count")).to_have_text("1 round not sent yet")
    page.locator("#record .part-cards > summary").click()
    expect(page.locator("#record .card-picker button.card")).to_have_count(52)
    assert not [url for url in failed if url.endswith(".js") or "/static/" in url], failed
    # Back online, the warm engine's round is the server's round, as a screen reader hears it.
    said = page.locator("#table .said").all_inner_texts()
    context.set_offline(False)
    all_saved(page)
    assert game.rounds.count() == 1
    page.reload()
    expect(page.locator("#table h1")).to_have_text("Round 2")
    assert page.locator("#table .said").all_inner_texts() == said
    context.close()


def test_a_round_costs_the_tapping_phone_one_request_and_the_other_phone_one(browser, live_server):
    """Counted in the browser, service workers' requests included, beyond the polls each phone
    makes anyway: the tapping phone sends Record (its engine says what each tap does, so no
    preview is asked for) and the service worker keeps its page from the answer; the other phone
    hears of the round and draws the table once."""
    game = make_game(players=("Ana", "Ben", "Cara"))
    url = live_server.url + game.get_absolute_url()
    counted = {}
    phones = {}
    for name in ("tapping", "other"):
        context, page = ready_phone(browser, url)
        page.wait_for_timeout(1500)  # what the first visit asked for is done
        counted[name] = []
        context.on(
            "request",
            lambda request, name=name: (
                counted[name].append(request)
                if "/version" not in request.url and "/events" not in request.url
                else None
            ),
        )
        phones[name] = (context, page)
    tapping, other = phones["tapping"][1], phones["other"][1]
    tile(tapping, 0).click()
    tile(tapping, 2).click()
    tapping.locator("#record button[name=confirm]").click()
    expect(other.locator("#table h1")).to_have_text("Round 2", timeout=10_000)
    tapping.wait_for_timeout(2500)  # news and anything late

    # What went over the network: a page's request the service worker answered is counted
    # as the worker's own request, once.
    def network(requests):
        return [
            f"{r.method} {r.url}"
            for r in requests
            if not (r.response() and r.response().from_service_worker)
        ]

    mine, theirs = network(counted["tapping"]), network(counted["other"])
    print(
        f"\nrequests for one round: tapping phone {len(mine)} {mine}, other phone {len(theirs)} {theirs}"
    )
    assert len(mine) <= 3, mine
    assert len(theirs) <= 1, theirs
    for context, _page in phones.values():
        context.close()
