"""Lives over rounds as an SVG drawn on the server: no JavaScript chart library."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from ..rules import Result, Status
from ..rules.game import GameState, Step

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
    y_ticks: list[tuple[str, float]]
    x_ticks: list[tuple[int, float]]
    rounds: int
    summary: str
    plot_bottom: float
    plot_left: float
    plot_right: float


def _levels(state: GameState, steps: Sequence[Step]) -> list[list[int]]:
    """Each player's level at the start and after every round resolved: their lives, with the
    last chance (no lives left, still in) at 0 and out below it at -1, so the two differ."""
    rows = [[state.start_lives] * len(state.names)]
    for step in steps:
        if step.result.result == Result.TABLE_DECIDES:
            continue
        rows.append([-1 if p.status == Status.OUT else p.lives for p in step.result.players])
    return rows


def lives_chart(state: GameState, steps: Sequence[Step], last_chance: str = "") -> Chart:
    history = _levels(state, steps)
    rounds = len(history) - 1
    top = max(max(row) for row in history) or 1
    bottom = -1
    words = {-1: pgettext("status", "out"), 0: last_chance or "0"}
    # Room on the left for the longest label ("on the county", "schwimmt"), at about 8 units a
    # letter of the ticks' size, wide letters (m, w) included.
    pad_left = max(PAD_LEFT, 8 * max(len(words[-1]), len(words[0])) + 10)
    plot_w = WIDTH - pad_left - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return pad_left + (plot_w * i / rounds if rounds else plot_w / 2)

    def y(level: int) -> float:
        return PAD_TOP + plot_h * (top - level) / (top - bottom)

    lines = []
    for p, name in enumerate(state.names):
        levels = [row[p] for row in history]
        # A small offset per player keeps equal lines from hiding each other.
        offset = (p - len(state.names) / 2) * 1.2
        points = " ".join(f"{x(i):.1f},{y(v) + offset:.1f}" for i, v in enumerate(levels))
        lives = [max(0, v) for v in levels]
        lines.append(Line(name, COLOURS[p % len(COLOURS)], DASHES[p % len(DASHES)], points, lives))
    step = max(1, rounds // 8)
    x_ticks = [(i, x(i)) for i in range(0, rounds + 1, step)]
    y_ticks = [(words.get(v, str(v)), y(v)) for v in range(bottom, top + 1)]
    ends = ", ".join(
        f"{line.name} {words[-1] if history[-1][i] < 0 else line.lives[-1]}"
        for i, line in enumerate(lines)
    )
    summary = ngettext(
        "Lives over %(n)d round; now: %(ends)s.", "Lives over %(n)d rounds; now: %(ends)s.", rounds
    ) % {"n": rounds, "ends": ends}
    # Round by round, for a screen reader: who changed, and to what (the last chance by name).
    said = {-1: words[-1], 0: last_chance or _("0 lives")}
    for i in range(1, rounds + 1):
        moved = [
            f"{line.name} {said.get(history[i][p], history[i][p])}"
            for p, line in enumerate(lines)
            if history[i][p] != history[i - 1][p]
        ]
        summary += " " + _("Round %(n)d: %(moves)s.") % {
            "n": i,
            "moves": ", ".join(moved) if moved else _("no change"),
        }
    return Chart(
        WIDTH,
        HEIGHT,
        lines,
        y_ticks,
        x_ticks,
        rounds,
        summary,
        HEIGHT - PAD_BOTTOM,
        pad_left,
        WIDTH - PAD_RIGHT,
    )


def sheet_rows(state: GameState, steps: Sequence[Step]) -> list[dict[str, Any]]:
    """The game as a group draws it on paper: a row per round, a column per player, each cell
    the lives after the round, with what it cost and where that left the player."""
    rows = []
    for step in steps:
        if step.result.result == Result.TABLE_DECIDES:
            continue
        cells = [
            {
                "lives": player.lives,
                "lost": player.lost,
                "label": "" if player.status == Status.IN else player.status_label,
            }
            for player in step.result.players
        ]
        rows.append({"number": step.number, "dealer": state.names[step.dealer], "cells": cells})
    return rows
