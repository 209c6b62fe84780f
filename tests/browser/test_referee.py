"""The referee page used end to end in a real Chromium."""

import re

from playwright.sync_api import expect

PLAYERS = [("Ben", "KS 9S 2H"), ("Cara", "AC 9C 7C"), ("You", "KH QH 5H"), ("Ana", "AD 8D 6C")]


# Where an element starts on the page, however far the page is scrolled.
PAGE_TOP = "element => element.getBoundingClientRect().top + window.scrollY"


def open_referee(page, live_server):
    page.goto(live_server.url + "/referee/")
    # A mark on the window: it disappears if the page ever reloads.
    page.evaluate("window.sameDocument = true")


def still_same_document(page):
    return page.evaluate("window.sameDocument === true")


def enter_names(page):
    for i, (name, _cards) in enumerate(PLAYERS):
        page.fill(f"#id_p{i}-name", name)


def test_a_disputed_knock_settled_by_typed_cards(phone, live_server):
    open_referee(phone, live_server)
    enter_names(phone)
    for i, (_name, cards) in enumerate(PLAYERS):
        phone.fill(f"#id_p{i}-cards", cards)
    # Each hand's value and explanation appear as the cards are typed.
    expect(phone.locator("#hand-0")).to_contain_text("19 K♠ 9♠ count 19 in spades")
    expect(phone.locator("#hand-1")).to_contain_text("27")
    expect(phone.locator("#hand-3")).to_contain_text("the 6♣ does not join them")
    phone.locator("#player-0").get_by_text("Knocked").click()
    phone.locator("#player-3").get_by_text("Dealt").click()
    phone.get_by_role("button", name="Settle the round").click()
    verdict = phone.locator("#verdict")
    expect(verdict).to_contain_text(
        "Ana loses 1 life: tied for lowest with Ben, the knocker, who is safe in a tie."
    )
    expect(verdict).to_contain_text("Ben deals next.")
    expect(verdict.locator(".ranking li").first).to_contain_text("Cara")
    assert still_same_document(phone)


def test_a_disputed_knock_settled_by_picked_cards(phone, live_server):
    open_referee(phone, live_server)
    enter_names(phone)
    for i, (_name, cards) in enumerate(PLAYERS):
        row = phone.locator(f"#player-{i}")
        row.get_by_text("Pick cards").click()
        grid = row.locator(".grid")
        top = grid.evaluate(PAGE_TOP)
        for code in cards.split():
            row.locator(f"label.pick:has(input[value='{code}'])").click()
        expect(phone.locator(f"#hand-{i}")).to_contain_text(("19", "27", "25", "19")[i])
        # The hand's words came above the grid without moving it: a card is never moved
        # between a thumb's touch and its release.
        assert grid.evaluate(PAGE_TOP) == top
    phone.locator("#player-0").get_by_text("Knocked").click()
    # Had Ana ended above 19, Ben alone at the bottom loses 2: swap Ana's 8♦ for the 10♦.
    ana = phone.locator("#player-3")
    ana.locator("label.pick:has(input[value='8D'])").click()
    ana.locator("label.pick:has(input[value='10D'])").click()
    expect(phone.locator("#hand-3")).to_contain_text("21")
    phone.get_by_role("button", name="Settle the round").click()
    expect(phone.locator("#verdict")).to_contain_text(
        "Ben loses 2 lives: knocked and alone has the lowest hand."
    )
    assert still_same_document(phone)


def test_an_impossible_hand_is_refused_next_to_it(phone, live_server):
    open_referee(phone, live_server)
    enter_names(phone)
    for i, (_name, cards) in enumerate(PLAYERS):
        phone.fill(f"#id_p{i}-cards", cards)
    phone.fill("#id_p2-cards", "KH QH 9S")  # the 9♠ is in Ben's hand
    expect(phone.locator("#hand-2")).to_contain_text("9♠ is already in Ben's hand")
    phone.locator("#player-0").get_by_text("Knocked").click()
    phone.get_by_role("button", name="Settle the round").click()
    expect(phone.locator("#hand-2 .error")).to_be_visible()
    expect(phone.locator("#verdict")).not_to_contain_text("loses")
    # A claimed 31 that is not worth 31 is refused beside the player who claimed it.
    phone.fill("#id_p2-cards", "KH QH 5H")
    phone.locator(".ending").get_by_text("A 31 shown in play").click()
    phone.locator("#player-1").get_by_text("Showed 31").click()
    phone.get_by_text("Nobody knocked").click()
    phone.get_by_role("button", name="Settle the round").click()
    expect(phone.locator("#hand-1")).to_contain_text("Cara's hand is worth 27, not 31")


def test_it_works_without_javascript(phone_without_javascript, live_server):
    page = phone_without_javascript
    page.goto(live_server.url + "/referee/")
    enter_names(page)
    for i, (_name, cards) in enumerate(PLAYERS):
        page.fill(f"#id_p{i}-cards", cards)
    page.locator("#player-0 input[name=knocker][value='0']").check(force=True)
    page.get_by_role("button", name="Settle the round").click()
    expect(page.locator("#verdict")).to_contain_text("Ana loses 1 life")
    expect(page.locator("#hand-0")).to_contain_text("19")


def test_on_a_phone_every_control_is_big_enough_for_a_thumb(phone, live_server):
    open_referee(phone, live_server)
    for selector in ("button.primary", "#id_p0-cards", "#player-0 .chip", ".ending .chip"):
        box = phone.locator(selector).first.bounding_box()
        assert box["height"] >= 44, selector
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing runs off the side of the screen
    assert re.search(r"Referee", phone.title())


def test_a_card_in_one_hand_is_greyed_out_in_the_other_grids(phone, live_server):
    open_referee(phone, live_server)
    phone.fill("#id_p0-cards", "KS 9s 2♥")
    player = phone.locator("#player-1")
    player.get_by_text("Pick cards").click()
    for code in ("KS", "9S", "2H"):
        expect(player.locator(f".pick:has(input[value='{code}'])")).to_have_class(
            re.compile("used")
        )
    expect(player.locator(".pick:has(input[value='AS'])")).not_to_have_class(re.compile("used"))
