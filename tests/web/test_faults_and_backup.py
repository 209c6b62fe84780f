"""A crash in the middle of a write leaves nothing half done; a club survives export and import."""

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from scorekeeper import play
from scorekeeper.backup import export_club, import_club
from scorekeeper.models import Club, Game, Round, RoundInputs
from scorekeeper.rules.errors import InputError

from ..factory import knock, make_club, make_game, record_knocks

pytestmark = pytest.mark.django_db


class CrashAfterFirstWrite:
    """Let the first ``through`` writes through, then fail the next one, as a killed worker
    would."""

    def __init__(self, through: int = 1):
        self.writes, self.through = 0, through

    def __call__(self, execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE", "WITH")):
            self.writes += 1
            if self.writes > self.through:
                raise ConnectionError("the worker died here")
        return execute(sql, params, many, context)


@pytest.mark.parametrize("action", ["record", "undo", "edit"])
def test_a_crash_after_the_first_write_saves_all_or_nothing(action):
    game = record_knocks(make_game(), [("Ann", ["Ben"])])
    key = game.club.key
    before = list(Round.objects.values_list("number", "state", "lowest"))
    url, data = {
        "record": (
            reverse("record", args=[key, game.id]),
            {"ending": "knock", "knocker": "0", "lowest": ["2"], "confirm": "1"},
        ),
        "undo": (reverse("undo", args=[key, game.id]), {}),
        "edit": (
            reverse("edit-round", args=[key, game.id, 1]),
            {"ending": "knock", "knocker": "0", "lowest": ["2"]},
        ),
    }[action]
    # On PostgreSQL a round is recorded in one statement: there is no second write to cut off,
    # so the crash comes at that one.
    single = action == "record" and connection.vendor == "postgresql"
    crash = CrashAfterFirstWrite(through=0 if single else 1)
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(crash):
        response = client.post(url, data)
    assert crash.writes == (
        1 if single else 2
    )  # the crash came at the write after those let through
    assert response.status_code == 500
    assert list(Round.objects.values_list("number", "state", "lowest")) == before
    assert Game.objects.get(pk=game.pk).version == 1
    assert client.get(game.get_absolute_url()).status_code == 200


@pytest.fixture(autouse=True)
def _stored_states_match_their_rounds():
    """After every test here, each game's stored state is the one its rounds give."""
    yield
    call_command("check_game_states", stdout=io.StringIO())


def derived(club: Club) -> list:
    out = []
    for game in club.games.order_by("created"):
        state = game.state
        assert game.steps()[0] == state
        out.append((state.lives, state.statuses, state.winner, state.pot, state.rounds))
    return out


def a_club_with_history() -> Club:
    club = make_club("Thursday table")
    finished = make_game(players=("Ann", "Ben"), club=club)
    record_knocks(finished, [("Ann", ["Ben"])] * 4)
    going = make_game(players=("Ann", "Ben", "Cat"), club=club, preset="schwimmen")
    record_knocks(going, [("Cat", ["Ann"]), ("Ann", ["Ben", "Cat"])])
    play.undo_round(going)
    play.edit_round(going, 1, knock(going, "Cat", ["Ben"]))
    play.record_round(going, knock(going, "Ben", ["Ann"]))
    club.our_rules = {"preset": "friendly", "overrides": {"lives": 4}, "mode": "count"}
    club.save()
    counted = make_game(players=("Ann", "Cat"), club=club, mode=Game.Mode.COUNT)
    Game.objects.filter(pk=counted.pk).update(name="Friday at Ann's")
    # Two lives and one: no round of scat gives it, but the table counted it so.
    play.record_round(counted, RoundInputs("manual", losses={0: 2, 1: 1}, as_counted=True))
    play.rename_player(play.add_player(club, "Dan"), "Daniel")
    play.set_aside(make_game(players=("Ann", "Ben"), club=club), abandoned=True)
    play.set_aside(make_game(players=("Ben", "Cat"), club=club), deleted=True)
    return club


def empty_instance():
    Game.objects.all().delete()  # games first: their seats hold on to the players
    Club.objects.all().delete()


def test_a_club_exported_and_imported_into_an_empty_instance_is_identical():
    club = a_club_with_history()
    exported = export_club(club)
    figures = derived(club)
    text = json.dumps(exported)
    empty_instance()
    assert not Game.objects.exists() and not Round.objects.exists()
    restored = import_club(json.loads(text))
    assert export_club(restored) == exported
    assert derived(restored) == figures
    assert restored.games.get(finished=True).result_words == "Ann won"
    assert Round.objects.exclude(state="active").count() == 2  # the undone and the edited
    assert restored.games.filter(abandoned=True).count() == 1
    assert restored.games.exclude(deleted=None).count() == 1
    counted = restored.games.get(mode=Game.Mode.COUNT, name="Friday at Ann's")
    assert counted.state.lives == (1, 2) and counted.active_rounds()[0].losses == {"0": 2, "1": 1}
    client = Client()
    assert client.get(f"/c/{exported['club']['key']}/").status_code == 200


def test_the_export_downloads_and_the_commands_restore_it(tmp_path, client, monkeypatch):
    club = a_club_with_history()
    club.key = "-" + club.key[1:]  # a key as secrets once drew it: no longer drawn, still read
    club.save()
    response = client.get(reverse("export-club", args=[club.key]))
    assert response["Content-Disposition"] == 'attachment; filename="knock-thursday-table.json"'
    path = tmp_path / "club.json"
    path.write_bytes(response.content)
    with pytest.raises(Exception, match="already here"):
        call_command("import_club", str(path))
    # The key from the environment or standard input, never the command line (history, ps).
    out = io.StringIO()
    monkeypatch.setenv("KNOCK_CLUB_KEY", club.key)
    call_command("export_club", stdout=out)
    assert json.loads(out.getvalue()) == json.loads(response.content)
    monkeypatch.delenv("KNOCK_CLUB_KEY")
    monkeypatch.setattr("sys.stdin", io.StringIO(club.key + "\n"))
    out = io.StringIO()
    call_command("export_club", stdout=out)
    assert json.loads(out.getvalue()) == json.loads(response.content)
    empty_instance()
    out = io.StringIO()
    call_command("import_club", str(path), stdout=out)
    assert "Imported Thursday table: 4 players, 5 games." in out.getvalue()


def test_a_broken_file_imports_nothing():
    club = a_club_with_history()
    exported = export_club(club)
    empty_instance()
    exported["games"][1]["rounds"][-1]["knocker"] = 9  # nobody sits there
    exported["games"][1]["rounds"][-1]["lowest"] = [9]
    with pytest.raises(InputError):
        import_club(exported)
    assert not Club.objects.exists() and not Game.objects.exists()
    with pytest.raises(InputError, match="not a Knock club file"):
        import_club({"format": "something else"})


def test_games_as_csv_for_a_spreadsheet(client):
    club = a_club_with_history()
    response = client.get(reverse("export-games-csv", args=[club.key]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["started", "game", "rules", "players", "rounds", "finished", "result"]
    assert [row[3] for row in rows[1:]] == [
        "Ann; Ben",
        "Ann; Ben; Cat",
        "Ann; Cat",
        "Ann; Ben",
        "Ben; Cat",
    ]
    assert rows[1][4:] == ["4", "yes", "Ann won"]
