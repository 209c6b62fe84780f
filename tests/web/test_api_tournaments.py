"""The tournaments API through real HTTP: start one, draw its rounds, play every table through
the game endpoints with the table's own scoring key, and read the standings back; refusals name
why; a tournament's answer costs the same statements whatever its rounds."""

import itertools
import json
from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Game

pytestmark = pytest.mark.django_db

NAMES = [f"P{n:02d}" for n in range(1, 17)]
POINTS = [3, 2, 1, 0]


def post(client, url, body=None, key=None):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    data = json.dumps(body) if body is not None else ""
    return client.post(url, data=data, content_type="application/json", headers=headers)


def get(client, url, key):
    return client.get(url, headers={"Authorization": f"Bearer {key}"})


@pytest.fixture
def club(client):
    return post(client, "/api/v1/clubs", {"name": "Village fair"}).json()


def start(client, club, **body):
    body = {
        "name": "Fair cup",
        "rules": {"preset": "friendly", "overrides": {"lives": 1}},
        "players": NAMES,
        **body,
    }
    return post(client, f"/api/v1/clubs/{club['id']}/tournaments", body, club["key"])


def play_out(client, table) -> list[str]:
    """The table's game played to its end through the game endpoints, with the table's scoring
    key alone: the first in seat order knocks each round and the others go out from the last,
    so the seat order is the order of places."""
    order = table["players"]
    url = f"/api/v1/games/{table['game']}/rounds"
    for loser in reversed(order[1:]):
        body = {"ending": "knock", "knocker": order[0], "lowest": [loser]}
        answer = post(client, url, body, table["scoring_key"])
        assert answer.status_code == 200, answer.content
    finished = get(client, f"/api/v1/games/{table['game']}", table["scoring_key"]).json()
    assert finished["finished"] and finished["winner"] == order[0]
    return order


def test_a_tournament_of_16_is_started_drawn_played_and_counted_through_the_api(client, club):
    made = start(client, club, table_size=4, rounds=3, points={"4": POINTS})
    assert made.status_code == 201, made.content
    tournament = made.json()
    assert tournament["drawn_rounds"] == 0 and tournament["tables"] == []
    assert sorted(p["name"] for p in tournament["standings"]) == NAMES
    assert tournament["tie_breaks"] == ["points", "games_won", "left", "lot"]
    rounds_url = f"/api/v1/tournaments/{tournament['id']}/rounds"
    expected = dict.fromkeys(NAMES, 0)
    pairs: set[frozenset[str]] = set()
    for number in (1, 2, 3):
        drawn = post(client, rounds_url, key=club["key"])
        assert drawn.status_code == 201, drawn.content
        tables = drawn.json()["tables"]
        assert drawn.json()["round"] == number and [t["number"] for t in tables] == [1, 2, 3, 4]
        assert sorted(itertools.chain(*(t["players"] for t in tables))) == NAMES
        for table in tables:
            assert table["round"] == number and table["playing"]
            assert table["first_dealer"] in table["players"]
            assert table["scoring_url"].endswith(f"/c/{table['scoring_key']}/g/{table['game']}/")
            for pair in itertools.combinations(table["players"], 2):
                assert frozenset(pair) not in pairs
                pairs.add(frozenset(pair))
        # The next round waits for every table.
        refused = post(client, rounds_url, key=club["key"])
        assert refused.status_code == 400
        assert (
            refused.json()
            == {"error": "all 3 rounds are drawn: end the tournament", "field": "round"}
            if number == 3
            else {
                "error": "tables 1, 2, 3 and 4 are still playing: wait for their games to end, "
                "or close them",
                "field": "round",
            }
        )
        for table in tables:
            # A table's key opens no other table's game, and no club.
            other = tables[table["number"] % 4]
            assert get(
                client, f"/api/v1/games/{other['game']}", table["scoring_key"]
            ).status_code in (
                401,
                404,
            )
            assert (
                get(
                    client, f"/api/v1/tournaments/{tournament['id']}", table["scoring_key"]
                ).status_code
                == 401
            )
            for place, name in enumerate(play_out(client, table)):
                expected[name] += POINTS[place]
    read = get(client, f"/api/v1/tournaments/{tournament['id']}", club["key"]).json()
    assert {p["name"]: p["points"] for p in read["standings"]} == expected
    assert [p["place"] for p in read["standings"]] == list(range(1, 17))
    order = [(-p["points"], -p["games_won"], -p["left"]) for p in read["standings"]]
    assert order == sorted(order)
    # The tables of the round drawn last, or of the round asked: as long in round 3 as in 1.
    assert [t["round"] for t in read["tables"]] == [3] * 4
    url = f"/api/v1/tournaments/{tournament['id']}"
    for number in (1, 2, 3):
        shown = get(client, f"{url}?round={number}", club["key"]).json()["tables"]
        assert [t["round"] for t in shown] == [number] * 4
        assert not any(t["playing"] for t in shown)
    lengths = {len(get(client, f"{url}?round={n}", club["key"]).content) for n in (1, 3)}
    assert max(lengths) - min(lengths) < 100
    refused = get(client, f"{url}?round=4", club["key"])
    assert refused.status_code == 404 and refused.json() == {
        "error": "round 4 is not drawn: 3 rounds are",
        "field": "round",
    }
    assert get(client, f"{url}?round=0", club["key"]).json()["field"] == "round"
    assert [p["prize"] for p in read["standings"]] == [True] * 3 + [False] * 13
    over = post(client, rounds_url, key=club["key"])
    assert over.status_code == 400
    assert over.json() == {"error": "all 3 rounds are drawn: end the tournament", "field": "round"}


