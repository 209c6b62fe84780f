"""The JSON API, version 1, through real HTTP requests to the test client."""

import json

import pytest

SHOWDOWN = "/api/v1/showdown"


def post(client, url, body, raw=False):
    data = body if raw else json.dumps(body)
    return client.post(url, data=data, content_type="application/json")


def ben_knocks(**changes):
    body = {
        "rules": "scat",
        "ending": "knock",
        "knocker": "Ben",
        "dealer": "Ana",
        "players": [
            {"name": "Ben", "cards": ["KS", "9S", "2H"]},
            {"name": "Cara", "cards": "AC 9C 7C"},
            {"name": "You", "cards": "kh, qh, 5h"},
            {"name": "Ana", "cards": ["A♦", "8♦", "6♣"]},
        ],
    }
    body.update(changes)
    return body


def test_it_lists_the_six_rule_sets_with_every_switch(client):
    response = client.get("/api/v1/rulesets")
    assert response.status_code == 200
    rulesets = response.json()["rulesets"]
    assert [r["id"] for r in rulesets] == [
        "scat",
        "friendly",
        "schwimmen",
        "aces-wild",
        "kitchen-table",
        "widow",
    ]
    schwimmen = rulesets[2]
    assert schwimmen["rules"]["deck"] == 32
    assert schwimmen["rules"]["three_of_a_kind"] == 30.5
    assert schwimmen["name"] and schwimmen["description"]
    assert len({frozenset(r["rules"]) for r in rulesets}) == 1  # every switch, in every preset


def test_it_evaluates_a_hand(client):
    response = post(client, "/api/v1/evaluate", {"rules": "scat", "cards": ["AS", "KS", "9D"]})
    assert response.status_code == 200
    assert response.json() == {
        "value": 21,
        "counted": ["AS", "KS"],
        "explanation": "A♠ K♠ count 21 in spades; the 9♦ does not join them",
    }


def test_it_evaluates_under_house_rules(client):
    body = {
        "rules": {"preset": "scat", "overrides": {"three_of_a_kind": 30.5}},
        "cards": "7s 7h 7d",
    }
    assert post(client, "/api/v1/evaluate", body).json()["value"] == 30.5


def test_it_settles_ben_cara_and_ana(client):
    response = post(client, SHOWDOWN, ben_knocks())
    assert response.status_code == 200
    data = response.json()
    assert data["losses"] == {"Ana": 1}
    assert [h["value"] for h in data["hands"]] == [19, 27, 25, 19]
    assert data["players"][3] == {
        "name": "Ana",
        "lives": 2,
        "status": "in",
        "status_label": "in",
        "lost": 1,
        "reason": "Ana loses 1 life: tied for lowest with Ben, the knocker, who is safe in a tie",
        "coins": None,  # a game played for a pot only
    }
    assert data["result"] == "scored" and data["choices"] == []
    assert data["game_over"] is False and data["winner"] is None and data["tie"] == []
    assert data["next_dealer"] == "Ben"
    assert data["pot"] == 1
    assert "Ben and Ana tie for lowest with 19." in data["explanation"]


def test_out_players_are_listed_and_can_come_back_in_a_revival(client):
    body = {
        "rules": "aces-wild",
        "ending": "knock",
        "knocker": "Ann",
        "players": [
            {"name": "Ann", "cards": "KS 9S 2H", "status": "county"},
            {"name": "Ben", "status": "out"},
            {"name": "Cat", "cards": "KD 9D 2C", "lives": 0},
        ],
    }
    data = post(client, SHOWDOWN, body).json()
    assert [(p["status"], p["status_label"]) for p in data["players"]] == [
        ("county", "on the brink")
    ] * 3
    assert data["game_over"] is False


def test_the_table_decides_what_the_rules_leave_open(client):
    body = {
        "rules": "kitchen-table",
        "ending": "dealt_thirty_one",
        "shown_by": ["Ann", "Ben"],
        "players": [
            {"name": "Ann", "cards": "AS KS QS"},
            {"name": "Ben", "cards": "AH KH QH"},
            {"name": "Cat", "cards": "2C 3C 4C"},
        ],
    }
    data = post(client, SHOWDOWN, body).json()
    assert data["result"] == "table_decides"
    assert [c["id"] for c in data["choices"]] == ["without_31_lose_1", "replay"]
    assert data["losses"] == {}
    data = post(client, SHOWDOWN, {**body, "choice": "without_31_lose_1"}).json()
    assert data["result"] == "scored" and data["losses"] == {"Cat": 1}


