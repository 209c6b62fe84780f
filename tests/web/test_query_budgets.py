"""What the requests a phone really makes cost the database, on SQLite and on PostgreSQL: a tap
of Record through htmx, the table's refresh after news of a change, the poll, a chip's preview,
and a rename however many games the player sat in. Counts of statements, which do not drift.

The tests commit, as the server does: inside a test's own transaction every write would add a
savepoint and its release."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper import play

from ..factory import knock, make_club, make_game, record_knocks, reloaded

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


def statements(request) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = request()
    assert response.status_code in (200, 204, 302), response.status_code
    return len(captured.captured_queries)


def tap(game, **more):
    return {
        "ending": "knock",
        "knocker": "0",
        "lowest": ["1"],
        "version": str(game.version),
        **more,
    }


def test_an_htmx_record_takes_at_most_7_statements(client):
    game = make_game(players=("Ann", "Ben", "Cat", "Dan"))
    record_knocks(game, [("Ann", ["Ben"])] * 3)
    url = game.get_absolute_url() + "record"
    # With its tap's id, as a phone always sends it: the id is checked by the round's insert
    # (one round per tap), not by a query of its own (8 statements when it was).
    used = statements(
        lambda: client.post(url, tap(game, confirm="1", client_id="tap-4"), headers=HTMX)
    )
    assert used <= 7
    assert game.rounds.count() == 4
    # The same tap again is recognised all the same.
    again = client.post(url, tap(game, confirm="1", client_id="tap-4", version="3"), headers=HTMX)
    assert again["Knock-Tap"] == "already" and game.rounds.count() == 4


def test_the_record_that_ends_the_game_keeps_to_the_budget_too(client):
    game = make_game(players=("Ann", "Ben"))
    record_knocks(game, [("Ann", ["Ben"])] * 3)
    url = game.get_absolute_url() + "record"
    answer = []
    used = statements(
        lambda: answer.append(client.post(url, tap(game, confirm="1"), headers=HTMX)) or answer[0]
    )
    assert "Ann" in answer[0].content.decode() and "wins" in answer[0].content.decode()
    assert used <= 8  # and the summary of the game, in one query


def test_the_table_s_refresh_takes_at_most_3_statements(client):
    game = record_knocks(make_game(), [("Ann", ["Ben"])])
    assert statements(lambda: client.get(game.get_absolute_url(), headers=HTMX)) <= 3
    assert statements(lambda: client.get(game.get_absolute_url())) <= 3


def test_the_poll_takes_one_statement(client):
    game = make_game()
    for link in (f"/c/{game.club.key}/", f"/v/{game.club.view_key}/"):
        poll = f"{link}g/{game.id}/version?v={game.version}"
        assert statements(lambda poll=poll: client.get(poll)) == 1


def test_a_chip_s_preview_takes_at_most_3_statements(client):
    game = make_game()
    url = game.get_absolute_url() + "record"
    headers = {**HTMX, "HX-Target": "preview"}
    assert statements(lambda: client.post(url, tap(game), headers=headers)) <= 3


def test_a_rename_costs_the_same_whatever_the_history(client):
    def rename_cost(games: int) -> int:
        club = make_club()
        for _ in range(games):
            record_knocks(make_game(players=("Ann", "Ben"), club=club), [("Ann", ["Ben"])] * 2)
        ben = club.players.named("Ben")
        url = f"/c/{club.key}/players/{ben.pk}/rename"
        return statements(lambda: client.post(url, {"name": "Benjamin"}))

    one, twenty = rename_cost(1), rename_cost(20)
    assert twenty <= one + 2


def test_a_rename_shows_on_every_page_of_every_game_at_once(client):
    club = make_club()
    games = [record_knocks(make_game(club=club), [("Ann", ["Ben"])]) for _ in range(3)]
    for game in games:  # each page drawn before the rename
        client.get(game.get_absolute_url())
    play.rename_player(club.players.named("Ben"), "Benjamin")
    for game in games:
        page = client.get(game.get_absolute_url()).content.decode()
        assert "Benjamin loses 1 life: the lowest hand." in page
        assert '<span class="name fit-8">Benjamin</span>' in page and ">Ben<" not in page
        log = client.get(game.get_absolute_url() + "log").content.decode()
        assert "Benjamin" in log and ">Ben<" not in log
    api = client.get(
        f"/api/v1/games/{games[0].id}", headers={"Authorization": f"Bearer {club.key}"}
    ).json()
    assert [p["name"] for p in api["players"]] == ["Ann", "Benjamin", "Cat"]
    assert api["rounds"][0]["losses"] == {"Benjamin": 1}
    # A round recorded after the rename names the new name.
    game = reloaded(games[0])
    play.record_round(game, knock(game, "Ann", ["Benjamin"]))
    assert "Benjamin loses 1 life" in client.get(games[0].get_absolute_url()).content.decode()


def test_a_tournaments_pages_cost_the_same_at_3_tables_as_at_12(client):
    """The organiser's page, the big screen's leaderboard and the API's tournament: as many
    statements with 48 players as with 12 (a lookup per table would add 9)."""
    from django.urls import reverse

    from scorekeeper import tournaments
    from scorekeeper.rules import build_rules

    rules, _ = build_rules({"preset": "friendly", "overrides": {"lives": 1}})
    costs = []
    for players in (12, 48):
        club = make_club()
        names = [f"P{n:02d}" for n in range(players)]
        tournament = tournaments.start_tournament(club, "Cup", rules, "friendly", names)
        tournaments.draw_round(tournament, club.key)
        key = {"Authorization": f"Bearer {club.key}"}
        pages = [
            (reverse("tournament", args=[club.key, tournament.pk]), {}),
            (reverse("tournament-board", args=[club.view_key, tournament.pk]), {}),
            (f"/api/v1/tournaments/{tournament.pk}", key),
        ]
        costs.append(
            [
                statements(lambda u=url, h=headers: client.get(u, headers=h))
                for url, headers in pages
            ]
        )
    assert costs[0] == costs[1], costs
    assert max(costs[1]) <= 9
    # What every big screen asks twice a second: one statement, as a game's poll.
    board = reverse("tournament-board", args=[club.view_key, tournament.pk])
    # (48 players fill two pages, which take turns: the screen here is kept on the first.)
    pinned = client.get(board, {"page": 1}).content.decode()
    version = pinned.split("v=", 1)[1].split('"', 1)[0]
    unchanged = lambda: client.get(board, {"v": version, "page": 1}, headers={"HX-Request": "true"})  # noqa: E731
    assert unchanged().status_code == 204
    assert statements(unchanged) == 1
