"""Knock keeps no state in a process: two app servers (two gunicorns on two ports) over one
database serve one game correctly, a round recorded on one seen, read and undone on the other."""

import http.cookiejar
import json
import time
import urllib.error
import urllib.request

import pytest

from ..servers import app_server, call, server_environment

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_app_servers_serve_one_game():
    env = server_environment()
    with app_server(env) as one, app_server(env) as two:
        status, _, body = call(one, "POST", "/api/v1/clubs", {"name": "Two servers"})
        assert status == 201
        club = json.loads(body)
        key = club["key"]
        game = {"rules": "scat", "players": ["Ann", "Ben", "Cat"]}
        status, _, body = call(one, "POST", f"/api/v1/clubs/{club['id']}/games", game, key)
        game_id = json.loads(body)["id"]

        # A round recorded on the first server…
        knock = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "version": 0}
        status, _, body = call(one, "POST", f"/api/v1/games/{game_id}/rounds", knock, key)
        assert status == 200 and json.loads(body)["version"] == 1

        # …is heard by a phone polling the second,
        poll = f"/c/{key}/g/{game_id}/version"
        status, headers, _ = call(two, "GET", poll + "?v=0")
        assert status == 200 and "game-changed" in headers["HX-Trigger"]
        assert call(two, "GET", poll + "?v=1")[0] == 204
        # read there,
        status, _, body = call(two, "GET", f"/api/v1/games/{game_id}", key=key)
        read = json.loads(body)
        assert read["round"] == 1 and read["players"][1]["lives"] == 2
        # and undone there, which the first then shows.
        status, _, body = call(two, "POST", f"/api/v1/games/{game_id}/undo", {"version": 1}, key)
        assert status == 200 and json.loads(body)["round"] == 0
        status, _, body = call(one, "GET", f"/api/v1/games/{game_id}", key=key)
        assert json.loads(body)["round"] == 0 and json.loads(body)["version"] == 2
        # A phone that still saw version 1 is refused on either server.
        status, _, body = call(
            one, "POST", f"/api/v1/games/{game_id}/rounds", {**knock, "version": 1}, key
        )
        assert status == 409 and json.loads(body)["game"]["version"] == 2


def test_the_news_server_tells_a_page_of_a_round_recorded_on_an_app_server():
    """The deployment the README describes: the pages and the API on the app server (gthread),
    the streams of news on the events server (gunicorn's asgi worker), one database."""
    env = server_environment()
    with app_server(env) as app, app_server(env, "config/gunicorn_events.py") as events:
        status, _, body = call(app, "POST", "/api/v1/clubs", {"name": "Live"})
        club = json.loads(body)
        game = {"rules": "scat", "players": ["Ann", "Ben", "Cat"]}
        status, _, body = call(app, "POST", f"/api/v1/clubs/{club['id']}/games", game, club["key"])
        game_id = json.loads(body)["id"]
        stream = urllib.request.urlopen(
            f"{events}/c/{club['key']}/g/{game_id}/events?v=0", timeout=10
        )
        assert stream.headers["Content-Type"] == "text/event-stream"
        assert stream.readline().startswith(b"retry: ")
        assert stream.readline() == b"\n"  # the page is up to date: nothing more yet
        knock = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "version": 0}
        recorded = time.monotonic()
        status, _, _ = call(app, "POST", f"/api/v1/games/{game_id}/rounds", knock, club["key"])
        assert status == 200
        assert [stream.readline() for _ in range(4)] == [
            b"id: 1\n",
            b"event: changed\n",
            b"data: 1\n",
            b"\n",
        ]
        assert time.monotonic() - recorded < 2  # a tick is half a second
        stream.close()
        # The app server cannot hold a stream: it says so, and the page keeps polling it.
        answer = urllib.request.urlopen(f"{app}/c/{club['key']}/g/{game_id}/events", timeout=10)
        assert answer.status == 204


def test_the_limit_of_fault_reports_a_minute_holds_across_app_servers():
    """Twenty reports a minute from one address, counted where every worker of every box sees
    them (the database): forty reports sent to two app servers, twenty written."""
    from scorekeeper.models import FaultReport

    env = server_environment()
    report = {"kind": "error", "message": "boom", "where": "table.js:1", "release": "x"}
    cookies = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))

    def send(base: str) -> int:
        # As faults.js sends it from a page: with the page's CSRF token.
        if not any(cookie.name == "csrftoken" for cookie in cookies):
            browser.open(base + "/", timeout=10).read()
        token = next(cookie.value for cookie in cookies if cookie.name == "csrftoken")
        request = urllib.request.Request(
            base + "/faults",
            data=json.dumps(report).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "X-CSRFToken": token},
        )
        try:
            with browser.open(request, timeout=10) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code

    with app_server(env) as one, app_server(env) as two:
        answers = [send(server) for server in (one, two) * 20]
    assert answers.count(204) == 20 and answers.count(429) == 20, answers
    assert FaultReport.objects.count() == 20
    assert all(
        len(r.sender) == 64 and "127.0.0.1" not in r.sender for r in FaultReport.objects.all()
    )
