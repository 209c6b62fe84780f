"""Errors go to an error tracker only when the operator sets SENTRY_DSN: a real app server with
a database that cannot be opened sends the error to a tracker listening here, over HTTP, with
no club key in it; without the variable nothing is set up to send."""

import gzip
import http.server
import json
import threading
import time
import urllib.error
import urllib.request
import zlib

import pytest

from ..servers import app_server, free_port, server_environment

pytestmark = pytest.mark.django_db(transaction=True)

KEY = "Zq8xY2kLmN4pQ7rS9tUvW1xY3zA5bC7d"  # shaped like a club's key


class Tracker(http.server.ThreadingHTTPServer):
    """Takes envelopes as Sentry's ingest does, and keeps them."""

    def __init__(self) -> None:
        self.envelopes: list[str] = []
        super().__init__(("127.0.0.1", free_port()), Ingest)


class Ingest(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "br":
            import brotli

            body = brotli.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        self.server.envelopes.append(body.decode())
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args) -> None:
        pass


def test_an_error_reaches_the_tracker_without_the_club_key(tmp_path):
    tracker = Tracker()
    threading.Thread(target=tracker.serve_forever, daemon=True).start()
    env = server_environment()
    env.pop("DATABASE_URL", None)
    # A database that cannot be opened: every club page fails.
    env["KNOCK_SQLITE_PATH"] = str(tmp_path / "no-such-folder" / "knock.sqlite3")
    env["SENTRY_DSN"] = f"http://public@127.0.0.1:{tracker.server_port}/1"
    try:
        with app_server(env) as base:
            with pytest.raises(urllib.error.HTTPError) as failed:
                request = urllib.request.Request(
                    f"{base}/c/{KEY}/?from={KEY}", headers={"Cookie": "sessionid=a-cookie-jar"}
                )
                urllib.request.urlopen(request, timeout=10)
            # Answered 503 (scorekeeper/web/outage.py), and said to the tracker once.
            assert failed.value.code == 503
            deadline = time.monotonic() + 10
            while not tracker.envelopes and time.monotonic() < deadline:
                time.sleep(0.1)
    finally:
        tracker.shutdown()
    assert tracker.envelopes, "nothing reached the tracker"
    sent = "\n".join(tracker.envelopes)
    assert "OperationalError" in sent
    assert KEY not in sent
    # The outage's one line, as the tracker's event, with the page it began on, keyless.
    events = [json.loads(line) for line in sent.splitlines() if '"logentry"' in line]
    assert events and events[0]["logger"] == "scorekeeper.outage"
    assert events[0]["level"] == "error" and events[0]["transaction"] == "/c/…/"
    # No cookie, body or address of the player goes with it.
    assert "a-cookie-jar" not in sent and "REMOTE_ADDR" not in sent
    assert not events[0].get("request", {}).get("data")


def test_without_a_dsn_nothing_is_set_up_to_send(monkeypatch):
    import sentry_sdk

    assert not sentry_sdk.get_client().is_active()
