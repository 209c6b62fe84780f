"""One client cannot starve the live news: the events server, under a low file limit, holds
hundreds of idle connections, half-sent requests and streams from one client, and a table's
stream is told of a round within 3 s while they are held and after they are gone."""

import socket
import time
from pathlib import Path

import pytest

from scorekeeper import play
from scorekeeper.lib.files import RESERVE
from scorekeeper.live import PER_CLIENT

from ..factory import knock, make_club, make_game
from ..servers import app_server, server_environment

pytestmark = pytest.mark.django_db(transaction=True)

FILES = 256  # the events server's file limit: it takes FILES - RESERVE connections
TABLE, OTHER_TABLE, ATTACKER = "198.51.100.7", "198.51.100.8", "203.0.113.66"


class Conn:
    """A raw connection to the events server, as a browser (or an attacker) opens one."""

    def __init__(self, base: str):
        host, port = base.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=5)
        self.read = b""

    def ask(self, path: str, client: str, whole: bool = True) -> "Conn":
        head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: {client}\r\n"
        self.sock.sendall((head + ("\r\n" if whole else "")).encode())
        return self

    def until(self, words: bytes, within: float) -> bool:
        """Whether the server says ``words`` (or has said them) within ``within`` seconds."""
        deadline = time.monotonic() + within
        while words not in self.read:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return False
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                return words in self.read
            self.read += chunk
        return True

    def closed_by_server(self, within: float) -> bool:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return False
            except ConnectionResetError:
                return True
            if not chunk:
                return True
            self.read += chunk
        return False

    def close(self):
        self.sock.close()


def events(game, version: int) -> str:
    return f"/c/{game.club.key}/g/{game.id}/events?v={version}"


def test_one_client_cannot_starve_the_news(tmp_path: Path):
    env = server_environment()
    env |= {"KNOCK_TRUSTED_PROXIES": "1", "KNOCK_CLIENT_IP_HEADER": "X-Forwarded-For"}
    env["DJANGO_LOG_LEVEL"] = "WARNING"
    log = tmp_path / "events.log"
    club = make_club()
    table_game, attacked = make_game(club=club), make_game(club=club)
    with app_server(env, "config/gunicorn_events.py", files=FILES, log=log) as base:
        table = Conn(base).ask(events(table_game, 0), TABLE)
        assert table.until(b"retry: ", 5) and table.read.startswith(b"HTTP/1.1 200")
        held: list[Conn] = []
        try:
            # One client opens streams until it is refused: no more than its share.
            streams = [Conn(base).ask(events(attacked, 0), ATTACKER) for _ in range(PER_CLIENT + 8)]
            held += streams
            answers = [s.read for s in streams if s.until(b"\r\n\r\n", 5)]
            assert sum(a.startswith(b"HTTP/1.1 200") for a in answers) == PER_CLIENT
            busy = [a for a in answers if a.startswith(b"HTTP/1.1 503")]
            assert len(busy) == 8 and all(b"retry-after: " in a.lower() for a in busy)
            # Then half-sent requests, and bare connections that send nothing, past the
            # connections the server takes: past them it answers 503 and closes at once.
            half = [Conn(base).ask(events(attacked, 0), ATTACKER, whole=False) for _ in range(60)]
            idle = [Conn(base) for _ in range(300)]
            held += half + idle
            turned_away = [c for c in idle if c.until(b"\r\n\r\n", 0.5)]
            assert turned_away and all(c.read.startswith(b"HTTP/1.1 503") for c in turned_away)
            assert len(turned_away) >= 300 + 60 + PER_CLIENT + 1 - (FILES - RESERVE)

            # While all that is held, a round is recorded at the other table: its stream hears.
            recorded = time.monotonic()
            play.record_round(table_game, knock(table_game, "Ann", ["Ben"]))
            assert table.until(b"event: changed\ndata: 1\n", 3)
            assert time.monotonic() - recorded < 3

            # The connections that sent no whole request are closed within a few seconds.
            waiting = [c for c in half + idle if c not in turned_away]
            assert all(c.closed_by_server(8) for c in waiting)
        finally:
            for conn in held:
                conn.close()

        # After the attacker left: a table opening its stream now is let in, and both hear.
        time.sleep(0.5)
        other = Conn(base).ask(events(table_game, 1), OTHER_TABLE)
        assert other.until(b"retry: ", 5) and other.read.startswith(b"HTTP/1.1 200")
        recorded = time.monotonic()
        play.record_round(table_game, knock(table_game, "Ben", ["Cat"]))
        assert other.until(b"event: changed\ndata: 2\n", 3)
        assert table.until(b"event: changed\ndata: 2\n", 3)
        assert time.monotonic() - recorded < 3
        table.close()
        other.close()

    # The watcher never failed, and the server wrote no flood of lines. (A burst of connections
    # faster than the server turns them away can still find the files run out for a moment:
    # the event loop then stops accepting for a second, and says so once.)
    written = log.read_text()
    assert "could not read" not in written
    assert written.count("out of system resource") <= 1
    assert len(written) < 20_000
