"""The rules engine on the phone, in a real Chromium: the very package the server runs, loaded
in the table page's worker under Pyodide, plays every preset and switch as the server does, and
keeps a table playing without a connection."""

import json
import random
import re
import uuid

import pytest
from django.templatetags.static import static
from django.utils import translation
from playwright.sync_api import expect

from scorekeeper import play
from scorekeeper.models import Game, Round, RoundInputs
from scorekeeper.rules import PRESETS, SWITCHES, build_rules
from scorekeeper.rules import phone as engine
from scorekeeper.rules.endings import asks as questions
from scorekeeper.rules.endings import offered
from scorekeeper.rules.game import read_state, start, stored_state
from scorekeeper.rules.ruleset import RULES_VERSION, json_value
from scorekeeper.rules.view import capfirst

from ..factory import make_game
from .phones import all_saved, outbox_empty, send_now
from .test_phone_app import wait_until_kept, wifi_to, worker_ready

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
START = 90_000  # ms: the runtime's start on a busy two-core machine (3-4 s idle, 15 s busy)


def engine_ready(page):
    page.wait_for_function(
        "() => document.documentElement.dataset.engine === 'ready'", timeout=START
    )


def engine_phone(browser, url, locale="en-GB", deaf=False):
    """A phone with the engine ready; ``deaf``, one that hears no news of the game (no poll, no
    stream) until it taps, as a phone on a slow Wi-Fi."""
    context = browser.new_context(engine=True, viewport=PHONE, has_touch=True, locale=locale)
    context.set_default_timeout(10_000)
    if deaf:
        context.route("**/version*", lambda route: route.abort())
        context.route("**/events*", lambda route: route.abort())
    page = context.new_page()
    page.goto(url)
    engine_ready(page)
    return context, page


def table_of(game):
    return {
        "rules": game.rules_data,
        "rules_version": game.rules_version,
        "names": list(game.state.names),
        "state": stored_state(game.state),
    }


def on_the_phone(page, table, rounds):
    """The page's own engine (the module the table page imported) asked to play ``rounds``."""
    return page.evaluate(
        "async ([client, table, rounds]) => (await import(client)).play(table, rounds)",
        [static("js/engine-client.js"), table, rounds],
    )


def on_the_server(table, rounds, language):
    with translation.override(language):
        return json.loads(engine.play(json.dumps({**table, "rounds": rounds})))


def test_the_phone_plays_a_round_as_the_server_does(browser, live_server):
    game = make_game(players=("Ana", "Ben", "Cara"))
    context, page = engine_phone(browser, live_server.url + game.get_absolute_url())
    rounds = [{"ending": ["knock"], "knocker": ["0"], "lowest": ["2"]}]
    answer = on_the_phone(page, table_of(game), rounds)
    assert answer == on_the_server(table_of(game), rounds, "en")
    assert answer["played"][0]["view"]["saved"] == "Cara −1 · Ben deals next · round 1 saved"
    context.close()


def rule_sets():
    """Every preset as it ships, and each with every value of every switch that can be built
    on it (a combination the rules refuse is no rule set)."""
    sets = []
    for preset in PRESETS:
        sets.append((preset, {}))
        for switch in SWITCHES:
            values = (
                list(switch.choices)
                if switch.choices is not None
                else sorted({switch.low, switch.high})
            )
            for value in values:
                overrides = {switch.name: json_value(value)}
                try:
                    rules, _preset = build_rules({"preset": preset, "overrides": overrides})
                except Exception:  # the rules refuse it: no such table
                    continue
                if rules != PRESETS[preset].rules:
                    sets.append((preset, overrides))
    return sets


def random_rounds(rules, names, dealer, rng, count):
    """Rounds a table could tap, in the form's fields, each checked against the engine the
    server runs (a round it refuses is tapped again otherwise), and the table they lead to."""
    state = start(rules, names, dealer)
    table = {"state": stored_state(state), "names": list(names)}
    rounds = []
    for _round in range(count * 4):
        if len(rounds) == count:
            break
        if state.game_over:
            break
        playing = [str(i) for i, status in enumerate(state.statuses) if status != "out"]
        ending = rng.choice(
            [*offered(rules), "manual"] if not rules.played_for_pot else offered(rules)
        )
        fields = {"ending": [ending]}
        if ending == "manual":
            fields |= {f"lost_{rng.choice(playing)}": ["1"]}
        else:
            asks = questions(rules, ending)
            if "knocker" in asks:
                fields["knocker"] = [rng.choice(playing)]
            if "shown_by" in asks:
                fields["shown"] = [rng.choice(playing)]
            if "lowest" in asks:
                fields["lowest"] = rng.sample(playing, rng.choice([1, 1, 1, 2]))
            if "winners" in asks:
                fields["winners"] = [rng.choice(playing)]
        answer = json.loads(
            engine.play(
                json.dumps(
                    {
                        **table,
                        "rules": rules_data(rules),
                        "rules_version": RULES_VERSION,
                        "rounds": [*rounds, fields],
                    }
                )
            )
        )
        if answer["stopped"] is None:
            rounds.append(fields)
            state = read_state(answer["played"][-1]["state"], names)
    return rounds


