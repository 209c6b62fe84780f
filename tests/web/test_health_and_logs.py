"""What an operator of many groups reads: a liveness and a readiness URL that a load balancer can
trust, and log lines that say when, how bad, where from and which request, in Django's lines and
gunicorn's access lines alike, with the request's id in its answer too."""

import json
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

from ..servers import ROOT, Relay, app_server, server_environment

pytestmark = pytest.mark.django_db(transaction=True)


def get(base: str, path: str, headers: dict | None = None):
    request = urllib.request.Request(base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@contextmanager
def database_that_goes_away(tmp_path):
    """The app server's environment on a database the test takes away (``cut``) and brings
    back (``mend``): PostgreSQL behind a relay, or SQLite in a folder that goes and comes."""
    env = server_environment()
    if connection.vendor == "postgresql":
        db = connection.settings_dict
        relay = Relay(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))
        env["DATABASE_URL"] = f"postgres://{db['USER']}@127.0.0.1:{relay.port}/{db['NAME']}"
        try:
            yield env, relay.cut, relay.mend
        finally:
            relay.close()
    else:
        folder = tmp_path / "data"
        env["KNOCK_SQLITE_PATH"] = str(folder / "knock.sqlite3")
        yield env, lambda: None, lambda: folder.mkdir()


def test_ready_is_503_while_the_database_cannot_answer_and_200_once_it_is_back(tmp_path):
    with database_that_goes_away(tmp_path) as (env, cut, mend):
        if connection.vendor == "postgresql":
            with app_server(env) as base:
                assert get(base, "/readyz")[0] == 200
                cut()
                status, _, body = get(base, "/readyz")
                assert (status, body) == (503, b"the database does not answer")
                assert get(base, "/healthz")[0] == 200  # alive all the same
                mend()
                assert get(base, "/readyz")[0] == 200
        else:
            # The SQLite file's folder is not there yet: it cannot be opened.
            with app_server(env) as base:
                assert get(base, "/readyz")[0] == 503
                assert get(base, "/healthz")[0] == 200
                mend()
                assert get(base, "/readyz")[0] == 200


def test_every_line_and_answer_names_its_request(tmp_path):
    log, access = tmp_path / "error.log", tmp_path / "access.log"
    env = server_environment() | {
        "DJANGO_LOG_LEVEL": "WARNING",
        "KNOCK_ACCESS_LOG": str(access),
        "KNOCK_CLIENT_IP_HEADER": "X-Forwarded-For",
    }
    with app_server(env, log=log) as base:
        status, headers, _ = get(
            base,
            "/nowhere",
            {"X-Request-ID": "table-7.a1", "X-Forwarded-For": "203.0.113.9"},
        )
        assert status == 404 and headers["X-Request-ID"] == "table-7.a1"
        made = get(base, "/healthz")[1]["X-Request-ID"]
        assert re.fullmatch(r"[0-9a-f]{32}", made)
        # An id that could break a log line is replaced by one made here.
        odd = get(base, "/healthz", {"X-Request-ID": "two words\tand a tab"})[1]["X-Request-ID"]
        assert re.fullmatch(r"[0-9a-f]{32}", odd)
    lines = log.read_text().splitlines()
    [warning] = [line for line in lines if "Not Found: /nowhere" in line]
    assert re.match(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING django.request \[table-7\.a1\] ", warning
    )
    [line] = [line for line in access.read_text().splitlines() if "/nowhere" in line]
    assert "client=203.0.113.9" in line and "id=table-7.a1" in line
    assert re.search(r'" 404 \d+ \d+ms ', line)


def test_the_log_is_json_lines_when_asked(tmp_path):
    log = tmp_path / "error.log"
    env = server_environment() | {"DJANGO_LOG_LEVEL": "WARNING", "KNOCK_LOG_FORMAT": "json"}
    with app_server(env, log=log) as base:
        get(base, "/nowhere", {"X-Request-ID": "r-1"})
    found = [json.loads(line) for line in log.read_text().splitlines() if '"r-1"' in line]
    assert found[0]["level"] == "WARNING" and found[0]["logger"] == "django.request"
    assert found[0]["message"] == "Not Found: /nowhere" and found[0]["request_id"] == "r-1"


def test_hsts_names_no_subdomains_and_no_preload_unless_asked():
    env = server_environment() | {"DJANGO_HTTPS": "1", "DJANGO_SSL_REDIRECT": "0"}
    secure = {"X-Forwarded-Proto": "https"}
    with app_server(env) as base:
        assert get(base, "/healthz", secure)[1]["Strict-Transport-Security"] == "max-age=31536000"
    asked = env | {"DJANGO_HSTS_INCLUDE_SUBDOMAINS": "1", "DJANGO_HSTS_PRELOAD": "1"}
    with app_server(asked) as base:
        assert get(base, "/healthz", secure)[1]["Strict-Transport-Security"] == (
            "max-age=31536000; includeSubDomains; preload"
        )


@pytest.mark.parametrize("https", ["0", "1"])  # on a LAN, and behind HTTPS
def test_the_readme_s_deploy_check_passes_as_the_readme_runs_it(https):
    env = server_environment() | {"DJANGO_HTTPS": https, "DJANGO_ALLOWED_HOSTS": "knock.lan"}
    # The browser tests set this for the test process (Playwright's loop): no deployment has it.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


