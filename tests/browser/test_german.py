"""A Schwimmen game played to its end in German, on a phone whose browser asks for German, with a
disputed showdown settled by cards typed as German players write them."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .phones import PHONE, player_tile

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(__file__).resolve().parent.parent.parent / "test-results"
# Ann 19 in Pik, Ben 27 in Kreuz, Cara 19 in Karo: Ann knocked and ties Cara at the bottom.
DISPUTE = {
    "Ann": "Pik König, Pik 9, Herz 7",
    "Ben": "Kreuz Ass Kreuz 9 Kreuz 7",
    "Cara": "Karo A, Karo 8, Pik 7",
}
LOSSES = [
    "Cara verliert 1 Leben: gleich niedrig wie Ann, der Klopfer.",
    "Ann verliert 1 Leben: geklopft und gleich niedrig wie Cara; der Klopfer verliert wie die anderen.",
]


@pytest.fixture
def german_phone(browser):
    context = browser.new_context(viewport=PHONE, has_touch=True, locale="de-DE")
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def knock(page, knocker: str, lowest: str) -> None:
    heading = page.locator("#table h1").inner_text()
    page.locator("#record .endings").get_by_text("Klopfen", exact=True).click()
    player_tile(page, knocker).click()
    player_tile(page, lowest).click()
    page.get_by_role("button", name=re.compile(r"^Runde \d+ eintragen$")).click()
    expect(page.locator("#table h1")).not_to_have_text(heading)


def test_a_schwimmen_game_in_german_to_its_end(german_phone, live_server):
    page = german_phone
    SHOTS.mkdir(exist_ok=True)
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.get_by_label("Name des Clubs").fill("Stammtisch")
    page.get_by_role("button", name="Club gründen").click()
    expect(page.locator("h1")).to_have_text("Stammtisch")
    club_url = page.url
    page.get_by_label("Spieler hinzufügen").fill("Ann, Ben\nCara")
    page.get_by_role("button", name="Hinzufügen", exact=True).click()
    expect(page.locator("#players .messages")).to_contain_text(
        "Ann, Ben und Cara sind dem Club beigetreten."
    )
    page.get_by_role("link", name="Neues Spiel").click()
    for name in ("Ann", "Ben", "Cara"):  # the club's first game: all three ticked already
        expect(page.get_by_label(name, exact=True)).to_be_checked()
    page.locator(".seat-row", has_text="Cara").get_by_text("Gibt zuerst").click()
    page.locator("input[name=preset][value=schwimmen]").check()
    expect(page.locator("label.preset", has_text="Schwimmen (32 Karten, Feuer)")).to_be_visible()
    page.get_by_role("button", name="Spiel starten").click()
    expect(page.locator("h1")).to_have_text("Runde 1")
    expect(page.locator(".game-head")).to_contain_text("Cara gibt")

    # The showdown is disputed: everyone's cards, typed the German way, settle it.
    form = page.locator("form.record")
    player_tile(page, "Ann").click()
    expect(player_tile(page, "Ann")).to_contain_text("klopfte")
    form.get_by_text("Streit? Gib die Karten aller ein").click()
    for name, cards in DISPUTE.items():
        form.get_by_label(f"Karten von {name}").fill(cards)
    form.get_by_label("Karten von Cara").press("Tab")
    for sentence in LOSSES:
        expect(page.locator("#preview")).to_contain_text(sentence.removesuffix("."))
    page.locator("#preview summary").click()
    expect(page.locator("#preview")).to_contain_text(
        "Ann und Cara liegen gleich am niedrigsten mit 19."
    )
    page.screenshot(path=str(SHOTS / "german-dispute.png"), full_page=True)
    form.get_by_role("button", name="Runde 1 eintragen").click()
    expect(page.locator("#table h1")).to_have_text("Runde 2")
    expect(page.locator("#toast")).to_contain_text(
        re.compile(r"^Ann −1, Cara −1 · .* · Runde 1 gespeichert")
    )
    expect(page.locator(".last")).to_contain_text(LOSSES[0])

    # Cara goes on losing: she swims, then she is out.
    knock(page, "Ben", "Cara")
    knock(page, "Ben", "Cara")
    cara = player_tile(page, "Cara")
    expect(cara).to_contain_text("schwimmt")
    expect(page.locator(".last")).to_contain_text("Cara schwimmt jetzt.")
    page.screenshot(path=str(SHOTS / "german-swimming.png"), full_page=True)
    knock(page, "Ben", "Cara")
    expect(page.locator(".last")).to_contain_text("Cara ist jetzt raus.")
    # Then Ann, down to her last chance and out: Ben wins.
    knock(page, "Ben", "Ann")
    knock(page, "Ben", "Ann")
    expect(player_tile(page, "Ann")).to_contain_text("schwimmt")
    knock(page, "Ben", "Ann")
    expect(page.locator("#table h1")).to_have_text("Spiel vorbei")
    expect(page.locator(".winner")).to_contain_text("Ben gewinnt!")
    expect(page.locator(".last")).to_contain_text("Ben gewinnt das Spiel.")
    page.screenshot(path=str(SHOTS / "german-game-over.png"), full_page=True)

    # The round log speaks German too, and the switch goes to English on the same link.
    page.get_by_role("link", name="Protokoll").click()
    expect(page.locator(".round-entry").first).to_contain_text("Ben klopfte")
    log_url = page.url
    page.locator("footer .languages").get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.url == log_url
    expect(page.locator(".round-entry").first).to_contain_text("Ben knocked")
    page.goto(club_url)
    expect(page.locator("h2", has_text="Players")).to_be_visible()
