"""The clubs and games API: bearer keys, games, rounds and undo through real HTTP."""

import json

import pytest

from scorekeeper.models import Club, Game, Player, Round

pytestmark = pytest.mark.django_db


def post(client, url, body, key=None, raw=False):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    data = body if raw else json.dumps(body)
    return client.post(url, data=data, content_type="application/json", headers=headers)


@pytest.fixture
def club(client):
    return post(client, "/api/v1/clubs", {"name": "Thursday table"}).json()


@pytest.fixture
def game(client, club):
    body = {"rules": "scat", "players": ["Ann", "Ben", "Cat"], "first_dealer": "Cat"}
    return post(client, f"/api/v1/clubs/{club['id']}/games", body, club["key"]).json()


def rounds_url(game):
    return f"/api/v1/games/{game['id']}/rounds"


def test_creating_a_club_returns_its_id_key_and_link(client):
    response = post(client, "/api/v1/clubs", {"name": "Thursday table"})
    assert response.status_code == 201
    data = response.json()
    club = Club.objects.with_key(data["key"])
    assert data == {"id": str(club.id), "key": club.key, "url": f"http://testserver/c/{club.key}/"}
    # The database keeps a digest of the key, never the key.
    stored = Club.objects.filter(pk=club.pk).values().get()
    assert data["key"] not in str(stored) and club.view_key not in str(stored)


@pytest.mark.parametrize("name", ["", "Nul\x00club", "Bell\x07"])
def test_a_club_needs_a_name_of_plain_text(client, name):
    response = post(client, "/api/v1/clubs", {"name": name})
    assert response.status_code == 400 and response.json()["field"] == "name"
    assert not Club.objects.exists()


def test_a_new_game_adds_unknown_players_to_the_club(client, club, game):
    assert Player.objects.filter(club_id=club["id"]).count() == 3
    assert [p["name"] for p in game["players"]] == ["Ann", "Ben", "Cat"]
    assert game["players"][0] == {
        "name": "Ann",
        "lives": 3,
        "status": "in",
        "status_label": "in",
        "coins": None,  # a game played for a pot only
    }
    assert game["next_dealer"] == "Cat" and game["dealer"] is None
    assert game["round"] == 0 and game["finished"] is False and game["rounds"] == []
    assert game["rules"]["preset"] == "scat" and game["rules"]["knocker_alone"] == 2


def test_the_starting_lives_can_be_set(client, club):
    body = {"rules": "schwimmen", "players": ["Ann", "Ben"], "lives": 5}
    data = post(client, f"/api/v1/clubs/{club['id']}/games", body, club["key"]).json()
    assert [p["lives"] for p in data["players"]] == [5, 5]


def test_recording_and_undoing_rounds(client, club, game):
    body = {"ending": "knock", "knocker": "Ann", "lowest": ["Ann", "Ben"], "version": 0}
    data = post(client, rounds_url(game), body, club["key"]).json()
    assert data["round"] == 1 and data["version"] == 1
    assert data["players"][1]["lives"] == 2
    assert data["dealer"] == "Cat" and data["next_dealer"] == "Ann"
    assert data["new_round"]["losses"] == {"Ben": 1}
    assert data["pot"] == 1
    data = post(client, f"/api/v1/games/{game['id']}/undo", {}, club["key"]).json()
    assert data["round"] == 0 and data["players"][1]["lives"] == 2 + 1


def test_hands_settle_the_round_and_are_stored(client, club, game):
    body = {
        "ending": "knock",
        "knocker": "Ann",
        "hands": {"Ann": ["KS", "9S", "2H"], "Ben": "AC 9C 7C", "Cat": ["A♦", "8♦", "6♣"]},
    }
    data = post(client, rounds_url(game), body, club["key"]).json()
    assert data["new_round"]["losses"] == {"Cat": 1}
    assert [h["value"] for h in data["new_round"]["hands"]] == [19, 27, 19]
    assert Round.objects.get().hands["2"] == ["AD", "8D", "6C"]