def test_a_value_the_table_agreed_stands_in_for_cards(client):
    body = ben_knocks(players=[{"name": "Ben", "value": 19}, {"name": "Ana", "value": 30.5}])
    body["rules"] = "kitchen-table"
    body["dealer"] = None
    assert post(client, SHOWDOWN, body).json()["losses"] == {"Ben": 2}


@pytest.mark.parametrize(
    "body, field, message",
    [
        ("{not json", "body", "not valid JSON"),
        ("[1, 2]", "body", "JSON object"),
        (ben_knocks(rules="poker"), "rules.preset", "no rule set called"),
        (
            ben_knocks(rules={"preset": "scat", "overrides": {"jokers": 1}}),
            "rules.overrides.jokers",
            "no house rule",
        ),
        (ben_knocks(rules={"preset": "scat", "overrides": {"lives": "3"}}), None, None),
        (ben_knocks(knocker="Zed"), "knocker", "Zed is not playing"),
        (ben_knocks(knocker=7), "knocker", "must be some text"),
        (ben_knocks(ending="bust"), "ending", "the ending is one of"),
        (ben_knocks(players="Ben, Ana"), "players", "list the players"),
        (
            ben_knocks(
                players=[{"name": "Ben", "cards": "KS 9S"}, {"name": "Ana", "cards": "AD 8D 6C"}]
            ),
            "players[0].cards",
            "exactly 3 cards",
        ),
        (
            ben_knocks(
                players=[{"name": "Ben", "cards": "KS 9S ZZ"}, {"name": "Ana", "cards": "AD 8D 6C"}]
            ),
            "players[0].cards",
            "“ZZ” is not a card",
        ),
        (
            ben_knocks(
                players=[{"name": "Ben", "cards": "KS 9S 2H"}, {"name": "Ana", "cards": "KS 8D 6C"}]
            ),
            "players[1].cards",
            "K♠ is in Ben's hand and in Ana's",
        ),
        (
            ben_knocks(
                players=[{"name": "Ben", "cards": [1, 2, 3]}, {"name": "Ana", "cards": "AD 8D 6C"}]
            ),
            "players[0].cards",
            "cards are a list",
        ),
        (
            ben_knocks(players=[{"name": "Ben", "lives": "3"}, {"name": "Ana"}]),
            "players[0].lives",
            "whole number",
        ),
        (
            ben_knocks(players=[{"name": "Ben", "status": "dead"}, {"name": "Ana"}]),
            "players[0].status",
            "a status is",
        ),
        (
            ben_knocks(players=[{"name": ""}, {"name": "Ana"}]),
            "players[0].name",
            "must be some text",
        ),
        (
            ben_knocks(ending="thirty_one", shown_by=["Cara"], knocker=None),
            "shown_by",
            "Cara's hand is worth 27, not 31",
        ),
        (ben_knocks(shown_by="Cara"), "shown_by", "list of player names"),
        (ben_knocks(choice=5), "choice", "one of the ids"),
        (
            ben_knocks(rules={"preset": "schwimmen"}),
            "players[0].cards",
            "the 32-card deck has no 2♥",
        ),
    ],
)
def test_bad_input_gets_a_400_naming_the_field(client, body, field, message):
    response = post(client, SHOWDOWN, body, raw=isinstance(body, str))
    if field is None:  # a well-formed request in the same table, as a control
        assert response.status_code == 200
        return
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert message in response.json()["error"]


def test_evaluate_refuses_bad_cards_naming_the_field(client):
    response = post(client, "/api/v1/evaluate", {"rules": "schwimmen", "cards": ["AS", "KS", "5D"]})
    assert response.status_code == 400
    assert response.json() == {"error": "the 32-card deck has no 5♦", "field": "cards"}
    response = post(client, "/api/v1/evaluate", {"cards": ["AS", "KS", "5D"]})
    assert response.json()["field"] == "rules"


