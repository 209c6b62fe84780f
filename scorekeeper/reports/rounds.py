"""A game's rounds a page at a time, and its lives over the rounds in at most a hundred points:
each round keeps the table after it (``Round.state_after``), so a page starts from the state
before its first round and works out its own rounds only, however long the game."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..models import Game
from ..rules import Result, Status
from ..rules.game import GameState, Step, advance, read_state, start
from ..rules.game import play as play_round

PAGE = 50  # rounds on a page of the round log and of the API's list of rounds
POINTS = 100  # at most this many points of the lives chart


@dataclass(frozen=True)
class RoundPage:
    """Some of a game's rounds in play, oldest first, and the ``before`` of the pages beside it:
    ``earlier`` for the older rounds (None on the first page), ``later`` for the newer ones
    (None on the newest)."""

    steps: tuple[Step, ...]
    earlier: int | None
    later: int | None
    total: int


def round_page(game: Game, before: int | None = None, size: int = PAGE) -> RoundPage:
    """The ``size`` rounds before round ``before`` (the newest when None), each worked out from
    the table before it."""
    total = game.state.rounds
    newest = total if before is None else max(0, min(before - 1, total))
    oldest = max(1, newest - size + 1)
    if newest < 1:
        return RoundPage((), None, None, total)
    rows = game.rounds.as_of(game.version).filter(number__gte=oldest - 1, number__lte=newest)
    by_number = {round.number: round for round in rows}
    state, steps = game.state_before(oldest, by_number), []
    for number in range(oldest, newest + 1):
        step = play_round(game.rules, state, by_number[number].as_input())
        steps.append(step)
        if step.result.result == Result.TABLE_DECIDES:
            break
        state = advance(state, step)
    later = min(total, newest + size) + 1 if newest < total else None
    return RoundPage(tuple(steps), oldest if oldest > 1 else None, later, total)


def lives_over_rounds(game: Game) -> list[tuple[int, GameState]]:
    """The table at the start and after some rounds: every round while there are at most
    ``POINTS``, else every n-th and the latest, so that the chart of any game has at most a
    hundred points and stays readable."""
    total = game.state.rounds
    every = max(1, math.ceil(total / POINTS))
    numbers = sorted({*range(every, total + 1, every), total} - {0})
    rows = game.rounds.as_of(game.version).filter(number__in=numbers)
    kept = {round.number: round.state_after for round in rows if round.state_after is not None}
    points = [(0, start(game.rules, game.names, game.first_dealer))]
    points += [(n, read_state(kept[n], game.names)) for n in numbers if n in kept]
    return points


def level(state: GameState, seat: int) -> int:
    """A seat's level on the chart: its lives, the last chance at 0, and out below it at -1."""
    return -1 if state.statuses[seat] == Status.OUT else state.lives[seat]
