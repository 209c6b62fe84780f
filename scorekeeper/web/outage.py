"""A database that does not answer, as an operator and a phone should meet it.

Every request that needs the database is answered **503 with Retry-After** (JSON naming the
problem under the API's address, a short page for a browser) instead of a 500 and its
traceback: a phone takes a 503 as being offline, so the round it was sending waits on it and
goes when the server is back (static/js/sync.js). The log says it once when it starts, how many
requests were answered so once a minute while it lasts, and once when the database answers
again: a few lines for an outage of any length, each with its level and request id.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

log = logging.getLogger("scorekeeper.outage")

RETRY_AFTER = 5  # seconds: how soon a phone may ask again
EVERY = 60.0  # seconds between the lines that count the refused requests
# What a database that cannot be reached raises (a connection refused or lost, a file that
# cannot be opened, a lock held past the timeout): nothing a request could mend by itself.
UNREACHABLE = (OperationalError, InterfaceError)


class Outage:
    """The outage this process sees, if any: since when, and how many requests it refused."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.lock = threading.Lock()
        self.since: float | None = None
        self.refused = 0
        self.counted_at = 0.0

    def refused_one(self, error: BaseException) -> None:
        with self.lock:
            now = self.clock()
            if self.since is None:
                self.since, self.refused, self.counted_at = now, 0, now
                log.error(
                    "the database does not answer (%s: %s): answering 503 with Retry-After "
                    "until it does",
                    type(error).__name__,
                    " ".join(str(error).split())[:200],
                )
            self.refused += 1
            if now - self.counted_at >= EVERY:
                self.counted_at = now
                log.warning(
                    "the database still does not answer: %d requests answered 503 in %.0f s",
                    self.refused,
                    now - self.since,
                )

    def answered(self) -> None:
        with self.lock:
            if self.since is None:
                return
            log.warning(
                "the database answers again after %.0f s: %d requests were answered 503",
                self.clock() - self.since,
                self.refused,
            )
            self.since = None


OUTAGE = Outage()


class SaidOnce(logging.Filter):
    """Leaves out Django's own line for each request answered 503 in an outage: the outage
    is said once, here, and each request has its access line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(getattr(record, "request", None), "in_outage", False)


def outage_answer(request: HttpRequest, exception: BaseException) -> HttpResponse:
    """The answer to a request that met a database that does not answer: a 503 with
    Retry-After (JSON under the API's address, a short page for a browser)."""
    OUTAGE.refused_one(exception)
    request.in_outage = True  # type: ignore[attr-defined]  # read by SaidOnce
    said = _("Knock cannot reach its database just now: try again in a moment.")
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": said, "field": None}, status=503)
    else:
        page = render_to_string("503.html", {"said": said, "seconds": RETRY_AFTER})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response
