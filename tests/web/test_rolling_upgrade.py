"""A rolling upgrade: while `migrate` runs and until every server is replaced, the previous
release's code runs on the new schema. Here the previous release's own code (from git) serves
a database this release migrated: it starts clubs and games, records rounds and reads them, with
no error; and this release goes on with what the old one wrote."""

import json
import os
import signal
import subprocess
import sys
import tarfile
import time
import tomllib
import urllib.error
import urllib.request
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path

import pytest
from django.conf import settings

from scorekeeper import play
from scorekeeper.models import Game, RoundInputs
from scorekeeper.rules import PRESETS
from scorekeeper.rules.ruleset import RULES_VERSION

from ..servers import call, free_port, server_environment

pytestmark = pytest.mark.django_db(transaction=True)

# The release before this one (0.5.0, tagged v0.5.0): moved on with every release.
PREVIOUS_RELEASE = "0754b1b5c0becb167372a67a3ff814d2922dc7aa"
PREVIOUS_RULES_VERSION = 4  # the newest rules version 0.5.0 reads
ROOT = Path(settings.BASE_DIR)


def previous_release(into: Path) -> Path:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", PREVIOUS_RELEASE],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def version(root: Path) -> str:
    return tomllib.loads((root / "pyproject.toml").read_text())["project"]["version"]


@contextmanager
def previous_server(tmp_path):
    """The previous release's own code, serving this run's database."""
    old = previous_release(tmp_path / "previous")
    assert version(old) != version(ROOT)  # the server below runs the previous release's code
    env = {**server_environment(debug=True), "DJANGO_DEBUG": "1", "PYTHONPATH": str(old)}
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "--workers", "1",
         "--bind", f"127.0.0.1:{port}"],
        cwd=old,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "old.log").open("wb"),
        start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


def test_the_previous_release_runs_on_the_migrated_database(tmp_path):
    with previous_server(tmp_path) as base:
        status, _headers, body = call(base, "POST", "/api/v1/clubs", {"name": "Old code"})
        assert status == 201, body
        club = json.loads(body)
        players = {"rules": "scat", "players": ["Ann", "Ben", "Cat"], "first_dealer": "Ann"}
        status, _headers, body = call(
            base, "POST", f"/api/v1/clubs/{club['id']}/games", players, club["key"]
        )
        assert status == 201, body
        game = json.loads(body)
        knock = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"]}
        status, _headers, body = call(
            base, "POST", f"/api/v1/games/{game['id']}/rounds", knock, club["key"]
        )
        assert status == 200, body
        status, _headers, body = call(base, "GET", f"/api/v1/games/{game['id']}", key=club["key"])
        assert status == 200 and json.loads(body)["players"][1]["lives"] == 2
        for page in (f"/c/{club['key']}/", f"/c/{club['key']}/g/{game['id']}/"):
            with urllib.request.urlopen(base + page, timeout=10) as answer:
                assert answer.status == 200
    assert b"Traceback" not in (tmp_path / "old.log").read_bytes()
    # This release goes on with the game the old code wrote: the seats' new tallies are there.
    stored = Game.objects.opened_by(game["id"], club["key"])
    assert [seat.hands_won for seat in stored.seat_list] == [0, 0, 0]
    play.record_round(stored, RoundInputs(ending="knock", knocker=1, lowest=(2,)))
    assert Game.objects.get(pk=stored.pk).state.lives == (3, 2, 2)


