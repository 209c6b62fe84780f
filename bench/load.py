"""How much one small server carries: gunicorn on 127.0.0.1, with SQLite and with PostgreSQL.

Run: .venv/bin/python bench/load.py [--quick]

For each database it
1. starts gunicorn with config/gunicorn.py, production settings (DEBUG off, hashed static files);
2. measures the most each request can do with a fixed number of clients hammering it, for a bare
   Django view (/healthz, the floor), the poll, the table page and the record action, and prints
   requests per second, p50/p95/p99 latency and each one's ratio to the floor;
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
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
POSTGRES_URL = os.environ.get(
    "KNOCK_BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432/knock_bench"
)
POLL_EVERY, RECORD_EVERY, PHONES = 2.0, 30.0, 4


# ---- a small HTTP/1.1 keep-alive client on asyncio -------------------------------------------


class Connection:
    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes = b"") -> tuple[int, bytes]:  # fmt: skip
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
    env = {**os.environ, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "bench-" + "x" * 50,
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_HTTPS": "0", "KNOCK_ACCESS_LOG": "",
           "KNOCK_CLUBS_PER_HOUR": "100000", "DJANGO_LOG_LEVEL": "ERROR",
           "DJANGO_SETTINGS_MODULE": "config.settings"}  # fmt: skip
    env.pop("DATABASE_URL", None)
    if database == "postgresql":
        env["DATABASE_URL"] = POSTGRES_URL
    else:
        env["KNOCK_SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    return env


def prepare(database: str, env: dict[str, str], tables: int) -> list[dict[str, str]]:
    """A fresh database with one club and ``tables`` games; returns each game's URLs."""
    if database == "postgresql":
        import psycopg

        admin = POSTGRES_URL.rsplit("/", 1)[0] + "/postgres"
        name = POSTGRES_URL.rsplit("/", 1)[1]
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
    run = {"cwd": ROOT, "env": env, "check": True, "capture_output": True}
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], **run)
    subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], **run)
    script = f"""
import django, json
django.setup()
from scorekeeper.models import Club, Game
from scorekeeper.rules import build_rules
club = Club.objects.create(name="Bench")
players = [club.add_player(n) for n in ("Ann", "Ben", "Cat", "Dan")]
# The stock running out is a draw under this house rule: games never end, however many rounds.
rules, _ = build_rules({{"preset": "scat", "overrides": {{"stock_out": "draw"}}}})
out = []
for _ in range({tables}):
    g = Game.start(club, players, 0, rules, "scat")
    out.append({{"table": g.get_absolute_url(), "poll": g.get_absolute_url() + "version",
                "record": g.get_absolute_url() + "record"}})
print(json.dumps(out))
"""
    done = subprocess.run([PYTHON, "-c", script], **run, text=True)
    import json

    return json.loads(done.stdout)


