"""How fast the rules engine counts hands and settles showdowns, as ratios to a bare baseline.

Run: .venv/bin/python bench/rules.py

Machines here are shared and noisy, so every figure is a ratio against a baseline measured in the
same process, interleaved with it: a bare sum of the card points over the very same hands. The
best of several rounds is kept for each, as the least disturbed.
"""

from __future__ import annotations

import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.rules import PRESETS, Outcome, Seat, Table, deck, evaluate, resolve_round

ROUNDS = 5


def best_of(fn, rounds: int = ROUNDS) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bare_sum(hands) -> int:
    return sum(a.points + b.points + c.points for a, b, c in hands)


def main() -> None:
    print(f"Knock rules benchmark, best of {ROUNDS} rounds, Python {sys.version.split()[0]}")
    print()
    print(f"{'preset':<15}{'hands':>7}{'evaluate':>12}{'bare sum':>12}{'ratio':>9}{'per hand':>11}")
    for preset in PRESETS.values():
        rules = preset.rules
        hands = list(combinations(deck(rules.deck), 3))
        baseline = best_of(lambda hands=hands: bare_sum(hands))
        measured = best_of(lambda hands=hands, rules=rules: [evaluate(h, rules) for h in hands])
        print(
            f"{preset.id:<15}{len(hands):>7}{measured * 1e3:>10.1f}ms{baseline * 1e3:>10.2f}ms"
            f"{measured / baseline:>8.0f}×{measured / len(hands) * 1e6:>9.1f}µs"
        )

    print()
    print("A showdown of 9 players (a knock, cards entered for everyone), repeated 1,000 times")
    cards = deck(52)
    hands = [tuple(cards[i * 3 : i * 3 + 3]) for i in range(9)]
    names = [f"P{i}" for i in range(9)]
    outcome = Outcome("knock", knocker="P0")
    repeats = 1000
    for preset_id in ("scat", "friendly", "kitchen-table"):
        rules = PRESETS[preset_id].rules
        table = Table(
            tuple(Seat(n, 3, "in", h) for n, h in zip(names, hands, strict=True)), dealer="P8"
        )
        baseline = best_of(lambda: [bare_sum(hands) for _ in range(repeats)])
        measured = best_of(
            lambda r=rules, t=table: [resolve_round(r, t, outcome) for _ in range(repeats)]
        )
        print(
            f"{preset_id:<15} showdown {measured / repeats * 1e6:>8.1f}µs  bare sum "
            f"{baseline / repeats * 1e6:>6.2f}µs  ratio {measured / baseline:>6.0f}×"
        )


if __name__ == "__main__":
    main()