def rules_data(rules):
    return {s.name: json_value(getattr(rules, s.name)) for s in SWITCHES}


def test_the_phone_plays_every_preset_and_switch_as_the_server_does(browser, live_server):
    """Whole games under every preset and every value of every switch, in both languages: the
    phone's table after each round equals the server's, field by field (0 differences)."""
    game = make_game(players=("Ana", "Ben", "Cara"))
    url = live_server.url + game.get_absolute_url()
    phones = {"en": engine_phone(browser, url), "de": engine_phone(browser, url, "de-DE")}
    rng = random.Random(31)
    sets = rule_sets()
    assert len(sets) > 60
    compared = 0
    for preset, overrides in sets:
        rules, _preset = build_rules({"preset": preset, "overrides": overrides})
        names = ("Ana", "Ben", "Cara", "Dev")[: rng.choice([2, 3, 4])]
        rounds = random_rounds(rules, names, 0, rng, 12)
        table = {
            "rules": rules_data(rules),
            "rules_version": RULES_VERSION,
            "names": list(names),
            "state": stored_state(start(rules, names, 0)),
        }
        for language, (_context, page) in phones.items():
            phone = on_the_phone(page, table, rounds)
            assert phone == on_the_server(table, rounds, language), (preset, overrides, language)
            compared += len(rounds)
    assert compared > 1000
    for context, _page in phones.values():
        context.close()


SNAPSHOT = """() => {
    const text = (selector) => {
        const found = document.querySelector(selector);
        return found ? found.textContent.replace(/\\s+/g, " ").trim() : "";
    };
    const seat = (item) => {
        const parts = [...item.querySelector(".tile").childNodes].filter(
            (node) => !(node.classList && (node.classList.contains("unsaved") || node.classList.contains("role")))
        );
        return {
            status: item.className,
            words: parts.map((node) => node.textContent).join(" ").replace(/\\s+/g, " ").trim(),
            tokens: [...item.querySelectorAll(".token")].map((token) => token.className),
            // A tile that takes a tap (the server's game-over screen has no buttons at all).
            tappable: item.querySelector(".tile").tagName === "BUTTON" && !item.querySelector(".tile").disabled,
        };
    };
    return {
        heading: text("#table h1"),
        dealer: text("#table .meta strong"),
        pot: text("#table .pot"),
        seats: [...document.querySelectorAll("#table .scoreboard > li.seat")].map(seat),
        story: [...document.querySelectorAll("#table section.last li")].map((li) => li.textContent.trim()),
        winner: text("#table .winner p"),
    };
}"""


def next_knock(state):
    """A knock the table could play next: the first player in knocks, the one after is lowest."""
    playing = [i for i, status in enumerate(state.statuses) if status != "out"]
    knocker = playing[state.rounds % len(playing)]
    lowest = playing[(state.rounds + 1) % len(playing)]
    return knocker, lowest


