"""Take a club's key out of a path before it is written anywhere (no Django here: gunicorn's
access log uses it too)."""

import logging
import re
from urllib.parse import unquote

_LINK = re.compile(r"/(c|v)/[^/\s\"'?]+", re.IGNORECASE)
# Anything shaped like a key, wherever it stands (``/c//KEY/``, ``/C/KEY/``, a query string, an
# error message): 32 or more of the letters a key is made of. A game's id (a UUID, in groups
# of hex digits) is not one.
_KEYLIKE = re.compile(
    r"(?<![A-Za-z0-9_-])(?![0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-)[A-Za-z0-9_-]{32,}"
    r"(?![A-Za-z0-9_-])"
)


def redact(text: str) -> str:
    """A path with the club's key taken out: /c/…/g/… .

    Django decodes a path before routing it, so ``/%63/KEY/`` opens the club as ``/c/KEY/``
    does: a text with percent-escapes is decoded first (its unprintable characters escaped
    again, so that a log line stays one line), and then redacted.
    """
    if "%" in text:
        decoded = unquote(text, errors="backslashreplace")
        text = "".join(char if char.isprintable() else repr(char)[1:-1] for char in decoded)
    return _KEYLIKE.sub("…", _LINK.sub(r"/\1/…", text))


class RedactKeys(logging.Filter):
    """Secret keys are never logged: take them out of every log record's message and args."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(str(record.msg))
        if record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        request = getattr(record, "request", None)
        if request is not None:
            record.request = None  # the request holds the path, and with it the key
        return True
