"""The referee page through the test client: without JavaScript, and as htmx asks for it."""

import re

import pytest
from django.test import Client

from scorekeeper import play
from scorekeeper.models import Round, RoundInputs
from scorekeeper.rules import PRESETS, SWITCHES
from scorekeeper.web.forms.house_rules import form_key

from ..factory import make_game

BEN_KNOCKS = {
    "preset": "scat",
    "ending": "knock",
    "players": "4",
    "knocker": "0",
    "dealer": "3",
    "p0-name": "Ben",
    "p0-cards": "KS 9S 2H",
    "p1-name": "Cara",
    "p1-cards": "AC 9C 7C",
    "p2-name": "You",
    "p2-cards": "KH QH 5H",
    "p3-name": "Ana",
    "p3-cards": "AD 8D 6C",
}


def settle(client, **changes):
    data = {**BEN_KNOCKS, **changes, "settle": "1"}
    return client.post("/referee/", {k: v for k, v in data.items() if v is not None})


def text(response):
    return response.content.decode()


def test_the_referee_page_offers_every_preset(client):
    response = client.get("/referee/")
    assert response.status_code == 200
    page = text(response)
    assert "<h1>Referee</h1>" in page
    for preset in (
        "Scat (31, Pagat",
        "Friendly Thirty-One",
        "Schwimmen",
        "Aces wild",
        "Kitchen-table",
    ):
        assert preset in page
    assert page.count('class="player"') == 4
    assert "csrfmiddlewaretoken" in page


def test_without_javascript_a_post_settles_the_round_on_the_whole_page(client):
    response = settle(client)
    page = text(response)
    assert "<h1>Referee</h1>" in page  # the whole page
    assert "Ana loses 1 life: tied for lowest with Ben, the knocker, who is safe in a tie." in page
    assert "K♠ 9♠ count 19 in spades; the 2♥ does not join them" in page
    assert "Ben deals next." in page


def test_htmx_gets_only_the_verdict_and_each_hand(client):
    response = client.post(
        "/referee/", {**BEN_KNOCKS, "settle": "1"}, headers={"HX-Request": "true"}
    )
    page = text(response)
    assert "<h1>" not in page
    assert page.lstrip().startswith('<section id="verdict"')
    assert page.count('hx-swap-oob="true"') == 4
    assert "Ana loses 1 life" in page
    assert "HX-Request" in response["Vary"]


def test_while_cards_are_typed_it_says_what_is_missing_instead_of_refusing(client):
    data = {**BEN_KNOCKS, "p3-cards": ""}
    page = text(client.post("/referee/", data, headers={"HX-Request": "true"}))
    assert "Enter Ana&#x27;s three cards." in page
    assert "K♠ 9♠ count 19" in page  # the hands already entered are counted


def test_picked_cards_count_like_typed_ones(client):
    response = settle(client, **{"p3-cards": "", "p3-pick": ["AD", "8D", "6C"]})
    assert "Ana loses 1 life" in text(response)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"p1-cards": "AC 9C 5C", "preset": "schwimmen"}, "the 32-card deck has no"),
        ({"p1-cards": "KS 9C 7C"}, "K♠ is already in Ben&#x27;s hand"),
        ({"p1-cards": "AC 9C"}, "1 more card to go"),
        ({"p1-cards": "AC 9C 7C 8C"}, "exactly 3 cards, not 4"),
        ({"p1-cards": "AC 9C QX"}, "“QX” is not a card"),
        (
            {"ending": "thirty_one", "shown": "1", "knocker": ""},
            "Cara&#x27;s hand is worth 27, not 31",
        ),
        ({"preset": "poker"}, "Select a valid choice"),
    ],
)
def test_impossible_input_is_refused_next_to_the_field(client, changes, message):
    page = text(settle(client, **changes))
    assert message in page
    assert "loses 1 life" not in page


def test_an_error_stands_in_the_row_of_the_player_it_is_about(client):
    page = text(settle(client, **{"p1-cards": "KS 9C 7C"}))
    row = page[page.index('id="player-1"') : page.index('id="player-2"')]
    assert "K♠ is already in Ben&#x27;s hand" in row


def test_an_error_that_stops_a_settlement_is_said_in_the_verdict_box(client):
    for response in (
        settle(client, **{"p1-cards": "KS 9C 7C"}),
        client.post(
            "/referee/", {**BEN_KNOCKS, "p1-cards": "KS 9C 7C"}, headers={"HX-Request": "true"}
        ),
    ):
        page = text(response)
        verdict = page[page.index('id="verdict"') :]
        verdict = verdict[: verdict.index("</section>")]
        assert 'class="error" role="alert">Cara: K♠ is already in Ben&#x27;s hand' in verdict


def test_a_house_rule_changes_the_verdict(client):
    page = text(settle(client, **{"p3-cards": "AD 10D 6C", "rule_knocker_alone": "1"}))
    assert "Ben loses 1 life: knocked and alone has the lowest hand." in page


