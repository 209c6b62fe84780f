"""Every phone at the table asks for the table page after each change: each gets the page as the
game stands, in its language and for its link, with its own CSRF token, CSP nonce and tap id,
and nothing a player typed is ever taken for any of them."""

import re

import pytest
from django.test import Client
from django.utils.html import escape

from scorekeeper import play
from scorekeeper.models import Club, Game

from ..factory import knock, make_club, make_game, reloaded

pytestmark = pytest.mark.django_db


def tap_id(page: str) -> str:
    return re.search(r'name="client_id" value="([0-9a-f]{32})"', page).group(1)


def test_the_page_shows_the_game_as_it_stands_after_a_change(client):
    game = make_game()
    first = client.get(game.get_absolute_url())
    assert client.get(game.get_absolute_url()).status_code == 200
    play.record_round(game, knock(game, "Ann", ["Ben"]))
    changed = client.get(game.get_absolute_url()).content.decode()
    assert "Round 2" in changed and "Round 2" not in first.content.decode()


def test_what_differs_per_request_is_fresh_on_every_page(client):
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
    # A tap from the page is accepted: its token is the browser's own.
    record = game.get_absolute_url() + "record"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', texts[2]).group(1)
    answer = other.post(
        record,
        {
            "csrfmiddlewaretoken": token,
            "ending": "knock",
            "knocker": "0",
            "lowest": ["1"],
            "confirm": "1",
            "version": "0",
            "client_id": tap_id(texts[2]),
        },
    )
    assert answer.status_code == 302 and reloaded(game).version == 1


def test_each_language_and_each_link_has_its_own_page(client):
    game = make_game()
    english = client.get(game.get_absolute_url()).content.decode()
    german = client.get(game.get_absolute_url(), headers={"accept-language": "de"})
    assert "Round 1" in english and "Runde 1" in german.content.decode()
    viewer = client.get(game.club.get_view_url() + f"g/{game.id}/").content.decode()
    assert 'name="client_id"' not in viewer and 'name="client_id"' in english


def test_a_message_is_said_once(client):
    game = make_game()
    client.get(game.get_absolute_url())
    stale = client.post(
        game.get_absolute_url() + "record",
        {"ending": "knock", "knocker": "0", "lowest": ["1"], "confirm": "1", "version": "7"},
    )
    page = client.get(stale["Location"] if stale.status_code == 302 else game.get_absolute_url())
    assert "Another phone changed this game" in page.content.decode()
    after = client.get(game.get_absolute_url()).content.decode()
    assert "Another phone changed this game" not in after


def test_the_answer_to_a_tap_is_the_table_the_other_phones_then_get(client):
    game = make_game()
    url = game.get_absolute_url()
    tap = {"ending": "knock", "knocker": "0", "lowest": ["1"], "confirm": "1", "version": "0"}
    answer = client.post(url + "record", tap, headers={"hx-request": "true"})
    assert "round 1 saved" in answer.content.decode()
    other_phone = Client().get(url, headers={"hx-request": "true"})
    assert "Round 2" in other_phone.content.decode()


def test_a_table_is_opened_only_by_its_own_club_s_keys(client):
    game = make_game()
    url = game.get_absolute_url()
    assert client.get(url).status_code == 200
    other = make_club("Other")
    assert client.get(url.replace(game.club.key, other.key)).status_code == 404
    assert client.get(f"/v/{other.view_key}/g/{game.id}/").status_code == 404
    last = game.club.key[-1]
    one_off = game.club.key[:-1] + ("y" if last == "x" else "x")
    assert client.get(url.replace(game.club.key, one_off)).status_code == 404


def test_what_changes_no_version_shows_at_once(client):
    """The club's name, the game's name and the page's mode change no round: the page shows
    them at once all the same."""
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


def test_each_game_shows_the_rules_card_of_its_own_rules(client):
    def card(game):
        page = client.get(game.get_absolute_url()).content.decode()
        return re.search(r'<details class="rules-card">.*?</details>', page, re.S).group(0)

    first = card(make_game())
    assert card(make_game()) == first
    five = card(make_game(lives=5))
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

    ann = make_game(players=("Ann", "Ben", "Cat"))
    assert [name for _, name in knockers(client.get(ann.get_absolute_url()).content.decode())] == [
        "Nobody",
        "Ann",
        "Ben",
        "Cat",
    ]
    zoe = make_game(players=("Zoe", "Yan"))
    page = client.get(zoe.get_absolute_url()).content.decode()
    assert [name for _, name in knockers(page)] == ["Nobody", "Zoe", "Yan"]
    assert "Zoe&#x27;s cards" in page and "Ann&#x27;s cards" not in page
    # Filled in (a preview without JavaScript), the fields show what was ticked.
    preview = client.post(
        zoe.get_absolute_url() + "record",
        {"ending": "knock", "knocker": "1", "version": "0", "preview": "1"},
    )
    assert knockers(preview.content.decode())[2] == (" checked", "Yan")
    german = client.get(ann.get_absolute_url(), headers={"accept-language": "de"})
    german_page = german.content.decode().replace("Wer hat geklopft?", "Who knocked?")
    assert knockers(german_page)[0] == (" checked", "Niemand")


@pytest.mark.parametrize(
    "name",
    ["knock-csrf-mark", "knock-tap-mark", "knock-nonce-mark", "knock-key-mark", "{{ csrf_token }}"],
)
def test_a_player_is_shown_as_typed_whatever_the_name(client, name):
    game = make_game(players=("Ann", name))
    play.record_round(game, knock(game, "Ann", [name]))
    for headers in ({}, {"hx-request": "true"}):
        page = client.get(game.get_absolute_url(), headers=headers).content.decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        assert token != name
        assert re.search(rf'<span class="name[^"]*">{re.escape(escape(name))}</span>', page)
        assert escape(name) in page.split('class="story"')[1]


def test_a_replaced_link_s_new_key_records_at_once_from_the_page_and_the_region(client):
    game = make_game()
    url = game.get_absolute_url()
    client.get(url)
    client.get(url, headers={"hx-request": "true"})
    play.replace_link(game.club, "secret")
    new = f"/c/{game.club.key}/g/{game.id}/"
    for n, headers in enumerate(({}, {"hx-request": "true"})):
        page = client.get(new, headers=headers).content.decode()
        assert f"{new}record" in page and url not in page
        tap = {
            "ending": "knock",
            "knocker": "0",
            "lowest": ["1"],
            "confirm": "1",
            "version": str(n),
            "client_id": tap_id(page),
        }
        assert client.post(new + "record", tap, headers=headers).status_code in (200, 302)
        assert reloaded(game).version == n + 1
    assert client.get(url).status_code == 410
