"""The events server's worker: gunicorn's asgi worker, with the two limits a server of long
quiet streams needs and it lacks.

- A connection that sends no whole request within ``KNOCK_EVENTS_HEADER_TIMEOUT`` seconds (5) is
  closed: gunicorn times out only a kept connection's *next* request, so a connection that never
  sends its first held a file for ever.
- Past ``most_connections()`` open connections (below the files the process may open), a
  new one is answered 503 with Retry-After and closed at once: the process never runs out of
  files, so it goes on accepting, its watcher goes on reading the database, and it writes no
  error for every connection it could not take.

- A phone that closes its stream before the answer began (a tab closed, a page left) is logged
  499, as nginx logs a client that closed its request: gunicorn logs it 500, so an alert on the
  rate of server errors fired on ordinary tab closes. A real error still logs 500, with its body.

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


CLIENT_GONE = 499  # nginx's word for it: the client closed the request before the answer


class ClientGoneLog:
    """A connection's view of the worker's log: its access line says 499, not 500, when the
    client went away before any answer was sent."""

    def __init__(self, log, protocol) -> None:
        self._log, self._protocol = log, protocol

    def __getattr__(self, name):
        return getattr(self._log, name)

    def access(self, resp, req, environ, request_time):
        if resp is not None and resp.status == 500 and not resp.sent and self._protocol._closed:
            resp.status = CLIENT_GONE
        return self._log.access(resp, req, environ, request_time)


class GuardedProtocol(ASGIProtocol):
    _refused = False

    def __init__(self, worker, *args, **kwargs):
        super().__init__(worker, *args, **kwargs)
        self.log = ClientGoneLog(self.log, self)

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