def test_the_game_can_be_read(client, club, game):
    response = client.get(
        f"/api/v1/games/{game['id']}", headers={"Authorization": f"Bearer {club['key']}"}
    )
    assert response.status_code == 200 and response.json()["id"] == game["id"]


@pytest.mark.parametrize("key", [None, "wrong", ""])
def test_no_key_or_one_that_opens_no_club_is_a_401_and_changes_nothing(client, club, game, key):
    headers = {"Authorization": f"Bearer {key}"} if key is not None else {}
    answer = client.get(f"/api/v1/games/{game['id']}", headers=headers)
    assert answer.status_code == 401 and answer["WWW-Authenticate"] == "Bearer"
    assert answer.json()["field"] == "Authorization"
    body = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"]}
    assert post(client, rounds_url(game), body, key).status_code == 401
    assert post(client, f"/api/v1/games/{game['id']}/undo", {}, key).status_code == 401
    new_game = {"rules": "scat", "players": ["Ann", "Ben"]}
    assert post(client, f"/api/v1/clubs/{club['id']}/games", new_game, key).status_code == 401
    # The same for a game or a club that does not exist: nothing is told about either.
    nothing = "00000000-0000-0000-0000-000000000000"
    assert client.get(f"/api/v1/games/{nothing}", headers=headers).status_code == 401
    assert post(client, f"/api/v1/clubs/{nothing}/games", new_game, key).status_code == 401
    assert not Round.objects.exists() and Game.objects.count() == 1


def test_another_clubs_key_does_not_open_this_game_nor_tell_it_exists(client, club, game):
    other = post(client, "/api/v1/clubs", {"name": "Other"}).json()
    headers = {"Authorization": f"Bearer {other['key']}"}
    this_game = client.get(f"/api/v1/games/{game['id']}", headers=headers)
    no_game = client.get("/api/v1/games/00000000-0000-0000-0000-000000000000", headers=headers)
    assert this_game.status_code == no_game.status_code == 404
    assert this_game.json() == no_game.json()
    this_club = client.get(f"/api/v1/clubs/{club['id']}/stats", headers=headers)
    no_club = client.get(
        "/api/v1/clubs/00000000-0000-0000-0000-000000000000/stats", headers=headers
    )
    assert this_club.status_code == no_club.status_code == 404


@pytest.mark.parametrize(
    "body, field, message",
    [
        ({"ending": "knock", "knocker": "Zed", "lowest": ["Ben"]}, "knocker", "Zed is not playing"),
        ({"ending": "knock", "lowest": ["Ben"]}, "knocker", "say who knocked"),
        ({"ending": "knock", "knocker": "Ann", "lowest": ["Zed"]}, "lowest", "Zed is not playing"),
        ({"ending": "knock", "knocker": "Ann"}, "lowest", "who was lowest"),
        (
            {"ending": "thirty_one", "shown_by": ["Ben"], "hands": {"Ben": ["KS", "9S", "2H"]}},
            "shown_by",
            "Ben's hand is worth 19, not 31",
        ),
        (
            {"ending": "knock", "knocker": "Ann", "hands": {"Ann": "KS 9S"}},
            "hands.Ann",
            "exactly 3 cards",
        ),
        (
            {"ending": "knock", "knocker": "Ann", "hands": {"Ann": "KS 9S QQ"}},
            "hands.Ann",
            "“QQ” is not a card",
        ),
        ({"ending": "bust"}, "ending", "a round ends with"),
        ({"ending": "knock", "knocker": "Ann", "lowest": "Ben"}, "lowest", "list of player names"),
        (
            {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "version": "0"},
            "version",
            "whole number",
        ),
        ({"ending": 3}, "ending", "say how the round ended"),
    ],
)
def test_impossible_rounds_get_a_400_and_nothing_is_saved(client, club, game, body, field, message):
    response = post(client, rounds_url(game), body, club["key"])
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert message in response.json()["error"]
    assert not Round.objects.exists()


