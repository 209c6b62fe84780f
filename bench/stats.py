"""The stats page of a big club: 1,000 finished games of 30 rounds, on SQLite and PostgreSQL.

Run: .venv/bin/python bench/stats.py [--games N] [--database sqlite|postgresql]

For each database it builds the club in a fresh database (every round worked out by the engine,
every seat's tallies stored as recording stores them), then opens the stats page and the stats
API in-process through Django's test client, and prints for each: the queries it took, and its
time as the median of 15 runs, in ms and as a ratio to /healthz measured in the same process
(the machine is shared: the ratio is the figure to compare between runs).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from load import recreate_postgres  # bench/ is on the path when a script here runs

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
POSTGRES_URL = os.environ.get(
    "KNOCK_BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432/knock_bench_stats"
)

SCRIPT = """
import django, json, statistics, time
django.setup()
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from scorekeeper import play
from scorekeeper.models import Club, Game, Round, RoundInputs
from scorekeeper.rules import build_rules
from scorekeeper.rules.game import advance
from scorekeeper.rules.game import play as play_round

GAMES = {games}
club = Club.objects.create(name="Big club")
club.set_key("k" * 40)
club.save()
players = [play.add_player(club, n) for n in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")]
# 9 lives, the county, and 4 players: 30 rounds take three players out.
rules, _ = build_rules({{"preset": "scat", "overrides": {{"lives": 9}}}})
started = time.perf_counter()
for g in range(GAMES):
    seated = [players[(g + i) % len(players)] for i in range(4)]
    game = play.start_game(club, seated, 0, rules, "scat")
    state, steps, rounds = game.state, [], []
    winner = g % 4
    while not state.game_over:
        still = [i for i, s in enumerate(state.statuses) if s != "out" and i != winner]
        inputs = RoundInputs("knock", knocker=winner, lowest=(still[0],))
        step = play_round(rules, state, inputs.as_input())
        state = advance(state, step)
        steps.append(step)
        rounds.append(Round(game=game, number=step.number, version=step.number,
                            **inputs.stored()))
    with transaction.atomic():
        Round.objects.bulk_create(rounds)
        play.store(game, state, tuple(steps), version=len(rounds))
built = time.perf_counter() - started
client = Client()

def timed(url, headers=None):
    client.get(url, headers=headers or {{}})  # warm up
    times = []
    for _ in range(15):
        t = time.perf_counter()
        response = client.get(url, headers=headers or {{}})
        times.append((time.perf_counter() - t) * 1000)
        assert response.status_code == 200, response.status_code
    with CaptureQueriesContext(connection) as queries:
        client.get(url, headers=headers or {{}})
    return statistics.median(times), len(queries)

floor, _ = timed("/healthz")
page, page_queries = timed(f"/c/{{club.key}}/stats")
api, api_queries = timed(f"/api/v1/clubs/{{club.id}}/stats", {{"Authorization": "Bearer " + club.key}})
rounds = Round.objects.count()
print(json.dumps({{"games": Game.objects.count(), "rounds": rounds, "built_s": built,
                  "floor_ms": floor, "page_ms": page, "page_queries": page_queries,
                  "api_ms": api, "api_queries": api_queries}}))
"""


def environment(database: str, workdir: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "testserver",
        "DJANGO_HTTPS": "0",
        "DJANGO_LOG_LEVEL": "ERROR",
    }
    env.pop("DATABASE_URL", None)
    if database == "postgresql":
        env["DATABASE_URL"] = POSTGRES_URL
    else:
        env["KNOCK_SQLITE_PATH"] = str(workdir / "stats.sqlite3")
    return env


def bench(database: str, games: int) -> dict:
    if database == "postgresql":
        recreate_postgres(POSTGRES_URL)
    with tempfile.TemporaryDirectory() as workdir:
        env = environment(database, Path(workdir))
        run = {"cwd": ROOT, "env": env, "check": True, "capture_output": True, "text": True}
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], **run)
        subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], **run)
        done = subprocess.run([PYTHON, "-c", SCRIPT.format(games=games)], **{**run, "check": False})
        if done.returncode:
            sys.exit(done.stderr)
        return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], action="append")
    args = parser.parse_args()
    for database in args.database or ["sqlite", "postgresql"]:
        r = bench(database, args.games)
        print(
            f"{database}: {r['games']} games, {r['rounds']} rounds (built in {r['built_s']:.0f} s)"
        )
        print(f"  /healthz        {r['floor_ms']:7.2f} ms")
        for what in ("page", "api"):
            ms, queries = r[f"{what}_ms"], r[f"{what}_queries"]
            print(
                f"  stats {what:<4}      {ms:7.2f} ms  {queries} queries  "
                f"ratio to /healthz {ms / r['floor_ms']:.0f}"
            )


if __name__ == "__main__":
    main()
