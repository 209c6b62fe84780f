"""A log line that repeats is written once (no Django here: gunicorn's error log uses it too).

A fault that repeats (a database gone, files run out) would write the same line many times a
second, and fill the disk before anyone reads it: the first is written, the rest are counted,
and the line is written again at most once a minute, saying how many times it came meanwhile.
"""

import logging
import time

EVERY = 60.0  # seconds: a repeated line is written again at most this often
KEPT = 256  # lines remembered: a new line past this forgets the oldest


class RepeatsOnce(logging.Filter):
    def __init__(self, every: float = EVERY, clock=time.monotonic) -> None:
        super().__init__()
        self.every = every
        self.clock = clock
        self.seen: dict[tuple[str, int, str], list[float]] = {}  # line: [first written, repeats]

    def filter(self, record: logging.LogRecord) -> bool:
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