@pytest.mark.parametrize(
    ("body", "field", "error"),
    [
        (
            {"players": ["Ann", "Ben", "Ann"]},
            "players",
            "Ann is entered twice: a player plays in one place",
        ),
        (
            {"players": [f"N{n}" for n in range(201)]},
            "players",
            "players are a list of names, each at most 60 characters",
        ),
        ({"points": {"4": [1, 2, 3, 4]}}, "points", "a lower place cannot earn more points"),
        ({"points": {"4": [3, 2, 1]}}, "points", "a table of 4 has 4 places: give 4 points"),
        ({"table_size": 2}, "table_size", "tables are of 3 to 6 players"),
        ({"rounds": 21}, "rounds", "a tournament has 1 to 20 rounds"),
        ({"method": "random"}, "method", "the draw is “mixed” or “swiss”"),
        ({"name": " "}, "name", "must be some text"),
    ],
)
def test_a_tournament_refused_says_why_and_adds_nobody(client, club, body, field, error):
    answer = start(client, club, **body)
    assert answer.status_code == 400
    assert answer.json() == {"error": error, "field": field}
    assert get(client, f"/api/v1/clubs/{club['id']}/stats", club["key"]).json()["players"] == []


def test_a_round_needs_three_players_and_keys_open_only_their_club(client, club):
    tournament = start(client, club, players=["Ann", "Ben"]).json()
    rounds_url = f"/api/v1/tournaments/{tournament['id']}/rounds"
    few = post(client, rounds_url, key=club["key"])
    assert few.json() == {"error": "a round needs at least three players", "field": "players"}
    other = post(client, "/api/v1/clubs", {"name": "Another"}).json()
    body = {"name": "Cup", "rules": "scat", "players": ["Ann", "Ben", "Cat"]}
    for url in (rounds_url, f"/api/v1/clubs/{club['id']}/tournaments"):
        assert post(client, url, body, other["key"]).status_code == 404
        assert post(client, url, body).status_code == 401
    assert get(client, f"/api/v1/tournaments/{tournament['id']}", other["key"]).status_code == 404
    assert get(client, "/api/v1/tournaments/not-a-uuid", club["key"]).status_code == 404


def test_a_tournaments_answer_costs_the_same_statements_whatever_its_rounds(client, club):
    tournament = start(client, club, rounds=3).json()
    url = f"/api/v1/tournaments/{tournament['id']}"
    counts = []
    for _ in range(3):
        tables = post(client, f"{url}/rounds", key=club["key"]).json()["tables"]
        for table in tables:
            play_out(client, table)
        with CaptureQueriesContext(connection) as read:
            assert get(client, url, club["key"]).status_code == 200
        counts.append(len(read))
    assert counts[0] == counts[1] == counts[2], counts


