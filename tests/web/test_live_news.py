"""Live news of a game (server-sent events): one watcher per process reads the versions of every
game its streams follow in one query per tick, and each stream says when its game changed.

The streams run on an event loop, as under gunicorn's asgi worker; the database is the real one,
written from this thread and read by the watcher's own thread (hence committed transactions)."""

import asyncio
import contextlib
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import AsyncClient
from django.urls import reverse

from scorekeeper import live, play
from scorekeeper.models import Game

from ..factory import knock, make_game

pytestmark = pytest.mark.django_db(transaction=True)
# Each stream tells the browser to wait 2 to 10 s before opening it again, so that the pages a
# restart cut off do not all come back at once.
RETRY_LINE = re.compile(rb"retry: ([2-9]\d{3}|10000)\n\n")


def run(test):
    """Run a coroutine on a new loop, with its own watcher, closed at the end (its thread's
    connection too, which would otherwise keep the test database open). The loop runs in a
    thread of its own: the browser tests' Playwright may keep one running in this one."""

    async def main():
        try:
            return await test(live.watcher())
        finally:
            live.watcher().close()

    return in_a_thread(asyncio.run, main())


def in_a_thread(function, *args):
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function, *args).result()


async def next_chunk(stream, within: float = 3.0) -> bytes:
    return await asyncio.wait_for(anext(stream), within)


async def in_thread(function, *args, **kwargs):
    """Write to the database as another request would: on another thread, committed. (Not
    ``asyncio.to_thread``, which would carry this context's connection to the other thread.)"""

    def write():
        try:
            return function(*args, **kwargs)
        finally:
            connection.close()

    return await asyncio.get_running_loop().run_in_executor(None, write)


def test_a_stream_says_at_once_when_the_page_is_behind_and_then_at_each_change():
    game = make_game()
    play.record_round(game, knock(game, "Ann", ["Ben"]))

    async def test(watcher):
        watcher.tick = 0.05
        stream = watcher.news(game.id, heard=0, version=1)
        assert RETRY_LINE.fullmatch(await next_chunk(stream))
        assert await next_chunk(stream) == b"id: 1\nevent: changed\ndata: 1\n\n"
        fresh = await in_thread(Game.objects.get, id=game.id)
        await in_thread(lambda: play.record_round(fresh, knock(fresh, "Ben", ["Cat"])))
        started = time.monotonic()
        assert await next_chunk(stream) == b"id: 2\nevent: changed\ndata: 2\n\n"
        heard_after = time.monotonic() - started
        await stream.aclose()
        assert watcher.games == {}  # a closed stream is forgotten
        return heard_after

    assert run(test) < 1.0


async def heard_of_a_round(stream, game, other) -> float:
    """A round in ``other`` (which no stream here follows), then one in ``game``: how long
    after the second the stream said so. The stream is closed."""
    fresh = await in_thread(Game.objects.get, id=other.id)
    await in_thread(lambda: play.record_round(fresh, knock(fresh, "Dan", ["Eve"])))
    fresh = await in_thread(Game.objects.get, id=game.id)
    started = time.monotonic()
    await in_thread(lambda: play.record_round(fresh, knock(fresh, "Ann", ["Ben"])))
    assert await next_chunk(stream, within=2.0) == b"id: 1\nevent: changed\ndata: 1\n\n"
    heard_after = time.monotonic() - started
    await stream.aclose()
    return heard_after


@pytest.mark.skipif(
    not __import__("os").environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="PostgreSQL announces changes (LISTEN/NOTIFY); SQLite's watcher looks each tick",
)
def test_on_postgresql_a_change_wakes_the_watcher_at_once_not_at_its_next_tick():
    game = make_game()
    other = make_game(club=game.club, players=("Dan", "Eve"))

    async def test(watcher):
        watcher.tick = 30.0  # without the announcement, nobody would hear for 30 s
        stream = watcher.news(game.id, heard=0, version=0)
        assert RETRY_LINE.fullmatch(await next_chunk(stream))
        await asyncio.sleep(0.5)  # the watcher's listening connection is open
        # A change of a game nobody here follows wakes nothing; one of this game does.
        heard_after = await heard_of_a_round(stream, game, other)
        return heard_after, watcher.heard, watcher.queries

    heard_after, woken, queries = run(test)
    assert heard_after < 1.0 and woken == 1 and queries == 1


