"""Every refusal is clean: whatever a URL, a header or a body holds, an answer says what is wrong
(or ignores what it does not read) and changes nothing; never a 500, never a key in a log."""

import json
import logging
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scorekeeper import play
from scorekeeper.backup import export_club, import_club
from scorekeeper.lib.redact import redact
from scorekeeper.models import Game, Round
from scorekeeper.rules.errors import InputError

from ..factory import make_club, make_game, record_knocks

pytestmark = pytest.mark.django_db

# Every query parameter a page or an answer reads, and every header.
PARAMETERS = ["v", "page", "preset", "since", "players", "paper", "lives", "view", "before"]
HEADERS = [
    "Last-Event-ID",
    "HX-Request",
    "HX-Target",
    "Accept-Language",
    "X-Forwarded-For",
    "Authorization",
]
# The numbers that broke readers before, and text no number reader expects.
HOSTILE = ["9" * 5000, "²", "1e50000000", "-1", "NaN", "\u202e", "😀" * 50, "%", "x" * 5000]


def every_get(game: Game) -> list[str]:
    club = game.club
    secret, view = f"/c/{club.key}/", f"/v/{club.view_key}/"
    pages = ["", "stats", f"players/{game.seat_list[0].player_id}/stats", "games/new"]
    of_game = [
        "",
        "version",
        "events",
        "log",
        "invite",
        "rules",
        "rules.pdf",
        "sheet",
        "sheet.pdf",
        "referee",
        "rounds/1/edit",
    ]
    urls = [secret + page for page in pages] + [f"{secret}g/{game.id}/{p}" for p in of_game]
    urls += [
        view,
        view + "stats",
        f"{view}g/{game.id}/",
        f"{view}g/{game.id}/version",
        f"{view}g/{game.id}/log",
        f"{view}g/{game.id}/events",
    ]
    urls += [
        "/",
        "/referee/",
        "/rules/scat/",
        "/rules/scat.pdf",
        "/sheet/",
        "/sheet.pdf",
        "/healthz",
        "/readyz",
        f"/api/v1/games/{game.id}",
        f"/api/v1/clubs/{club.id}/stats",
    ]
    return urls


def test_no_query_parameter_or_header_makes_a_page_fail(client):
    game = record_knocks(make_game(), [("Ann", ["Ben"])])
    headers = {"Authorization": f"Bearer {game.club.key}"}
    for url in every_get(game):
        for value in HOSTILE:
            answer = client.get(url, dict.fromkeys(PARAMETERS, value), headers=headers)
            assert answer.status_code < 500, (url, value)
            answer = client.get(url, headers={**headers, **dict.fromkeys(HEADERS, value)})
            assert answer.status_code < 500, (url, value)


def test_the_stream_reads_the_version_heard_strictly(client):
    game = make_game()
    url = f"/c/{game.club.key}/g/{game.id}/events"
    for heard in ["²", "9" * 5000, "-1", "1e5", "٣"]:
        assert client.get(url, {"v": heard}).status_code < 500
        assert client.get(url, headers={"Last-Event-ID": heard}).status_code < 500


def post_json(client, url, body, key=None):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


@pytest.mark.parametrize("where", ["hands", "losses"])
def test_a_broken_name_in_a_round_is_refused_without_repeating_it(client, where):
    game = make_game()
    name = "Be\ud800n"
    body = (
        {"ending": "knock", "knocker": "Ann", "hands": {name: "KS 9S 2H"}}
        if where == "hands"
        else {"ending": "manual", "losses": {name: 1}}
    )
    raw = json.dumps(body)  # "\ud800" travels escaped, as JSON allows
    answer = client.post(
        f"/api/v1/games/{game.id}/rounds",
        raw,
        content_type="application/json",
        headers={"Authorization": f"Bearer {game.club.key}"},
    )
    assert answer.status_code == 400
    assert answer.json()["field"] == f"{where}[key]"
    assert not Round.objects.exists()


class TestTheAPIAnswersJSON:
    def test_an_id_that_is_no_game_s_is_a_json_404(self, client):
        club = make_club()
        for path in [
            "/api/v1/games/null,null",
            "/api/v1/games/1",
            f"/api/v1/clubs/{'x' * 40}/stats",
            "/api/v1/nowhere",
        ]:
            answer = client.get(path, headers={"Authorization": f"Bearer {club.key}"})
            assert answer.status_code == 404, path
            assert answer["Content-Type"].startswith("application/json")
            assert set(answer.json()) == {"error", "field"}

    def test_a_method_an_address_does_not_take_is_json_too(self, client):
        answer = client.get("/api/v1/games/null/rounds")
        assert answer.status_code == 405 and answer["Allow"] == "POST"
        assert answer.json() == {"error": "this address takes POST", "field": "method"}

    @pytest.mark.parametrize("action", ["abandon", "delete", "restore"])
    def test_a_body_less_call_needs_no_body_and_is_authorised_first(self, client, action):
        game = make_game()
        url = f"/api/v1/games/{game.id}/{action}"
        assert client.post(url).status_code == 401  # no key, whatever the body
        answer = client.post(url, headers={"Authorization": f"Bearer {game.club.key}"})
        assert answer.status_code == 200
        assert answer.json()["abandoned"] is (action == "abandon")
        assert (answer.json()["in_bin_until"] is not None) is (action == "delete")

    def test_a_wrong_key_is_told_before_a_wrong_body(self, client):
        game = make_game()
        answer = client.post(f"/api/v1/games/{game.id}/rounds", "x", content_type="text/plain")
        assert answer.status_code == 401
        answer = client.post(
            f"/api/v1/games/{game.id}/rounds",
            "x",
            content_type="text/plain",
            headers={"Authorization": f"Bearer {game.club.key}"},
        )
        assert answer.status_code == 415