def start_server(env: dict[str, str], port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "-c", "config/gunicorn.py", "--bind", f"127.0.0.1:{port}",
         "--workers", "3", "--threads", "4", "--keep-alive", "10"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("gunicorn did not start")


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
    return {"cookie": cookie, "token": token}


def record_request(game: dict[str, str], secrets: dict[str, str]) -> tuple[str, dict, bytes]:
    body = f"ending=stock_out&confirm=1&csrfmiddlewaretoken={secrets['token']}".encode()
    headers = {"Cookie": f"csrftoken={secrets['cookie']}",
               "Content-Type": "application/x-www-form-urlencoded"}  # fmt: skip
    return game["record"], headers, body


# ---- 1. the most each request does -----------------------------------------------------------


async def hammer(port: int, make, clients: int, seconds: float) -> tuple[float, Stats]:
    stats = Stats()
    stop = time.monotonic() + seconds

    async def client(i: int) -> None:
        conn = Connection(port)
        while time.monotonic() < stop:
            method, path, headers, body, expected = make(i)
            start = time.perf_counter()
            try:
                status, _ = await conn.request(method, path, headers, body)
                stats.add(time.perf_counter() - start, status in expected)
            except (OSError, ConnectionError, asyncio.IncompleteReadError):
                stats.add(time.perf_counter() - start, False)
        await conn.close()

    began = time.monotonic()
    await asyncio.gather(*(client(i) for i in range(clients)))
    return len(stats.latencies) / (time.monotonic() - began), stats


async def throughput(port: int, games: list[dict[str, str]], seconds: float) -> dict[str, tuple]:
    secrets = await csrf(port, games[0]["table"])
    clients = 12
    kinds = {
        "floor (/healthz)": lambda i: ("GET", "/healthz", {}, b"", {200}),
        "poll (unchanged)": lambda i: ("GET", games[i]["poll"] + "?v=0", {}, b"", {204}),
        "table page": lambda i: ("GET", games[i]["table"], {}, b"", {200}),
        # Records spread over every table, so that games stay the length real games have.
        "record action": lambda i: ("POST", *record_request(random.choice(games), secrets), {302}),
    }
    results = {}
    for name, make in kinds.items():
        await hammer(port, make, clients, 1.0)  # warm up
        results[name] = await hammer(port, make, clients, seconds)
    return results


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


# ---- the report ------------------------------------------------------------------------------


def report(database: str, results: dict[str, tuple], steps: list[tuple[int, dict]]) -> None:
    floor = results["floor (/healthz)"][0]
    print(f"\n== {database}: the most each request does (12 clients)")
    print(
        f"{'request':<20}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}{'vs floor':>10}"
    )
    for name, (rate, stats) in results.items():
        print(f"{name:<20}{rate:>9.0f}{stats.pct(50):>9.1f}{stats.pct(95):>9.1f}"
              f"{stats.pct(99):>9.1f}{stats.errors:>8}{rate / floor:>9.0%}")  # fmt: skip
    print(
        f"\n== {database}: T tables, 4 phones each polling every {POLL_EVERY:.0f} s, a round every {RECORD_EVERY:.0f} s"
    )
    print(
        f"{'T':>6}{'req/s':>8}{'poll p50':>10}{'poll p95':>10}{'poll p99':>10}{'record p95':>12}{'errors':>8}"
    )
    best = 0
    for count, stats in steps:
        polls, records = stats["poll"], stats["record"]
        errors = polls.errors + records.errors
        rate = (len(polls.latencies) + len(records.latencies)) / stats["seconds"]
        print(f"{count:>6}{rate:>8.0f}{polls.pct(50):>10.1f}{polls.pct(95):>10.1f}{polls.pct(99):>10.1f}"
              f"{records.pct(95):>12.1f}{errors:>8}")  # fmt: skip
        if polls.pct(95) < 50 and errors == 0:
            best = count
    print(f"largest T with poll p95 under 50 ms and no errors: {best}")


async def bench(database: str, quick: bool) -> None:
    counts = [25, 100, 200] if quick else [25, 50, 100, 200, 300, 400, 600]
    seconds = 4.0 if quick else 8.0
    sim_seconds = 12.0 if quick else 20.0
    with tempfile.TemporaryDirectory() as tmp:
        env = environment(database, Path(tmp))
        games = prepare(database, env, max(counts))
        port = free_port()
        server = start_server(env, port)
        try:
            results = await throughput(port, games, seconds)
            steps = []
            for count in counts:
                stats = await tables(port, games, count, sim_seconds)
                stats["seconds"] = sim_seconds
                steps.append((count, stats))
                if stats["poll"].pct(95) > 200 or stats["poll"].errors:
                    break  # well past what the machine carries
        finally:
            stop_server(server)
    report(database, results, steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs, fewer steps")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], action="append")
    args = parser.parse_args()
    print(f"Knock load benchmark on {os.cpu_count()} cores; gunicorn 3 workers × 4 threads")
    for database in args.database or ["sqlite", "postgresql"]:
        asyncio.run(bench(database, args.quick))


if __name__ == "__main__":
    main()
