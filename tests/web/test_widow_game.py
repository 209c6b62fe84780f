"""Thirty-One with a widow and a pot, end to end through real HTTP: the new-game form, the
table page (tap the winner, or enter the hands), the round log, the stats, the rules card, the
score sheet, the API and a backup."""

import json

import pytest
from django.urls import reverse

from scorekeeper import play
from scorekeeper.backup import export_club, import_club
from scorekeeper.models import Game, GameSeat

from ..factory import make_club, make_game, reloaded

pytestmark = pytest.mark.django_db


def text(response):
    return response.content.decode()


def url(name, game, *args):
    return reverse(name, args=[game.club.key, game.id, *args])


def record(client, game, **data):
    version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
    return client.post(url("record", game), {"version": version, "confirm": "1", **data})


def test_the_new_game_form_starts_a_game_played_for_a_pot_with_its_ante(client):
    club = make_club()
    ann, ben = (play.add_player(club, n) for n in ("Ann", "Ben"))
    page = text(client.get(reverse("new-game", args=[club.key])))
    assert "Thirty-One with a widow and a pot" in page
    assert 'name="rule_ante"' in page
    response = client.post(
        reverse("new-game", args=[club.key]),
        {
            "preset": "widow",
            f"plays_{ann.pk}": "on",
            f"plays_{ben.pk}": "on",
            "new_players": "Cat",
            "rule_ante": "2",
        },
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.rules.form, game.rules.ante, game.rules.middle) == ("pot", 2, "widow")
    assert game.state.coins == (0, 0, 0)
    # A bad ante is said next to its field, and no game is started.
    response = client.post(
        reverse("new-game", args=[club.key]),
        {"preset": "widow", f"plays_{ann.pk}": "on", f"plays_{ben.pk}": "on", "rule_ante": "0"},
    )
    assert response.status_code == 200 and Game.objects.count() == 1
    page = text(response)
    field = page[page.index('name="rule_ante"') :]
    assert field.index("Ensure this value is greater than or equal to 1.") < field.index("</div>")


def test_a_hand_is_recorded_by_tapping_the_winner_and_the_table_shows_coins(client):
    game = make_game(preset="widow")
    page = text(client.get(game.get_absolute_url()))
    # The endings of a pot game, and no counting of lives.
    assert 'name="ending" value="highest"' in page and 'value="manual"' not in page
    assert 'name="winners"' in page and "Just count lives instead" not in page
    assert "0 coins in the pot" in page
    response = record(client, game, ending="highest", knocker="1", winners="0")
    assert response.status_code == 302
    page = text(client.get(game.get_absolute_url()))
    assert '<span class="coins" aria-hidden="true">+2</span>' in page
    assert '<span class="coins" aria-hidden="true">−1</span>' in page
    assert "Ann takes the pot: 3." in page
    seats = list(GameSeat.objects.filter(game=game).values_list("hands_won", "coins", "knocks"))
    assert seats == [(1, 2, 0), (0, -1, 1), (0, -1, 0)]


def test_the_referee_finds_the_highest_hand_from_the_cards(client):
    game = make_game(preset="widow")
    response = record(
        client,
        game,
        ending="highest",
        knocker="2",
        cards_0="7S 8H 2C",
        cards_1="AH KH 9H",
        cards_2="AS KS 8S",
    )
    assert response.status_code == 302
    game = reloaded(game)
    assert game.state.coins == (-1, 2, -1)
    # No winner and no cards: said next to the winners, nothing saved.
    response = record(client, game, ending="highest")
    assert response.status_code == 200
    assert "Say who won the pot: tap them, or enter everyone" in text(response)
    game = reloaded(game)
    assert game.round_count == 1


def test_a_tie_splits_the_pot_and_the_table_ends_the_game(client):
    game = make_game(preset="widow", pot_at_end="winner")
    record(client, game, ending="highest", winners=["0", "1"])  # 3 coins: 1 each, 1 stays
    record(client, game, ending="pot_31", shown="0")  # Ann takes 4, the coin left over with it
    game = reloaded(game)
    assert game.state.coins == (3, -1, -2) and game.state.pot == 0
    record(client, game, ending="stop")
    game = reloaded(game)
    page = text(client.get(game.get_absolute_url()))
    assert game.finished and game.state.winner == "Ann"
    assert "<strong>Ann</strong> wins!" in page
    assert "Ann +3, Ben −1, Cat −2" in page  # the coins, most first
    log = text(client.get(url("round-log", game)))
    assert "Coins over the hands" in log and "(our reading: no source says" in log
    assert "Ann and Ben take 1 each" in log
    # Undo takes back the end of the game.
    client.post(url("undo", game), {"version": game.version})
    game = reloaded(game)
    assert not game.finished and game.round_count == 2