def test_a_second_knock_in_a_round_cannot_be_sent(client, club, game):
    # One round has one knocker: a list of knockers is not a name.
    body = {"ending": "knock", "knocker": ["Ann", "Ben"], "lowest": ["Cat"]}
    response = post(client, rounds_url(game), body, club["key"])
    assert response.status_code == 400 and response.json()["field"] == "knocker"


def test_a_stale_version_is_a_409_with_the_game_as_it_is(client, club, game):
    body = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "version": 0}
    assert post(client, rounds_url(game), body, club["key"]).status_code == 200
    response = post(client, rounds_url(game), {**body, "lowest": ["Cat"]}, club["key"])
    assert response.status_code == 409
    assert response.json()["field"] == "version" and response.json()["game"]["round"] == 1
    assert Round.objects.count() == 1


def test_a_repeated_tap_is_applied_once(client, club, game):
    body = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "version": 0, "client_id": "t1"}
    first = post(client, rounds_url(game), body, club["key"])
    again = post(client, rounds_url(game), body, club["key"])
    assert first.status_code == again.status_code == 200
    assert again.json()["round"] == 1
    assert Round.objects.count() == 1


def test_bad_new_games_are_refused_and_add_nobody(client, club):
    url = f"/api/v1/clubs/{club['id']}/games"
    cases = [
        ({"players": ["Ann", "Ben"]}, "rules"),
        ({"rules": "poker", "players": ["Ann", "Ben"]}, "rules.preset"),
        ({"rules": "scat", "players": "Ann"}, "players"),
        ({"rules": "scat", "players": ["Ann"]}, "players"),
        ({"rules": "scat", "players": ["Ann", "ann"]}, "players"),
        ({"rules": "schwimmen", "players": [f"P{i}" for i in range(10)]}, "players"),
        ({"rules": "scat", "players": ["Ann", "Ben"], "first_dealer": "Zed"}, "first_dealer"),
        ({"rules": "scat", "players": ["Ann", "Ben"], "lives": 0}, "rules.overrides.lives"),
        ({"rules": "scat", "players": ["Ann", "B" * 61]}, "players"),
        ({"rules": "scat", "players": ["Ann", "B\x00n"]}, "players"),
    ]
    for body, field in cases:
        response = post(client, url, body, club["key"])
        assert response.status_code == 400, body
        assert response.json()["field"] == field, body
    assert not Player.objects.exists() and not Game.objects.exists()


def test_a_recording_answers_the_state_and_the_new_round_and_does_not_grow(client, club, game):
    sizes = []
    for i in range(12):
        loser = ["Ben", "Cat"][i % 2]
        body = {"ending": "knock", "knocker": "Ann", "lowest": [loser], "version": i}
        answer = post(client, rounds_url(game), body, club["key"])
        if answer.status_code != 200:
            break
        data = answer.json()
        assert "rounds" not in data and data["new_round"]["number"] == i + 1
        sizes.append(len(answer.content))
    assert len(sizes) >= 4 and max(sizes) - min(sizes) < 200  # only figures change, not length
    full = client.get(
        f"/api/v1/games/{game['id']}", headers={"Authorization": f"Bearer {club['key']}"}
    )
    assert len(full.json()["rounds"]) == len(sizes)


