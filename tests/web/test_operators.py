"""The operator's tools: the admin, listing and removing clubs, and importing club files that
may be broken or hostile."""

import contextlib
import copy
import io
import json
import uuid

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import play
from scorekeeper.backup import export_club, import_club
from scorekeeper.models import Club, Game, Player, Round
from scorekeeper.rules.errors import InputError

from ..factory import knock, make_game, record_knocks

pytestmark = pytest.mark.django_db


def a_club():
    game = record_knocks(make_game(), [("Ann", ["Ben"]), ("Ben", ["Cat"])])
    play.undo_round(game)
    make_game(players=("Ann", "Ben"), club=game.club, preset="schwimmen")
    return game.club


@pytest.fixture
def operator(client):
    User.objects.create_superuser("op", "op@example.org", "a long pass phrase")
    # Through the admin's own login: its session is its own (AdminSessions), not the players'.
    answer = client.post("/admin/login/", {"username": "op", "password": "a long pass phrase"})
    assert answer.status_code == 302
    return client


class TestAdmin:
    def test_it_shows_clubs_games_and_rounds_and_never_a_key(self, operator):
        club = a_club()
        game = club.games.order_by("created").first()
        pages = [
            "/admin/",
            "/admin/scorekeeper/club/",
            f"/admin/scorekeeper/club/{club.pk}/change/",
            "/admin/scorekeeper/game/",
            f"/admin/scorekeeper/game/{game.pk}/change/",
        ]
        for url in pages:
            response = operator.get(url)
            assert response.status_code == 200, url
            text = response.content.decode()
            assert club.key not in text and club.view_key not in text
            assert club.key_hash not in text
        assert "Thursday table" in operator.get("/admin/scorekeeper/club/").content.decode()

    def test_no_view_on_site_link_leads_to_a_page_that_needs_the_key(self, operator):
        club = a_club()
        game = club.games.order_by("created").first()
        for url in [f"/admin/scorekeeper/club/{club.pk}/", f"/admin/scorekeeper/game/{game.pk}/"]:
            page = operator.get(url + "change/").content.decode()
            assert "View on site" not in page and "/admin/r/" not in page

    def test_games_and_rounds_cannot_be_changed_behind_the_engines_back(self, operator):
        club = a_club()
        game = club.games.first()
        assert operator.get("/admin/scorekeeper/game/add/").status_code == 403
        response = operator.post(f"/admin/scorekeeper/game/{game.pk}/change/", {"preset": "scat"})
        assert response.status_code == 403
        # Rounds have no page of their own: nothing to change one behind the engine's back.
        assert operator.get("/admin/scorekeeper/round/").status_code == 404
        response = operator.post(f"/admin/scorekeeper/game/{game.pk}/delete/", {"post": "yes"})
        assert response.status_code == 302 and not Game.objects.filter(pk=game.pk).exists()

    def test_a_club_can_be_renamed_and_removed(self, operator):
        club = a_club()
        url = f"/admin/scorekeeper/club/{club.pk}/change/"
        players = list(club.players.all())
        form = {
            "name": "Friday table",
            "players-TOTAL_FORMS": str(len(players)),
            "players-INITIAL_FORMS": str(len(players)),
            "players-MIN_NUM_FORMS": "0",
            "players-MAX_NUM_FORMS": "1000",
        }
        for i, player in enumerate(players):
            form[f"players-{i}-id"] = str(player.pk)
            form[f"players-{i}-club"] = str(club.pk)
        response = operator.post(url, form)
        assert response.status_code == 302, response.content.decode()[:2000]
        assert Club.objects.get(pk=club.pk).name == "Friday table"
        response = operator.post(f"/admin/scorekeeper/club/{club.pk}/delete/", {"post": "yes"})
        assert response.status_code == 302
        assert not Club.objects.exists() and not Round.objects.exists()

    def test_nobody_else_gets_in(self, client):
        assert client.get("/admin/scorekeeper/club/").status_code == 302  # to the login page


