"""PostgreSQL as Django's own backend has it, with a health check that asks the server only when
the connection's socket says something happened.

Django checks a kept connection before a request's first query (``CONN_HEALTH_CHECKS``) with a
``SELECT 1``: a round trip on every request (80 µs of the app server's CPU and 110 µs of wall
time on a 2-core test machine, and the database's own work on top). An idle connection has
nothing to read: the server speaks only when asked, except to say it is going away (a restart,
an administrator, an idle timeout), and then it also closes the socket. So a socket with
nothing to read is taken as healthy, at the cost of one ``poll()`` (2 µs), and only a socket
with something to read is checked the old way. A connection that dies without a word (a cable
pulled between two machines) goes unnoticed until the request's first query, as it would have
with ``SELECT 1``, which waits as long for an answer that never comes.
"""

from __future__ import annotations

import select

import psycopg
from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    # Set by Django's own wrapper (its type stubs leave them out).
    health_check_enabled: bool
    health_check_done: bool

    def close_if_health_check_failed(self) -> None:
        if (self.connection is None or not self.health_check_enabled or self.health_check_done
                or self.pool):  # fmt: skip
            return
        if self.server_spoke() and not self.is_usable():
            self.close()
        self.health_check_done = True

    def server_spoke(self) -> bool:
        """Whether an idle connection's socket has anything to read (or is closed)."""
        try:
            poller = select.poll()
            poller.register(self.connection.fileno(), select.POLLIN)
            return bool(poller.poll(0))
        except (OSError, ValueError, psycopg.Error):  # closed already
            return True
