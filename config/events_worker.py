"""The events server's worker: gunicorn's asgi worker, with the two limits a server of long
quiet streams needs and it lacks.

- A connection that sends no whole request within ``KNOCK_EVENTS_HEADER_TIMEOUT`` seconds (5) is
  closed: gunicorn times out only a kept connection's *next* request, so a connection that never
  sends its first held a file for ever.
- Past ``most_connections()`` open connections (below the files the process may open), a
  new one is answered 503 with Retry-After and closed at once: the process never runs out of
  files, so it goes on accepting, its watcher goes on reading the database, and it writes no
  error for every connection it could not take.

Streams are capped per client and in total by the view (``live.Watcher.admit``).
"""

import os

from gunicorn.asgi.protocol import ASGIProtocol
from gunicorn.workers import gasgi

from scorekeeper.lib.files import most_connections

HEADER_TIMEOUT = float(os.environ.get("KNOCK_EVENTS_HEADER_TIMEOUT", "5"))
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"Retry-After: 60\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
)


class GuardedProtocol(ASGIProtocol):
    _refused = False

    def connection_made(self, transport):
        if self.worker.nr_conns >= self.worker.most_connections:
            self._refused = True
            transport.write(BUSY)
            transport.close()
            return
        super().connection_made(transport)
        if self._request_ready is not None and self._keepalive_handle is None:
            # Until its first request is in: the same timer gunicorn arms between requests.
            self._keepalive_handle = self.worker.loop.call_later(
                HEADER_TIMEOUT, self._keepalive_timeout
            )

    def data_received(self, data):
        if not self._refused:
            super().data_received(data)

    def connection_lost(self, exc):
        if not self._refused:
            super().connection_lost(exc)


class EventsWorker(gasgi.ASGIWorker):
    def init_process(self):
        self.most_connections = most_connections()
        # The worker makes its connections' protocol by this module's name for it.
        gasgi.ASGIProtocol = GuardedProtocol
        super().init_process()