def test_a_nonsense_house_rule_is_refused_beside_it(client):
    page = text(settle(client, **{"preset": "friendly", "rule_all_out": "revival"}))
    assert "needs a last chance" in page


def test_the_table_decides_with_buttons_then_by_its_choice(client):
    data = {
        "preset": "kitchen-table",
        "ending": "dealt_thirty_one",
        "players": "3",
        "shown": ["0", "1"],
        "p0-name": "Ann",
        "p0-cards": "AS KS QS",
        "p1-name": "Ben",
        "p1-cards": "AH KH QH",
        "p2-name": "Cat",
        "p2-cards": "2C 3C 4C",
    }
    page = text(client.post("/referee/", {**data, "settle": "1"}))
    assert "the table decides" in page
    assert 'name="choice" value="replay"' in page
    page = text(client.post("/referee/", {**data, "choice": "without_31_lose_1"}))
    assert "Cat loses 1 life" in page


def test_add_a_player_adds_a_row_and_keeps_what_was_typed(client):
    page = text(client.post("/referee/", {**BEN_KNOCKS, "add": "1"}))
    assert page.count('class="player"') == 5
    assert 'value="KS 9S 2H"' in page
    assert "loses 1 life" not in page


def test_names_are_escaped(client):
    page = text(settle(client, **{"p3-name": "<script>alert(1)</script>"}))
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; loses 1 life" in page


def test_the_rules_card_shows_our_readings(client):
    page = text(client.post("/referee/", {**BEN_KNOCKS, "preset": "friendly"}))
    # tie_break, unshown_31, next_dealer, all_out, round_limit and pot_at_end
    assert page.count("(our reading)") == 6


def test_the_form_needs_its_csrf_token():
    client = Client(enforce_csrf_checks=True)
    assert client.post("/referee/", BEN_KNOCKS).status_code == 403
    page = text(client.get("/referee/"))
    token = client.cookies["csrftoken"].value
    response = client.post("/referee/", BEN_KNOCKS, headers={"X-CSRFToken": token})
    assert response.status_code == 200
    assert 'hx-headers=\'{"x-csrftoken": "' in page


def test_the_page_has_no_inline_script_and_a_strict_policy(client):
    response = client.get("/referee/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self' 'nonce-" in policy and "unsafe-inline" not in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    page = text(response)
    # Scripts are files; the one inline element is data (the scripts' words), never run.
    data = page.count('<script id="script-words" type="application/json">')
    assert data == 1
    modules = page.count('<script type="module" src=')
    assert page.count("<script") == page.count("<script src=") + modules + data


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_switch_survives_a_round_trip_through_the_form(preset):
    rules = PRESETS[preset].rules
    as_text = {f.name: form_key(getattr(rules, f.name)) for f in SWITCHES}
    assert PRESETS["scat"].rules.replace(as_text) == rules


@pytest.mark.django_db
def test_settle_with_cards_from_a_game_and_record_the_verdict_in_one_tap(client):
    game = make_game(players=("Ben", "Cara", "Ana", "Dev"), preset="schwimmen", lives=2)
    for _ in range(3):
        play.record_round(game, RoundInputs("manual", losses={3: 1}))  # Dev swims, then is out
    url = f"/c/{game.club.key}/g/{game.id}/referee"
    page = text(client.get(url))
    # The game's rules and the players still in, in their seats; Dev, who is out, is not there.
    assert '<option value="schwimmen" selected>' in page
    assert 'value="Ben"' in page and 'value="Ana"' in page and 'value="Dev"' not in page
    data = {
        "preset": "schwimmen",
        "rule_lives": "2",
        "ending": "knock",
        "players": "3",
        "knocker": "0",
        "p0-name": "Ben",
        "p0-cards": "KS QS 9S",
        "p1-name": "Cara",
        "p1-cards": "AC 9C 8C",
        "p2-name": "Ana",
        "p2-cards": "10D 8D 7H",
        "settle": "1",
    }
    page = text(client.post(url, data))
    assert "Ana loses 1 life" in page and "Record as round 4" in page
    fields = dict(re.findall(r'form="record-verdict" name="([^"]+)" value="([^"]*)"', page))
    assert fields == {
        "ending": "knock",
        "knocker": "0",
        "cards_0": "KS QS 9S",
        "cards_1": "AC 9C 8C",
        "cards_2": "10D 8D 7H",
    }
    record = re.search(r'id="record-verdict" method="post" action="([^"]+)"', page).group(1)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    response = client.post(record, {**fields, "version": version, "confirm": "1"})
    assert response.status_code == 302
    assert Round.objects.filter(game=game, state="active").count() == 4
    game.refresh_from_db()
    assert game.state.lives == (2, 2, 1, 0)
    # The view link cannot open it.
    assert client.get(f"/v/{game.club.view_key}/g/{game.id}/referee").status_code == 404
