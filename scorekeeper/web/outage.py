"""A database that does not answer, as an operator and a phone should meet it.

Every request that needs the database is answered **503 with Retry-After** (JSON naming the
problem under the API's address, a short page for a browser) instead of a 500 and its
traceback: a phone takes a 503 as being offline, so the round it was sending waits on it and
goes when the server is back (static/js/sender.js). The log says it once when it starts, how many
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

from ..models import MadeByANewerKnock
from ..rules.ruleset import RULES_VERSION

log = logging.getLogger("scorekeeper.outage")

RETRY_AFTER = 5  # seconds: how soon a phone may ask again
UPGRADE_RETRY_AFTER = 30  # seconds: a rolling upgrade replaces a server in about this long
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


def outage_answer(request: HttpRequest, exception: BaseException) -> HttpResponse:
    """The answer to a request that met a database that does not answer."""
    OUTAGE.refused_one(exception)
    said = _("Knock cannot reach its database just now: try again in a moment.")
    return come_back(request, said, RETRY_AFTER)


def newer_answer(request: HttpRequest, exception: MadeByANewerKnock) -> HttpResponse:
    """The answer to a request for a game a newer Knock made (a rolling upgrade under way):
    nothing of it is shown or changed here, and the newer servers answer in a moment."""
    log.warning(
        "a game of rules version %d was asked for; this server knows %d: answered 503 until "
        "a newer one answers",
        exception.game.rules_version,
        RULES_VERSION,
    )
    said = _("This game needs a newer Knock: it will be back in a moment.")
    return come_back(request, said, UPGRADE_RETRY_AFTER)


def come_back(request: HttpRequest, said: str, seconds: int) -> HttpResponse:
    """A 503 with Retry-After (JSON under the API's address, a short page for a browser), which
    a phone takes as being offline: a round waits on it. Said once in the log, not per request."""
    request.said_in_log = True  # type: ignore[attr-defined]  # lib.logs.SaidElsewhere
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": said, "retry_after": seconds}, status=503)
    else:
        page = render_to_string("503.html", {"said": said, "seconds": seconds})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    return response
