"""Trust, round 4: what an attacker or a careless client tried, and what Knock answers now."""

import json

import pytest
from django.urls import reverse

from scorekeeper import play
from scorekeeper.models import Game, Round, RoundInputs

from ..factory import make_game

pytestmark = pytest.mark.django_db


def url(name, game, *args):
    return reverse(name, args=[game.club.key, game.id, *args])


def api_round(client, game, body):
    return client.post(
        f"/api/v1/games/{game.id}/rounds",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {game.club.key}"},
    )


def test_an_edit_that_carries_a_tap_id_of_the_game_is_saved_not_a_500(client):
    game = make_game(players=("Ann", "Ben", "Cat"))
    play.record_round(game, RoundInputs("knock", knocker=0, lowest=(2,), client_id="tap-1"))
    play.record_round(game, RoundInputs("knock", knocker=0, lowest=(2,), client_id="tap-2"))
    edit = {"ending": "knock", "knocker": "0", "lowest": ["1"], "version": str(game.version)}
    for reused in ("tap-1", "tap-2"):
        game = Game.objects.opened_by(game.pk, game.club.key)
        edit["version"] = str(game.version)
        response = client.post(url("edit-round", game, 1), {**edit, "client_id": reused})
        assert response.status_code == 302
    rounds = Round.objects.filter(game=game, state=Round.ACTIVE).order_by("number")
    assert [(r.number, r.lowest, r.client_id) for r in rounds] == [(1, [1], ""), (2, [2], "tap-2")]


def test_a_tap_id_sent_again_with_the_same_round_is_already_recorded(client):
    game = make_game(players=("Ann", "Ben", "Cat"))
    body = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "client_id": "fixed"}
    assert api_round(client, game, body).json()["new_round"] is not None
    again = api_round(client, game, body)
    assert again.status_code == 200 and again.json()["new_round"] is None
    assert Round.objects.filter(game=game).count() == 1


def test_a_tap_id_sent_again_with_another_round_is_refused_never_a_success(client):
    game = make_game(players=("Ann", "Ben", "Cat"))
    body = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "client_id": "fixed"}
    api_round(client, game, body)
    other = api_round(client, game, {**body, "lowest": ["Cat"]})
    assert other.status_code == 409
    assert other.json()["field"] == "client_id"
    assert "already used for another round" in other.json()["error"]
    assert Round.objects.filter(game=game).count() == 1
    # On the table page too: the tap is refused and said, and nothing is saved.
    game = Game.objects.opened_by(game.pk, game.club.key)
    page = client.post(
        url("record", game),
        {"ending": "knock", "knocker": "0", "lowest": ["2"], "client_id": "fixed", "confirm": "1"},
        headers={"HX-Request": "true", "HX-Target": "table"},
    )
    assert page["Knock-Tap"] == "refused"
    assert "already used for another round" in page.content.decode()
    assert Round.objects.filter(game=game).count() == 1


def test_a_tap_whose_round_was_taken_back_is_not_called_recorded(client):
    game = make_game(players=("Ann", "Ben", "Cat"))
    body = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "client_id": "tap"}
    api_round(client, game, body)
    play.undo_round(Game.objects.opened_by(game.pk, game.club.key))
    again = api_round(client, game, body)
    assert again.status_code == 409 and "taken back" in again.json()["error"]
    assert Round.objects.filter(game=game, state=Round.ACTIVE).count() == 0


def test_the_home_page_that_lists_secret_links_is_kept_by_no_cache(client):
    game = make_game()
    client.get(game.club.get_absolute_url())  # the phone remembers the club
    home = client.get("/")
    assert game.club.key in home.content.decode()
    assert "no-store" in home["Cache-Control"]
