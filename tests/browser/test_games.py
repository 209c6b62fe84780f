"""Whole games at the table in a real Chromium, on a phone: one under each preset."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Game

from ..factory import make_game, record_knocks
from .phones import PHONE, open_phone, player_tile, tap_knock

# Cards that exist in the 32-card deck too. Ann 19 in spades, Ben 27 in clubs, Cat 19 in diamonds.
DISPUTE = {"Ann": "KS 9S 7H", "Ben": "AC 9C 7C", "Cat": "AD 8D 7S"}
# Who loses what at that showdown, Ann having knocked, under each preset.
DISPUTE_LOSSES = {
    "scat": ["Cat loses 1 life: tied for lowest with Ann, the knocker, who is safe in a tie."],
    # Friendly breaks equal totals by the highest card: Cat's ace beats Ann's king.
    "friendly": ["Ann loses 2 lives: knocked and alone has the lowest hand."],
    "schwimmen": [
        "Cat loses 1 life: tied for lowest with Ann, the knocker.",
        "Ann loses 1 life: knocked and tied for lowest with Cat",
    ],
    "aces-wild": [
        "Cat loses 1 life: tied for lowest with Ann, the knocker.",
        "Ann loses 1 life: knocked and tied for lowest with Cat",
    ],
    "kitchen-table": [
        "Cat loses 1 life: tied for lowest with Ann, the knocker.",
        "Ann loses 1 life: knocked and tied for lowest with Cat",
    ],
}
OUT_AFTER = {"scat": 4, "friendly": 3, "schwimmen": 4, "aces-wild": 4, "kitchen-table": 3}
LAST_CHANCE = {"scat": "on the county", "schwimmen": "swimming", "aces-wild": "on the brink"}


def start_game(page, live_server, preset: str):
    page.goto(live_server.url + "/")
    page.get_by_label("Club name").fill(f"{preset} night")
    page.get_by_role("button", name="Start the club").click()
    expect(page.locator("h1")).to_have_text(f"{preset} night")
    page.get_by_label("Add players").fill("Ann, Ben\nCat")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#players .messages")).to_contain_text("Ann, Ben and Cat joined the club.")
    # The page comes back at the players, not at the top.
    assert page.evaluate("location.hash") == "#players"
    # Followed, not clicked: the browser may still be scrolling down to the players, and a click
    # then lands where the link was a moment before.
    page.goto(live_server.url + page.get_by_role("link", name="New game").get_attribute("href"))
    # The club's first game: its three players are ticked already.
    for name in ("Ann", "Ben", "Cat"):
        expect(page.get_by_label(name, exact=True)).to_be_checked()
    page.locator(".seat-row", has_text="Cat").get_by_text("Deals first").click()
    page.locator(f"input[name=preset][value={preset}]").check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("h1")).to_have_text("Round 1")


def seat(page, name):
    return page.locator(
        ".scoreboard .seat", has=page.locator(".name", has_text=re.compile(f"^{name}$"))
    )


def record_knock(page, knocker: str, lowest: list[str]):
    heading = page.locator("#table h1").inner_text()
    tap_knock(page, knocker, lowest)
    page.get_by_role("button", name=re.compile("Record round")).click()
    expect(page.locator("#table h1")).not_to_have_text(heading)


@pytest.mark.parametrize("preset", ["scat", "friendly", "schwimmen", "aces-wild", "kitchen-table"])
def test_a_whole_game_from_a_new_club_to_a_winner(phone, live_server, preset):
    page = phone
    start_game(page, live_server, preset)

    # A disputed showdown settled by the cards the players hold; the page says what will happen.
    form = page.locator("form.record")
    player_tile(page, "Ann").click()
    form.get_by_text("In dispute? Enter everyone's cards").click()
    for name, cards in DISPUTE.items():
        form.get_by_label(f"{name}'s cards").fill(cards)
    form.get_by_label("Cat's cards").press("Tab")
    for sentence in DISPUTE_LOSSES[preset]:
        expect(page.locator("#preview")).to_contain_text(sentence)
    form.get_by_role("button", name="Record round 1").click()
    expect(page.locator("#table h1")).to_have_text("Round 2")
    expect(page.locator(".last")).to_contain_text(DISPUTE_LOSSES[preset][0])

    # Undo it: everyone is back to full lives.
    page.get_by_role("button", name="Undo round 1").click()
    expect(page.locator("#table h1")).to_have_text("Round 1")
    expect(page.locator(".scoreboard .token.lost")).to_have_count(0)

    # Cat is lowest until out.
    for _ in range(OUT_AFTER[preset]):
        record_knock(page, "Ann", ["Cat"])
    expect(seat(page, "Cat").locator(".status")).to_have_text("out")
    if preset in LAST_CHANCE:
        page.get_by_role("link", name="Round log").click()
        expect(page.locator("#round-3")).to_contain_text(LAST_CHANCE[preset])
        page.go_back()

    # Edit round 1: Ben was lowest, not Cat. Cat comes back.
    page.get_by_role("link", name="Round log").click()
    page.locator("#round-1").get_by_role("link", name="Edit round 1").click()
    # Tapped as the table taps a round: Cat's tile (lowest, as recorded) off, Ben's on.
    expect(player_tile(page, "Cat")).to_have_attribute("aria-pressed", "true")
    player_tile(page, "Cat").click()
    player_tile(page, "Ben").click()
    expect(page.locator("#edit-preview")).to_contain_text("Cat is no longer out.")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator(".messages")).to_contain_text("Cat is no longer out.")
    expect(seat(page, "Cat")).not_to_have_class(re.compile(r"\bout\b"))

    # Play on until one player is left.
    for _ in range(20):
        if page.locator(".winner").count():
            break
        target = "Cat" if "out" not in seat(page, "Cat").get_attribute("class").split() else "Ben"
        record_knock(page, "Ann", [target])
    expect(page.locator(".winner")).to_contain_text("Ann wins!")
    expect(page.locator("form.record")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile("Undo round"))).to_be_visible()

    # The history keeps it.
    page.get_by_role("link", name=re.compile(f"{preset} night")).click()
    expect(page.locator(".games li").first).to_contain_text("Ann won")


def test_the_table_page_on_a_phone(phone, live_server, tmp_path):
    page = phone
    start_game(page, live_server, "scat")
    for target in ("Ben", "Ben", "Ben", "Cat"):
        record_knock(page, "Ann", [target])
    expect(seat(page, "Ben").locator(".status")).to_have_text("on the county")
    for selector in (
        ".token",
        ".part-ending .chip",
        "button.primary",
        ".undo",
        ".scoreboard .seat",
    ):
        box = page.locator(selector).first.bounding_box()
        assert box["height"] >= 14 if selector == ".token" else box["height"] >= 44, selector
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots = Path(__file__).resolve().parent.parent.parent / "test-results"
    shots.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=shots / "table-page-390x844.png")


@pytest.mark.parametrize("javascript", [True, False])
def test_the_way_of_keeping_score_switches_with_a_tap(browser, live_server, javascript):
    # The buttons send the record form (form="record"), with and without JavaScript.
    context, page = open_phone(browser, java_script_enabled=javascript)
    try:
        page.goto(live_server.url + make_game().get_absolute_url())
        page.get_by_role("button", name="Just count lives instead").click()
        expect(page.locator(".tap-hint").first).to_contain_text("Tap a player to take a life")
        page.get_by_role("button", name="Referee each round instead").click()
        expect(page.get_by_role("button", name="Just count lives instead")).to_be_visible()
    finally:
        context.close()


def end_a_game_on_the_page(page, live_server) -> Game:
    """A game of one life each that ends on the page: Ann knocks and Ben is lowest, so htmx
    draws the game-over screen."""
    game = make_game(players=("Ann", "Ben"), preset="friendly", lives=1)  # out at zero
    page.goto(live_server.url + game.get_absolute_url())
    tap_knock(page, "Ann", ["Ben"])
    page.get_by_role("button", name="Record round 1").click()
    expect(page.locator(".winner")).to_contain_text("Ann wins!")
    return game


def test_at_game_over_every_point_of_play_again_is_play_again(phone, live_server):
    """The round that ends the game brings the game-over screen and no toast: nothing lies over
    Play again (a toast's Undo once sat on its right end), and the one Undo is well apart,
    after the summary."""
    end_a_game_on_the_page(phone, live_server)
    again = phone.get_by_role("button", name="Play again")
    expect(again).to_be_visible()
    phone.wait_for_timeout(300)  # past any settling
    assert phone.locator("#toast").inner_text().strip() == ""
    box = again.bounding_box()
    for fx, fy in [(0.03, 0.5), (0.5, 0.5), (0.97, 0.5), (0.5, 0.1), (0.5, 0.9), (0.97, 0.9)]:
        x, y = box["x"] + fx * box["width"], box["y"] + fy * box["height"]
        hit = phone.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('button')?.textContent.trim()",
            [x, y],
        )
        assert hit == "Play again", (fx, fy, hit)
    undo = phone.get_by_role("button", name="Undo round 1").bounding_box()
    assert undo["y"] - (box["y"] + box["height"]) > 40  # below the summary, a thumb's width apart
    shot = Path(__file__).resolve().parent.parent.parent / "test-results" / "game-over.png"
    shot.parent.mkdir(exist_ok=True)
    phone.screenshot(path=shot, full_page=True)


def test_share_at_game_over_gives_the_view_links_picture(browser, live_server):
    """The game ends on the page (htmx draws the game-over screen, and Share's script with it):
    Share waits for its script (held back here) before it can be tapped; then, on a phone
    without a share sheet (Chromium here), it downloads the picture and copies the words and
    the view link; neither is the secret link."""
    # No service worker: the page's own requests are the ones held back.
    context, page = open_phone(browser, accept_downloads=True, service_workers="block")
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    held = []
    page.route(re.compile(r"/js/share\b[^/]*\.js$"), lambda route: held.append(route))
    game = end_a_game_on_the_page(page, live_server)
    share = page.get_by_role("button", name="Share")
    expect(share).to_be_disabled()  # drawn by the swap, which asked for the script
    for _ in range(100):  # until its request reaches the route
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    held[0].continue_()
    with page.expect_download() as made:
        share.click()
    picture = made.value
    view = f"/v/{game.club.view_key}/g/{game.id}/"
    assert view + "share.png" in picture.url and game.club.key not in picture.url
    assert Path(picture.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    expect(page.locator(".winner .shared")).to_contain_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "Ann" in copied and view in copied and game.club.key not in copied
    context.close()


@pytest.mark.parametrize("players", [5, 6])
def test_at_game_over_the_winner_and_play_again_are_on_the_first_screen(
    phone, live_server, players
):
    """On a 390×844 phone after a game of five or six: the winner and Play again without a
    scroll (below the summary it sat at y 618–670 here after five, 671–723 after six, and past
    1,000 with a longer summary), the summary below them, the one Undo a thumb's width from
    Play again."""
    names = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")[:players]
    game = make_game(players=names, preset="friendly", lives=1)
    record_knocks(game, [("Ann", [name]) for name in names[1:]])  # each lowest goes out
    phone.goto(live_server.url + game.get_absolute_url())
    expect(phone.locator(".winner")).to_contain_text("Ann wins!")
    again = phone.get_by_role("button", name="Play again").bounding_box()
    winner = phone.locator(".winner > p").first.bounding_box()
    summary = phone.locator(".winner .summary").bounding_box()
    undo = phone.get_by_role("button", name=f"Undo round {players - 1}").bounding_box()
    print(
        f"\n{players} players: Play again at y {again['y']:.0f}–{again['y'] + again['height']:.0f}"
    )
    assert winner["y"] + winner["height"] <= again["y"]
    assert again["y"] + again["height"] <= PHONE["height"]
    assert summary["y"] >= again["y"] + again["height"]
    assert abs(undo["y"] - again["y"]) > again["height"] + 40


def test_play_again_online_starts_the_next_game_under_the_id_the_phone_made(phone, live_server):
    game = make_game(players=("Ann", "Ben"), preset="friendly", lives=1)
    record_knocks(game, [("Ann", ["Ben"])])
    phone.goto(live_server.url + game.get_absolute_url())
    # Play again's part (again.js) comes after the first paint, and keeps the next game.
    phone.wait_for_function(
        """async () => {
            const where = document.getElementById("again");
            return !!(await (await caches.open("pages")).match(where.dataset.next));
        }"""
    )
    phone.get_by_role("button", name="Play again").click()
    phone.wait_for_url(lambda url: str(game.id) not in url)
    expect(phone.locator("#table h1")).to_have_text("Round 1")
    expect(phone.locator("main")).to_contain_text("the deal moved on")
    made = phone.url.rstrip("/").rsplit("/", 1)[1]
    new = Game.objects.get(pk=made)
    assert new.first_dealer == 1 and Game.objects.count() == 2
