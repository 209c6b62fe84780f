"""No request does work that grows without bound: with 2,000 rounds in a game and 2,000 players
in a club (the most a game and a club may have), every page and every answer of the API stays
under a fixed size and runs a fixed number of queries, the same as for a small game and club;
and beyond the limits, a clear refusal that names the limit."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper import play
from scorekeeper.models import Game, GameSeat, Player, Round, RoundInputs
from scorekeeper.models.clubs import name_key
from scorekeeper.rules.errors import InputError

from ..factory import make_club, make_game, reloaded

pytestmark = pytest.mark.django_db

MOST_ROUNDS = MOST_PLAYERS = 2000


def a_long_game(club, rounds):
    """A game of ``rounds`` draws (the stock runs out, nobody loses: it never ends)."""
    game = make_game(club=club, stock_out="draw")
    Round.objects.bulk_create(
        Round(game=game, number=n, ending="stock_out") for n in range(1, rounds + 1)
    )
    play.rederive(game)  # the state, the tallies and each round's table, as recording leaves them
    return reloaded(game)


def a_club(players, rounds):
    club = make_club()
    Player.objects.bulk_create(
        Player(club=club, name=f"Player {n:04}", name_key=name_key(f"Player {n:04}"))
        for n in range(players - 3)
    )
    return club, a_long_game(club, rounds)


def measure(client, url, headers=None):
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url, headers=headers or {})
    assert answer.status_code in (200, 204), (url, answer.status_code)
    return len(queries), len(answer.content)


def everything(club, game):
    api = {"Authorization": f"Bearer {club.key}"}
    secret, view, of_game = f"/c/{club.key}/", f"/v/{club.view_key}/", f"g/{game.id}/"
    return {
        "club page": (secret, {}),
        "club page, view link": (view, {}),
        "new game": (secret + "games/new", {}),
        "stats": (secret + "stats", {}),
        "table": (secret + of_game, {}),
        "table region": (secret + of_game, {"HX-Request": "true"}),
        "table, view link": (view + of_game, {}),
        "round log": (secret + of_game + "log", {}),
        "round log, view link": (view + of_game + "log", {}),
        "round log, first page": (secret + of_game + "log?before=40", {}),
        "edit round 1": (secret + of_game + "rounds/1/edit", {}),
        "score sheet": (secret + of_game + "sheet", {}),
        "score sheet, PDF": (secret + of_game + "sheet.pdf", {}),
        "rules card": (secret + of_game + "rules", {}),
        "poll": (secret + of_game + f"version?v={game.version}", {}),
        "API game": (f"/api/v1/games/{game.id}", api),
        "API game, first rounds": (f"/api/v1/games/{game.id}?before=40", api),
        "API stats": (f"/api/v1/clubs/{club.id}/stats", api),
    }


def test_every_page_and_answer_stays_the_same_size_whatever_the_history(client):
    small_club, small_game = a_club(players=5, rounds=60)
    big_club, big_game = a_club(players=MOST_PLAYERS, rounds=MOST_ROUNDS)
    assert big_club.players.count() == MOST_PLAYERS and big_game.round_count == MOST_ROUNDS
    small = {
        n: measure(client, url, h) for n, (url, h) in everything(small_club, small_game).items()
    }
    big = {n: measure(client, url, h) for n, (url, h) in everything(big_club, big_game).items()}
    for name in small:
        (few, small_size), (many, big_size) = small[name], big[name]
        # A club of more players than a page lists picks which to list: two queries more.
        assert many <= few + 2, f"{name}: {many} queries against {few}"
        # A page of rounds and a page of players, however many there are.
        assert big_size < 150_000, f"{name}: {big_size} bytes (against {small_size})"


def test_recording_undoing_and_the_game_over_summary_stay_bounded_too(client):
    club, game = a_club(players=5, rounds=MOST_ROUNDS - 1)
    url = f"/c/{club.key}/g/{game.id}/"
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(
            url + "record", {"ending": "stock_out", "confirm": "1", "version": str(game.version)}
        )
    assert answer.status_code == 302 and len(queries) <= 8
    assert reloaded(game).round_count == MOST_ROUNDS


def test_a_game_refuses_a_round_beyond_its_limit_naming_it(client):
    club, game = a_club(players=5, rounds=MOST_ROUNDS)
    with pytest.raises(InputError, match="a game has at most 2,000 rounds"):
        play.record_round(game, RoundInputs(ending="stock_out"))
    answer = client.post(
        f"/api/v1/games/{game.id}/rounds",
        json.dumps({"ending": "stock_out"}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {club.key}"},
    )
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "a game has at most 2,000 rounds: start a new game to go on",
        "field": "ending",
    }
    page = client.post(
        f"/c/{club.key}/g/{game.id}/record",
        {"ending": "stock_out", "confirm": "1", "version": str(game.version)},
    )
    assert "A game has at most 2,000 rounds" in page.content.decode()
    assert reloaded(game).round_count == MOST_ROUNDS


def test_a_club_refuses_a_player_beyond_its_limit_naming_it(client, settings):
    settings.KNOCK_MOST_PLAYERS = 4
    club = make_club()
    answer = client.post(
        f"/c/{club.key}/players/add", {"names": "Ann, Ben, Cat, Dan, Eve"}, follow=True
    )
    assert club.players.count() == 4
    assert "Eve" not in club.players.values_list("name", flat=True)
    assert answer.status_code == 200
    body = {"rules": "scat", "players": ["Ann", "Fay"]}
    refused = client.post(
        f"/api/v1/clubs/{club.id}/games",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {club.key}"},
    )
    assert refused.status_code == 400
    assert refused.json() == {"error": "a club has at most 4 players", "field": "players"}


def test_a_club_refuses_a_game_beyond_its_limit_naming_it(client, settings):
    settings.KNOCK_MOST_GAMES = 2
    club = make_club()
    make_game(club=club)
    make_game(club=club)
    with pytest.raises(InputError, match="a club keeps at most 2 games"):
        make_game(club=club)


def a_club_that_played(players, games_each=2):
    """A club whose ``players`` all finished games together: three to a table, each player at
    ``games_each`` tables with different neighbours, one winner a table."""
    club = make_club()
    people = Player.objects.bulk_create(
        Player(club=club, name=f"Player {n:04}", name_key=name_key(f"Player {n:04}"))
        for n in range(players)
    )
    model = make_game(club=club)  # a stored game whose rules and state the copies share
    games, seats = [], []
    for round_ in range(games_each):
        step = 1 + round_
        for first in range(0, players, 3):
            table = [people[(first + k * step) % players] for k in range(3)]
            if len({p.pk for p in table}) < 3:
                continue
            game = Game(
                club=club,
                preset=model.preset,
                rules_data=model.rules_data,
                rules_version=model.rules_version,
                first_dealer=0,
                state_data=model.state_data,
                finished=True,
                round_count=12,
            )
            games.append(game)
            seats += [
                GameSeat(
                    game=game, player=p, position=i, result="won" if i == round_ % 3 else "lost"
                )
                for i, p in enumerate(table)
            ]
    Game.objects.bulk_create(games)
    GameSeat.objects.bulk_create(seats)
    return club


def test_the_stats_of_a_club_of_hundreds_of_players_stay_within_a_bound_of_ten_players(client):
    """The leaderboard and its chart go a page of 40 players at a time and the head-to-head
    table compares the top 12: a club of 600 players who finished games together draws a
    stats page within 2.5 times a ten-player club's (a page of 2,000 players once drew 4
    million cells, 42 MB), in the same number of queries, on either link and through the API."""
    small, big = a_club_that_played(10), a_club_that_played(600)
    for url, bound in (
        ("/c/{club.key}/stats", 2.5),
        ("/v/{club.view_key}/stats", 2.5),
        ("/c/{club.key}/stats?players=15", 2.5),
        # The API's page holds 100 players: ten times the small club's ten.
        ("/api/v1/clubs/{club.id}/stats", 10),
    ):
        (few, small_size), (many, big_size) = (
            measure(client, url.format(club=club), {"Authorization": f"Bearer {club.key}"})
            for club in (small, big)
        )
        assert many <= few, (url, many, few)
        assert big_size <= bound * small_size, (url, big_size, small_size)
    page = client.get(f"/c/{big.key}/stats").content.decode()
    # The board's page, the ratings' page and the top 12.
    assert page.count('<tr><th scope="row">') == 40 + 40 + 12
    assert "rated=2" in page
    assert "Page 1 of 15" in page and "players=2" in page
    last = client.get(f"/c/{big.key}/stats?players=15").content.decode()
    assert "Page 15 of 15" in last