def test_a_database_outage_with_a_page_polling_keeps_the_log_small(tmp_path):
    """With the database gone and one page polling every 2 s (here 60 polls and 60 table
    requests, as fast as they come), the app server wrote 751 lines in 6 s: now a repeated
    error is written once, with its count a minute later, and each request's own line."""
    from ..factory import make_game

    game = make_game()
    poll = f"/c/{game.club.key}/g/{game.id}/version?v=0"
    table = f"/c/{game.club.key}/g/{game.id}/"
    log = tmp_path / "app.log"
    with database_that_goes_away(tmp_path) as (env, cut, mend):
        env["DJANGO_LOG_LEVEL"] = "WARNING"
        with app_server(env, log=log) as base:
            cut()
            statuses = [get(base, path)[0] for _ in range(60) for path in (poll, table)]
            mend()
    assert set(statuses) == {503}
    lines = log.read_text().splitlines()
    errors = [line for line in lines if " ERROR " in line]
    # The first of each kind of failure (the poll's, the table's), not one a request.
    assert 1 <= len(errors) <= 2, errors
    assert len(lines) < 200, len(lines)  # was 751 for fewer requests
    assert game.club.key not in log.read_text()


@contextmanager
def database_down_then_back(tmp_path):
    """The app server's environment, its database down from ``cut`` until ``mend``: PostgreSQL
    behind a relay; on SQLite, a file that cannot be opened until this run's database (with
    what the test made in it) is put in its place."""
    with database_that_goes_away(tmp_path) as (env, cut, mend):
        if connection.vendor == "postgresql":
            yield env, cut, mend
            return
        made = Path(env["KNOCK_SQLITE_PATH"])

        def put_back():
            mend()
            with (
                sqlite3.connect(connection.settings_dict["NAME"]) as source,
                sqlite3.connect(made) as copy,
            ):
                source.backup(copy)

        yield env, lambda: None, put_back


def test_a_database_down_10_s_is_503_with_retry_after_in_a_few_lines_and_loses_no_round(
    tmp_path,
):
    """5 requests a second for 10 s (the table, its poll, the API's game and a round sent
    again and again by a phone), the database down: 0 answers 500 (it was 50 of 50, and 604
    lines in the log); a 503 with Retry-After, which a phone takes as being offline; the round
    is saved once the database is back, exactly once."""
    from ..factory import make_game

    game = make_game(players=("Ann", "Ben"))
    key = game.club.key
    table, poll = f"/c/{key}/g/{game.id}/", f"/c/{key}/g/{game.id}/version?v=0"
    api, auth = f"/api/v1/games/{game.id}", {"Authorization": f"Bearer {key}"}
    round_ = {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"], "version": 0}
    round_["client_id"] = "phone-1"
    log, access = tmp_path / "error.log", tmp_path / "access.log"
    answers = []
    with database_down_then_back(tmp_path) as (env, cut, mend):
        env |= {"DJANGO_LOG_LEVEL": "WARNING", "KNOCK_ACCESS_LOG": str(access)}
        with app_server(env, log=log) as base:
            cut()
            started = time.monotonic()
            for i in range(50):  # 5 a second, for 10 s
                time.sleep(max(0, started + i / 5 - time.monotonic()))
                path, body = [(table, None), (poll, None), (api, None), (api + "/rounds", round_)][
                    i % 4
                ]
                answers.append((path, *send(base, path, body, auth)))
            mend()
            saved = send(base, api + "/rounds", round_, auth)
            again = send(base, api + "/rounds", round_, auth)
            kept = json.loads(send(base, api, None, auth)[2])
    assert {status for _path, status, _headers, _body in answers} == {503}
    assert {headers["Retry-After"] for _path, _status, headers, _body in answers} == {"5"}
    for path, _status, _headers, body in answers:
        if path.startswith("/api/"):
            assert json.loads(body)["error"].startswith("Knock cannot reach its database")
        else:
            assert b"Back in a moment" in body and b"Traceback" not in body
    # Back: the phone's round is saved once; sent again, it is the same round.
    assert saved[0] == 200 and json.loads(saved[2])["new_round"]["number"] == 1
    assert again[0] == 200 and json.loads(again[2])["new_round"] is None
    assert kept["round"] == 1 and len(kept["rounds"]) == 1
    lines = log.read_text().splitlines()
    served = access.read_text().splitlines()
    print(f"\n{len(answers)} requests with the database down: {len(lines)} + {len(served)} lines")
    assert len(lines) + len(served) < 200 and "Traceback" not in log.read_text()
    ours = [line for line in lines if " scorekeeper." in line or " django." in line]
    assert next(line for line in ours if "does not answer (" in line).split()[2] == "ERROR"
    assert len([line for line in ours if "does not answer (" in line]) == 1
    assert len([line for line in ours if "answers again after" in line]) == 1
    for line in ours:
        assert re.match(r"\S+ \S+ (INFO|WARNING|ERROR) \S+ \[[0-9a-f]{32}\] ", line), line
    for line in served:
        assert re.match(r"INFO \S+ client=", line) and re.search(r" id=[0-9a-f]{32}$", line)
    assert key not in log.read_text() + access.read_text()


def send(base, path, body, headers):
    data = None if body is None else json.dumps(body).encode()
    asked = dict(headers) | ({"Content-Type": "application/json"} if body else {})
    request = urllib.request.Request(base + path, data=data, headers=asked)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()
