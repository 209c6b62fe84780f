"""How much one small server carries: gunicorn on 127.0.0.1, with SQLite and with PostgreSQL.

Run: .venv/bin/python bench/load.py [--quick]

For each database it
1. starts gunicorn with config/gunicorn.py, production settings (DEBUG off, hashed static files);
2. measures the most each request can do with wrk (a C client, so that the client takes little
   of the 2 cores it shares with the server), 12 connections, for a bare Django view (/healthz,
   the floor), the poll, the table page of a 2-round game and of a 200-round game (as every
   phone but the first gets it after a change: kept, and with the cookies a phone holds once it
   has opened the page), the same page as a first visit (no cookies), the table page drawn
   afresh (a first view of each of 600 games), and recording a round through the API; prints
   requests per second, p50/p99 latency and each one's ratio to the floor, all in the same run;
3. simulates T tables, each with 4 phones polling every 2 seconds and one round recorded every
   30 seconds, for growing T, and prints the largest T with poll p95 under 50 ms and no errors.

Everything stays on this machine (127.0.0.1) and every loop is bounded in time. The client runs
on the same 2 cores as the server, so figures are ratios measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IDLE_SECONDS = 10.0  # the events server watched with its streams open and no round
PYTHON = sys.executable
POSTGRES_URL = os.environ.get(
    "KNOCK_BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432/knock_bench"
)
POLL_EVERY, RECORD_EVERY, PHONES = 2.0, 30.0, 4
# Runs of each request, by --quick. The machine is shared: the floor itself moved between 800
# and 2,200 req/s from one 4 s run to the next on an idle box, so many short pairs, and the
# quartiles of their ratios beside the median.
REPEATS = {False: 11, True: 3}
HTMX = {"HX-Request": "true"}  # what htmx adds to the page's own requests


# ---- a small HTTP/1.1 keep-alive client on asyncio -------------------------------------------


class Connection:
    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> tuple[int, bytes]:
        for attempt in (1, 2):  # the server may have closed an idle keep-alive connection
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            for name, value in (headers or {}).items():
                head += f"{name}: {value}\r\n"
            if body:
                head += f"Content-Length: {len(body)}\r\n"
            try:
                self.writer.write(head.encode() + b"\r\n" + body)
                await self.writer.drain()
                status_line = await self.reader.readline()
                if not status_line:
                    raise ConnectionError("closed")
                status = int(status_line.split()[1])
                length, close = 0, False
                while (line := await self.reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                    elif name.lower() == "connection" and "close" in value.lower():
                        close = True
                data = await self.reader.readexactly(length) if length else b""
                if close:
                    await self.close()
                return status, data
            except (ConnectionError, asyncio.IncompleteReadError, OSError):
                await self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0

    def add(self, seconds: float, ok: bool) -> None:
        self.latencies.append(seconds)
        self.errors += not ok

    def pct(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


# ---- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def environment(database: str, workdir: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_HTTPS": "0",
        "KNOCK_ACCESS_LOG": "",
        "KNOCK_CLUBS_PER_HOUR": "100000",
        # One client address plays thousands of phones here: the cap per client would refuse
        # all but 32 of their streams.
        "KNOCK_STREAMS_PER_CLIENT": "100000",
        "DJANGO_LOG_LEVEL": "ERROR",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # A worker replaced in the middle of a measurement would cost it a second of CPU.
        "KNOCK_MAX_REQUESTS": "0",
    }
    env.pop("DATABASE_URL", None)
    if database == "postgresql":
        env["DATABASE_URL"] = POSTGRES_URL
    else:
        env["KNOCK_SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    return env


def recreate_postgres(url: str) -> None:
    """Drop and create the benchmark's PostgreSQL database, so every run starts empty."""
    import psycopg

    admin, name = url.rsplit("/", 1)[0] + "/postgres", url.rsplit("/", 1)[1]
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def prepare(database: str, env: dict[str, str], tables: int) -> list[dict[str, str]]:
    """A fresh database with one club and ``tables`` games; returns each game's URLs."""
    if database == "postgresql":
        recreate_postgres(POSTGRES_URL)
    run = {"cwd": ROOT, "env": env, "check": True, "capture_output": True}
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], **run)
    subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], **run)
    script = f"""
import django, json
django.setup()
from scorekeeper import play
from scorekeeper.models import Club, RoundInputs
from scorekeeper.rules import build_rules
club = Club.objects.create(name="Bench")
players = [play.add_player(club, n) for n in ("Ann", "Ben", "Cat", "Dan")]
# The stock running out is a draw under this house rule: games never end, however many rounds.
rules, _ = build_rules({{"preset": "scat", "overrides": {{"stock_out": "draw"}}}})
draw = RoundInputs(ending="stock_out")
out = []
for i in range({tables} + 1):
    g = play.start_game(club, players, 0, rules, "scat")
    for _ in range(200 if i == {tables} else 2):  # the last game is a long one
        play.record_round(g, draw)
    out.append({{"table": g.get_absolute_url(), "poll": g.get_absolute_url() + "version",
                "record": g.get_absolute_url() + "record", "version": g.version,
                "api": f"/api/v1/games/{{g.id}}/rounds", "key": club.key}})
print(json.dumps(out))
"""
    done = subprocess.run([PYTHON, "-c", script], **run, text=True)
    import json

    return json.loads(done.stdout)