class TestCommands:
    def test_list_clubs_shows_each_club_without_its_key(self):
        club = a_club()
        out = io.StringIO()
        call_command("list_clubs", stdout=out)
        text = out.getvalue()
        assert str(club.pk) in text and "Thursday table" in text
        assert "3 players" in text and "2 games" in text and "1 clubs." in text
        assert club.key not in text

    def test_delete_club_removes_the_club_and_everything_in_it(self):
        club, other = a_club(), make_game().club
        out = io.StringIO()
        call_command("delete_club", str(club.pk), "--yes", stdout=out)
        assert "Removed Thursday table: 3 players, 2 games, 2 rounds." in out.getvalue()
        assert list(Club.objects.all()) == [other]
        assert Game.objects.filter(club=other).count() == 1

    def test_delete_club_without_a_terminal_needs_yes(self, monkeypatch):
        club = a_club()
        monkeypatch.setattr("sys.stdin", io.StringIO(""))  # cron, a pipe: nobody to ask
        with pytest.raises(CommandError, match="without a terminal, add --yes"):
            call_command("delete_club", str(club.pk))
        assert Club.objects.filter(pk=club.pk).exists()

    def test_delete_club_asks_first_and_refuses_an_unknown_id(self, monkeypatch):
        monkeypatch.setattr("sys.stdin.isatty", lambda: True)
        club = a_club()
        monkeypatch.setattr("builtins.input", lambda prompt: "no")
        with pytest.raises(CommandError, match="Nothing was removed"):
            call_command("delete_club", str(club.pk))
        with pytest.raises(CommandError, match="No club has that id"):
            call_command("delete_club", str(uuid.uuid4()), "--yes")
        with pytest.raises(CommandError, match="No club has that id"):
            call_command("delete_club", "not-an-id", "--yes")
        assert Club.objects.filter(pk=club.pk).exists()


# ---- importing club files ------------------------------------------------------------------


def exported():
    club = a_club()
    data = export_club(club)
    Club.objects.all().delete()  # an empty instance to import into
    return data


def round0(data, game=0):
    return data["games"][game]["rounds"][0]


MALICIOUS = {
    "a round names a seat nobody sits in": lambda d: round0(d).update(knocker=7),
    "a shown seat nobody sits in": lambda d: round0(d).update(shown_by=[5]),
    "hands keyed by nonsense": lambda d: round0(d).update(hands={"ann": ["AS", "KS", "QS"]}),
    "a card that is not a card": lambda d: round0(d).update(hands={"0": ["ZZ", "KS", "QS"]}),
    "rounds in play numbered 1, 2, 5": lambda d: d["games"][0]["rounds"].append(
        {**round0(d), "number": 5, "client_id": "x5"}
    ),
    "a one-character key": lambda d: d["club"].update(key="k"),
    "a key with a slash": lambda d: d["club"].update(key="a/" * 20),
    "the view key is the secret key": lambda d: d["club"].update(view_key=d["club"]["key"]),
    "an escape in the club's name": lambda d: d["club"].update(name="Club\x1b[2J"),
    "a bell in a player's name": lambda d: d["players"][0].update(name="Ann\x07"),
    "a lone surrogate in a name": lambda d: d["players"][0].update(name="Ann\ud800"),
    "a seat whose player is missing": lambda d: d["games"][0]["seats"].append("Zed"),
    "an impossible round": lambda d: round0(d).update(knocker=None),
    "a loser who is already out": lambda d: d["games"][0]["rounds"].extend(
        [{**round0(d), "number": n, "client_id": f"r{n}", "state": "active"} for n in range(2, 6)]
    ),
    "rules that are not rules": lambda d: d["games"][0]["rules"].update(lives="many"),
    "a huge number": lambda d: d["games"][0].update(first_dealer=10**4000),
    "a number as text": lambda d: d["games"][0].update(version="1e50000000"),
    "a date that is not one": lambda d: d["club"].update(created="yesterday"),
    "a list for the club": lambda d: d.update(club=[]),
    "the same tap twice": lambda d: (
        round0(d).update(client_id="tap-1"),
        d["games"][0]["rounds"].append({**round0(d), "state": "undone", "number": 1}),
    ),
}


@pytest.mark.parametrize("case", list(MALICIOUS))
def test_a_malicious_file_is_refused_whole_with_one_clear_line(case, tmp_path):
    data = exported()
    MALICIOUS[case](data)
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError) as refusal:
        call_command("import_club", str(path))
    message = str(refusal.value)
    assert (
        message.startswith("Not imported: ") and "\n" not in message and "Traceback" not in message
    )
    assert "\x1b" not in message and "\x07" not in message
    assert not Club.objects.exists() and not Player.objects.exists() and not Game.objects.exists()


def test_a_key_already_used_by_another_club_is_refused(tmp_path):
    club = a_club()
    data = export_club(club)
    data["club"]["id"] = str(uuid.uuid4())
    with pytest.raises(InputError, match="already here"):
        import_club(data)
    data["club"]["key"] = club.view_key  # another club's view key as this one's secret key
    with pytest.raises(InputError, match="already here"):
        import_club(data)


