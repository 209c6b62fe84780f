"""Two clubs edit round 1 of their 2,000-round games, over and over, while a third club taps: how
long the third club's taps take, on the default SQLite (one writer at a time).

Run: .venv/bin/python bench/edit_lock.py [--rounds 2000] [--taps 30]

It builds the long games in a fresh SQLite file (production settings, in a temporary folder),
then times the other club's taps (``play.record_round``, as a tap records) alone, and again
while two processes (as two server workers would) edit round 1 of the long games without pause.
It prints the taps' p50 and p95 in both, their ratio, and how long one edit takes: its replay
is worked out outside the write lock, so the taps wait only for its writes. On a two-core
machine the editors also take the CPU from the taps, which the figures include. Every loop is
bounded; nothing leaves this machine."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from stats import environment  # bench/ is on the path when a script here runs

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

EDITOR = """
import django, json, os, time
django.setup()
from scorekeeper import play
from scorekeeper.models import Game, RoundInputs
edits = []
while not os.path.exists(%r):
    game = Game.objects.get(pk=%r)
    started = time.perf_counter()
    play.edit_round(game, 1, RoundInputs("knock", knocker=0, lowest=(len(edits) %% 3 + 1,)))
    edits.append(time.perf_counter() - started)
print(json.dumps(edits))
"""
SCRIPT = """
EDITOR = {editor!r}
import django, json, statistics, time
django.setup()
from django.db import connections
from scorekeeper import play
from scorekeeper.models import Game, RoundInputs
from scorekeeper.rules import build_rules

# The stock running out is a draw under this house rule: 2,000 rounds in which nobody loses.
rules, _ = build_rules({{"preset": "scat", "overrides": {{"lives": 10, "stock_out": "draw"}}}})
def new_game(name):
    club = play.create_club(name)
    return play.start_game(club, ["Ann", "Ben", "Cat", "Dan"], 0, rules, "scat", "referee")

# One long game for each editor (two clubs editing), and the club that taps.
built = time.perf_counter()
longs = [new_game(f"Long {{i}}") for i in range(2)]
for long in longs:
    for n in range({rounds}):
        play.record_round(long, RoundInputs("stock_out"))
built = time.perf_counter() - built
other = new_game("Other")

def taps(count):
    took = []
    for _ in range(count):
        game = Game.objects.get(pk=other.pk)
        if game.finished or game.round_count > 5:
            play.undo_round(game)
            game = Game.objects.get(pk=game.pk)
        started = time.perf_counter()
        play.record_round(game, RoundInputs("knock", knocker=0, lowest=(1,)))
        took.append(time.perf_counter() - started)
    return took

def p(values, q):
    return statistics.quantiles(values, n=100)[q - 1] * 1000 if len(values) > 1 else values[0] * 1000

alone = taps({taps})
# The editors run as processes of their own, as other workers of the server would: threads of
# this one would take the interpreter's lock from the taps and measure that instead.
import os, subprocess, sys
stop = os.environ["KNOCK_SQLITE_PATH"] + ".stop"
editors = [subprocess.Popen([sys.executable, "-c", EDITOR % (stop, str(long.pk))], stdout=subprocess.PIPE, text=True) for long in longs]
time.sleep(3)  # both are editing
busy = taps({taps})
open(stop, "w").close()
edits = [t for e in editors for t in json.loads(e.communicate()[0].strip().splitlines()[-1])]
print(json.dumps({{"rounds": long.round_count, "built_s": built, "alone": [p(alone, 50), p(alone, 95)],
    "busy": [p(busy, 50), p(busy, 95)], "edit": statistics.median(edits) * 1000, "edits": len(edits)}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--taps", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        env = environment("sqlite", Path(workdir))  # production settings, a file of its own
        run = {"cwd": ROOT, "env": env, "capture_output": True, "text": True}
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], check=True, **run)
        script = SCRIPT.format(rounds=args.rounds, taps=args.taps, editor=EDITOR)
        done = subprocess.run([PYTHON, "-c", script], check=False, **run)
        if done.returncode:
            sys.exit(done.stderr)
        r = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"a game of {r['rounds']} rounds (built in {r['built_s']:.0f} s); {r['edits']} edits")
    print(f"  one edit of round 1       {r['edit']:8.1f} ms (median)")
    print(f"  another club's tap alone  p50 {r['alone'][0]:6.1f} ms  p95 {r['alone'][1]:6.1f} ms")
    print(f"  ... during the edits      p50 {r['busy'][0]:6.1f} ms  p95 {r['busy'][1]:6.1f} ms")
    print(f"  ratio, p95 during / alone {r['busy'][1] / r['alone'][1]:.1f}")


if __name__ == "__main__":
    main()