def test_get_is_not_allowed_on_the_post_endpoints(client):
    assert client.get(SHOWDOWN).status_code == 405


def test_a_huge_body_is_refused(client):
    response = post(client, SHOWDOWN, ben_knocks(padding="x" * 70_000))
    assert response.status_code == 413
    assert response.json()["field"] == "body"


def test_the_openapi_description_names_every_endpoint(client):
    spec = client.get("/api/v1/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert set(spec["paths"]) == {
        "/api/v1/rulesets",
        "/api/v1/evaluate",
        "/api/v1/showdown",
        "/api/v1/clubs",
        "/api/v1/clubs/{club}/games",
        "/api/v1/games/{game}",
        "/api/v1/games/{game}/rounds",
        "/api/v1/games/{game}/undo",
        "/api/v1/clubs/{club}/stats",
        "/api/v1/games/{game}/abandon",
        "/api/v1/games/{game}/delete",
        "/api/v1/games/{game}/restore",
        "/api/v1/clubs/{club}/tournaments",
        "/api/v1/tournaments/{tournament}",
        "/api/v1/tournaments/{tournament}/rounds",
        "/api/v1/tournaments/{tournament}/entries",
        "/api/v1/tournaments/{tournament}/withdraw",
        "/api/v1/tournaments/{tournament}/reinstate",
        "/api/v1/tournaments/{tournament}/here",
        "/api/v1/tournaments/{tournament}/swap",
        "/api/v1/tournaments/{tournament}/close",
        "/api/v1/tournaments/{tournament}/end",
        "/api/v1/tournaments/{tournament}/reopen",
    }
    endings = spec["components"]["schemas"]["ShowdownIn"]["properties"]["ending"]["enum"]
    assert endings == [
        "knock",
        "second_knock",
        "thirty_one",
        "dealt_thirty_one",
        "dealt_three",
        "three_aces",
        "stock_out",
        "highest",
        "pot_31",
        "stop",
    ]


def test_every_documented_example_fits_its_schema():
    from jsonschema import Draft202012Validator

    from .conftest import SPEC

    examples = 0
    for schema in SPEC["components"]["schemas"].values():
        for example in schema.get("examples", []):
            Draft202012Validator({**schema, "components": SPEC["components"]}).validate(example)
            examples += 1
        for prop in schema.get("properties", {}).values():
            for example in prop.get("examples", []):
                Draft202012Validator({**prop, "components": SPEC["components"]}).validate(example)
                examples += 1
    assert examples >= 7, examples


def test_the_schema_check_of_answers_would_catch_an_answer_off_contract():
    from django.http import JsonResponse
    from jsonschema import ValidationError

    from .conftest import check_answer

    with pytest.raises(ValidationError):
        check_answer("/api/v1/evaluate", "POST", JsonResponse({"error": "no field"}, status=400))
    with pytest.raises(ValidationError):
        check_answer("/api/v1/evaluate", "POST", JsonResponse({"value": "21", "counted": []}))
    with pytest.raises(AssertionError, match="not documented"):
        check_answer("/api/v1/evaluate", "POST", JsonResponse({}, status=418))


def test_a_choice_for_a_round_that_leaves_nothing_open_is_refused(client):
    response = post(client, SHOWDOWN, ben_knocks(choice="replay"))
    assert response.status_code == 400
    assert response.json()["field"] == "choice"
    assert "send no choice" in response.json()["error"]


def test_a_negative_pot_is_refused_not_clamped(client):
    response = post(client, SHOWDOWN, ben_knocks(pot=-3))
    assert response.status_code == 400 and response.json()["field"] == "pot"


def test_a_hand_value_given_as_text_is_refused(client):
    body = ben_knocks(players=[{"name": "Ben", "value": 19}, {"name": "Ana", "value": "30.5"}])
    response = post(client, SHOWDOWN, body)
    assert response.status_code == 400 and response.json()["field"] == "players[1].value"


def test_a_refused_ending_of_the_other_way_of_playing_names_the_ending_asked(client):
    response = post(client, SHOWDOWN, ben_knocks(ending="highest"))
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "ending"
    assert "a knock, one more turn each, and the highest hand wins" in body["error"]
    assert "(“Knock”)" not in body["error"]