def test_a_page_that_is_up_to_date_hears_nothing_but_a_beat_now_and_then():
    game = make_game()

    async def test(watcher):
        stream = watcher.news(game.id, heard=0, version=0, heartbeat=0.05, lifetime=0.3)
        chunks = [chunk async for chunk in stream]
        assert RETRY_LINE.fullmatch(chunks[0])
        assert set(chunks[1:]) == {
            b"event: beat\ndata: still here\n\n"
        }  # only beats: nothing changed
        assert 3 <= len(chunks) - 1 <= 7  # and the stream ends after its lifetime

    run(test)


def test_one_query_per_tick_however_many_streams_and_games():
    games = [make_game(club=None) for _ in range(5)]

    async def test(watcher):
        watcher.tick = 0.05
        statements = []

        # Count what the watcher's thread really sends to the database.
        def count(execute, sql, *rest):
            statements.append(sql)
            return execute(sql, *rest)

        await watcher.run(lambda: connection.execute_wrappers.append(count))
        streams = [watcher.news(g.id, heard=0, version=0) for g in games for _ in range(8)]
        for stream in streams:
            await next_chunk(stream)  # each stream is open: 40 streams on 5 games
        assert len(watcher.games) == 5
        await asyncio.sleep(0.6)
        for stream in streams:
            await stream.aclose()
        # The watcher stops once no game is followed: its reads and its count are then the same
        # (read while a tick's query was under way, the count was one behind the statements).
        await asyncio.wait_for(watcher._task, 5)
        return watcher.queries, statements

    ticks, statements = run(test)
    assert 4 <= ticks <= 13
    # One read of the versions per tick, for 40 streams; on SQLite, glances between them.
    reads = [sql for sql in statements if "data_version" not in sql]
    assert len(reads) == ticks


@pytest.mark.skipif(
    __import__("os").environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="SQLite's watcher glances at PRAGMA data_version; PostgreSQL's listens",
)
def test_on_sqlite_a_commit_is_heard_at_the_next_glance_not_at_the_next_tick():
    game = make_game()
    other = make_game(club=game.club, players=("Dan", "Eve"))

    async def test(watcher):
        watcher.tick = 30.0  # without the glance, nobody would hear for 30 s
        stream = watcher.news(game.id, heard=0, version=0)
        assert RETRY_LINE.fullmatch(await next_chunk(stream))
        # It asks SQLite, and reads the versions once (the first answer) and then no more while
        # nothing is committed: three glances waited for as they come, not for a time (on a
        # loaded machine three took longer than the 0.3 s this once slept).
        deadline = time.monotonic() + 10
        while watcher.glances < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert watcher.glances >= 3 and watcher.queries == 1
        return await heard_of_a_round(stream, game, other)

    assert run(test) < 1.0


def test_a_game_that_is_gone_ends_its_stream():
    game = make_game()

    async def test(watcher):
        watcher.tick = 0.05
        stream = watcher.news(game.id, heard=0, version=0)
        await next_chunk(stream)
        await in_thread(Game.objects.filter(id=game.id).delete)
        assert await next_chunk(stream) == b"event: gone\ndata: gone\n\n"
        with pytest.raises(StopAsyncIteration):
            await next_chunk(stream)
        assert watcher.games == {}

    run(test)


