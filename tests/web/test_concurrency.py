"""Several phones tapping at once: real threads, each with its own database connection, on a
file-based SQLite with the production settings and on PostgreSQL (whichever the run uses)."""

import io
import json
import re
import threading
import time
from collections import Counter

import pytest
from django.core.management import call_command
from django.db import connections
from django.test import Client
from django.urls import reverse

from scorekeeper import play
from scorekeeper.models import Club, Game, RetiredKey, Round, RoundInputs

from ..factory import knock, make_game

pytestmark = pytest.mark.django_db(transaction=True)
PHONES = 8


@pytest.fixture(autouse=True)
def _stored_states_match_their_rounds():
    """After every test here, each game's stored state is the one its rounds give."""
    yield
    call_command("check_game_states", stdout=io.StringIO())


def at_once(actions):
    """Run the actions in threads released together; return each one's answer or exception."""
    barrier = threading.Barrier(len(actions))
    results = [None] * len(actions)

    def run(i, action):
        try:
            barrier.wait()
            results[i] = action()
        except Exception as exc:
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_phones_recording_the_same_round_at_once_save_exactly_one(settings):
    game = make_game()
    url = reverse("record", args=[game.club.key, game.id])

    def phone(i):
        data = {
            "ending": "knock",
            "knocker": "0",
            "lowest": [str(1 + i % 2)],
            "version": "0",
            "confirm": "1",
            "client_id": f"phone-{i}",
        }
        return lambda: Client().post(url, data, follow=True)

    results = at_once([phone(i) for i in range(PHONES)])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert {r.status_code for r in results} == {200}
    pages = [r.content.decode() for r in results]
    told = sum("Another phone recorded round 1 a moment ago" in page for page in pages)
    assert Round.objects.count() == 1
    assert told == PHONES - 1
    game.refresh_from_db()
    assert game.version == 1 and game.round_count == 1


def test_the_api_under_simultaneous_rounds_saves_one_and_answers_409_to_the_rest():
    game = make_game()
    url = f"/api/v1/games/{game.id}/rounds"
    headers = {"Authorization": f"Bearer {game.club.key}"}

    def phone(i):
        body = json.dumps(
            {
                "ending": "knock",
                "knocker": "Ann",
                "lowest": ["Ben"],
                "version": 0,
                "client_id": f"api-{i}",
            }
        )
        return lambda: Client().post(url, body, content_type="application/json", headers=headers)

    results = at_once([phone(i) for i in range(PHONES)])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert Counter(r.status_code for r in results) == {200: 1, 409: PHONES - 1}
    assert Round.objects.count() == 1


def test_api_rounds_sent_without_a_version_at_once_are_each_applied_on_the_game_as_it_is():
    # No version means "on the game as it is": under contention the round is worked out again,
    # finally under the game's row lock, and never answered "the version you sent" (none was).
    game = make_game(lives=10)
    url = f"/api/v1/games/{game.id}/rounds"
    headers = {"Authorization": f"Bearer {game.club.key}"}

    def phone(i):
        body = json.dumps(
            {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "client_id": f"nv-{i}"}
        )
        return lambda: Client().post(url, body, content_type="application/json", headers=headers)

    results = at_once([phone(i) for i in range(PHONES)])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert Counter(r.status_code for r in results) == {200: PHONES}, [r.content for r in results]
    assert Round.objects.filter(game=game, state=Round.ACTIVE).count() == PHONES
    assert sorted(r.number for r in Round.objects.filter(game=game)) == list(range(1, PHONES + 1))


def test_an_edit_worked_out_outside_the_lock_while_rounds_are_recorded_keeps_the_game_whole():
    # The edit's replay runs outside the write lock; a round recorded meanwhile makes it work
    # the edit out again on the newer game, so both are kept (the fixture checks the states).
    game = make_game(lives=10, stock_out="draw")
    for _ in range(30):
        play.record_round(game, RoundInputs("stock_out"))

    def edit():
        fresh = Game.objects.get(pk=game.pk)
        return play.edit_round(fresh, 1, knock(fresh, "Ann", ["Cat"]))

    def record():
        fresh = Game.objects.get(pk=game.pk)
        return play.record_round(fresh, knock(fresh, "Ben", ["Cat"]))

    results = at_once([edit, record, record])
    assert not [r for r in results if isinstance(r, Exception)], results
    game = Game.objects.get(pk=game.pk)
    rounds = game.active_rounds()
    assert len(rounds) == 32 and rounds[0].lowest == [2]


