"""Knock in German: the catalogue is complete, pages and the API speak the language asked for,
and links never change with it."""

import csv
import gettext
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from scorekeeper.models import Game

from ..factory import make_game, record_knocks

pytestmark = pytest.mark.django_db

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"
COMPILED = CATALOGUE.with_suffix(".mo")
# What makemessages reads: the project's own code and templates.
NOT_SCANNED = [".*", "tests", "bench", "staticfiles", "test-results", "node_modules"]


def statistics(po: Path, out: Path) -> str:
    """msgfmt's check of a catalogue (placeholders, plurals, headers) and its counts."""
    if not shutil.which("msgfmt"):
        pytest.fail("the catalogue tests need GNU gettext: apt-get install gettext")
    done = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", str(out), str(po)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_the_german_catalogue_is_whole_and_compiled(tmp_path):
    said = statistics(CATALOGUE, tmp_path / "django.mo")
    assert "translated message" in said
    assert "untranslated" not in said and "fuzzy" not in said, said
    # The committed .mo is the .po compiled: a fresh machine speaks German with no gettext.
    with open(tmp_path / "django.mo", "rb") as fresh, open(COMPILED, "rb") as committed:
        assert (
            gettext.GNUTranslations(committed)._catalog == gettext.GNUTranslations(fresh)._catalog
        )


# The words that only a table addressed as "ihr" hears (euch, euer, habt, wollt, Gebt, Hakt …).
PLURAL_YOU = re.compile(
    r"\b([Ee]uch|[Ee]uer|[Ee]ure[mnrs]?|habt|seid|wollt|könnt)\b"
    r"|(^|[:.;] )(Gebt|Hakt|Markiert|Fragt|Tippt|Wählt|Setzt|Öffnet|Sprecht)\b"
    r"|: (gebt|tippt|wählt|markiert)\b"
)