def test_a_file_of_the_previous_version_still_reads():
    data = exported()
    data["version"] = 1
    data["club"]["view_key"] = "an-old-view-key-of-this-club-0000"
    del data["club"]["view_generation"]
    club = import_club(data)
    assert club.games.count() == 2


json_leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_damage_to_a_file_imports_all_or_nothing_and_what_imports_plays(data):
    Club.objects.all().delete()
    club = a_club()
    original = export_club(club)
    Club.objects.all().delete()
    damaged = copy.deepcopy(original)
    # Replace one value somewhere in the file with anything at all.
    node, path = damaged, []
    while isinstance(node, dict | list) and node:
        key = data.draw(st.sampled_from(list(node) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        if not data.draw(st.booleans()) or not isinstance(node[key], dict | list):
            node[key] = data.draw(json_leaves | st.lists(json_leaves, max_size=3))
            break
        node = node[key]
    try:
        restored = import_club(damaged)
    except InputError as refusal:
        assert refusal.message and refusal.field and "\n" not in refusal.message
        assert not Club.objects.exists() and not Game.objects.exists()
        return
    for game in restored.games.all():
        game.club = restored
        state = game.state
        assert game.steps()[0] == state  # every game it let in is one the engine plays
        if not game.finished:
            seats = game.seat_list
            if len([s for s in state.statuses if s != "out"]) >= 2:
                playing = [s for i, s in enumerate(seats) if state.statuses[i] != "out"]
                with contextlib.suppress(InputError):  # a round the rules refuse, as at a table
                    play.record_round(game, knock(game, playing[0].name, [playing[1].name]))


@pytest.mark.django_db(transaction=True)
def test_the_whole_instance_is_copied_while_it_runs_as_the_deploy_page_says(tmp_path):
    """docs/deploy.md: VACUUM INTO for SQLite in WAL mode, pg_dump for PostgreSQL; the copy
    holds every club and game."""
    import sqlite3
    import subprocess

    from django.db import connection

    from ..factory import make_game, record_knocks

    game = record_knocks(make_game(), [("Ann", ["Ben"])])
    saved = tmp_path / "copy"
    if connection.vendor == "sqlite":
        live = sqlite3.connect(connection.settings_dict["NAME"])
        live.execute("VACUUM INTO ?", (str(saved),))
        live.close()
        backup = sqlite3.connect(saved)
        rows = backup.execute("SELECT count(*) FROM scorekeeper_round").fetchone()[0]
        assert backup.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert rows == game.rounds.count() == 1
    else:
        db = connection.settings_dict
        url = (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        )
        subprocess.run(["pg_dump", "--format=custom", f"--file={saved}", url], check=True)
        listed = subprocess.run(
            ["pg_restore", "--list", str(saved)], capture_output=True, text=True, check=True
        ).stdout
        assert "TABLE DATA public scorekeeper_round" in listed
        assert "TABLE DATA public scorekeeper_club" in listed


def test_logging_out_of_the_admin_ends_its_session_even_for_a_copied_cookie(client):
    """The admin's session is kept in the database, apart from the players' signed cookie:
    after logout, the cookie copied before it opens nothing; it lasts hours, not 400 days."""
    from django.contrib.sessions.models import Session
    from django.test import Client

    User.objects.create_superuser("op", password="a long operator password")
    club = Club.objects.create(name="Fridays")
    client.get(club.get_absolute_url())  # a player's session: the clubs this browser opened
    players_cookie = client.cookies["sessionid"].value
    login = client.post(
        "/admin/login/?next=/admin/",
        {"username": "op", "password": "a long operator password"},
    )
    assert login.status_code == 302
    cookie = client.cookies["knock_admin"]
    assert cookie["path"] == "/admin/" and cookie["httponly"]
    assert 0 < int(cookie["max-age"]) <= 8 * 60 * 60
    assert Session.objects.count() == 1
    # The players' cookie is as it was, with no key of the admin's in it.
    assert client.cookies["sessionid"].value == players_cookie
    assert "Fridays" in client.get("/").content.decode()
    copied = Client()
    copied.cookies["knock_admin"] = cookie.value
    assert copied.get("/admin/").status_code == 200
    client.post("/admin/logout/")
    assert Session.objects.count() == 0
    answer = copied.get("/admin/")
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]
    # The database holds no club key: a player's session never goes there.
    assert club.key not in json.dumps(list(Session.objects.values()), default=str)