@pytest.mark.parametrize(
    "preset, locale, language",
    [("scat", "en-GB", "en"), ("schwimmen", "de-DE", "de")],
)
def test_a_game_plays_on_without_a_connection_as_the_server_plays_it(
    browser, live_server, preset, locale, language
):
    game = make_game(players=("Ana", "Ben", "Cara"), preset=preset)
    twin = make_game(players=("Ana", "Ben", "Cara"), preset=preset, club=game.club)
    twin_url, key = live_server.url + twin.get_absolute_url(), game.club.key
    server = browser.new_context(viewport=PHONE, locale=locale)
    server_page = server.new_page()
    with wifi_to(live_server) as (wifi, base):
        context = browser.new_context(engine=True, viewport=PHONE, has_touch=True, locale=locale)
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.goto(base + game.get_absolute_url())
        worker_ready(page)
        engine_ready(page)
        wifi.cut()
        played = 0
        for _round in range(16):  # to the winner: 11 rounds of these knocks
            twin = Game.objects.opened_by(twin.pk, key)
            if twin.state.game_over:
                break
            knocker, lowest = next_knock(twin.state)
            tap_round(page, knocker, lowest)
            played += 1
            expect(page.locator("#waiting .count")).to_contain_text(str(played))
            with translation.override(language):
                step = play.record_round(
                    twin, RoundInputs("knock", knocker=knocker, lowest=(lowest,))
                )
                headline = capfirst(step.headline)
            if twin.state.game_over:  # said by the winner, as the server says it: no toast
                expect(page.locator("#toast")).to_have_text("")
            else:
                expect(page.locator("#toast")).to_contain_text(headline)
            server_page.goto(twin_url)
            expect(page.locator("#record .tile.unsaved")).to_have_count(3)
            assert page.evaluate(SNAPSHOT) == server_page.evaluate(SNAPSHOT), played
        # The game ended offline, and the phone shows its winner as the server does.
        assert played == 11 and twin.state.game_over
        expect(page.locator("#table .winner")).to_contain_text("Ana")
        expect(page.locator("#record button[name=confirm]")).to_be_disabled()
        assert Round.objects.filter(game=game).count() == 0
        wifi.mend()
        send_now(page)
        all_saved(page, timeout=20_000)
        context.close()
    server.close()
    mine = [(r.knocker, r.lowest) for r in Round.objects.filter(game=game).order_by("number")]
    theirs = [(r.knocker, r.lowest) for r in Round.objects.filter(game=twin).order_by("number")]
    assert mine == theirs and len(mine) == played
    assert Game.objects.get(pk=game.pk).state == Game.objects.get(pk=twin.pk).state


def test_no_request_of_the_engine_leaves_the_apps_own_host(browser, live_server):
    game = make_game(players=("Ana", "Ben", "Cara"))
    context = browser.new_context(engine=True, viewport=PHONE)
    page = context.new_page()
    asked = []
    context.on("request", lambda request: asked.append(request.url))
    page.goto(live_server.url + game.get_absolute_url())
    engine_ready(page)
    engine_files = [url for url in asked if "/pyodide/" in url or "/engine/" in url]
    assert any(url.endswith(".wasm") for url in engine_files), asked
    assert all(url.startswith(live_server.url + "/") for url in asked), asked
    context.close()


WATCH_UNSAVED = """() => {
    window.drewUnsaved = false;
    new MutationObserver(() => {
        if (document.querySelector(".tile.unsaved")) window.drewUnsaved = true;
    }).observe(document.body, {subtree: true, childList: true, attributes: true});
}"""


def test_a_round_the_server_refuses_rolls_back_to_its_table_and_says_so(browser, live_server):
    game = make_game(players=("Ana", "Ben", "Cara"))
    context, page = engine_phone(browser, live_server.url + game.get_absolute_url(), deaf=True)
    # Another phone records round 1 while this one still shows the table before it (and hears
    # nothing of it before the tap: the news could redraw the table between its taps).
    play.record_round(Game.objects.get(pk=game.pk), RoundInputs("knock", knocker=0, lowest=(1,)))
    page.evaluate(WATCH_UNSAVED)
    page.locator("#record .tile").nth(0).click()
    page.locator("#record .tile").nth(2).click()
    # The engine has played the tapped round ahead (on a loaded machine the server's refusal
    # could otherwise come back before the engine's answer, and the phone draws only the last).
    page.wait_for_function("() => document.getElementById('record').dataset.ahead === 'played'")
    page.locator("#record button[name=confirm]").click()
    expect(page.locator("#table")).to_contain_text("Nothing was saved from this tap.")
    # The phone had drawn its own round at once; the server's table stands now.
    assert page.evaluate("window.drewUnsaved")
    expect(page.locator("#record .tile.unsaved")).to_have_count(0)
    expect(page.locator("#table .scoreboard .seat").nth(1).locator(".token.lost")).to_have_count(1)
    expect(page.locator("#table .scoreboard .seat").nth(2).locator(".token.lost")).to_have_count(0)
    assert Round.objects.filter(game=game).count() == 1
    context.close()