def test_the_german_catalogue_speaks_to_the_table_as_du_throughout():
    with open(COMPILED, "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)._catalog
    said = [text for key, text in catalogue.items() if key and PLURAL_YOU.search(text)]
    assert not said, said
    # Some "du" there is, so the check above reads the German it means to.
    assert any(re.search(r"\b(du|dein\w*)\b", text) for text in catalogue.values())


def test_makemessages_finds_no_string_missing_from_the_catalogue(tmp_path, monkeypatch):
    kept = CATALOGUE.read_bytes()
    monkeypatch.chdir(settings.BASE_DIR)
    try:
        call_command(
            "makemessages",
            locale=["de"],
            ignore_patterns=NOT_SCANNED,
            add_location="file",
            verbosity=0,
        )
        said = statistics(CATALOGUE, tmp_path / "django.mo")
        assert "untranslated" not in said and "fuzzy" not in said, (
            f"{said}: run makemessages -l de (see the README) and translate the new strings"
        )
        obsolete = [line for line in CATALOGUE.read_text().splitlines() if line.startswith("#~")]
        assert not obsolete, "strings no longer used are left in the catalogue"
    finally:
        CATALOGUE.write_bytes(kept)


# ---- pages ----------------------------------------------------------------------------------


def test_a_browser_that_asks_for_german_gets_german_pages(client):
    page = client.get("/", headers={"accept-language": "de-DE,de;q=0.9,en;q=0.5"})
    text = page.content.decode()
    assert '<html lang="de"' in text
    assert "Einen Club gründen" in text and "Start a club" not in text
    assert "Accept-Language" in page["Vary"]
    english = client.get("/").content.decode()
    assert '<html lang="en"' in english and "Start a club" in english


def test_the_switch_keeps_the_language_in_a_cookie_and_the_link_unchanged(client):
    game = make_game()
    url = game.club.get_absolute_url()
    german = {"accept-language": "de"}
    assert "Spieler" in client.get(url, headers=german).content.decode()
    switched = client.post("/i18n/setlang/", {"language": "en", "next": url}, headers=german)
    assert switched.status_code == 302 and switched["Location"] == url
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    page = client.get(url, headers=german).content.decode()
    assert "Players" in page and "Spieler hinzufügen" not in page
    # Every page offers the switch, as a form with the page's own link to come back to.
    assert f'name="next" value="{url}"' in page and 'value="de" lang="de"' in page


def test_the_table_page_in_german(client):
    game = make_game(("Ann", "Ben", "Cara"), preset="schwimmen")
    record_knocks(game, [("Ann", ["Cara"])] * 3)
    english = client.get(game.get_absolute_url()).content.decode()
    assert "What these rules say" in english or "The rules of this game" in english
    page = client.get(game.get_absolute_url(), headers={"accept-language": "de"}).content.decode()
    assert "Runde 4" in page and "schwimmt" in page
    # The latest round's story, told when it was recorded (in English), in German.
    assert "Cara verliert 1 Leben: die niedrigste Hand." in page
    assert "Cara schwimmt jetzt." in page
    # The rules card is cached per rule set and per language.
    assert "Die Regeln dieses Spiels: Schwimmen (32 Karten, Feuer)" in page
    assert "Gleiche Summen" in page and "Equal totals" not in page
    assert "The rules of this game" in client.get(game.get_absolute_url()).content.decode()


def test_a_round_recorded_in_german_is_told_in_both_languages(client):
    game = make_game(("Ann", "Ben", "Cara"), preset="schwimmen")
    url = reverse("record", args=[game.club.key, game.id])
    german = {"accept-language": "de", "hx-request": "true"}
    data = {"ending": "knock", "knocker": "0", "lowest": ["1"], "confirm": "1", "version": "0"}
    answer = client.post(url, data, headers=german).content.decode()
    assert "Ben −1 · als Nächstes gibt Ben · Runde 1 gespeichert" in answer
    stored = Game.objects.get(pk=game.pk)
    # Told in the language of the page that asks for it.
    with translation.override("en"):
        assert "Ben loses 1 life: the lowest hand." in stored.last_story
    with translation.override("de"):
        assert "Ben verliert 1 Leben: die niedrigste Hand." in stored.last_story
    assert "Ben loses 1 life" in client.get(game.get_absolute_url()).content.decode()
    # The result kept for the operators' list stays in English.
    call_command("check_game_states", stdout=io.StringIO())


def test_refusals_and_form_errors_in_german(client):
    game = make_game(("Ann", "Ben", "Cara"), preset="schwimmen")
    url = reverse("record", args=[game.club.key, game.id])
    german = {"accept-language": "de"}
    data = {"ending": "knock", "lowest": ["1"], "preview": "1", "version": "0"}
    page = client.post(url, data, headers=german).content.decode()
    assert "Sag, wer geklopft hat." in page
    new_game = client.post(
        reverse("new-game", args=[game.club.key]), {"preset": "scat"}, headers=german
    ).content.decode()
    assert "Wähle mindestens zwei Spieler." in new_game


def test_the_round_log_and_the_export_in_german(client):
    game = make_game(("Ann", "Ben"), preset="schwimmen")
    record_knocks(game, [("Ann", ["Ben"])] * 4)
    german = {"accept-language": "de"}
    log = client.get(reverse("round-log", args=[game.club.key, game.id]), headers=german)
    text = log.content.decode()
    assert "Ann hat gewonnen" in text and "Runde 4" in text and "Ben klopfte" not in text
    assert "Ben gab" in text or "Ann gab" in text
    # Dates the German way: "begonnen Mo., 30. Nov 2026, 19:45".
    assert re.search(r"begonnen (Mo|Di|Mi|Do|Fr|Sa|So)\., \d{1,2}\. \w+\.? \d{4}, \d\d:\d\d", text)
    english = client.get(reverse("round-log", args=[game.club.key, game.id])).content.decode()
    assert re.search(r"started (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} \w+ \d{4}, \d\d:\d\d", english)
    export = client.get(reverse("export-games-csv", args=[game.club.key]), headers=german)
    rows = list(csv.reader(io.StringIO(export.content.decode())))
    assert rows[0] == ["begonnen", "Spiel", "Regeln", "Spieler", "Runden", "beendet", "Ergebnis"]
    assert rows[1][5:] == ["ja", "Ann hat gewonnen"]


# ---- the API --------------------------------------------------------------------------------


def api(client, url, body, language=None, key=None):
    headers = {"accept-language": language} if language else {}
    if key:
        headers["authorization"] = f"Bearer {key}"
    return client.post(url, data=json.dumps(body), content_type="application/json", headers=headers)


SHOWDOWN = {
    "rules": "schwimmen",
    "ending": "knock",
    "knocker": "Ann",
    "players": [
        {"name": "Ann", "cards": "Pik König, Pik 9, Herz 7"},
        {"name": "Ben", "cards": "Kreuz Ass, Kreuz 9, Kreuz 7"},
        {"name": "Cara", "cards": "Karo A, Karo 8, Pik 7", "lives": 1},
    ],
}


def test_the_api_answers_in_the_language_asked_for(client):
    english = api(client, "/api/v1/showdown", SHOWDOWN).json()
    german = api(client, "/api/v1/showdown", SHOWDOWN, "de").json()

    def machine(answer):  # what never changes with the language
        return json.dumps(answer, sort_keys=True, default=str, ensure_ascii=False)

    for answer in (english, german):
        for player in answer["players"]:
            player.pop("status_label")
            player.pop("reason", None)
        answer.pop("explanation")
        hands = answer.get("hands") or []
        for hand in hands.values() if isinstance(hands, dict) else hands:
            hand.pop("explanation")
    assert machine(english) == machine(german)
    german = api(client, "/api/v1/showdown", SHOWDOWN, "de").json()
    assert "Cara verliert 1 Leben: gleich niedrig wie Ann, der Klopfer." in german["explanation"]
    assert "Cara schwimmt jetzt." in german["explanation"]
    assert {p["name"]: p["status_label"] for p in german["players"]}["Cara"] == "schwimmt"
    assert {p["name"]: p["status"] for p in german["players"]}["Cara"] == "county"


def test_api_refusals_in_german_name_the_same_field(client):
    body = {
        **SHOWDOWN,
        "players": [
            *SHOWDOWN["players"][:2],
            {"name": "Cara", "cards": "Herz Zwölf, Pik 7, Karo 8"},
        ],
    }
    english = api(client, "/api/v1/showdown", body)
    german = api(client, "/api/v1/showdown", body, "de")
    assert english.status_code == german.status_code == 400
    assert english.json()["field"] == german.json()["field"] == "players[2].cards"
    assert german.json()["error"].startswith("Cara: „Herz Zwölf“ ist keine Karte")
    missing = api(client, "/api/v1/showdown", {"rules": "schwimmen"}, "de").json()
    assert missing == {"error": "das wird gebraucht", "field": "ending"}


def test_a_game_through_the_api_in_german(client):
    club = api(client, "/api/v1/clubs", {"name": "Stammtisch"}).json()
    body = {"rules": "schwimmen", "players": ["Ann", "Ben", "Cara"], "first_dealer": "Ann"}
    game = api(client, f"/api/v1/clubs/{club['id']}/games", body, "de", club["key"]).json()
    url = f"/api/v1/games/{game['id']}/rounds"
    round = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "version": game["version"]}
    answer = api(client, url, round, "de", club["key"]).json()
    assert answer["new_round"]["summary"] == "Ben −1"
    assert "Ben verliert 1 Leben: die niedrigste Hand." in answer["new_round"]["explanation"]
    assert [p["status_label"] for p in answer["players"]] == ["dabei"] * 3
    stale = api(client, url, {**round, "version": 0}, "de", club["key"])
    assert stale.status_code == 409 and stale.json()["field"] == "version"
    assert stale.json()["error"].startswith("das Spiel hat sich seit der gesendeten Version")
    english = client.get(
        f"/api/v1/games/{game['id']}", headers={"authorization": f"Bearer {club['key']}"}
    )
    assert "Ben loses 1 life: the lowest hand." in english.json()["rounds"][0]["explanation"]


