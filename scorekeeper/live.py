"""News of changed games for the pages open on them, pushed as server-sent events.

A page polls its game every 2 seconds (``views.games.game_version``); under an ASGI server it also
opens a stream (``views.games.game_events``) and stops polling while the stream is open. Each server
process has one ``Watcher``: it notices changed games with a single query per tick, over every game
that has a stream open in that process, and wakes the streams of the games that changed. A stream
only says "this game is at version N"; the page then asks for what changed as it would after a poll.

Where no stream is open the page polls, and each app server process answers the polls from its
``VersionBoard``: the versions of the games polled there lately, read in one statement per tick by a
thread of its own, so that a poll costs no query.

Nothing here is shared between processes or servers: each watcher and each board reads the
database, so any number of processes on any number of boxes tell their own pages.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import random
import threading
import time
import uuid
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.db import DatabaseError, close_old_connections, connection

from .models import Club, Game, key_digest

log = logging.getLogger(__name__)

TICK = 0.25  # seconds between the watcher's queries: how late, at most, a stream hears news
HEARTBEAT = 20  # a comment this often keeps a proxy from closing a quiet stream
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

    def move_to(self, version: int | None) -> None:
        self.version = version
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()


class Watcher:
    """One per event loop (one per ASGI worker process): the games its streams follow, and the
    loop that reads their versions with one query per tick while any stream is open."""

    def __init__(self, tick: float = TICK) -> None:
        self.tick = tick
        self.games: dict[uuid.UUID, _Watched] = {}
        self.queries = 0  # how many times the watcher read the versions
        # All the watcher's database work, and the streams' checks of their links, run on this one
        # thread, so each process holds one database connection for all its streams.
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="knock-watcher")
        self._task: asyncio.Task[None] | None = None

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a function that reads the database on the watcher's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._thread, partial(_on_one_connection, function, *args)
        )

    async def news(
        self,
        game_id: uuid.UUID,
        heard: int | None,
        version: int,
        heartbeat: float = HEARTBEAT,
        lifetime: float = LIFETIME,
    ) -> AsyncIterator[bytes]:
        """A stream's events for a page that last heard of version ``heard`` of a game now at
        ``version``: at once if the page is behind, then at every change, for ``lifetime``
        seconds, with a comment every ``heartbeat`` seconds while nothing happens."""
        watched = self._follow(game_id, version)
        try:
            yield f"retry: {random.randint(*RETRY)}\n\n".encode()
            told = heard
            loop = asyncio.get_running_loop()
            ends = loop.time() + lifetime * random.uniform(0.9, 1.1)
            while True:
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
                    yield b": still here\n\n"
        finally:
            self._unfollow(game_id)

    def _follow(self, game_id: uuid.UUID, version: int) -> _Watched:
        watched = self.games.get(game_id)
        if watched is None:
            watched = self.games[game_id] = _Watched(version)
        elif watched.version is not None and version > watched.version:
            watched.move_to(version)  # a version only grows: this one is the newer news
        watched.streams += 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._watch())
        return watched

    def _unfollow(self, game_id: uuid.UUID) -> None:
        watched = self.games[game_id]
        watched.streams -= 1
        if watched.streams == 0:
            del self.games[game_id]

    async def _watch(self) -> None:
        """While any stream is open: read the versions of every game followed, in one query,
        and wake the streams of those that changed."""
        while self.games:
            await asyncio.sleep(self.tick)
            ids = list(self.games)
            if not ids:
                break
            try:
                versions = await self.run(_versions, ids)
            except DatabaseError:
                log.exception("the live watcher could not read the games' versions")
                continue
            self.queries += 1
            for game_id in ids:
                watched = self.games.get(game_id)
                now = versions.get(game_id)
                if watched is not None and now != watched.version:
                    watched.move_to(now)

    def close(self) -> None:
        """Stop the watcher's thread, closing its database connection."""
        if self._task is not None:
            self._task.cancel()
        self._thread.submit(lambda: connection.close()).result()  # the thread's own connection
        self._thread.shutdown()


def _versions(ids: list[uuid.UUID]) -> dict[uuid.UUID, int]:
    """The versions of these games."""
    return {game_id: row[0] for game_id, row in _games(ids, ["g.version"]).items()}


