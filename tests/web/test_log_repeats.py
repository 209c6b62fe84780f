"""A log line that repeats is written once, then at most once a minute with how many times it
came meanwhile: a fault that repeats many times a second cannot fill the disk."""

import logging

from scorekeeper.lib.logs import KEPT, RepeatsOnce


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def written(records, repeats):
    return [r.getMessage() for r in records if repeats.filter(r)]


def record(message, *args, level=logging.ERROR, name="asyncio"):
    return logging.LogRecord(name, level, __file__, 1, message, args, None)


def test_a_repeated_line_is_written_once_and_then_once_a_minute_with_a_count():
    clock = Clock()
    repeats = RepeatsOnce(clock=clock)
    first = written(
        [record("socket.accept() out of system resource") for _ in range(5000)], repeats
    )
    assert first == ["socket.accept() out of system resource"]
    clock.now += 61
    again = written([record("socket.accept() out of system resource")], repeats)
    assert again == [
        "socket.accept() out of system resource (and 4999 times more in the last 61 s)"
    ]
    clock.now += 61
    assert written([record("socket.accept() out of system resource")], repeats) == [
        "socket.accept() out of system resource"
    ]


def test_lines_that_differ_are_all_written():
    repeats = RepeatsOnce(clock=Clock())
    lines = [record("Not Found: %s", f"/g/{n}/") for n in range(50)]
    lines += [record("Not Found: %s", "/g/1/", level=logging.WARNING)]
    lines += [record("Not Found: %s", "/g/1/", name="django.request")]
    assert len(written(lines, repeats)) == 52


def test_it_remembers_a_bounded_number_of_lines():
    repeats = RepeatsOnce(clock=Clock())
    written([record("line %d", n) for n in range(KEPT * 10)], repeats)
    assert len(repeats.seen) == KEPT


def test_access_lines_are_never_held_back_even_when_they_repeat():
    """An access log counts requests: the same request a hundred times is a hundred lines."""
    repeats = RepeatsOnce(clock=Clock())
    same = '127.0.0.1 "GET /c/[key]/g/1/version?v=3 HTTP/1.1" 204'
    for name in ("gunicorn.access", "django.server"):
        lines = [record(same, level=logging.INFO, name=name) for _ in range(100)]
        assert written(lines, repeats) == [same] * 100
    # Any other line that repeats is still written once.
    assert len(written([record(same) for _ in range(100)], repeats)) == 1
