"""A hall of big screens on one small server: what 50 and 500 leaderboards cost another club.

Run: .venv/bin/python bench/screens.py [--screens 50 --screens 500] [--database sqlite|postgresql]

In a fresh database (production settings, in a temporary folder) it starts a tournament of 200
players, draws its first round (50 tables), and starts a game in another club. Then, on gunicorn
with 2 workers (as the issue's hall was measured), for no screens and for each count of screens:

- every screen asks the leaderboard twice a second whether anything changed, as the board's
  page does (``?page=1&v=<version>``, HX-Request): nothing changes, so each ask is answered 204;
- meanwhile the other club records a round every quarter of a second at its table page, as a
  phone's Record does (the form, CSRF included).

It prints, for each count: the asks answered a second against those made, their p50/p95, the
other club's Record p50/p95 and its ratio to its own with no screen (the figure to compare:
the machine is shared), and the server's CPU per ask. Everything stays on 127.0.0.1; the client
runs on the same 2 cores as the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from load import (  # bench/ is on the path when a script here runs
    HTMX,
    Connection,
    Stats,
    cpu_seconds,
    csrf,
    environment,
    free_port,
    recreate_postgres,
    start_server,
    stop_server,
)
from stats import POSTGRES_URL

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
BEAT = 0.5  # seconds between a screen's asks (the board's own beat)
RECORD_EVERY = 0.25  # seconds between the other club's rounds
SECONDS = 12.0  # each count's run

SETUP = """
import django, json
django.setup()
from scorekeeper import play, tournaments
from scorekeeper.models import Club
from scorekeeper.rules import build_rules

hall = Club.objects.create(name="Hall")
rules, _ = build_rules({"preset": "friendly", "overrides": {"lives": 1}})
names = [f"Player {n:03d}" for n in range(1, 201)]
cup = tournaments.start_tournament(hall, "Open", rules, "friendly", names, rounds=5, method="swiss")
tournaments.draw_round(cup, hall.key, seed=1)
other = Club.objects.create(name="Other")
players = [play.add_player(other, name) for name in ("Ann", "Ben", "Cat", "Dan")]
# The stock running out is a draw under this house rule: the game never ends.
endless, _ = build_rules({"preset": "scat", "overrides": {"stock_out": "draw"}})
game = play.start_game(other, players, 0, endless, "scat")
print(json.dumps({
    "board": f"/v/{hall.view_key}/tournaments/{cup.pk}/board",
    "table": game.get_absolute_url(),
    "record": game.get_absolute_url() + "record",
}))
"""


def prepare(database: str, env: dict[str, str]) -> dict[str, str]:
    if database == "postgresql":
        recreate_postgres(POSTGRES_URL)
    run = {"cwd": ROOT, "env": env, "check": True, "capture_output": True, "text": True}
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], **run)
    subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], **run)
    done = subprocess.run([PYTHON, "-c", SETUP], **run)
    return json.loads(done.stdout.strip().splitlines()[-1])


async def screen(port: int, url: str, until: float, stats: Stats, offset: float) -> int:
    """One big screen: an ask every BEAT seconds, each answered 204 while nothing changes."""
    await asyncio.sleep(offset)
    conn, asked = Connection(port), 0
    while time.monotonic() < until:
        started = time.monotonic()
        asked += 1
        try:
            status, _ = await conn.request("GET", url, HTMX)
            stats.add(time.monotonic() - started, status == 204)
        except (ConnectionError, OSError):
            stats.add(time.monotonic() - started, False)
        await asyncio.sleep(max(0.0, BEAT - (time.monotonic() - started)))
    await conn.close()
    return asked


async def recorder(port: int, setup: dict[str, str], until: float, stats: Stats) -> None:
    """The other club's phone: a round every RECORD_EVERY seconds through the table's form."""
    secrets = await csrf(port, setup["table"])
    headers = {
        "Cookie": secrets["jar"],
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
    }
    conn = Connection(port)
    while time.monotonic() < until:
        started = time.monotonic()
        body = f"ending=stock_out&confirm=1&csrfmiddlewaretoken={secrets['token']}".encode()
        try:
            status, _ = await conn.request("POST", setup["record"], headers, body)
            stats.add(time.monotonic() - started, status == 200)
        except (ConnectionError, OSError):
            stats.add(time.monotonic() - started, False)
        await asyncio.sleep(max(0.0, RECORD_EVERY - (time.monotonic() - started)))
    await conn.close()


async def hall(port: int, server: subprocess.Popen, setup: dict[str, str], count: int) -> dict:
    first = await Connection(port).request("GET", setup["board"] + "?page=1")
    version = re.search(rb'v=([^"&]+)"', first[1]).group(1).decode()
    url = f"{setup['board']}?page=1&v={version}"
    asks, records = Stats(), Stats()
    cpu = cpu_seconds(server)
    until = time.monotonic() + SECONDS
    asked = await asyncio.gather(
        recorder(port, setup, until, records),
        *(screen(port, url, until, asks, BEAT * n / max(1, count)) for n in range(count)),
    )
    return {
        "asked": sum(asked[1:]) / SECONDS,
        "answered": (len(asks.latencies) - asks.errors) / SECONDS,
        "asks": asks,
        "records": records,
        "cpu": cpu_seconds(server) - cpu,
    }


def main() -> None:
    import resource

    _, most = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (most, most))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screens", type=int, action="append")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], action="append")
    args = parser.parse_args()
    counts = args.screens or [50, 500]
    for database in args.database or ["sqlite", "postgresql"]:
        with tempfile.TemporaryDirectory() as workdir:
            env = environment(database, Path(workdir))
            setup = prepare(database, env)
            port = free_port()
            server = start_server(
                env, port, options=["--workers", "2", "--threads", "4", "--keep-alive", "10"]
            )
            try:
                idle = asyncio.run(hall(port, server, setup, 0))
                rows = [(count, asyncio.run(hall(port, server, setup, count))) for count in counts]
            finally:
                stop_server(server)
        base = idle["records"].pct(50)
        print(f"\n== {database}: 200 players at 50 tables, gunicorn with 2 workers")
        print(
            f"{'screens':>8}{'asks/s':>8}{'answered/s':>12}{'ask p50':>9}{'ask p95':>9}"
            f"{'errors':>8}{'Record p50':>12}{'p95':>8}{'× idle':>8}{'CPU ms/ask':>12}"
        )
        for count, row in [(0, idle), *rows]:
            asks, records = row["asks"], row["records"]
            per_ask = row["cpu"] * 1000 / max(1, len(asks.latencies))
            print(
                f"{count:>8}{row['asked']:>8.0f}{row['answered']:>12.0f}"
                f"{asks.pct(50):>9.1f}{asks.pct(95):>9.1f}{asks.errors + records.errors:>8}"
                f"{records.pct(50):>12.1f}{records.pct(95):>8.1f}"
                f"{records.pct(50) / base:>8.2f}{per_ask if count else 0:>12.2f}"
            )


if __name__ == "__main__":
    main()
