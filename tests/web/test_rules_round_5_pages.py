"""The rules of version 7 at the table, through real HTTP: the new-game form takes each new
value, the table asks "Who had the top hand?" where everyone but the top hand loses, a dealt
three of a kind is its own chip, the API takes the top hand by name, and the round log says the
table's own words for going out."""

import json

import pytest
from django.urls import reverse

from scorekeeper import play
from scorekeeper.models import Game

from ..factory import make_club, make_game

pytestmark = pytest.mark.django_db


def text(response):
    return response.content.decode()


def url(name, game, *args):
    return reverse(name, args=[game.club.key, game.id, *args])


def record(client, game, **data):
    version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
    return client.post(url("record", game), {"version": version, "confirm": "1", **data})


def test_the_new_game_form_takes_every_new_value(client):
    club = make_club()
    ann, ben = (play.add_player(club, n) for n in ("Ann", "Ben"))
    response = client.post(
        reverse("new-game", args=[club.key]),
        {
            "preset": "schwimmen",
            f"plays_{ann.pk}": "on",
            f"plays_{ben.pk}": "on",
            "new_players": "Cat",
            "rule_showdown_loses": "all_but_top",
            "rule_knocker_beaten": "in_all",
            "rule_dealt_three_fire": "true",
            "rule_last_chance": "trousers_down",
            "rule_going_out": "under",
        },
    )
    assert response.status_code == 302, text(response)
    rules = Game.objects.get().rules
    assert (rules.showdown_loses, rules.knocker_beaten, rules.dealt_three_fire) == (
        "all_but_top",
        "in_all",
        True,
    )
    assert (rules.last_chance, rules.going_out) == ("trousers_down", "under")
    card = text(client.get(reverse("game-rules", args=[club.key, Game.objects.get().id])))
    assert "Everyone but the top hand, 1 life each" in card
    assert "a beaten knocker pays 1" in card


def test_the_table_taps_the_top_hand_and_everyone_else_loses(client):
    game = make_game(players=("Ann", "Ben", "Cat", "Dan"), showdown_loses="all_but_top")
    page = text(client.get(game.get_absolute_url()))
    assert "Who had the top hand?" in page
    # Nobody named: the form says what is missing, next to the top hand's chips, and saves nothing.
    response = record(client, game, ending="knock", knocker="0")
    assert response.status_code == 200
    assert "Say who had the top hand: tap them, or enter everyone&#x27;s cards." in text(response)
    assert game.rounds.count() == 0
    assert record(client, game, ending="knock", knocker="0", winners="2").status_code == 302
    game.refresh_from_db()
    assert game.state.lives == (2, 2, 3, 2)


def test_a_dealt_three_of_a_kind_is_its_own_chip_and_the_words_are_the_tables(client):
    game = make_game(
        players=("Ann", "Ben", "Cat"),
        preset="schwimmen",
        dealt_three_fire=True,
        last_chance="trousers_down",
        going_out="under",
        lives=1,
    )
    page = text(client.get(game.get_absolute_url()))
    assert 'name="ending" value="dealt_three"' in page
    assert record(client, game, ending="dealt_three", shown="0").status_code == 302
    page = text(client.get(game.get_absolute_url()))
    assert "Ben now has their trousers down." in page
    assert record(client, game, ending="dealt_three", shown="0").status_code == 302
    log = text(client.get(url("round-log", game)))
    assert "Ben has gone under." in log and "gone under" in log


def test_the_api_takes_the_top_hand_by_name(client):
    game = make_game(players=("Ann", "Ben", "Cat"), showdown_loses="all_but_top")
    answer = client.post(
        f"/api/v1/games/{game.id}/rounds",
        json.dumps({"ending": "knock", "knocker": "Ann", "winners": ["Ann"]}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {game.club.key}"},
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["new_round"]["losses"] == {"Ben": 1, "Cat": 1}
    refused = client.post(
        f"/api/v1/games/{game.id}/rounds",
        json.dumps({"ending": "knock", "knocker": "Ann", "lowest": ["Ben"]}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {game.club.key}"},
    )
    assert refused.status_code == 400 and refused.json()["field"] == "lowest"
    showdown = client.post(
        "/api/v1/showdown",
        json.dumps(
            {
                "rules": {"preset": "scat", "overrides": {"showdown_loses": "all_but_top"}},
                "ending": "knock",
                "knocker": "Ann",
                "winners": ["Cat"],
                "players": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cat"}],
            }
        ),
        content_type="application/json",
    )
    assert showdown.status_code == 200, showdown.content
    assert showdown.json()["losses"] == {"Ann": 1, "Ben": 1}
