"""A log line that repeats is written once (no Django here: gunicorn's error log uses it too).

A fault that repeats (a database gone, files run out) would write the same line many times a
second, and fill the disk before anyone reads it: the first is written, the rest are counted,
and the line is written again at most once a minute, saying how many times it came meanwhile.
An access line is never held back: each is a request, and an access log counts them.
"""

import contextvars
import json
import logging
import re
import time
import uuid

EVERY = 60.0  # seconds: a repeated line is written again at most this often
KEPT = 256  # lines remembered: a new line past this forgets the oldest
# The loggers whose every line is a request answered (gunicorn's access log, runserver's): an
# access log that counts requests must hold each of them, the same request twice included.
ACCESS = frozenset({"gunicorn.access", "django.server"})


class RepeatsOnce(logging.Filter):
    def __init__(self, every: float = EVERY, clock=time.monotonic) -> None:
        super().__init__()
        self.every = every
        self.clock = clock
        self.seen: dict[tuple[str, int, str], list[float]] = {}  # line: [first written, repeats]

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name in ACCESS:
            return True
        line = (record.name, record.levelno, record.getMessage())
        now = self.clock()
        seen = self.seen.get(line)
        if seen is not None and now - seen[0] < self.every:
            seen[1] += 1
            return False
        if seen is not None and seen[1]:
            record.msg = f"{record.getMessage()} (and {int(seen[1])} times more in the last {now - seen[0]:.0f} s)"
            record.args = None
        self.seen.pop(line, None)
        if len(self.seen) >= KEPT:
            del self.seen[next(iter(self.seen))]
        self.seen[line] = [now, 0]
        return True


# The id of the request being answered, on every line logged while it is: the proxy's
# X-Request-ID when it sends a sane one, else one made here (web/middleware.py sets it).
request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def new_request_id(given: str | None) -> str:
    return given if given and SANE_ID.fullmatch(given) else uuid.uuid4().hex


class WithRequestId(logging.Filter):
    """Puts the request's id on each record (``%(request_id)s``; ``-`` outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line, for a log collector (``KNOCK_LOG_FORMAT=json``)."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", "-"),
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class SaidElsewhere(logging.Filter):
    """Leaves out Django's own line for a request whose answer was said in the log already, in
    a line of its own for the whole of it (a database that does not answer, web/outage.py):
    each such request keeps its access line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(getattr(record, "request", None), "said_in_log", False)
