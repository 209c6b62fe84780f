"""A phone that leaves a stream early is not a server error: the events server's access log says
499 (the client closed the request), never 500, so an alert on the rate of 5xx answers does not
fire on ordinary tab closes."""

import re
import socket
import time

import pytest

from ..factory import make_game
from ..servers import app_server, server_environment

pytestmark = pytest.mark.django_db(transaction=True)


def test_thirty_early_closes_are_logged_as_the_client_going_away(tmp_path):
    game = make_game()
    env = server_environment()
    env["KNOCK_ACCESS_LOG"] = str(tmp_path / "access.log")
    path = f"/c/{game.club.key}/g/{game.id}/events?v={game.version}"
    with app_server(env, "config/gunicorn_events.py") as base:
        port = int(base.rsplit(":", 1)[1])
        for i in range(30):
            with socket.create_connection(("127.0.0.1", port)) as stream:
                stream.sendall(
                    f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    "Accept: text/event-stream\r\n\r\n".encode()
                )
                time.sleep((0.0, 0.01, 0.05, 0.2, 0.6)[i % 5])
        time.sleep(1.5)
    lines = [
        line for line in (tmp_path / "access.log").read_text().splitlines() if "/events" in line
    ]
    statuses = [re.search(r'HTTP/1.1" (\d+) ', line).group(1) for line in lines]
    assert len(statuses) == 30, lines
    assert "500" not in statuses, lines
    assert set(statuses) <= {"200", "499"}
    assert game.club.key not in "\n".join(lines)