# ---- wrk -------------------------------------------------------------------------------------


def wrk(
    port: int,
    paths: list[str],
    seconds: float,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    body: str = "",
) -> dict[str, float]:
    """Drive one kind of request with wrk, rotating over ``paths``: req/s, p50, p99, errors."""
    lua = "local paths = {" + ", ".join(f'"{p}"' for p in paths) + "}\n"
    lua += "local headers = {" + ", ".join(f'["{k}"] = "{v}"' for k, v in (headers or {}).items())
    lua += "}\nlocal i = 0\n"
    # Each of wrk's threads starts at its own point of the list: side by side, they would ask
    # for the same game at the same moment, and of two rounds of one game at once the second
    # is worked out again (another phone changed the game), which no table does hundreds of
    # times a second.
    lua += "local threads = 0\n"
    lua += (
        'setup = function(thread)\n  thread:set("start", threads)\n  threads = threads + 1\nend\n'
    )
    lua += "init = function(args)\n  i = start * math.floor(#paths / 2)\nend\n"
    lua += "request = function()\n  i = (i % #paths) + 1\n"
    lua += f'  return wrk.format("{method}", paths[i], headers, [==[{body}]==])\nend\n'
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(lua)
    try:
        done = subprocess.run(
            [
                "wrk",
                "-t2",
                "-c12",
                f"-d{seconds:.0f}s",
                "--latency",
                "-s",
                script.name,
                f"http://127.0.0.1:{port}{paths[0]}",
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=seconds + 30,
        )
    finally:
        os.unlink(script.name)
    out = done.stdout

    def millis(label: str) -> float:
        match = re.search(rf"{label}%\s+([\d.]+)(us|ms|s)\b", out)
        if not match:
            return float("nan")
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    failed = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "rate": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": millis("50"),
        "p99": millis("99"),
        "errors": (int(errors.group(1)) if errors else 0)
        + (sum(map(int, failed.groups())) if failed else 0),
    }


def start_server(
    env: dict[str, str],
    port: int,
    config: str = "config/gunicorn.py",
    options: list[str] | None = None,
) -> subprocess.Popen:
    if options is None:
        options = ["--workers", "3", "--threads", "4", "--keep-alive", "10"]
    if config != "config/gunicorn.py":
        options = []  # the events server as it ships: one asgi worker
    server = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "-c", config, "--bind", f"127.0.0.1:{port}", *options],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("gunicorn did not start")