def test_a_record_tap_draws_the_round_played_as_it_was_tapped_before_it_is_sent(
    browser, live_server
):
    game = make_game(players=("Ana", "Ben", "Cara"))
    context, page = engine_phone(browser, live_server.url + game.get_absolute_url())
    page.locator("#record .tile").nth(0).click()
    page.locator("#record .tile").nth(2).click()
    # The phone played the round as it was tapped: Record has only to draw it.
    page.wait_for_function("() => document.getElementById('record').dataset.ahead === 'played'")
    drawn = page.evaluate(
        """() => new Promise((resolve) => {
            const tiles = () => document.querySelector("#table .scoreboard").textContent;
            const before = tiles();
            // The tiles as they are when the sender posts the round (the one path: never htmx).
            const fetched = window.fetch;
            let drawn = null;
            window.fetch = (url, init) => {
                if (init?.method === "POST" && String(url).endsWith("/record")) {
                    window.fetch = fetched;
                    resolve({...drawn, sent: tiles()});
                }
                return fetched(url, init);
            };
            document.querySelector("#record button[name=confirm]").click();
            // Read in the click's own task, before any answer could have come back.
            drawn = {before, now: tiles(), lost: [...document.querySelectorAll(
                "#table .scoreboard .seat")].map((seat) => seat.querySelectorAll(".token.lost").length)};
        })"""
    )
    assert drawn["now"] != drawn["before"]
    assert drawn["sent"] == drawn["now"]  # drawn in the tap's own task, before it was sent
    assert drawn["lost"] == [0, 0, 1]
    assert "not saved yet" in drawn["now"]
    # The server's answer draws the same table, saved.
    expect(page.locator("#record .tile.unsaved")).to_have_count(0)
    lost = page.locator("#table .scoreboard .seat .token.lost")
    expect(lost).to_have_count(1)
    expect(page.locator("#table .scoreboard .seat").nth(2).locator(".token.lost")).to_have_count(1)
    assert Round.objects.filter(game=game).count() == 1
    context.close()


def test_the_round_that_ends_the_game_leaves_no_toast_over_the_winner(browser, live_server):
    """Online with the engine: the round that ends the game is drawn at once, and, as the server
    draws it, the winner says it; no toast (a round "not sent yet" when it was) lies over the
    game-over screen, not while the answer is on its way, nor after."""
    game = make_game(players=("Ana", "Ben"), preset="friendly", lives=1)
    context, page = engine_phone(browser, live_server.url + game.get_absolute_url())
    page.locator("#record .tile").nth(0).click()
    page.locator("#record .tile").nth(1).click()
    page.wait_for_function("() => document.getElementById('record').dataset.ahead === 'played'")
    drawn = page.evaluate(
        """() => {
            document.querySelector("#record button[name=confirm]").click();
            return {winner: document.querySelector("#table .winner")?.textContent,
                    toast: document.getElementById("toast").textContent};
        }"""
    )
    assert "Ana" in drawn["winner"] and drawn["toast"] == ""
    expect(page.get_by_role("button", name="Share")).to_be_enabled()  # the server's answer
    expect(page.locator("#toast")).to_have_text("")
    assert Game.objects.get(pk=game.pk).state.game_over
    context.close()


def offline_phone(browser, base, game, locale="en-GB"):
    context = browser.new_context(engine=True, viewport=PHONE, has_touch=True, locale=locale)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(base + game.get_absolute_url())
    worker_ready(page)
    # A second visit, as the phone makes it at the next game night: the page and the engine
    # come through the service worker, which keeps them for a reload without a connection.
    page.reload()
    wait_until_kept(page, 1)
    engine_ready(page)
    return context, page


def tap_round(page, knocker, lowest):
    page.locator("#record .tile").nth(knocker).click()
    page.locator("#record .tile").nth(lowest).click()
    page.locator("#record button[name=confirm]").click()


def test_a_reload_in_airplane_mode_starts_the_engine_from_the_phone_and_plays_on(
    browser, live_server
):
    game = make_game(players=("Ana", "Ben", "Cara"))
    with wifi_to(live_server) as (wifi, base):
        context, page = offline_phone(browser, base, game)
        wifi.cut()
        tap_round(page, 0, 2)
        expect(page.locator("#table h1")).to_have_text("Round 2")
        tap_round(page, 1, 2)
        expect(page.locator("#table h1")).to_have_text("Round 3")
        page.reload()  # no connection: the kept table, and the engine from the phone's cache
        engine_ready(page)
        expect(page.locator("#table h1")).to_have_text("Round 3")
        expect(page.locator("#record .tile.unsaved")).to_have_count(3)
        expect(
            page.locator("#table .scoreboard .seat").nth(2).locator(".token.lost")
        ).to_have_count(2)
        # Undo takes the latest waiting round back, and the table with it.
        page.locator("#record button.undo").click()
        expect(page.locator("#table h1")).to_have_text("Round 2")
        expect(
            page.locator("#table .scoreboard .seat").nth(2).locator(".token.lost")
        ).to_have_count(1)
        wifi.mend()
        send_now(page)
        all_saved(page, timeout=20_000)
        context.close()
    assert [(r.knocker, r.lowest) for r in Round.objects.filter(game=game)] == [(0, [2])]


