"""The table page is drawn once per version of a game and kept: every phone at the table asks
for it after each change. What differs per request (CSRF token, CSP nonce, the next tap's id)
is put in afresh, and a change, a language or a message draws it again."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.signals import template_rendered

from scorekeeper.models import Club, Game

from ..factory import knock, make_club, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn():
    """The templates drawn while a test runs, by name."""
    names: list[str] = []

    def seen(sender, template, context, **kwargs):
        names.append(template.name)

    template_rendered.connect(seen)
    yield names
    template_rendered.disconnect(seen)


def tap_id(page: str) -> str:
    return re.search(r'name="client_id" value="([0-9a-f]{32})"', page).group(1)


def test_the_page_is_drawn_once_per_version_and_again_after_a_change(client, drawn):
    game = make_game()
    first = client.get(game.get_absolute_url())
    assert "scorekeeper/game.html" in drawn
    drawn.clear()
    again = client.get(game.get_absolute_url())
    assert drawn == [] and again.status_code == 200
    game.record(knock(game, "Ann", ["Ben"]))
    changed = client.get(game.get_absolute_url()).content.decode()
    assert "scorekeeper/game.html" in drawn
    assert "Round 2" in changed and "Round 2" not in first.content.decode()


def test_what_differs_per_request_is_fresh_on_a_kept_page(client):
    game = make_game()
    other = Client()
    pages = [c.get(game.get_absolute_url()) for c in (client, client, other)]
    texts = [page.content.decode() for page in pages]
    assert not any("-mark" in text for text in texts)
    # A fresh id for each page's next tap: two phones never send the same one.
    assert len({tap_id(text) for text in texts}) == 3
    # The CSRF token of each browser, and the nonce the CSP header allows.
    for page, text in zip(pages, texts, strict=True):
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text).group(1)
        assert len(token) == 64
        nonce = re.search(r'<script[^>]* nonce="([^"]+)"', text).group(1)
        assert f"'nonce-{nonce}'" in page["Content-Security-Policy"]
    # A tap from the kept page is accepted: its token is the browser's own.
    record = game.get_absolute_url() + "record"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', texts[2]).group(1)
    answer = other.post(record, {"csrfmiddlewaretoken": token, "ending": "knock", "knocker": "0",
                                 "lowest": ["1"], "confirm": "1", "version": "0",
                                 "client_id": tap_id(texts[2])})  # fmt: skip
    assert answer.status_code == 302 and game.fresh().version == 1


def test_each_language_and_each_link_has_its_own_page(client, drawn):
    game = make_game()
    english = client.get(game.get_absolute_url()).content.decode()
    german = client.get(game.get_absolute_url(), headers={"accept-language": "de"})
    assert "Round 1" in english and "Runde 1" in german.content.decode()
    viewer = client.get(game.club.get_view_url() + f"g/{game.id}/").content.decode()
    assert 'name="client_id"' not in viewer and 'name="client_id"' in english


def test_a_page_with_a_message_to_say_is_drawn_afresh(client, drawn):
    game = make_game()
    client.get(game.get_absolute_url())
    drawn.clear()
    stale = client.post(game.get_absolute_url() + "record",
                        {"ending": "knock", "knocker": "0", "lowest": ["1"], "confirm": "1",
                         "version": "7"})  # fmt: skip
    page = client.get(stale["Location"] if stale.status_code == 302 else game.get_absolute_url())
    assert "scorekeeper/game.html" in drawn
    assert "Another phone changed this game" in page.content.decode()
    # Said once: the next visit is the kept page again, without it.
    drawn.clear()
    after = client.get(game.get_absolute_url()).content.decode()
    assert drawn == [] and "Another phone changed this game" not in after


def test_the_answer_to_a_tap_draws_the_page_the_other_phones_then_get(client, drawn):
    game = make_game()
    url = game.get_absolute_url()
    tap = {"ending": "knock", "knocker": "0", "lowest": ["1"], "confirm": "1", "version": "0"}
    answer = client.post(url + "record", tap, headers={"hx-request": "true"})
    assert "Round 1 saved" in answer.content.decode()
    assert "table" in drawn  # the partial of game.html
    drawn.clear()
    other_phone = Client().get(url, headers={"hx-request": "true"})
    assert drawn == [] and "Round 2" in other_phone.content.decode()


def test_a_kept_page_is_opened_only_by_its_own_club_s_keys(client):
    game = make_game()
    url = game.get_absolute_url()
    assert client.get(url).status_code == 200  # drawn and kept
    other = make_club("Other")
    assert client.get(url.replace(game.club.key, other.key)).status_code == 404
    assert client.get(f"/v/{other.view_key}/g/{game.id}/").status_code == 404
    assert client.get(url.replace(game.club.key, game.club.key[:-1] + "x")).status_code == 404


def test_what_changes_no_version_still_draws_the_page_again(client):
    """The club's name, the game's name and the page's mode change no round: the kept page
    is not the one shown after them."""
    game = make_game()
    url = game.get_absolute_url()
    client.get(url)
    Club.objects.filter(pk=game.club.pk).update(name="Renamed Club")
    assert "Renamed Club" in client.get(url).content.decode()
    Game.objects.filter(pk=game.pk).update(name="Friday at Ana's")
    assert "Friday at Ana&#x27;s" in client.get(url).content.decode()
    assert "Tap a player to take a life" not in client.get(url).content.decode()
    Game.objects.filter(pk=game.pk).update(mode=Game.Mode.COUNT)
    assert "Tap a player to take a life" in client.get(url).content.decode()


def test_games_under_the_same_rules_share_their_rules_card_and_others_do_not(client, drawn):
    def card(game):
        page = client.get(game.get_absolute_url()).content.decode()
        return re.search(r'<details class="rules-card">.*?</details>', page, re.S).group(0)

    cache.clear()  # no card drawn yet in this process
    first = card(make_game())
    assert "_rules_card.html" in " ".join(drawn)
    drawn.clear()
    assert card(make_game()) == first and "_rules_card.html" not in " ".join(drawn)
    five = card(make_game(lives=5))
    assert "_rules_card.html" in " ".join(drawn)
    assert "<dt>Lives at the start</dt>\n    <dd>5</dd>" in five
    assert "<dd>5</dd>" not in first
    german = client.get(make_game().get_absolute_url(), headers={"accept-language": "de"})
    assert "Die Regeln dieses Spiels" in german.content.decode()


def test_the_fields_asked_by_hand_are_each_game_s_own(client):
    """The fields a page without JavaScript fills in are kept per rules and players: another
    game's players, or a form filled in, are never shown from them."""

    def knockers(page: str) -> list[str]:
        part = page.split("Who knocked?")[1].split("</fieldset>")[0]
        return re.findall(r'name="knocker" value="\d*"( checked)?><span>([^<]+)<', part)

    cache.clear()
    ann = make_game(players=("Ann", "Ben", "Cat"))
    assert [name for _, name in knockers(client.get(ann.get_absolute_url()).content.decode())] \
        == ["Nobody", "Ann", "Ben", "Cat"]  # fmt: skip
    zoe = make_game(players=("Zoe", "Yan"))
    page = client.get(zoe.get_absolute_url()).content.decode()
    assert [name for _, name in knockers(page)] == ["Nobody", "Zoe", "Yan"]
    assert "Zoe&#x27;s cards" in page and "Ann&#x27;s cards" not in page
    # Filled in (a preview without JavaScript), the fields show what was ticked.
    preview = client.post(zoe.get_absolute_url() + "record",
                          {"ending": "knock", "knocker": "1", "version": "0", "preview": "1"})  # fmt: skip
    assert knockers(preview.content.decode())[2] == (" checked", "Yan")
    german = client.get(ann.get_absolute_url(), headers={"accept-language": "de"})
    german_page = german.content.decode().replace("Wer hat geklopft?", "Who knocked?")
    assert knockers(german_page)[0] == (" checked", "Niemand")


