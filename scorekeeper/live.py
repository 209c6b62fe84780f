"""News of changed games for the pages open on them, pushed as server-sent events.

A page polls its game every 2 seconds (``views.games.game_version``); under an ASGI server it also
opens a stream (``views.games.game_events``) and stops polling while the stream is open. Each server
process has one ``Watcher``: it notices changed games with a single query per tick, over every game
that has a stream open in that process, and wakes the streams of the games that changed. A stream
only says "this game is at version N"; the page then asks for what changed as it would after a poll.

Where no stream is open the page polls: one indexed query per poll.

Nothing here is shared between processes or servers: each watcher reads the database, so any
number of processes on any number of boxes tell their own pages.

On PostgreSQL the watcher also LISTENs on the channel a trigger announces every change of a
game's version on (migration 0018): it looks at once when a game it follows changed, instead of
at its next tick, so a phone hears of another's round one network round trip after it was
saved. The tick stays, for SQLite and for whenever the listening connection is down.

May import only ``models`` and ``lib``: the pages' stream calls it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import uuid
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.db import DatabaseError, close_old_connections, connection

from .lib.files import most_connections
from .models import Game

log = logging.getLogger(__name__)

TICK = 0.25  # seconds between the watcher's queries: how late, at most, a stream hears news
# On SQLite, between its queries the watcher asks SQLite this often whether any other
# connection committed (``PRAGMA data_version``: no table is read), and reads the versions at
# once when one did. Another phone heard of a round 236 ms (p95) after the API answered with the
# tick alone (docs/benchmarks.md).
GLANCE = 0.03
# A beat this often keeps a proxy from closing a quiet stream, and tells the page the stream is
# alive: a page that hears nothing for longer polls again (static/js/live.js).
HEARTBEAT = int(os.environ.get("KNOCK_EVENTS_HEARTBEAT", "20"))
# No client holds more streams than this (a family's phones, a club night's tablets): past it a
# stream is answered 503, try again later. Behind a proxy, the client is the address it gives.
PER_CLIENT = int(os.environ.get("KNOCK_STREAMS_PER_CLIENT", "32"))
# A stream ends after about this long (give or take a tenth, so that streams opened together do
# not end together); the page opens another, and its link is checked again.
LIFETIME = 600
# How long a browser waits before opening a stream again, in milliseconds: each stream says its
# own, so that the thousands of pages an events server's restart cuts off come back spread over
# several seconds rather than at once (they poll meanwhile).
RETRY = (2000, 10000)


def event(version: int | None) -> bytes:
    """The event a page hears: the game's version (also its id, so that a page that opens the
    stream again says which version it last heard), or "gone" when the game no longer exists."""
    if version is None:
        return b"event: gone\ndata: gone\n\n"
    return f"id: {version}\nevent: changed\ndata: {version}\n\n".encode()


@dataclass
class _Watched:
    """A game some streams of this process follow: the version last seen, and an event set
    (and replaced) each time the version changes."""

    version: int | None
    streams: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    # The digests of the club's two keys as last read: a stream opened with a key that is no
    # longer among them (the link was replaced) ends at once.
    keys: frozenset[str] | None = None

    def move_to(self, version: int | None, keys: frozenset[str] | None = None) -> None:
        self.version = version
        if keys is not None:
            self.keys = keys
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()


class Watcher:
    """One per event loop (one per ASGI worker process): the games its streams follow, and the
    loop that reads their versions with one query per tick while any stream is open."""

    def __init__(self, tick: float = TICK) -> None:
        self.tick = tick
        self.games: dict[uuid.UUID, _Watched] = {}
        self.queries = 0  # how many times the watcher read the versions
        self.streams: Counter[str] = Counter()  # the streams open, by client
        self.failures = 0  # reads of the versions that failed in a row
        # All the watcher's database work, and the streams' checks of their links, run on this one
        # thread, so each process holds one database connection for all its streams.
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="knock-watcher")
        self._task: asyncio.Task[None] | None = None
        # Set when PostgreSQL says a game this process follows changed: the watcher looks now.
        self._nudged = asyncio.Event()
        self._listener: asyncio.Task[None] | None = None
        self.heard = 0  # how many announcements of a followed game woke the watcher
        self.glance = GLANCE
        self.glances = 0  # how many times it asked SQLite whether anything was committed
        self._data_version: int | None = None

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a function that reads the database on the watcher's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._thread, partial(_on_one_connection, function, *args)
        )

    def admit(self, client: str) -> Admission | None:
        """A stream for ``client``, if it may open one: no client holds more than
        ``PER_CLIENT`` streams, and the process no more than ``most_streams()``, so that one
        client cannot take every file the process may open (each stream is one)."""
        if self.streams[client] >= PER_CLIENT or self.streams.total() >= most_streams():
            return None
        self.streams[client] += 1
        return Admission(self, client)

    def _release(self, client: str) -> None:
        self.streams[client] -= 1
        if self.streams[client] <= 0:
            del self.streams[client]

    async def news(
        self,
        game_id: uuid.UUID,
        heard: int | None,
        version: int,
        heartbeat: float = HEARTBEAT,
        lifetime: float = LIFETIME,
        admitted: Admission | None = None,
        key: str | None = None,
    ) -> AsyncIterator[bytes]:
        """A stream's events for a page that last heard of version ``heard`` of a game now at
        ``version``: at once if the page is behind, then at every change, for ``lifetime``
        seconds, with a beat every ``heartbeat`` seconds while nothing happens (the page polls
        again when it hears nothing for longer). Its ``admitted`` place (``admit``) is let go
        when it ends. A stream opened with ``key`` (its digest) ends at the first tick after
        that key stops opening the club (a replaced link), as if the game were gone."""
        watched = self._follow(game_id, version)
        try:
            yield f"retry: {random.randint(*RETRY)}\n\n".encode()
            told = heard
            loop = asyncio.get_running_loop()
            ends = loop.time() + lifetime * random.uniform(0.9, 1.1)
            while True:
                if key is not None and watched.keys is not None and key not in watched.keys:
                    yield event(None)
                    return
                if watched.version != told:
                    told = watched.version
                    yield event(told)
                    if told is None:
                        return
                left = ends - loop.time()
                if left <= 0:
                    return
                try:
                    await asyncio.wait_for(watched.changed.wait(), min(heartbeat, left))
                except TimeoutError:
                    yield b"event: beat\ndata: still here\n\n"
        finally:
            self._unfollow(game_id)
            if admitted is not None:
                admitted.release()

    def _follow(self, game_id: uuid.UUID, version: int) -> _Watched:
        watched = self.games.get(game_id)
        if watched is None:
            watched = self.games[game_id] = _Watched(version)
        elif watched.version is not None and version > watched.version:
            watched.move_to(version)  # a version only grows: this one is the newer news
        watched.streams += 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._watch())
        if connection.vendor == "postgresql" and (self._listener is None or self._listener.done()):
            self._listener = asyncio.get_running_loop().create_task(self._listen())
        return watched

    def _unfollow(self, game_id: uuid.UUID) -> None:
        watched = self.games[game_id]
        watched.streams -= 1
        if watched.streams == 0:
            del self.games[game_id]

    async def _watch(self) -> None:
        """While any stream is open: read the versions of every game followed, in one query,
        and wake the streams of those that changed."""
        glance = connection.vendor == "sqlite" and self.glance < self.tick
        while self.games:
            if glance:
                await self._glance_until_committed()
            else:
                with contextlib.suppress(TimeoutError):  # the tick: looked at even without news
                    await asyncio.wait_for(self._nudged.wait(), self.tick)
            self._nudged.clear()
            ids = list(self.games)
            if not ids:
                break
            try:
                versions = await self.run(_versions, ids)
            except asyncio.CancelledError:
                raise
            except Exception:  # any fault: the streams must go on hearing once it is mended
                self.failures += 1
                log.exception("the live watcher could not read the games' versions")
                await asyncio.sleep(min(10.0, self.tick * 2**self.failures))  # backs off
                continue
            self.failures = 0
            self.queries += 1
            for game_id in ids:
                watched = self.games.get(game_id)
                now, keys = versions.get(game_id, (None, frozenset()))
                if watched is not None and (now != watched.version or keys != watched.keys):
                    watched.move_to(now, keys)

    async def _glance_until_committed(self) -> None:
        """On SQLite: wait until another connection committed (or the tick is up, whatever
        SQLite says), asking every ``glance`` seconds."""
        loop = asyncio.get_running_loop()
        ends = loop.time() + self.tick
        while loop.time() < ends and self.games:
            await asyncio.sleep(self.glance)
            try:
                now = await self.run(_data_version)
            except asyncio.CancelledError:
                raise
            except Exception:  # the query's own failures are the versions' read to report
                return
            self.glances += 1
            if now != self._data_version:
                self._data_version = now
                return

    async def _listen(self) -> None:
        """On PostgreSQL: hear every announced change of a game while streams are open, and
        nudge the watcher when it is one of this process's games. A connection of its own,
        opened again (with a pause that grows) when it drops; the tick covers the gap."""
        import psycopg

        pause = 0.5
        while self.games:
            try:
                async with await psycopg.AsyncConnection.connect(
                    **_listening_params(), autocommit=True
                ) as listening:
                    await listening.execute("LISTEN knock_games")
                    pause = 0.5
                    async for note in listening.notifies():
                        if not self.games:
                            return
                        try:
                            game_id = uuid.UUID(note.payload)
                        except ValueError:
                            continue
                        if game_id in self.games:
                            self.heard += 1
                            self._nudged.set()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the live watcher could not listen for news; it looks every tick")
                await asyncio.sleep(pause)
                pause = min(pause * 2, 30.0)

    def close(self) -> None:
        """Stop the watcher's thread, closing its database connection."""
        if self._listener is not None:
            self._listener.cancel()
        if self._task is not None:
            self._task.cancel()
        self._thread.submit(lambda: connection.close()).result()  # the thread's own connection
        self._thread.shutdown()