def test_a_tables_key_ends_with_its_round_and_a_new_club_link_makes_every_key_again(client, club):
    from scorekeeper import play
    from scorekeeper.models import Club

    made = start(client, club, players=NAMES[:8], table_size=4, rounds=2, points={"4": POINTS})
    rounds_url = f"/api/v1/tournaments/{made.json()['id']}/rounds"
    first = post(client, rounds_url, key=club["key"]).json()["tables"]
    for table in first:
        play_out(client, table)
    # Before the next round is drawn, a table's key may still put its last round right.
    game = first[0]
    assert (
        post(client, f"/api/v1/games/{game['game']}/undo", {}, game["scoring_key"]).status_code
        == 200
    )
    play_out_last = {
        "ending": "knock",
        "knocker": game["players"][0],
        "lowest": [game["players"][1]],
    }
    assert (
        post(
            client, f"/api/v1/games/{game['game']}/rounds", play_out_last, game["scoring_key"]
        ).status_code
        == 200
    )
    second = post(client, rounds_url, key=club["key"]).json()["tables"]
    # Drawn on: round 1's keys change their games no more, and the standings stand.
    for table in first:
        key, url = table["scoring_key"], f"/api/v1/games/{table['game']}"
        assert post(client, f"{url}/undo", {}, key).status_code in (401, 404)
        assert get(client, url, key).status_code in (401, 404)
    # A new secret link for the club: every table's key is made again from it.
    kept = Club.objects.with_key(club["key"])
    play.replace_link(kept, "secret")
    table = second[0]
    knock = {"ending": "knock", "knocker": table["players"][0], "lowest": [table["players"][1]]}
    url = f"/api/v1/games/{table['game']}/rounds"
    assert post(client, url, knock, table["scoring_key"]).status_code in (401, 404)
    shown = get(client, f"/api/v1/tournaments/{made.json()['id']}", kept.key).json()
    [again] = [t for t in shown["tables"] if t["game"] == table["game"]]
    assert again["scoring_key"] != table["scoring_key"]
    assert post(client, url, knock, again["scoring_key"]).status_code == 200


def test_an_api_only_tournament_is_organised_to_its_end(client, club):
    made = start(
        client,
        club,
        players=NAMES[:8],
        table_size=4,
        rounds=2,
        points={"4": POINTS},
        round_minutes=20,
    )
    assert made.json()["round_minutes"] == 20 and made.json()["round_ends"] is None
    url = f"/api/v1/tournaments/{made.json()['id']}"
    entered = post(client, f"{url}/entries", {"players": ["Late Lou"]}, club["key"])
    assert entered.status_code == 200 and len(entered.json()["standings"]) == 9
    # Check-in: who is here plays round 1. P08 does not come; P01 is checked in, taken back
    # (a mistap), and checked in again.
    for name in [*NAMES[:7], "Late Lou", "P01"]:
        here = post(client, f"{url}/here", {"player": name}, club["key"])
        assert here.status_code == 200, here.content
    mistap = post(client, f"{url}/here", {"player": "P01", "here": False}, club["key"]).json()
    assert sum(p["here"] for p in mistap["standings"]) == 7
    here = post(client, f"{url}/here", {"player": "P01"}, club["key"]).json()
    assert sum(p["here"] for p in here["standings"]) == 8
    drawn = post(client, f"{url}/rounds", key=club["key"]).json()
    one, two = drawn["tables"]
    assert "P08" not in {name for table in drawn["tables"] for name in table["players"]}
    answer = get(client, url, club["key"]).json()
    standings = answer["standings"]
    # The round's clock runs 20 minutes from its draw.
    ends = datetime.fromisoformat(answer["round_ends"])
    drawn = Game.objects.get(pk=one["game"]).created
    assert abs(ends - (drawn + timedelta(minutes=20))) < timedelta(milliseconds=1)  # (JSON's ms)
    assert [p["withdrew"] for p in standings if p["name"] == "P08"] == [True]
    late = post(client, f"{url}/here", {"player": "P08"}, club["key"])
    assert late.status_code == 400 and late.json()["field"] == "player"
    assert "check-in is over" in late.json()["error"]
    a, b = one["players"][0], two["players"][0]
    swapped = post(client, f"{url}/swap", {"players": [a, b]}, club["key"]).json()["tables"]
    assert b in swapped[0]["players"] and a in swapped[1]["players"]
    closed = post(client, f"{url}/close", {"table": 2}, club["key"]).json()
    assert [t["playing"] for t in closed["tables"]] == [True, False]
    play_out(client, closed["tables"][0])
    leaving = closed["tables"][0]["players"][0]
    left = post(client, f"{url}/withdraw", {"player": leaving}, club["key"]).json()
    assert [p["withdrew"] for p in left["standings"] if p["name"] == leaving] == [True]
    second = post(client, f"{url}/rounds", key=club["key"]).json()["tables"]
    assert leaving not in {name for table in second for name in table["players"]}
    ended = post(client, f"{url}/end", key=club["key"])
    assert ended.status_code == 200 and ended.json()["finished"]
    assert ended.json()["round_ends"] is None
    assert not any(t["playing"] for t in ended.json()["tables"])
    reopened = post(client, f"{url}/reopen", key=club["key"])
    assert reopened.status_code == 200 and not reopened.json()["finished"]
    assert post(client, f"{url}/reopen", key=club["key"]).json() == {
        "error": "this tournament is not over",
        "field": "finished",
    }
    assert post(client, f"{url}/end", key=club["key"]).json()["finished"]
    # Refusals name why and where; another club's key opens nothing.
    refused = post(client, f"{url}/withdraw", {"player": "Nobody"}, club["key"])
    assert refused.status_code == 400 and refused.json()["field"] == "player"
    assert post(client, f"{url}/close", {"table": 9}, club["key"]).json()["field"] == "table"
    other = post(client, "/api/v1/clubs", {"name": "Other"}).json()
    assert post(client, f"{url}/end", key=other["key"]).status_code == 404