def test_a_table_region_drawn_by_one_process_is_served_by_the_others(client, drawn):
    """After a change every phone asks for the table region, and the app server's processes
    share it through the database: another process (here, this one with its own cache emptied)
    serves it without drawing. The database holds it with the club's key taken out."""
    game = make_game()
    url, htmx = game.get_absolute_url(), {"HX-Request": "true"}
    drawn_here = client.get(url, headers=htmx).content.decode()
    assert "scorekeeper/_seat.html" in drawn
    cache.clear()  # as a process that has not seen this game
    drawn.clear()
    served = client.get(url, headers=htmx).content.decode()
    assert drawn == []
    assert tap_id(served) != tap_id(drawn_here)
    assert re.sub(r"[0-9a-f]{32}|value=\"\w{64}\"", "", served) == re.sub(
        r"[0-9a-f]{32}|value=\"\w{64}\"", "", drawn_here
    )  # the same page, but for the tap id and the CSRF token
    assert f"/c/{game.club.key}/g/{game.id}/record" in served
    with connection.cursor() as cursor:
        cursor.execute("SELECT value FROM knock_kept_pages")
        stored = " ".join(row[0] for row in cursor.fetchall())
    assert stored and game.club.key not in b64decode_all(stored)
    # The view link's region is its own, with its own key put back.
    view = client.get(f"/v/{game.club.view_key}/g/{game.id}/", headers=htmx).content.decode()
    assert "/record" not in view and game.club.key not in view
    # A whole page is kept by its process only: it names its own address.
    cache.clear()
    drawn.clear()
    client.get(url)
    assert "scorekeeper/game.html" in drawn


def b64decode_all(stored: str) -> str:
    """What the database cache holds, read back (it writes base64 of a pickle)."""
    import base64
    import pickle

    return " ".join(pickle.loads(base64.b64decode(value)) for value in stored.split())