def test_a_double_tap_sent_twice_at_once_is_applied_once():
    game = make_game()
    url = reverse("record", args=[game.club.key, game.id])
    data = {
        "ending": "knock",
        "knocker": "0",
        "lowest": ["1"],
        "version": "0",
        "confirm": "1",
        "client_id": "same-tap",
    }
    results = at_once([lambda: Client().post(url, data, follow=True) for _ in range(4)])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert Round.objects.count() == 1
    assert all(r.status_code == 200 for r in results)


def test_undo_racing_a_record_leaves_a_consistent_game():
    game = make_game()
    play.record_round(game, knock(game, "Ann", ["Ben"]))
    key = game.club.key
    record = {
        "ending": "knock",
        "knocker": "0",
        "lowest": ["2"],
        "version": "1",
        "confirm": "1",
        "client_id": "racer",
    }
    results = at_once(
        [
            lambda: Client().post(reverse("undo", args=[key, game.id]), {"version": "1"}),
            lambda: Client().post(reverse("record", args=[key, game.id]), record),
        ]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert all(r.status_code == 302 for r in results)
    club, game = game.club, Game.objects.get(pk=game.pk)
    game.club = club
    active = list(game.rounds.filter(state="active").order_by("number"))
    # Exactly one of the two happened: undo (no round left) or record (two rounds).
    assert game.version == 2
    assert [r.number for r in active] in ([], [1, 2])
    assert game.round_count == len(active)
    assert game.steps()[0] == game.state  # the stored state is the one the rounds give
    assert Client().get(game.get_absolute_url()).status_code == 200


def test_two_phones_replacing_the_same_link_at_once_replace_it_once():
    club = make_game().club
    url = reverse("replace-link", args=[club.key])
    for which in ("view", "secret"):
        data = {"which": which, "generation": str(club.view_generation)}
        results = at_once(
            [lambda data=data: Client().post(url, data, follow=True) for _ in range(PHONES)]
        )
        assert not [r for r in results if isinstance(r, Exception)], results
        assert RetiredKey.objects.filter(kind="secret").count() == (which == "secret")
        pages = [r.content.decode() for r in results]
        if which == "view":
            assert {r.status_code for r in results} == {200}
            assert club.view_key not in "".join(pages)  # every phone shows the new view link
            assert sum(f"Another phone replaced the {which} link" in p for p in pages) == PHONES - 1
        else:
            # A phone that comes in after the first holds a link that no longer works and is
            # told so; one that came in with it is told another phone was first.
            assert sorted(r.status_code for r in results).count(200) >= 1
            assert {r.status_code for r in results} <= {200, 410}
            assert sum("has a new secret link" in p for p in pages) == 1


def test_two_phones_adding_the_same_player_at_once_add_one_and_tell_the_other():
    club = make_game().club
    url = reverse("add-player", args=[club.key])
    results = at_once(
        [lambda: Client().post(url, {"name": "Dev"}, follow=True) for _ in range(PHONES)]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert {r.status_code for r in results} == {200}
    pages = [r.content.decode() for r in results]
    assert sum("Dev joined the club." in page for page in pages) == 1
    assert sum("Dev is already in this club." in page for page in pages) == PHONES - 1
    assert club.players.filter(name="Dev").count() == 1


def test_two_new_games_adding_the_same_new_player_at_once_share_the_player():
    club = make_game().club
    url = f"/api/v1/clubs/{club.id}/games"
    headers = {"Authorization": f"Bearer {club.key}"}
    body = json.dumps({"rules": "scat", "players": ["Ann", "Zoe"]})
    results = at_once(
        [
            lambda: Client().post(url, body, content_type="application/json", headers=headers)
            for _ in range(PHONES)
        ]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert {r.status_code for r in results} == {201}
    zoe = club.players.get(name="Zoe")
    assert Game.objects.filter(seats__player=zoe).count() == PHONES


def test_reads_under_writes_never_pair_a_version_with_another_versions_rounds():
    """The API's game and the table page read the game row, then its rounds: another phone
    recording in between must not show version N with round N+1."""
    game = make_game(players=("Ann", "Ben", "Cat", "Dev", "Eve"), lives=10)
    key = game.club.key
    stop = threading.Event()
    seen = []

    reading = threading.Barrier(4)

    def writer():
        try:
            reading.wait(timeout=30)  # every reader has read once: all are warm
            for i in range(30):
                time.sleep(0.01)  # let the readers in between the writes
                play.record_round(game, knock(game, "Ann", [("Ben", "Cat", "Dev", "Eve")[i % 4]]))
        finally:
            stop.set()
            connections.close_all()

    def reader():
        client = Client()
        headers = {"Authorization": f"Bearer {key}"}

        def read():
            data = client.get(f"/api/v1/games/{game.id}", headers=headers).json()
            seen.append(("api", data["version"], data["round"], len(data["rounds"])))
            page = client.get(game.get_absolute_url()).content.decode()
            version = int(re.search(r'name="version" value="(\d+)"', page).group(1))
            heading = int(re.search(r"<h1>Round (\d+)</h1>", page).group(1))
            seen.append(("page", version, heading - 1, heading - 1))

        try:
            read()  # warm: a connection, the templates
            reading.wait(timeout=30)
            while not stop.is_set():
                read()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer)] + [
        threading.Thread(target=reader) for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(seen) > 20
    # Only rounds were recorded, so version N has exactly N rounds in play.
    assert [s for s in seen if not s[1] == s[2] == s[3]] == []


def test_forty_new_clubs_at_once_against_a_limit_of_twenty_make_twenty(settings):
    settings.KNOCK_CLUBS_PER_HOUR = 20
    body = json.dumps({"name": "Burst"})

    def start():
        return Client().post("/api/v1/clubs", body, content_type="application/json")

    results = at_once([start for _ in range(40)])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert Counter(r.status_code for r in results) == {201: 20, 429: 20}
    assert Club.objects.count() == 20


def test_a_refused_new_game_adds_nobody(client):
    club = make_game().club
    response = client.post(
        reverse("new-game", args=[club.key]),
        {
            "preset": "schwimmen",
            "new_players": ", ".join(f"New{i}" for i in range(12)),
        },
    )
    assert response.status_code == 200
    assert "at most 9 players" in response.content.decode()
    assert club.players.count() == 3 and Game.objects.count() == 1


def test_sixteen_games_started_at_once_at_the_limit_leave_exactly_the_limit(settings):
    """The club's game limit is counted under the club's lock: starts at the same moment
    cannot pass it (each of six trials once ended with 6 or 7 games of 5)."""
    settings.KNOCK_MOST_GAMES = 5
    club = make_game().club
    headers = {"Authorization": f"Bearer {club.key}"}
    body = json.dumps({"rules": "scat", "players": ["Ann", "Ben"]})

    def start():
        return Client().post(
            f"/api/v1/clubs/{club.id}/games", body, content_type="application/json", headers=headers
        )

    answers = at_once([start for _ in range(16)])
    assert not [a for a in answers if isinstance(a, Exception)], answers
    assert Counter(a.status_code for a in answers) == {201: 4, 400: 12}
    refused = {a.json()["error"] for a in answers if a.status_code == 400}
    assert refused == {"a club keeps at most 5 games: delete old ones (and empty the bin) first"}
    assert Game.objects.filter(club=club).count() == 5


def test_players_added_at_once_at_the_limit_leave_exactly_the_limit(settings):
    settings.KNOCK_MOST_PLAYERS = 6
    club = make_game().club  # three players
    names = [f"Guest {n}" for n in range(12)]
    answers = at_once([lambda name=name: play.add_player(club, name) for name in names])
    refused = [a for a in answers if isinstance(a, Exception)]
    assert {str(a) for a in refused} == {"a club has at most 6 players"}
    assert len(refused) == 9
    assert club.players.count() == 6
