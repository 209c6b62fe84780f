"""The draw by standings at an open: 200 players over 10 rounds at tables of 3 to 6, each game's
places at random (seeded), standings by points.

Run: .venv/bin/python bench/draw.py [--players 200] [--rounds 10] [--seed 1]

For each table size it prints, over rounds 2 to 10: the pairs who met again (and how many the
tables cut from the standings in order would have had), the widest and the median table in
places of the standings, the leader's table each round, and the time of one draw as a ratio to
cutting the standings in order (the machine is shared: the ratio is the figure to compare
between runs). Pure Python, no database; nothing leaves this machine."""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.lib import draw


def cut(standings: list[int], size: int) -> list[list[int]]:
    tables, at = [], 0
    for n in draw.table_sizes(len(standings), size):
        tables.append(standings[at : at + n])
        at += n
    return tables


def evening(players: int, rounds: int, size: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    everyone = list(range(players))
    lot = {p: rng.random() for p in everyone}
    points = dict.fromkeys(everyone, 0)
    met: dict[int, set[int]] = {}
    again = in_order = 0
    spreads: list[int] = []
    leader: list[int] = []
    search = baseline = 0.0
    for number in range(1, rounds + 1):
        standings = sorted(everyone, key=lambda p: (-points[p], lot[p]))
        if number == 1:
            tables = draw.mixed(everyone, size, met, rng)
        else:
            started = time.process_time()
            plain = cut(standings, size)
            baseline += time.process_time() - started
            started = time.process_time()
            tables = draw.by_standings(standings, size, met)
            search += time.process_time() - started
            again += draw.repeats(tables, met)
            in_order += draw.repeats(plain, met)
            rank = {p: i for i, p in enumerate(standings)}
            spreads += [max(rank[p] for p in t) - min(rank[p] for p in t) for t in tables]
            leader.append(next(i for i, t in enumerate(tables) if standings[0] in t) + 1)
        for table in tables:
            for place, p in enumerate(rng.sample(table, len(table))):
                points[p] += len(table) - 1 - place
            for a, b in itertools.permutations(table, 2):
                met.setdefault(a, set()).add(b)
    return {
        "met again": f"{again} (cut in order: {in_order})",
        "widest table": f"{max(spreads)} places",
        "median table": f"{statistics.median(spreads)} places",
        "leader's table": leader,
        "one draw": f"{search / (rounds - 1) * 1000:.0f} ms CPU,"
        f" {search / max(baseline, 1e-9):.0f}x cutting in order",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    for size in (3, 4, 5, 6):
        print(f"tables of {size}:")
        for what, figure in evening(options.players, options.rounds, size, options.seed).items():
            print(f"  {what}: {figure}")


if __name__ == "__main__":
    main()
