"""Lives over rounds as an SVG drawn on the server: no JavaScript chart library."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .rules.game import GameState, Step, lives_history

# Distinct colours and dash patterns, so lines differ for colour-blind readers too.
COLOURS = ["#0f5132", "#b3261e", "#1f4e9c", "#8a5a00", "#6a1b9a", "#00695c", "#c2185b", "#37474f"]
DASHES = ["", "6 3", "2 3", "8 3 2 3"]
WIDTH, HEIGHT, PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 320, 200, 28, 10, 10, 30


@dataclass
class Line:
    name: str
    colour: str
    dash: str
    points: str
    lives: list[int]


@dataclass
class Chart:
    width: int
    height: int
    lines: list[Line]
    y_ticks: list[tuple[int, float]]
    x_ticks: list[tuple[int, float]]
    rounds: int
    summary: str
    plot_bottom: float
    plot_left: float
    plot_right: float


def lives_chart(state: GameState, steps: Sequence[Step]) -> Chart:
    history = lives_history(state, steps)
    rounds = len(history) - 1
    top = max(max(row) for row in history) or 1
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return PAD_LEFT + (plot_w * i / rounds if rounds else plot_w / 2)

    def y(lives: int) -> float:
        return PAD_TOP + plot_h * (1 - lives / top)

    lines = []
    for p, name in enumerate(state.names):
        lives = [row[p] for row in history]
        # A small offset per player keeps equal lines from hiding each other.
        offset = (p - len(state.names) / 2) * 1.2
        points = " ".join(f"{x(i):.1f},{y(v) + offset:.1f}" for i, v in enumerate(lives))
        lines.append(Line(name, COLOURS[p % len(COLOURS)], DASHES[p % len(DASHES)], points, lives))
    step = max(1, rounds // 8)
    x_ticks = [(i, x(i)) for i in range(0, rounds + 1, step)]
    y_ticks = [(v, y(v)) for v in range(0, top + 1)]
    ends = ", ".join(f"{line.name} {line.lives[-1]}" for line in lines)
    summary = f"Lives over {rounds} round{'s' if rounds != 1 else ''}; now: {ends}."
    return Chart(WIDTH, HEIGHT, lines, y_ticks, x_ticks, rounds, summary,
                 HEIGHT - PAD_BOTTOM, PAD_LEFT, WIDTH - PAD_RIGHT)  # fmt: skip
