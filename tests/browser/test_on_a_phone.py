"""The round log, the stats and the club page on a phone (390×844 and 360×640, English and
German, light and dark): nothing in a box narrower than the phone, every line of the chart
readable, and every action in reach."""

import colorsys
import itertools
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scorekeeper import play
from scorekeeper.models import Game, RoundInputs

from ..factory import make_club, make_game
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


def on_top(locator) -> bool:
    """Whether the middle of what is located is what a tap there would reach."""
    return locator.evaluate(
        """el => { const r = el.getBoundingClientRect();
                   return el.contains(document.elementFromPoint(r.x + r.width / 2,
                                                                r.y + r.height / 2)); }"""
    )


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return (
        box["x"] >= -0.5
        and box["y"] >= -0.5
        and box["x"] + box["width"] <= size["width"] + 0.5
        and box["y"] + box["height"] <= size["height"] + 0.5
    )


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_a_long_games_log_is_short_and_its_sheet_reaches_round_1(
    browser, live_server, size, locale
):
    game = long_game(rounds=34)
    context, page = phone(browser, size, locale=locale)
    page.goto(live_server.url + reverse("round-log", args=[game.club.key, game.id]))
    sheet = page.locator(".sheet")
    # The page scrolls, not a box inside it (was 320×591 px on a 390×844 phone).
    assert sheet.evaluate("el => el.scrollHeight <= el.clientHeight + 1")
    # Scrolled to its last column, nothing shows beside the pinned one: the corner and each
    # round's number are on top.
    sheet.evaluate("el => { el.scrollIntoView(); el.scrollLeft = el.scrollWidth; }")
    corner = page.locator(".score-sheet thead th").first
    assert on_top(corner)
    for row in page.locator(".score-sheet tbody th[scope=row]").all()[:3]:
        assert on_top(row)
    shot(page, f"log-sheet-{size[0]}x{size[1]}-{locale}")
    # Each round of the log is three short lines (a 34-round log was 13,952 px long).
    heights = [e.bounding_box()["height"] for e in page.locator(".round-entry").all()]
    print(
        f"\n{size} {locale}: rounds {min(heights):.0f}-{max(heights):.0f} px, page "
        f"{page.evaluate('document.documentElement.scrollHeight')} px"
    )
    assert max(heights) <= 190, heights
    # Round 1 is edited from the sheet: one tap on its number, within two screens of the top.
    page.evaluate("window.scrollTo(0, 0)")
    first = page.locator(".score-sheet").get_by_role(
        "link", name=re.compile(r"^(Edit round 1|Runde 1 ändern)$")
    )
    assert first.bounding_box()["y"] < 2 * size[1]
    first.click()
    expect(page.locator("h1")).to_contain_text("1")
    assert "/rounds/1/edit" in page.url
    context.close()