def test_two_phones_offline_on_the_same_round_lose_neither(browser, live_server):
    """The first to arrive stands; the other phone shows its rounds beside the table as it is
    now, and adds them after the saved ones with one tap."""
    game = make_game(players=("Ana", "Ben", "Cara"))
    with wifi_to(live_server) as (wifi_a, base_a), wifi_to(live_server) as (wifi_b, base_b):
        context_a, a = offline_phone(browser, base_a, game)
        context_b, b = offline_phone(browser, base_b, game)
        wifi_a.cut()
        wifi_b.cut()
        tap_round(a, 0, 2)
        tap_round(b, 0, 1)
        expect(b.locator("#toast")).to_contain_text("Ben −1")
        wifi_a.mend()
        send_now(a)
        all_saved(a, timeout=20_000)
        wifi_b.mend()
        send_now(b)
        # B's round alone, beside the one A saved: not the same hand (Cara lowest, not Ben).
        expect(b.locator("#waiting .error")).to_contain_text("Another phone recorded round 1")
        expect(b.locator("#waiting .compare dd").first).to_contain_text("Ana knocked · Ben lowest")
        expect(b.locator("#waiting .compare dd").last).to_contain_text("Ana knocked · Cara lowest")
        expect(b.locator("#table .scoreboard .seat").nth(2).locator(".token.lost")).to_have_count(1)
        assert Round.objects.filter(game=game).count() == 1
        b.get_by_role("button", name="Another hand: add mine after").click()
        all_saved(b, timeout=20_000)
        context_a.close()
        context_b.close()
    rounds = Round.objects.filter(game=game).order_by("number")
    assert [(r.number, r.lowest) for r in rounds] == [(1, [2]), (2, [1])]


NEXT_KEPT = """async () => {
    const where = document.getElementById("again");
    return !!(await (await caches.open("pages")).match(where.dataset.next));
}"""


def test_a_whole_game_and_the_next_one_in_airplane_mode(browser, live_server):
    """From the first round to the winner, then Play again with the same players: the new
    game's id made on the phone, its rounds played on it; once back online, Knock holds both
    games as the phone played them, each round once."""
    game = make_game(players=("Ana", "Ben"), lives=1)
    club = game.club
    with wifi_to(live_server) as (wifi, base):
        context, page = offline_phone(browser, base, game)
        page.wait_for_function(NEXT_KEPT)
        wifi.cut()
        tap_round(page, 0, 1)  # Ben on the county
        # The next round is tapped on the table the phone drew after this one (a tap while it
        # drew could go to the table before it, under a busy CPU).
        expect(page.locator("#table h1")).to_have_text("Round 2")
        tap_round(page, 0, 1)  # Ben out: Ana wins
        expect(page.locator("#table .winner")).to_contain_text("Ana wins!")
        page.get_by_role("button", name="Play again").click()
        page.wait_for_url(lambda url: str(game.id) not in url and re.search(r"/g/[^/]+/$", url))
        new_id = uuid.UUID(page.url.rstrip("/").rsplit("/", 1)[1])
        assert new_id not in (game.id, play.next_game_id(game))
        expect(page.locator("#table h1")).to_have_text("Round 1")
        expect(page.locator("#table .meta strong")).to_have_text("Ben")  # the deal moved on
        engine_ready(page)
        tap_round(page, 1, 0)  # Ben knocks, Ana is lowest
        expect(page.locator("#table h1")).to_have_text("Round 2")
        expect(page.locator("#toast")).to_contain_text("Ana")
        expect(page.locator("#record .tile.unsaved")).to_have_count(2)
        expect(page.locator("#waiting .count")).to_have_text("1 round not sent yet")
        assert Game.objects.filter(club=club).count() == 1 and Round.objects.count() == 0
        wifi.mend()
        send_now(page)
        all_saved(page, timeout=20_000)
        expect(page.locator("#record .tile.unsaved")).to_have_count(0)
        # The game before it: its rounds waited under its own page, and went too.
        outbox_empty(page, timeout=20_000)
        context.close()
    old, new = Game.objects.get(pk=game.pk), Game.objects.get(pk=new_id)
    assert old.finished and old.state.winner == "Ana"
    assert [(r.knocker, r.lowest) for r in old.rounds.order_by("number")] == [(0, [1]), (0, [1])]
    assert new.club_id == club.id and new.first_dealer == 1 and new.rules_data == old.rules_data
    assert [(r.knocker, r.lowest) for r in new.rounds.all()] == [(1, [0])]
    assert Game.objects.filter(club=club).count() == 2
