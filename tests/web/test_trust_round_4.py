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


# ---- Names: no format characters, compared as composed, isolated on the page -------------

FORMAT_CHARACTERS = ["\u202e", "\u2066", "\u200b", "\u200d", "\ufeff"]


@pytest.mark.parametrize("char", FORMAT_CHARACTERS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_name_with_a_format_character_is_refused_everywhere_it_comes_in(client, char):
    from scorekeeper.models import Player

    game = make_game(players=("Ann", "Ben", "Cat"))
    club = game.club
    api = client.post(
        f"/api/v1/clubs/{club.id}/games",
        json.dumps({"rules": "scat", "players": ["Ann", f"{char}Ann", "Ben"]}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {club.key}"},
    )
    assert api.status_code == 400, api.content
    assert "invisible characters" in api.json()["error"]
    form = client.post(reverse("add-player", args=[club.key]), {"name": f"Ann{char}"}, follow=True)
    assert "Invisible characters (right-to-left marks" in form.content.decode()
    assert not any(c in p.name for p in Player.objects.all() for c in FORMAT_CHARACTERS)
    assert Player.objects.filter(club=club).count() == 3


def test_a_name_typed_with_a_combining_accent_is_the_same_player():
    from scorekeeper.models import Club

    game = make_game(players=("Zoé", "Ben"))
    club = Club.objects.get(pk=game.club.pk)
    decomposed = "Zoe\u0301"
    assert club.players.named(decomposed).name == "Zoé"
    with pytest.raises(Exception, match="already in this club"):
        play.add_player(club, decomposed)


def test_names_are_isolated_on_the_club_page(client):
    game = make_game(players=("Ann", "Ben", "Cat"))
    page = client.get(game.club.get_absolute_url()).content.decode()
    assert "<bdi>Ann</bdi>, <bdi>Ben</bdi>, <bdi>Cat</bdi>" in page


# ---- Import: the club's limits, seats written one way only -------------------------------


def exported_game():
    from scorekeeper.backup import export_club
    from scorekeeper.models import Club

    game = make_game(players=("Ann", "Ben", "Cat"))
    play.record_round(game, RoundInputs("knock", knocker=0, lowest=(2,)))
    data = export_club(game.club)
    Game.objects.all().delete()
    Club.objects.all().delete()
    return data


@pytest.mark.parametrize("key", ["x0y", "00", "01", "20"])
def test_a_seat_key_is_written_one_way_only(key):
    from scorekeeper.backup import import_club
    from scorekeeper.models import Club
    from scorekeeper.rules.errors import InputError

    data = exported_game()
    data["games"][0]["rounds"][0]["hands"] = {key: ["AS", "KS", "QS"]}
    with pytest.raises(InputError) as refused:
        import_club(data)
    assert refused.value.message == "hands and losses are keyed by seat number (0, 1, 2…)"
    assert not Club.objects.exists()


def test_an_import_keeps_to_the_limits_a_club_plays_under(settings):
    from scorekeeper.backup import import_club
    from scorekeeper.models import Club
    from scorekeeper.rules.errors import InputError

    data = exported_game()
    settings.KNOCK_MOST_ROUNDS = 0
    with pytest.raises(InputError) as refused:
        import_club(data)
    assert refused.value.message == "a game has at most 0 rounds"
    assert refused.value.field == "games[0].rounds"
    settings.KNOCK_MOST_ROUNDS, settings.KNOCK_MOST_GAMES = 2000, 0
    with pytest.raises(InputError, match="a club keeps at most 0 games"):
        import_club(data)
    settings.KNOCK_MOST_GAMES, settings.KNOCK_MOST_PLAYERS = 10_000, 2
    with pytest.raises(InputError, match="a club has at most 2 players"):
        import_club(data)
    assert not Club.objects.exists()
    settings.KNOCK_MOST_PLAYERS = 2000
    assert import_club(data).games.count() == 1


def test_a_round_left_to_the_table_is_refused_naming_the_choices(client):
    game = make_game(players=("Ann", "Ben", "Cat"), preset="kitchen-table")
    body = {"ending": "dealt_thirty_one", "shown_by": ["Ann", "Ben"]}
    refused = api_round(client, game, body)
    assert refused.status_code == 400 and refused.json()["field"] == "choice"
    said = refused.json()["error"]
    step = play.preview_round(game, RoundInputs("dealt_thirty_one", shown_by=(0, 1)))
    assert step.result.choices
    for choice in step.result.choices:
        assert f"“{choice.id}” ({choice.words})" in said
    # One of them, sent back, records the round.
    chosen = api_round(client, game, {**body, "choice": step.result.choices[0].id})
    assert chosen.status_code == 200 and chosen.json()["new_round"] is not None


def test_a_game_played_for_a_pot_reports_coins_not_lives(client):
    game = make_game(players=("Ann", "Ben", "Cat"), preset="widow")
    answer = api_round(client, game, {"ending": "highest", "winners": ["Ben"]}).json()
    assert [(p["name"], p["lives"], p["coins"]) for p in answer["players"]] == [
        ("Ann", None, -1),
        ("Ben", None, 2),
        ("Cat", None, -1),
    ]
    lives = make_game(players=("Ann", "Ben"))
    answer = api_round(client, lives, {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"]})
    assert [(p["lives"], p["coins"]) for p in answer.json()["players"]] == [(3, None), (2, None)]