def test_the_stats_count_hands_won_and_coins(client):
    game = make_game(preset="widow")
    record(client, game, ending="highest", knocker="1", winners="0")
    record(client, game, ending="stop")
    page = text(client.get(reverse("stats", args=[game.club.key])))
    assert "Hands won for a pot" in page and "+2" in page
    data = client.get(
        f"/api/v1/clubs/{game.club.id}/stats",
        headers={"authorization": f"Bearer {game.club.key}"},
    ).json()
    ann = next(p for p in data["players"] if p["name"] == "Ann")
    assert (ann["hands_won"], ann["coins"]) == (1, 2)


def test_the_rules_card_and_the_score_sheet_of_a_pot_game(client):
    game = make_game(preset="widow")
    record(client, game, ending="highest", winners="2")
    card = text(client.get(url("game-rules", game)))
    assert "The ante" in card and "Swapping with the widow" in card
    assert "Lives at the start" not in card and "On the county" not in card
    sheet = text(client.get(url("game-sheet", game)))
    assert "Coins up or down after each hand." in sheet and "+2" in sheet
    pdf = client.get(url("game-sheet-pdf", game))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_api_plays_a_pot_game(client):
    club = client.post(
        "/api/v1/clubs", {"name": "Pot night"}, content_type="application/json"
    ).json()
    headers = {"authorization": f"Bearer {club['key']}"}
    created = client.post(
        f"/api/v1/clubs/{club['id']}/games",
        {"players": ["Ann", "Ben", "Cat"], "rules": {"preset": "widow", "overrides": {"ante": 3}}},
        content_type="application/json",
        headers=headers,
    )
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    answer = client.post(
        f"/api/v1/games/{game_id}/rounds",
        {"ending": "highest", "knocker": "Ben", "winners": ["Cat"]},
        content_type="application/json",
        headers=headers,
    )
    assert answer.status_code == 200, answer.content
    got = client.get(f"/api/v1/games/{game_id}", headers=headers).json()
    assert [p["coins"] for p in got["players"]] == [-3, -3, 6]
    assert got["rounds"][-1]["winners"] == ["Cat"]
    assert got["rounds"][-1]["coins"] == {"Ann": -3, "Ben": -3, "Cat": 6}
    refused = client.post(
        f"/api/v1/games/{game_id}/rounds",
        {"ending": "highest", "winners": ["Dan"]},
        content_type="application/json",
        headers=headers,
    )
    assert refused.status_code == 400 and refused.json()["field"] == "winners"
    refused = client.post(
        f"/api/v1/games/{game_id}/rounds",
        {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"]},
        content_type="application/json",
        headers=headers,
    )
    assert refused.status_code == 400 and refused.json()["field"] == "ending"


def test_a_backup_keeps_the_winners_and_the_coins():
    game = make_game(preset="widow")
    play.record_round(game, play.RoundInputs(ending="highest", knocker=1, winners=(0, 2)))
    data = json.loads(json.dumps(export_club(game.club)))
    assert data["games"][0]["rounds"][0]["winners"] == [0, 2]
    coins = game.state.coins
    Game.objects.all().delete()
    GameSeat.objects.all().delete()
    game.club.delete()
    imported = import_club(data).games.get()
    assert export_club(imported.club) == data
    assert imported.state.coins == coins == (0, -1, 0)
    assert imported.state.pot == 1


def test_the_referee_page_settles_a_hand_played_for_a_pot(client):
    from .test_referee_page import BEN_KNOCKS

    data = {**BEN_KNOCKS, "preset": "widow", "ending": "highest", "settle": "1"}
    page = text(client.post("/referee/", data))
    # Cara's A♣ 9♣ 7♣ is 27, the highest of the four hands.
    assert "Cara has the highest hand, 27." in page
    assert "Cara takes the pot: 4." in page
    assert '<span class="wins">wins</span>' in page
    assert "After the hand" in page
