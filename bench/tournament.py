"""A tournament of 200 players at 50 tables of four over 10 rounds: each draw's time, and what
the leaderboard, the organiser's page and the API's answer cost as the rounds grow.

Run: .venv/bin/python bench/tournament.py [--players 200] [--rounds 10] [--database sqlite|postgresql]

In a fresh database (production settings, in a temporary folder) it starts the tournament, then
for each round: draws it (``tournaments.draw_round``, timed), plays every table's game to its
end as taps record rounds (``play.record_round``, one life each), and opens the leaderboard (as
the big screen first asks for it), its "nothing changed" answer (what it asks twice a second),
the organiser's page and ``GET /api/v1/tournaments/{id}`` in-process through Django's test
client. For each it prints the statements one request took and its time (median of 7) as a ratio
to /healthz measured in the same process (the machine is shared: the ratio is the figure to
compare between runs). Nothing leaves this machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from load import recreate_postgres  # bench/ is on the path when a script here runs
from stats import POSTGRES_URL, environment

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

SCRIPT = """
import django, json, re, statistics, time
django.setup()
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from scorekeeper import play, tournaments
from scorekeeper.models import Club, Game, RoundInputs
from scorekeeper.rules import build_rules

club = Club.objects.create(name="Fair")
club.set_key("k" * 40)
club.save()
rules, _ = build_rules({{"preset": "friendly", "overrides": {{"lives": 1}}}})
names = [f"Player {{n:03d}}" for n in range(1, {players} + 1)]
tournament = tournaments.start_tournament(
    club, "Fair cup", rules, "friendly", names, rounds={rounds}, method="swiss"
)
client = Client(HTTP_ACCEPT_LANGUAGE="en")
api = {{"Authorization": "Bearer " + club.key}}

def timed(url, headers=None, status=200):
    headers = headers or {{}}
    client.get(url, headers=headers)  # warm up
    times = []
    for _ in range(7):
        t = time.perf_counter()
        response = client.get(url, headers=headers)
        times.append((time.perf_counter() - t) * 1000)
        assert response.status_code == status, (url, response.status_code)
    with CaptureQueriesContext(connection) as queries:
        client.get(url, headers=headers)
    return statistics.median(times), len(queries)

board_url = reverse("tournament-board", args=[club.view_key, tournament.pk])
organiser_url = reverse("tournament", args=[club.key, tournament.pk])
api_url = f"/api/v1/tournaments/{{tournament.pk}}"
rows = []
for number in range(1, {rounds} + 1):
    started = time.perf_counter()
    tables = tournaments.draw_round(tournament, club.key, seed=number)
    draw_s = time.perf_counter() - started
    started = time.perf_counter()
    for table in tables:
        game = table.game
        for lowest in reversed(range(1, table.size)):
            play.record_round(game, RoundInputs("knock", knocker=0, lowest=(lowest,)))
            game.refresh_from_db()
    played_s = time.perf_counter() - started
    floor, _ = timed("/healthz")
    board, board_q = timed(board_url)
    version = re.search(r'v=([^"]+)"', client.get(board_url + "?page=1").content.decode())[1]
    quiet, quiet_q = timed(
        f"{{board_url}}?page=1&v={{version}}", {{"HX-Request": "true"}}, status=204
    )
    organiser, organiser_q = timed(organiser_url)
    answer, answer_q = timed(api_url, api)
    rows.append({{"round": number, "tables": len(tables), "draw_s": draw_s, "played_s": played_s,
                 "floor": floor, "board": board, "board_q": board_q, "quiet": quiet,
                 "quiet_q": quiet_q, "organiser": organiser, "organiser_q": organiser_q,
                 "api": answer, "api_q": answer_q}})
print(json.dumps(rows))
"""


def bench(database: str, players: int, rounds: int) -> list[dict]:
    if database == "postgresql":
        recreate_postgres(POSTGRES_URL)
    with tempfile.TemporaryDirectory() as workdir:
        env = environment(database, Path(workdir))
        run = {"cwd": ROOT, "env": env, "check": True, "capture_output": True, "text": True}
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], **run)
        subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"], **run)
        script = SCRIPT.format(players=players, rounds=rounds)
        done = subprocess.run([PYTHON, "-c", script], **{**run, "check": False})
        if done.returncode:
            sys.exit(done.stderr)
        return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], action="append")
    args = parser.parse_args()
    for database in args.database or ["sqlite", "postgresql"]:
        rows = bench(database, args.players, args.rounds)
        print(f"{database}: {args.players} players, {rows[0]['tables']} tables a round")
        print(
            "  round  draw s  statements: board  unchanged  organiser  api"
            "   × /healthz: board  unchanged  organiser  api"
        )
        for r in rows:
            f = r["floor"]
            print(
                f"  {r['round']:5d}  {r['draw_s']:6.2f}  "
                f"{r['board_q']:17d}  {r['quiet_q']:9d}  {r['organiser_q']:9d}  {r['api_q']:3d}"
                f"  {r['board'] / f:17.0f}  {r['quiet'] / f:9.1f}  {r['organiser'] / f:9.0f}"
                f"  {r['api'] / f:3.0f}"
            )
        print(f"  slowest draw: {max(r['draw_s'] for r in rows):.2f} s")


if __name__ == "__main__":
    main()