def cpu_seconds(server: subprocess.Popen) -> float:
    """The CPU time gunicorn's master and workers have used so far (Linux's /proc)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(stat.parent.name), int(fields[1])
        if server.pid in (pid, ppid):
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def stop_server(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)


async def csrf(port: int, table_url: str) -> dict[str, str]:
    """A CSRF cookie and its form token, as a phone has after opening the table page."""
    conn = Connection(port)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {table_url} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
    )
    raw = await reader.read()
    writer.close()
    await conn.close()
    text = raw.decode("utf-8", "replace")
    cookie = re.search(r"csrftoken=([^;]+)", text).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text).group(1)
    # Every cookie the page set (the CSRF cookie, and the session that remembers the club).
    jar = "; ".join(re.findall(r"^Set-Cookie: ([^=]+=[^;]*)", text, re.MULTILINE | re.IGNORECASE))
    return {"cookie": cookie, "token": token, "jar": jar}


def record_request(game: dict[str, str], secrets: dict[str, str]) -> tuple[str, dict, bytes]:
    body = f"ending=stock_out&confirm=1&csrfmiddlewaretoken={secrets['token']}".encode()
    headers = {
        "Cookie": f"csrftoken={secrets['cookie']}",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    return game["record"], headers, body


# ---- 1. the most each request does -----------------------------------------------------------


def throughput(
    port: int, games: list[dict], seconds: float, repeats: int, phone: dict[str, str]
) -> dict[str, dict[str, float]]:
    """Each kind of request ``repeats`` times, each run beside a run of the floor: the machine
    is shared, so a ratio is taken between neighbouring runs, and the median of them kept."""
    # ``phone``: the cookies a phone holds once it has opened the table page. Every phone at a
    # table asks again after each change with them. Without them, a request is a first visit:
    # it makes a CSRF secret and a session (which remembers the club), with their cookies.
    # Rounds are recorded on games of their own, so that the polls' versions stay those the
    # phones saw and their answer "unchanged".
    short, long = games[: (len(games) - 1) // 2], games[-1]
    recorded = games[(len(games) - 1) // 2 : -1]
    key = short[0]["key"]
    api = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    kinds = {
        "poll (unchanged)": lambda run: wrk(
            port, [f"{g['poll']}?v={g['version']}" for g in short], seconds
        ),
        # A table's phones ask for the page at each version: the first draws it, the rest get
        # it kept (a 2-round game and a 200-round game, as the rows compare them).
        "table page, 2 rounds": lambda run: wrk(port, [short[0]["table"]], seconds, headers=phone),
        "table page, 200 rounds": lambda run: wrk(port, [long["table"]], seconds, headers=phone),
        "first visit, 2 rounds": lambda run: wrk(port, [short[0]["table"]], seconds),
        # Every request a first view: a page is kept per address, and a query string the page
        # ignores makes each address new (every game in turn, each with a run's own numbers).
        "table page, drawn afresh": lambda run: wrk(
            port, [f"{g['table']}?view={run}-{i}" for i, g in enumerate(short * 8)], seconds
        ),
        # Rounds spread over every table, so that games stay the length real games have.
        "record a round (API)": lambda run: wrk(
            port, [g["api"] for g in recorded], seconds, "POST", api, '{"ending": "stock_out"}'
        ),
    }
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in ["floor (/healthz)", *kinds]}
    wrk(port, ["/healthz"], 1)  # warm every worker up
    for run in range(repeats):
        for name, measure in kinds.items():
            if name.startswith("poll"):
                # A page polls its game every 2 s for as long as it is open: each process's board
                # follows the game from its first poll, and forgets it 10 s after its last. The
                # runs between two poll runs are longer than that, so each poll run follows an
                # uncounted run of the same polls: a table's steady state.
                measure(run)
            floor = wrk(port, ["/healthz"], seconds)
            row = measure(run)
            row["ratio"] = row["rate"] / floor["rate"]
            runs["floor (/healthz)"].append({**floor, "ratio": 1.0})
            runs[name].append(row)
    parts = ("rate", "p50", "p99", "ratio")
    medians = {
        name: {p: statistics.median(r[p] for r in rows) for p in parts}
        for name, rows in runs.items()
    }
    for name, rows in runs.items():
        medians[name]["errors"] = sum(r["errors"] for r in rows)
        ratios = [r["ratio"] for r in rows]
        quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
        medians[name]["q1"], medians[name]["q3"] = quartiles[0], quartiles[-1]
    return medians


# ---- 2. tables at the app's own pace ---------------------------------------------------------


async def tables(
    port: int, games: list[dict[str, str]], count: int, seconds: float
) -> dict[str, Stats]:
    secrets = await csrf(port, games[0]["table"])
    polls, records = Stats(), Stats()
    stop = time.monotonic() + seconds
    versions = [0] * count

    async def every(period: float, send, stats: Stats) -> None:
        """One phone: a request every ``period`` seconds, starting at a random moment."""
        conn = Connection(port)
        await asyncio.sleep(random.uniform(0, period))
        while time.monotonic() < stop:
            tick = time.monotonic()
            start = time.perf_counter()
            try:
                ok = await send(conn)
                stats.add(time.perf_counter() - start, ok)
            except (OSError, ConnectionError, asyncio.IncompleteReadError):
                stats.add(time.perf_counter() - start, False)
            await asyncio.sleep(max(0.0, period - (time.monotonic() - tick)))
        await conn.close()

    def poll(table: int):
        async def send(conn: Connection) -> bool:
            status, _ = await conn.request("GET", f"{games[table]['poll']}?v={versions[table]}")
            if status == 200:
                versions[table] += 1  # a real page would refresh itself here
            return status in (200, 204)

        return every(POLL_EVERY, send, polls)

    def record(table: int):
        async def send(conn: Connection) -> bool:
            status, _ = await conn.request("POST", *record_request(games[table], secrets))
            return status == 302

        return every(RECORD_EVERY, send, records)

    jobs = [poll(t) for t in range(count) for _ in range(PHONES)] + [
        record(t) for t in range(count)
    ]
    await asyncio.gather(*jobs)
    return {"poll": polls, "record": records}


async def timed(
    stats: Stats,
    conn: Connection,
    method: str,
    path: str,
    headers: dict[str, str],
    body: bytes = b"",
) -> None:
    """One request, into ``stats``: its latency, and whether it was answered 200."""
    start = time.perf_counter()
    try:
        status, _ = await conn.request(method, path, headers, body)
        stats.add(time.perf_counter() - start, status == 200)
    except (OSError, ConnectionError, asyncio.IncompleteReadError):
        stats.add(time.perf_counter() - start, False)


async def live_tables(
    servers: tuple[subprocess.Popen, subprocess.Popen],
    port: int,
    events_port: int,
    games: list[dict[str, str]],
    count: int,
    seconds: float,
    every: float = RECORD_EVERY,
) -> dict[str, Stats]:
    """T tables whose 4 phones each hold a stream of news open on the events server instead of
    polling. A phone that hears of a version it does not show asks the app server for the table,
    as the page does. One round every 30 s per table, recorded as the page records it (htmx),
    by a fifth phone, so that all four redraw."""
    wrk(port, [g["table"] for g in games[:50]], 2, headers=HTMX)  # every worker warmed up
    secrets = await csrf(port, games[0]["table"])
    news, after, refresh, records = Stats(), Stats(), Stats(), Stats()
    recorded = [0.0] * count  # when each table's latest round was sent
    answered = [0.0] * count  # and when its answer came
    ramp = min(5.0, count / 200)  # phones open their streams over a few seconds, not at once
    opened: list[int] = []
    all_open = asyncio.Event()
    began = time.monotonic()
    stop = began + 120 + seconds  # moved on once every stream is open

    async def phone(table: int) -> None:
        await asyncio.sleep(random.uniform(0, ramp))
        game, version = games[table], int(games[table]["version"])
        conn = Connection(port)
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", events_port)
        except OSError:
            news.errors += 1
            return
        path = f"{game['table']}events?v={version}"
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        try:
            status = int((await reader.readline()).split()[1])
            while (await reader.readline()) not in (b"\r\n", b""):
                pass  # the headers
            if status != 200:
                news.errors += 1
                return
            opened.append(table)
            if len(opened) == count * PHONES:
                all_open.set()
            buffer = b""
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)  # chunked
                if size == 0:
                    return
                buffer += (await reader.readexactly(size + 2))[:-2]
                while b"\n\n" in buffer:
                    message, buffer = buffer.split(b"\n\n", 1)
                    if b"event: changed" not in message:
                        continue  # the retry line, or a comment
                    heard = int(message.rsplit(b"data: ", 1)[1])
                    if recorded[table] and heard != version:  # (not an earlier run's rounds)
                        now = time.perf_counter()
                        news.add(now - recorded[table], True)
                        # From the answer to the tap (0 when the news outran the answer).
                        late = now - answered[table] if answered[table] > recorded[table] else 0.0
                        after.add(late, True)
                        # The page redraws its table region at once, as htmx asks for it.
                        await timed(refresh, conn, "GET", game["table"], HTMX)
                    version = heard
        except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError):
            if time.monotonic() < stop:
                news.errors += 1
        finally:
            writer.close()
            await conn.close()

    async def record(table: int) -> None:
        conn = Connection(port)
        await all_open.wait()  # the rounds start once every phone listens
        await asyncio.sleep(random.uniform(0, every))
        while time.monotonic() < stop:
            tick = time.monotonic()
            recorded[table] = time.perf_counter()
            path, headers, body = record_request(games[table], secrets)
            # The answer is the table, as htmx has it (200).
            await timed(records, conn, "POST", path, {**headers, **HTMX}, body)
            answered[table] = time.perf_counter()
            await asyncio.sleep(max(0.0, every - (time.monotonic() - tick)))
        await conn.close()

    phones = [asyncio.create_task(phone(t)) for t in range(count) for _ in range(PHONES)]
    try:
        await asyncio.wait_for(all_open.wait(), 120)
    except TimeoutError:
        all_open.set()  # measure anyway: the phones that never listened count as errors
    opening = time.monotonic() - began
    # The watcher with every stream open and no round: what an evening of waiting costs.
    idle = cpu_seconds(servers[1])
    await asyncio.sleep(IDLE_SECONDS)
    idle = (cpu_seconds(servers[1]) - idle) / IDLE_SECONDS
    stop = time.monotonic() + seconds
    cpu = time.process_time()
    server_cpu = [cpu_seconds(server) for server in servers]
    await asyncio.gather(*(record(t) for t in range(count)))
    server_cpu = [
        (cpu_seconds(s) - before) / seconds for s, before in zip(servers, server_cpu, strict=True)
    ]
    for task in phones:
        task.cancel()
    await asyncio.gather(*phones, return_exceptions=True)
    news.errors += count * PHONES - len(opened)  # a phone whose stream never opened
    return {
        "news": news,
        "after": after,
        "refresh": refresh,
        "record": records,
        "opening": opening,
        "client cpu": (time.process_time() - cpu) / seconds,
        "app cpu": server_cpu[0],
        "events cpu": server_cpu[1],
        "idle events cpu": idle,
    }


# ---- the report ------------------------------------------------------------------------------


def report(
    database: str, results: dict[str, dict[str, float]], steps: list[tuple[int, dict]], quick: bool
) -> None:
    print(
        f"\n== {database}: the most each request does (wrk, 2 threads, 12 connections; "
        f"medians of {REPEATS[quick]} runs, each beside a run of the floor)"
    )
    print(
        f"{'request':<26}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}{'vs floor':>10}"
        f"{'quartiles':>13}"
    )
    for name, row in results.items():
        print(
            f"{name:<26}{row['rate']:>9.0f}{row['p50']:>9.1f}{row['p99']:>9.1f}"
            f"{row['errors']:>8}{row['ratio']:>10.2f}   {row['q1']:.2f}–{row['q3']:.2f}"
        )
    ratio = results["table page, 200 rounds"]["ratio"] / results["table page, 2 rounds"]["ratio"]
    print(f"{'200-round table page vs 2-round':<26}{ratio:>45.2f}")
    if not steps:
        return
    print(
        f"\n== {database}: T tables, 4 phones each polling every {POLL_EVERY:.0f} s, a round every {RECORD_EVERY:.0f} s"
    )
    print(
        f"{'T':>6}{'req/s':>8}{'poll p50':>10}{'poll p95':>10}{'poll p99':>10}{'record p95':>12}{'errors':>8}{'client CPU':>12}"
    )
    best = 0
    for count, stats in steps:
        polls, records = stats["poll"], stats["record"]
        errors = polls.errors + records.errors
        rate = (len(polls.latencies) + len(records.latencies)) / stats["seconds"]
        print(
            f"{count:>6}{rate:>8.0f}{polls.pct(50):>10.1f}{polls.pct(95):>10.1f}{polls.pct(99):>10.1f}"
            f"{records.pct(95):>12.1f}{errors:>8}{stats['client cpu']:>11.0%} of a core"
        )
        if polls.pct(95) < 50 and errors == 0:
            best = count
    print(f"largest T with poll p95 under 50 ms and no errors: {best}")


def report_live(database: str, steps: list[tuple[int, dict]], every: float = RECORD_EVERY) -> None:
    print(
        f"\n== {database}: T tables, 4 phones each with a stream of news open (events server, "
        f"one asgi worker), a round every {every:.0f} s a table; news from the tap and from "
        "its answer (ms)"
    )
    print(
        f"{'T':>6}{'streams':>9}{'opened in':>11}{'news p50':>10}{'news p95':>10}"
        f"{'after p50':>10}{'after p95':>10}"
        f"{'refresh p95':>13}{'record p95':>12}{'errors':>8}"
        f"{'CPU: app':>10}{'events':>8}{'client':>8}{'idle events':>13} (cores)"
    )
    best = 0
    for count, stats in steps:
        news, refresh, records = stats["news"], stats["refresh"], stats["record"]
        errors = news.errors + refresh.errors + records.errors
        print(
            f"{count:>6}{count * PHONES:>9}{stats['opening']:>10.1f}s"
            f"{news.pct(50):>10.0f}{news.pct(95):>10.0f}"
            f"{stats['after'].pct(50):>10.0f}{stats['after'].pct(95):>10.0f}"
            f"{refresh.pct(95):>13.1f}{records.pct(95):>12.1f}{errors:>8}"
            f"{stats['app cpu']:>10.2f}{stats['events cpu']:>8.2f}"
            f"{stats['client cpu']:>8.2f}{stats['idle events cpu']:>13.3f}"
        )
        if max(refresh.pct(95), records.pct(95)) < 50 and news.pct(95) < 1000 and errors == 0:
            best = count
    print(
        "largest T with every phone told within 1 s (p95), its refresh and the record under "
        f"50 ms (p95), and no errors: {best}"
    )


async def bench(
    database: str,
    quick: bool,
    simulate: bool = True,
    only_live: bool = False,
    live: list[int] | None = None,
    every: float = RECORD_EVERY,
) -> None:
    counts = [25, 100, 200] if quick else [25, 50, 100, 200, 300, 400, 600]
    live_counts = live or ([250, 1000] if quick else [250, 500, 1000, 1500, 2000])
    seconds = 2.0
    sim_seconds = 12.0 if quick else 20.0
    with tempfile.TemporaryDirectory() as tmp:
        env = environment(database, Path(tmp))
        games = prepare(database, env, max(counts + live_counts))
        port, events_port = free_port(), free_port()
        server = start_server(env, port)
        events = start_server(env, events_port, "config/gunicorn_events.py")
        live_steps, steps, results = [], [], {}
        polled = games[: max(counts)] + games[-1:]  # the same 600 games as before live news
        try:
            if not only_live:
                phone = {"Cookie": (await csrf(port, polled[0]["table"]))["jar"]}
                results = throughput(port, polled, seconds, REPEATS[quick], phone)
            for count in counts if simulate and not only_live else []:
                cpu = time.process_time()
                stats = await tables(port, polled[:-1], count, sim_seconds)
                stats["seconds"] = sim_seconds
                # The simulating client shares the 2 cores with the server: say how much it took.
                stats["client cpu"] = (time.process_time() - cpu) / sim_seconds
                steps.append((count, stats))
                if stats["poll"].pct(95) > 200 or stats["poll"].errors:
                    break  # well past what the machine carries
            for count in live_counts if simulate else []:
                stats = await live_tables(
                    (server, events), port, events_port, games[:-1], count, sim_seconds, every
                )
                live_steps.append((count, stats))
        finally:
            stop_server(server)
            stop_server(events)
    if results:
        report(database, results, steps, quick)
    if live_steps:
        report_live(database, live_steps, every)


def main() -> None:
    # Thousands of streams: as many open files as this session may have.
    import resource

    _, most = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (most, most))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs, fewer steps")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], action="append")
    parser.add_argument("--no-tables", action="store_true", help="skip the T-tables simulations")
    parser.add_argument("--only-live", action="store_true", help="only the live news simulation")
    parser.add_argument(
        "--live", type=lambda s: [int(n) for n in s.split(",")], help="tables of live news: 1,500"
    )
    parser.add_argument(
        "--every", type=float, default=RECORD_EVERY, help="seconds between a table's rounds"
    )
    args = parser.parse_args()
    print(f"Knock load benchmark on {os.cpu_count()} cores; gunicorn 3 workers × 4 threads")
    for database in args.database or ["sqlite", "postgresql"]:
        asyncio.run(
            bench(database, args.quick, not args.no_tables, args.only_live, args.live, args.every)
        )


if __name__ == "__main__":
    main()