def test_the_printed_rules_card_in_german_is_still_one_page(client, tmp_path):
    from .test_printing import read_pdf

    response = client.get(
        reverse("preset-rules-pdf", args=["schwimmen"]), headers={"accept-language": "de"}
    )
    text, pages = read_pdf(response.content, tmp_path, "rules-schwimmen-de")
    assert pages == 1
    assert "Regeln für 31: Schwimmen (32 Karten, Feuer)" in text
    assert "Drilling" in text and "Schwimmt: spielt weiter" in text and "Deck" not in text


def test_charts_keep_their_numbers_for_the_svg_in_german(client):
    game = make_game(("Ann", "Ben"), preset="schwimmen")
    record_knocks(game, [("Ann", ["Ben"])] * 4)
    german = {"accept-language": "de"}
    for url in (
        reverse("round-log", args=[game.club.key, game.id]),
        reverse("stats", args=[game.club.key]),
    ):
        page = client.get(url, headers=german).content.decode()
        svg = page[page.index("<svg") : page.index("</svg>")]
        # x="186.5", never x="186,5": an SVG reads numbers with a point in every language.
        assert not re.search(r' (x|y|x1|x2|y1|y2|width)="[^"]*\d,\d', svg), svg[:300]
        assert re.search(r'="\d+\.\d+"', svg)


def test_cards_as_german_players_write_them_are_read_and_shown_so():
    from scorekeeper.rules import PRESETS, evaluate, parse_cards

    cards = parse_cards("D♦ B♦ 7 Karo")
    with translation.override("de"):
        hand = evaluate(cards, PRESETS["scat"].rules)
        assert [str(card) for card in cards] == ["D♦", "B♦", "7♦"]
        assert "D♦ B♦ 7♦" in hand.explanation
    assert [str(card) for card in cards] == ["Q♦", "J♦", "7♦"]
    assert evaluate(parse_cards("Herz-Dame Herz-Bube 9 Herz"), PRESETS["scat"].rules).value == 29