class Phone:
    """A phone holding a stream open, as the ASGI server reads it; it hangs up as a phone that
    closes the page does: the server cancels the reading."""

    def __init__(self, response):
        self.heard: list[bytes] = []
        self.reading = asyncio.create_task(self.listen(response))

    async def listen(self, response):
        async for part in response:
            self.heard.append(part)

    async def hears(self, count: int, within: float = 3.0) -> list[bytes]:
        deadline = time.monotonic() + within
        while len(self.heard) < count and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return self.heard

    async def hang_up(self):
        self.reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reading


def test_the_stream_is_opened_by_the_secret_link_or_the_view_link_only():
    game = make_game()
    play.record_round(game, knock(game, "Ann", ["Ben"]))
    club = game.club
    other_club = make_game().club

    async def test(watcher):
        client = AsyncClient()
        for url in (
            reverse("game-events", args=[club.key, game.id]),
            reverse("view-game-events", args=[club.view_key, game.id]),
        ):
            response = await client.get(url, {"v": "0"})
            assert response.status_code == 200
            assert response["Content-Type"] == "text/event-stream"
            assert response["Cache-Control"] == "no-store"
            phone = Phone(response)
            retry, news = await phone.hears(2)
            assert RETRY_LINE.fullmatch(retry) and news == b"id: 1\nevent: changed\ndata: 1\n\n"
            await phone.hang_up()
            assert watcher.games == {}  # a phone that hung up is forgotten
        # The version the browser last heard (sent when it opens the stream again) counts over
        # the one the page was drawn with.
        url = reverse("game-events", args=[club.key, game.id])
        phone = Phone(await client.get(url, {"v": "0"}, headers={"Last-Event-ID": "1"}))
        heard = await phone.hears(2, within=0.8)
        assert len(heard) == 1 and RETRY_LINE.fullmatch(heard[0])
        await phone.hang_up()
        for url in (
            reverse("game-events", args=["not-the-key", game.id]),
            reverse("view-game-events", args=[club.key, game.id]),  # the secret key as a view key
            reverse("game-events", args=[other_club.key, game.id]),  # another club's key
        ):
            assert (await client.get(url)).status_code == 404
        assert (
            await client.post(reverse("game-events", args=[club.key, game.id]))
        ).status_code == 405
        assert watcher.games == {}

    run(test)


def test_a_server_that_cannot_hold_streams_says_so_and_the_page_polls(client):
    """Under WSGI (runserver, the gthread app server) a stream would hold a thread: 204 tells
    the browser not to reconnect soon, and the page keeps its poll."""
    game = make_game()
    url = reverse("game-events", args=[game.club.key, game.id])
    response = in_a_thread(client.get, url, {"v": "0"})  # an async view, served synchronously
    assert response.status_code == 204
    for url in (game.get_absolute_url(), reverse("round-log", args=[game.club.key, game.id])):
        page = client.get(url).content.decode()
        events = reverse("game-events", args=[game.club.key, game.id])
        # The page follows the stream (static/js/live.js) and polls while it is not open.
        assert f'data-events="{events}"' in page
        assert 'hx-trigger="every 2s"' in page


def test_a_stream_of_a_link_that_is_replaced_ends_at_the_next_tick():
    from scorekeeper.models import Club
    from scorekeeper.models.clubs import key_digest

    game = make_game()
    key = game.club.key

    async def test(watcher):
        watcher.tick = 0.05
        stream = watcher.news(game.id, heard=0, version=0, key=key_digest(key))
        assert RETRY_LINE.fullmatch(await next_chunk(stream))
        club = await in_thread(Club.objects.opened_by, key)
        started = time.monotonic()
        await in_thread(play.replace_link, club, "secret")
        assert await next_chunk(stream) == b"event: gone\ndata: gone\n\n"
        ended_after = time.monotonic() - started
        with pytest.raises(StopAsyncIteration):
            await next_chunk(stream)
        return ended_after

    assert run(test) < 1.0  # not up to the stream's lifetime (600 s)