def finished_games():
    """A club of six with three finished games: knocks caught and not, 31s, nemeses."""
    club = make_club()
    for winner in (0, 0, 1):
        game = make_game(players=NAMES, club=club, lives=1)
        for seat in range(6):
            if seat == winner:
                continue
            while game.state.statuses[seat] != "out" and not game.state.game_over:
                play.record_round(game, RoundInputs("knock", knocker=winner, lowest=(seat,)))
    return club


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_leaderboard_is_a_card_per_player(browser, live_server, size, locale):
    club = finished_games()
    context, page = phone(browser, size, locale=locale)
    page.goto(live_server.url + reverse("stats", args=[club.key]))
    board = page.locator(".leaderboard")
    assert page.locator(".leaderboard").evaluate(
        "el => el.closest('.sheet').scrollWidth <= el.closest('.sheet').clientWidth + 1"
    )
    cards = board.locator("tbody tr").all()
    assert len(cards) == len(NAMES)
    labels = (
        ("Knocks not caught", "31s", "Nemesis")
        if locale == "en-GB"
        else ("Klopfen nicht erwischt", "31er", "Angstgegner")
    )
    for card in cards:
        card.scroll_into_view_if_needed()
        assert in_view(page, card), card.bounding_box()
        for cell in card.locator("td").all():
            assert in_view(page, cell), cell.inner_text()
    said = [
        cell.evaluate("el => getComputedStyle(el, '::before').content")
        for cell in cards[0].locator("td").all()
    ]
    for label in labels:
        assert f'"{label}"' in said, (label, said)
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    # The filter's fields stay inside their panel (the rules' list ran past its edge at 360 px).
    for field in page.locator(".filters select, .filters input, .filters button").all():
        assert field.evaluate(
            """el => { const box = el.getBoundingClientRect();
                const panel = el.closest('.panel').getBoundingClientRect();
                return box.left >= panel.left && box.right <= panel.right; }"""
        ), field.evaluate("el => el.outerHTML.slice(0, 60)")
    board.scroll_into_view_if_needed()
    shot(page, f"leaderboard-{size[0]}x{size[1]}-{locale}")
    context.close()


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_club_page_lists_players_short_and_start_is_in_reach(
    browser, live_server, size, locale
):
    club = make_club()
    for name in NAMES:
        play.add_player(club, name)
    context, page = phone(browser, size, locale=locale)
    english = locale == "en-GB"
    page.goto(live_server.url + club.get_absolute_url())
    rows = page.locator(".players-list > li").all()
    assert len(rows) == len(NAMES)
    assert max(r.bounding_box()["height"] for r in rows) <= 56  # a line each (was two rows)
    page.locator(".players-list summary", has_text="Francesca-Maria").click()
    field = page.get_by_label("Name of Francesca-Maria" if english else "Name von Francesca-Maria")
    field.fill("Francesca-Luisa")
    page.get_by_role("button", name="Rename" if english else "Umbenennen").click()
    said = page.locator("#players .message")
    expect(said).to_contain_text("Francesca-Luisa")
    # Where the page came back to, not off screen: the browser scrolls to #players once the page
    # has loaded, a moment after its text is there, so this waits for it (1 s at most).
    expect(said).to_be_in_viewport(ratio=0.99, timeout=1_000)
    page.get_by_label("Add players" if english else "Spieler hinzufügen").fill("Gus, Hal")
    page.get_by_role("button", name="Add" if english else "Hinzufügen", exact=True).click()
    expect(said).to_contain_text("Gus")
    expect(said).to_be_in_viewport(ratio=0.99, timeout=1_000)
    shot(page, f"club-players-{size[0]}x{size[1]}-{locale}")

    # The club's first game: everyone ticked, and Start in reach at once.
    page.locator("a.primary.button").first.click()
    for name in ("Ana", "Francesca-Luisa", "Hal"):
        expect(page.get_by_label(name, exact=True)).to_be_checked()
    start = page.get_by_role("button", name="Start the game" if english else "Spiel starten")
    assert in_view(page, start) and on_top(start)
    shot(page, f"new-game-{size[0]}x{size[1]}-{locale}")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight / 2)")
    assert in_view(page, start) and on_top(start)
    start.click()
    expect(page.locator("#record .tile")).to_have_count(8)
    context.close()


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_an_edit_says_what_it_will_change_beside_save_before_it_is_saved(
    browser, live_server, size, locale
):
    game = make_game(players=("Ana", "Ben", "Cara", "Dev", "Maximiliane-Josephine"), lives=1)
    for lowest in (2, 2, 1):  # Cara on the county, then out; Ben on the county
        play.record_round(game, RoundInputs("knock", knocker=0, lowest=(lowest,)))
    english = locale == "en-GB"
    context, page = phone(browser, size, locale=locale)

    def tile(name):
        return page.locator("#record .tile", has=page.locator(".name", has_text=name))

    def broken_at(name):
        """Where the name's lines break on its tile: the letters that end each line but the last."""
        return (
            tile(name)
            .locator(".name")
            .evaluate(
                """el => { const text = el.firstChild, ends = []; let top = null;
                for (let i = 0; i < text.length; i++) {
                    const range = document.createRange(); range.setStart(text, i); range.setEnd(text, i + 1);
                    const y = range.getBoundingClientRect().top;
                    if (top !== null && y > top + 2) ends.push(text.data[i - 1]);
                    top = y;
                }
                return ends; }"""
            )
        )

    # Round 3 was played without Cara: her tile is out, as the table showed it then.
    page.goto(live_server.url + reverse("edit-round", args=[game.club.key, game.id, 3]))
    expect(tile("Cara")).to_be_disabled()
    expect(tile("Ben")).to_be_enabled()
    # A long name is whole on the edit page's tiles too, broken at its hyphen if at all.
    name = tile("Maximiliane").locator(".name")
    assert name.evaluate("el => el.scrollHeight <= el.clientHeight + 1")
    assert broken_at("Maximiliane") in ([], ["-"]), broken_at("Maximiliane")
    # Round 2 put Cara out; tapped as Dev's, as at the table, the page says so beside Save,
    # before saving.
    page.goto(live_server.url + reverse("edit-round", args=[game.club.key, game.id, 2]))
    expect(tile("Cara")).to_have_attribute("aria-pressed", "true")  # lowest, as recorded
    tile("Cara").click()
    tile("Dev").click()
    preview = page.locator("#edit-preview")
    expect(preview).to_contain_text(
        "Cara is no longer out." if english else "Cara ist nicht mehr raus."
    )
    save = page.get_by_role("button", name="Save round 2" if english else "Runde 2 speichern")
    assert in_view(page, preview) and in_view(page, save) and on_top(save)
    shot(page, f"edit-preview-{size[0]}x{size[1]}-{locale}")
    said = preview.inner_text()
    assert game.rounds.count() == 3 and Game.objects.get(pk=game.pk).state.statuses[2] == "out"
    # A round the rules refuse (nobody lowest): why is said beside Save, in view.
    tile("Dev").click()
    save.click()
    refusal = page.locator("#edit-preview .error")
    expect(refusal).to_have_count(1)
    assert in_view(page, refusal) and in_view(page, save)
    shot(page, f"edit-refused-{size[0]}x{size[1]}-{locale}")
    tile("Dev").click()
    expect(preview).to_contain_text(said.splitlines()[-1])
    save.click()
    expect(page.locator(".messages")).to_contain_text(said.splitlines()[-1])
    assert Game.objects.get(pk=game.pk).state.statuses[2] != "out"
    context.close()


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_links_wear_the_theme_and_a_long_club_name_keeps_the_header_one_line(
    browser, live_server, size, locale, scheme
):
    """Crumbs, game lists and stats were the browser's blue and purple; a club named
    "Schwimmrunde" wrapped the header to two lines and pushed the table down."""
    club = make_club("Schwimmrunde")
    game = make_game(players=NAMES, club=club, preset="schwimmen")
    play.record_round(game, RoundInputs("knock", knocker=0, lowest=(1,)))
    context, page = phone(browser, size, locale=locale, color_scheme=scheme)
    page.goto(live_server.url + game.get_absolute_url())
    header = page.locator("header.site").bounding_box()
    assert header["height"] <= 49, header  # one line of 48 px
    expect(page.locator("header.site .club-link")).to_be_visible()
    first_tile = page.locator("#record .tile").first.bounding_box()
    # The same table of a club with a short name starts at the same height.
    other = make_game(players=NAMES, club=make_club("Do"), preset="schwimmen")
    play.record_round(other, RoundInputs("knock", knocker=0, lowest=(1,)))
    page.goto(live_server.url + other.get_absolute_url())
    assert page.locator("#record .tile").first.bounding_box()["y"] == first_tile["y"]
    default = {"rgb(0, 0, 238)", "rgb(85, 26, 139)", "rgb(0, 102, 204)"}
    pages = {
        "round log": (reverse("round-log", args=[club.key, game.id]), ".crumbs a"),
        "club": (club.get_absolute_url(), ".games a"),
        "stats": (reverse("stats", args=[club.key]), "main a"),
    }
    for name, (url, links) in pages.items():
        page.goto(live_server.url + url)
        accent = page.evaluate(
            """() => { const probe = document.createElement("span");
                probe.style.color = "var(--accent)"; document.body.append(probe);
                const colour = getComputedStyle(probe).color; probe.remove(); return colour; }"""
        )
        found = page.locator(links)
        assert found.count(), name
        for link in found.all():
            colour = link.evaluate("el => getComputedStyle(el).color")
            assert colour not in default, (name, link.inner_text(), colour)
            if not link.evaluate("el => el.closest('header, nav, .pages, .leaderboard th')"):
                assert colour == accent, (name, link.inner_text(), colour, accent)
    shot(page, f"links-{size[0]}x{size[1]}-{locale}-{scheme}")
    context.close()