def _games(ids: list[uuid.UUID], columns: list[str]) -> dict[uuid.UUID, tuple[Any, ...]]:
    """``columns`` of these games (``g``) and their clubs (``c``), by game, in one statement with
    one parameter (the ORM's ``id__in`` would send a parameter per game, a new statement for
    PostgreSQL to plan at each count, and cost several times more with a thousand games)."""
    quote = connection.ops.quote_name
    select = ", ".join(f"{table}.{quote(name)}" for table, name in
                       (column.split(".") for column in ["g.id", *columns]))  # fmt: skip
    tables = f"{quote(Game._meta.db_table)} g"
    if any(column.startswith("c.") for column in columns):
        tables += f" JOIN {quote(Club._meta.db_table)} c ON c.{quote('id')} = g.{quote('club_id')}"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"SELECT {select} FROM {tables} WHERE g.{quote('id')} = ANY(%s::uuid[])",
                [[str(game_id) for game_id in ids]],
            )
        else:  # SQLite keeps a UUID as its 32 hex digits
            cursor.execute(
                f"SELECT {select} FROM {tables} "
                f"WHERE g.{quote('id')} IN (SELECT value FROM json_each(%s))",
                [json.dumps([game_id.hex for game_id in ids])],
            )
        return {uuid.UUID(str(row[0])): tuple(row[1:]) for row in cursor.fetchall()}


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


# ---- the poll's board ----------------------------------------------------------------------

BOARD_TICK = 0.5  # seconds between the board's reads: how late, at most, a poll hears news
BOARD_IDLE = 10.0  # a game nobody polled for this long is no longer read
BOARD_FRESH = 2.0  # a board whose last read is older than this says nothing (the database does)


@dataclass(frozen=True)
class _Known:
    version: int
    key_hash: str
    view_key_hash: str


class VersionBoard:
    """The versions the polls of this process answer from: every game polled here in the last
    ``idle`` seconds, with its club's key digests (never a key), read in one statement every
    ``tick`` seconds by a thread of the board's own, on its own database connection.

    A poll of a game the board does not know yet, or with a key other than those its club had
    at the last read, gets no answer here, and asks the database as before; so does every poll
    while the board's reads fail. A new poll wakes the thread; with nothing polled it sleeps,
    its connection closed."""

    def __init__(self, tick: float = BOARD_TICK, idle: float = BOARD_IDLE) -> None:
        self.tick, self.idle = tick, idle
        self.known: dict[uuid.UUID, _Known] = {}
        self.read_at = 0.0  # when the last read began (monotonic)
        self.queries = 0
        self._asked: dict[uuid.UUID, float] = {}  # game → when it was last polled
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._stopping = False

    def version(self, game_id: uuid.UUID, key_field: str, key: str) -> int | None:
        """The game's version as read within the last ``BOARD_FRESH`` seconds, if ``key``
        opens its club (``key_field`` as in ``Game.objects.opened_by``); None when the board
        cannot say, and the database must."""
        now = time.monotonic()
        with self._lock:
            new = game_id not in self._asked
            self._asked[game_id] = now
            if self._thread is None or not self._thread.is_alive():
                self._start()
        if new:
            self._wake.set()
        known = self.known.get(game_id)
        if known is None or now - self.read_at > BOARD_FRESH:
            return None
        if not hmac.compare_digest(getattr(known, key_field), key_digest(key)):
            return None
        return known.version

    def _start(self) -> None:
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="knock-board", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stopping:
            now = time.monotonic()
            with self._lock:
                for game_id, asked in list(self._asked.items()):
                    if now - asked > self.idle:
                        del self._asked[game_id]
                ids = list(self._asked)
                self._wake.clear()
            if not ids:
                self.known = {}
                connection.close()  # nothing to read until a page polls again
                self._wake.wait()
                continue
            try:
                rows = _on_one_connection(
                    _games, ids, ["g.version", "c.key_hash", "c.view_key_hash"]
                )
            except DatabaseError:
                log.exception("the poll's board could not read the games' versions")
            else:
                self.known = {game_id: _Known(*row) for game_id, row in rows.items()}
                self.read_at, self.queries = now, self.queries + 1
            time.sleep(self.tick)
        connection.close()

    def stop(self) -> None:
        """Stop the board's thread (its connection closed) and forget what it knew."""
        self._stopping = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
        self._thread, self.known, self.read_at = None, {}, 0.0
        self._asked.clear()


_board = VersionBoard()
_board_pid = os.getpid()


def board() -> VersionBoard:
    """This process's board (a new one in a process forked from the one that made it)."""
    global _board, _board_pid
    if _board_pid != os.getpid():
        _board, _board_pid = VersionBoard(), os.getpid()
    return _board