def test_a_swap_that_would_repeat_a_meeting_is_refused_until_repeat_ok(client, club):
    made = start(client, club, players=NAMES[:8], table_size=4, rounds=2, points={"4": POINTS})
    url = f"/api/v1/tournaments/{made.json()['id']}"
    first = post(client, f"{url}/rounds", key=club["key"]).json()["tables"]
    for table in first:
        play_out(client, table)
    one, two = post(client, f"{url}/rounds", key=club["key"]).json()["tables"]
    # Eight at two tables twice: whoever moves to the other table meets someone again.
    a, b = one["players"][0], two["players"][0]
    refused = post(client, f"{url}/swap", {"players": [a, b]}, club["key"])
    assert refused.status_code == 400 and refused.json()["field"] == "repeat_ok"
    assert f"{a} would meet" in refused.json()["error"]
    shown = get(client, url, club["key"]).json()["tables"]
    assert [t["players"] for t in shown if t["round"] == 2] == [one["players"], two["players"]]
    swapped = post(client, f"{url}/swap", {"players": [a, b], "repeat_ok": True}, club["key"])
    tables = [t for t in swapped.json()["tables"] if t["round"] == 2]
    assert swapped.status_code == 200 and b in tables[0]["players"] and a in tables[1]["players"]


def test_a_withdrawn_player_is_reinstated_through_the_api(client, club):
    made = start(client, club, players=NAMES[:8], table_size=4, rounds=2, points={"4": POINTS})
    url = f"/api/v1/tournaments/{made.json()['id']}"
    post(client, f"{url}/withdraw", {"player": "P03"}, club["key"])
    back = post(client, f"{url}/reinstate", {"player": "P03"}, club["key"])
    assert back.status_code == 200
    assert [p["withdrew"] for p in back.json()["standings"] if p["name"] == "P03"] == [False]
    tables = post(client, f"{url}/rounds", key=club["key"]).json()["tables"]
    assert "P03" in {name for table in tables for name in table["players"]}
    again = post(client, f"{url}/reinstate", {"player": "P03"}, club["key"])
    assert again.status_code == 400 and again.json() == {
        "error": "P03 was not withdrawn",
        "field": "player",
    }
    nobody = post(client, f"{url}/reinstate", {"player": "Nobody"}, club["key"])
    assert nobody.json()["field"] == "player"