class Admission:
    """One stream's place among its client's: let go once, when the stream ends, or when its
    response is dropped before the stream began (a client gone at once)."""

    def __init__(self, watcher: Watcher, client: str) -> None:
        self._watcher: Watcher | None = watcher
        self.client = client

    def release(self) -> None:
        if self._watcher is not None:
            self._watcher._release(self.client)
            self._watcher = None

    def follows(self, stream: object) -> None:
        """Let go when ``stream`` is dropped, if it never ran to its end."""
        weakref.finalize(stream, self.release)


def most_streams() -> int:
    """The streams one process holds: a few below its connections, so that a health check still
    gets in, or ``KNOCK_MOST_STREAMS`` if that is fewer."""
    return min(most_connections() - 8, int(os.environ.get("KNOCK_MOST_STREAMS", "100000")))


def _versions(ids: list[uuid.UUID]) -> dict[uuid.UUID, tuple[int, frozenset[str]]]:
    """The versions of these games, and the digests of their clubs' keys, in one query."""
    rows = Game.objects.filter(pk__in=ids).values_list(
        "id", "version", "club__key_hash", "club__view_key_hash"
    )
    return {id: (version, frozenset(keys)) for id, version, *keys in rows}


def _data_version() -> int:
    """SQLite's count of commits by other connections, as this connection sees it."""
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA data_version")
        return int(cursor.fetchone()[0])


def _listening_params() -> dict[str, Any]:
    """How to open a plain psycopg connection to Django's database (no Django adapters)."""
    params = connection.get_connection_params()
    wanted = ("dbname", "user", "password", "host", "port", "sslmode", "options", "sslrootcert")
    return {name: params[name] for name in wanted if params.get(name) not in (None, "")}


def _on_one_connection(function: Callable[..., Any], *args: Any) -> Any:
    """Run ``function`` on this thread's connection, dropped and opened again if it broke or is
    past its age (as Django does around each request)."""
    close_old_connections()
    try:
        return function(*args)
    except DatabaseError:
        connection.close()
        raise


_watchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Watcher] = (
    weakref.WeakKeyDictionary()
)


def watcher() -> Watcher:
    """The running event loop's watcher (one per process under gunicorn's asgi worker)."""
    loop = asyncio.get_running_loop()
    if loop not in _watchers:
        _watchers[loop] = Watcher()
    return _watchers[loop]
