"""Lives over rounds as an SVG drawn on the server: no JavaScript chart library."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from ..lib.marks import Mark
from ..rules import Result, Status
from ..rules.game import GameState, Step
from ..rules.words import coins as signed
from .rounds import level

# Each player's line in their colour (lib.marks: at least 3:1 against the chart in either theme),
# and dash patterns, so lines differ for colour-blind readers too (the legend pairs each with the
# player's initials).
DASHES = ["", "6 3", "2 3", "8 3 2 3"]
WIDTH, HEIGHT, PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 320, 200, 28, 10, 10, 30


@dataclass
class Line:
    name: str
    mark: Mark
    dash: str
    points: str
    lives: list[int]


@dataclass
class Chart:
    width: int
    height: int
    lines: list[Line]
    y_ticks: list[tuple[str, float]]
    y_words: list[tuple[str, float]]
    x_ticks: list[tuple[int, float]]
    rounds: int
    summary: str
    plot_bottom: float
    plot_left: float
    plot_right: float


def lives_chart(
    points: Sequence[tuple[int, GameState]],
    marks: Sequence[Mark],
    last_chance: str = "",
    out: str = "",
) -> Chart:
    """Each player's level (``rounds.level``) at the start and after the rounds of ``points``
    (every round of a short game, at most a hundred of a long one: ``lives_over_rounds``), each
    line in the colour of the player's mark (``marks``, in seat order)."""
    state = points[-1][1]
    history = [[level(at, p) for p in range(len(at.names))] for _n, at in points]
    numbers = [n for n, _at in points]
    rounds = numbers[-1]
    top = max(max(row) for row in history) or 1
    bottom = -1
    words = {-1: out or pgettext("status", "out"), 0: last_chance or "0"}
    # The numbers of lives on the left; the words ("on the county", "out") inside the plot, above
    # their lines, so that the plot keeps the width of the phone.
    pad_left = PAD_LEFT
    plot_w = WIDTH - pad_left - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(number: int) -> float:
        return pad_left + (plot_w * number / rounds if rounds else plot_w / 2)

    def y(level: int) -> float:
        return PAD_TOP + plot_h * (top - level) / (top - bottom)

    lines = []
    for p, name in enumerate(state.names):
        levels = [row[p] for row in history]
        # A small offset per player keeps equal lines from hiding each other.
        offset = (p - len(state.names) / 2) * 1.2
        dots = " ".join(
            f"{x(n):.1f},{y(v) + offset:.1f}" for n, v in zip(numbers, levels, strict=True)
        )
        lives = [max(0, v) for v in levels]
        lines.append(Line(name, marks[p], DASHES[p % len(DASHES)], dots, lives))
    step = max(1, rounds // 8)
    x_ticks = [(i, x(i)) for i in range(0, rounds + 1, step)]
    y_ticks = [(str(v), y(v)) for v in range(1, top + 1)]
    y_words = [(words[v], y(v)) for v in (0, -1)]
    ends = ", ".join(
        f"{line.name} {words[-1] if history[-1][i] < 0 else line.lives[-1]}"
        for i, line in enumerate(lines)
    )
    summary = ngettext(
        "Lives over %(n)d round; now: %(ends)s.", "Lives over %(n)d rounds; now: %(ends)s.", rounds
    ) % {"n": rounds, "ends": ends}
    summary += _said_round_by_round(lines, history, numbers, last_chance, words)
    return Chart(
        WIDTH,
        HEIGHT,
        lines,
        y_ticks,
        y_words,
        x_ticks,
        rounds,
        summary,
        HEIGHT - PAD_BOTTOM,
        pad_left,
        WIDTH - PAD_RIGHT,
    )


def _said_round_by_round(
    lines: list[Line],
    history: list[list[int]],
    numbers: list[int],
    last_chance: str,
    words: dict[int, str],
) -> str:
    """For a screen reader: at each point, who changed, and to what (the last chance by name)."""
    said = {-1: words[-1], 0: last_chance or _("0 lives")}
    text = ""
    for i in range(1, len(numbers)):
        moved = [
            f"{line.name} {said.get(history[i][p], history[i][p])}"
            for p, line in enumerate(lines)
            if history[i][p] != history[i - 1][p]
        ]
        text += " " + _("Round %(n)d: %(moves)s.") % {
            "n": numbers[i],
            "moves": ", ".join(moved) if moved else _("no change"),
        }
    return text


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
                "coins": player.coins,
                "coins_words": signed(player.coins),
                "lost": player.lost,
                "label": "" if player.status == Status.IN else player.status_label,
                "status": str(player.status),
            }
            for player in step.result.players
        ]
        rows.append({"number": step.number, "dealer": state.names[step.dealer], "cells": cells})
    return rows