def test_a_round_counted_by_hand_is_one_round_that_the_rules_apply(client, club, game):
    body = {
        "ending": "manual",
        "losses": {"Cat": 1, "Ben": 2},
        "version": game["version"],
        "client_id": "counted-1",
    }
    # No round of scat costs two players 2 and 1: refused until the table confirms it.
    response = post(client, rounds_url(game), body, club["key"])
    assert response.status_code == 400 and response.json()["field"] == "losses"
    assert "as_counted" in response.json()["error"] and not Round.objects.exists()
    response = post(client, rounds_url(game), {**body, "as_counted": True}, club["key"])
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["round"] == 1
    assert [(p["name"], p["lives"]) for p in data["players"]] == [
        ("Ann", 3),
        ("Ben", 1),
        ("Cat", 2),
    ]
    assert data["new_round"]["summary"] == "Ben −2, Cat −1 (counted by hand)"
    assert data["new_round"]["losses"] == {"Ben": 2, "Cat": 1}
    stored = Round.objects.get(game_id=game["id"])
    assert stored.ending == "manual" and stored.losses == {"1": 2, "2": 1}
    # The game answer (every round worked out again) says the same.
    again = client.get(
        f"/api/v1/games/{game['id']}", headers={"Authorization": f"Bearer {club['key']}"}
    )
    assert again.json()["rounds"][0]["summary"] == "Ben −2, Cat −1 (counted by hand)"


@pytest.mark.parametrize(
    ("losses", "field", "message"),
    [
        ({"Ben": 3}, "losses.Ben", "Ben cannot lose 3 lives in one round"),
        ({"Dev": 1}, "losses.Dev", "Dev is not playing in this game"),
        ({"Ben": "1"}, "losses.Ben", "lives lost are a whole number"),
        ({}, "losses", "tap a player to take a life"),
    ],
)
def test_a_loss_the_rules_could_never_give_is_refused_naming_the_player(
    client, club, game, losses, field, message
):
    response = post(client, rounds_url(game), {"ending": "manual", "losses": losses}, club["key"])
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field
    assert message in response.json()["error"]
    assert not Round.objects.filter(game_id=game["id"]).exists()
    assert Game.objects.get(pk=game["id"]).version == game["version"]


@pytest.mark.parametrize("order", [["Ann", "Ben"], ["Ben", "Ann"]])
def test_two_dealt_31s_both_shown_both_count_through_the_api(client, club, order):
    body = {
        "rules": {"preset": "schwimmen", "overrides": {"unshown_31": "counts_30", "deck": 52}},
        "players": ["Ann", "Ben", "Cat"],
    }
    game = post(client, f"/api/v1/clubs/{club['id']}/games", body, club["key"]).json()
    hands = {"Ann": "AS KS QS", "Ben": "AH KH QH", "Cat": "KC 9C 2H"}
    answer = post(
        client,
        rounds_url(game),
        {"ending": "dealt_thirty_one", "shown_by": order, "hands": hands},
        club["key"],
    )
    assert answer.status_code == 200
    assert answer.json()["new_round"]["losses"] == {"Cat": 1}
    assert "counts as 30" not in " ".join(answer.json()["new_round"]["explanation"])


@pytest.mark.parametrize("again, first", [("left", "Ben"), ("first_out", "Cat")])
def test_the_next_games_first_dealer_is_in_the_game_once_it_is_over(client, club, again, first):
    rules = {"preset": "friendly", "overrides": {"first_dealer_again": again}}
    body = {"rules": rules, "players": ["Ann", "Ben", "Cat"], "first_dealer": "Ann", "lives": 1}
    game = post(client, f"/api/v1/clubs/{club['id']}/games", body, club["key"]).json()
    assert game["next_game_dealer"] is None
    version = game["version"]
    for lowest in ("Cat", "Ben"):  # Cat goes out first, then Ben: Ann wins
        round = {"ending": "knock", "knocker": "Ann", "lowest": [lowest], "version": version}
        data = post(client, rounds_url(game), round, club["key"]).json()
        version = data["version"]
    assert data["finished"] and data["winner"] == "Ann"
    # Left: the seat on the left of Ann, who dealt first; first_out: Cat, out first.
    assert data["next_game_dealer"] == first
    read = client.get(
        f"/api/v1/games/{game['id']}", headers={"Authorization": f"Bearer {club['key']}"}
    )
    assert read.json()["next_game_dealer"] == first
