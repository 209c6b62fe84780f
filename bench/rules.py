"""How fast the rules engine counts hands and settles showdowns, as ratios to a bare baseline.

Run: .venv/bin/python bench/rules.py

Machines here are shared and noisy, so every figure is a ratio against a baseline measured in the
same process, interleaved with it: a bare sum of the card points over the very same hands. Each
round times the two back to back; the ratio printed is the median over the rounds.
"""

from __future__ import annotations

import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.rules import PRESETS, Outcome, Seat, Table, deck, evaluate, resolve_round

ROUNDS = 7


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def paired(measure, baseline, rounds: int = ROUNDS) -> tuple[float, float, float]:
    """Run the two one after the other, ``rounds`` times: the best time of each, and the median
    of the ratios of each pair (a pair shares whatever else the machine was doing then)."""
    pairs = [(timed(measure), timed(baseline)) for _ in range(rounds)]
    ratios = sorted(m / b for m, b in pairs)
    return min(m for m, _ in pairs), min(b for _, b in pairs), ratios[len(ratios) // 2]


def bare_sum(hands) -> int:
    return sum(a.points + b.points + c.points for a, b, c in hands)


def main() -> None:
    print(
        f"Knock rules benchmark: {ROUNDS} paired rounds (best times, median ratio), "
        f"Python {sys.version.split()[0]}"
    )
    print()
    print(f"{'preset':<15}{'hands':>7}{'evaluate':>12}{'bare sum':>12}{'ratio':>9}{'per hand':>11}")
    for preset in PRESETS.values():
        rules = preset.rules
        hands = list(combinations(deck(rules.deck), 3))
        measured, baseline, ratio = paired(
            lambda hands=hands, rules=rules: [evaluate(h, rules) for h in hands],
            lambda hands=hands: bare_sum(hands),
        )
        print(
            f"{preset.id:<15}{len(hands):>7}{measured * 1e3:>10.1f}ms{baseline * 1e3:>10.2f}ms"
            f"{ratio:>8.0f}×{measured / len(hands) * 1e6:>9.1f}µs"
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
        measured, baseline, ratio = paired(
            lambda r=rules, t=table: [resolve_round(r, t, outcome) for _ in range(repeats)],
            lambda: [bare_sum(hands) for _ in range(repeats)],
        )
        print(
            f"{preset_id:<15} showdown {measured / repeats * 1e6:>8.1f}µs  bare sum "
            f"{baseline / repeats * 1e6:>6.2f}µs  ratio {ratio:>6.0f}×"
        )


if __name__ == "__main__":
    main()