def test_pages_that_carry_a_key_are_neither_kept_nor_listed(client):
    game = record_knocks(make_game(), [("Ann", ["Ben"])])
    club = game.club
    for url in [
        f"/c/{club.key}/",
        f"/c/{club.key}/g/{game.id}/",
        f"/c/{club.key}/g/{game.id}/log",
        f"/v/{club.view_key}/",
        f"/v/{club.view_key}/g/{game.id}/",
    ]:
        answer = client.get(url)
        assert answer.status_code == 200
        assert answer["Cache-Control"] == "no-store"
        assert answer["X-Robots-Tag"] == "noindex, nofollow"
    answer = client.get(f"/api/v1/games/{game.id}", headers={"Authorization": f"Bearer {club.key}"})
    assert answer["Cache-Control"] == "no-store"
    # The home page lists the secret links of the clubs this phone remembers: kept by none;
    # on a phone that remembers none, it carries no key and may be kept.
    assert "no-store" in client.get("/")["Cache-Control"]
    client.cookies.clear()
    assert "no-store" not in client.get("/").get("Cache-Control", "")


@pytest.mark.parametrize(
    "path",
    [
        "/c/{key}/",
        "/C/{key}/",
        "/c//{key}/",
        "/%63/{key}/",
        "/v/{key}",
        "/x?key={key}",
        "/c/{key}/g/20fa22eb-a9c7-4717-ac8d-88014fd84a99/",
    ],
)
def test_a_key_is_taken_out_of_any_path_a_log_writes(client, caplog, path):
    club = make_club()
    url = path.format(key=club.key)
    assert club.key not in redact(url)
    assert "20fa22eb-a9c7-4717-ac8d-88014fd84a99" in redact(
        "/c/k/g/20fa22eb-a9c7-4717-ac8d-88014fd84a99/"
    )  # a game's id stays, for the operators
    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get(url.replace(club.key, club.key[:-2] + "zz"))  # a 404, which Django logs
    handler_filter = logging.getLogger("django").handlers[0].filters[0]
    for record in caplog.records:
        handler_filter.filter(record)
        assert club.key[:-2] not in record.getMessage()


def test_an_import_refuses_moments_no_club_lived_and_a_key_with_more_after_it():
    club = make_club()
    game = record_knocks(make_game(club=club), [("Ann", ["Ben"])])
    play.set_aside(game, deleted=True)
    exported = export_club(club)
    club.delete()
    for change, where in [
        (lambda f: f["games"][0].update(deleted="9999-12-31T00:00:00+00:00"), "games[0].deleted"),
        (lambda f: f["games"][0].update(created="1066-10-14T00:00:00+00:00"), "games[0].created"),
        (lambda f: f["club"].update(key=f["club"]["key"] + "\n"), "club.key"),
    ]:
        broken = json.loads(json.dumps(exported))
        change(broken)
        with pytest.raises(InputError) as refusal:
            import_club(broken)
        assert refusal.value.field == where
    assert not Game.objects.exists()
    assert import_club(exported).games.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_phones_giving_two_players_one_name_at_once_are_told_cleanly():
    club = make_club()
    ann, ben = play.add_player(club, "Ann"), play.add_player(club, "Ben")
    start, said = threading.Barrier(2), []

    def rename(player):
        start.wait()
        try:
            play.rename_player(player, "Cara")
            said.append("renamed")
        except InputError as refusal:
            said.append(refusal.message)
        finally:
            connection.close()

    threads = [threading.Thread(target=rename, args=(p,)) for p in (ann, ben)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(said) == ["Cara is already in this club", "renamed"]
    assert sorted(club.players.values_list("name", flat=True)) in (["Ann", "Cara"], ["Ben", "Cara"])


class TestTheClientsAddress:
    def start_clubs(self, settings, forwarded, trusted):
        settings.KNOCK_TRUSTED_PROXIES = trusted
        settings.KNOCK_CLUBS_PER_HOUR = 2
        made = 0
        for i in range(4):
            answer = Client().post(
                "/clubs/new", {"name": f"Club {i}"}, HTTP_X_FORWARDED_FOR=forwarded(i)
            )
            made += answer.status_code == 302
        return made

    def test_a_client_cannot_forge_its_way_past_the_limit(self, settings):
        # The proxy appends the address it saw; what the client wrote stands to its left.
        assert self.start_clubs(settings, lambda i: f"10.0.0.{i}, 203.0.113.7", 1) == 2

    def test_each_client_behind_the_proxy_has_its_own_allowance(self, settings):
        assert self.start_clubs(settings, lambda i: f"203.0.113.{i}", 1) == 4

    def test_without_a_trusted_proxy_the_header_is_never_read(self, settings):
        assert self.start_clubs(settings, lambda i: f"203.0.113.{i}", 0) == 2


def test_the_admin_locks_out_a_user_and_an_address_after_five_failures(client, settings):
    from django.contrib.auth.models import User

    User.objects.create_superuser("op", "op@example.org", "right-password")
    login = reverse("admin:login")
    for _ in range(4):
        answer = client.post(login, {"username": "op", "password": "wrong"})
        assert answer.status_code == 200  # the login page again, saying why
    assert client.post(login, {"username": "op", "password": "wrong"}).status_code == 429
    locked = client.post(login, {"username": "op", "password": "right-password"})
    assert locked.status_code == 429  # even the right password, for an hour
    other = Client(REMOTE_ADDR="198.51.100.9")
    assert other.post(login, {"username": "op", "password": "right-password"}).status_code == 429
    stranger = Client(REMOTE_ADDR="198.51.100.10")
    User.objects.create_superuser("op2", "op2@example.org", "another-password")
    assert (
        stranger.post(login, {"username": "op2", "password": "another-password"}).status_code == 302
    )