@pytest.mark.parametrize(
    "newer",
    [
        {"rules_version": RULES_VERSION + 1, "switch": ("a_later_switch", "on")},
        {"rules_version": RULES_VERSION, "switch": ("middle", "a_later_middle")},
    ],
    ids=["a newer rules version", "a value of a switch this code does not know"],
)
@pytest.mark.parametrize("preset", ["scat", "widow"])
def test_a_game_a_newer_knock_made_is_answered_503_and_nothing_of_it_changes(client, newer, preset):
    """From this release on, a server that meets a game of a later release (a rolling upgrade
    under way) answers it with "back in a moment", never a 500 and never a change."""
    from ..factory import make_game, record_knocks

    game = make_game(players=("Ann", "Ben", "Cat"), preset=preset)
    if preset == "scat":
        record_knocks(game, [("Ann", ["Ben"])])
    name, value = newer["switch"]
    Game.objects.filter(pk=game.pk).update(
        rules_version=newer["rules_version"], rules_data={**game.rules_data, name: value}
    )
    before = Game.objects.values().get(pk=game.pk)
    key, base = game.club.key, f"/c/{game.club.key}/g/{game.id}/"
    pages = ["", "log", "referee", "sheet", "rules", "invite"]
    for path in pages:
        response = client.get(base + path)
        assert response.status_code == 503, path
        assert response["Retry-After"] == "30"
        assert "This game needs a newer Knock" in response.content.decode()
    for path in ["record", "undo", "again", "abandon", "mode"]:
        response = client.post(base + path, {"version": before["version"], "ending": "knock"})
        assert response.status_code == 503, path
    auth = {"Authorization": f"Bearer {key}"}
    api = f"/api/v1/games/{game.id}"
    answer = client.get(api, headers=auth)
    assert answer.status_code == 503 and "newer Knock" in answer.json()["error"]
    round_ = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "client_id": "t1"}
    assert client.post(api + "/rounds", round_, "application/json", headers=auth).status_code == 503
    # The club's page still lists it; nothing of the game changed, and no game was added.
    assert client.get(f"/c/{key}/").status_code == 200
    assert Game.objects.values().get(pk=game.pk) == before
    assert Game.objects.count() == 1


def test_every_game_this_release_makes_opens_on_the_previous_releases_code(tmp_path):
    """During a rolling upgrade a game started on a new server is opened on an old one. A game
    is stored at the oldest rules version that reads it the same, so the previous release opens
    every game of every preset and way of asking that uses nothing it does not know, and changes
    nothing; a game that needs newer rules (the widow game's tie break) is stored as new as it
    needs, which from this release on a server too old for it answers with 503 (above)."""
    from ..factory import make_game, record_knocks

    club = None
    games = []
    for preset in PRESETS:
        for mode in Game.Mode.values:
            game = make_game(players=("Ann", "Ben", "Cat"), preset=preset, club=club, mode=mode)
            club = game.club
            if not game.rules.played_for_pot:
                record_knocks(game, [("Ann", ["Ben"])])
            games.append(Game.objects.get(pk=game.pk))
    readable = [g for g in games if g.rules_version <= PREVIOUS_RULES_VERSION]
    newer = {g.preset for g in games if g.rules_version > PREVIOUS_RULES_VERSION}
    assert newer == {"widow"}, newer
    before = {g.pk: Game.objects.values().get(pk=g.pk) for g in readable}
    key = club.key
    answers = {}
    with previous_server(tmp_path) as base:
        for game in readable:
            for path in ("", "log"):
                request = urllib.request.Request(f"{base}/c/{key}/g/{game.id}/{path}")
                try:
                    with urllib.request.urlopen(request, timeout=10) as answer:
                        answers[(game.preset, game.mode, path)] = answer.status
                except urllib.error.HTTPError as error:
                    answers[(game.preset, game.mode, path)] = error.code
            status, _headers, _body = call(base, "GET", f"/api/v1/games/{game.id}", key=key)
            answers[(game.preset, game.mode, "api")] = status
    assert set(answers.values()) == {200}, answers
    assert len(answers) == 3 * len(readable) == 3 * 2 * (len(PRESETS) - 1)
    assert {g.pk: Game.objects.values().get(pk=g.pk) for g in readable} == before
    assert b"Traceback" not in (tmp_path / "old.log").read_bytes()
