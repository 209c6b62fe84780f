"""The draw of a tournament's tables: how many tables of which size, and who sits at which.

Pure and seeded: players are numbers, what they did before is who they met (``met``) and, for a
draw by standings, their order in the standings. Each draw leaves as few pairs meeting again as
it can find: a greedy placement, then swaps of two players between tables while a swap helps."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

Met = Mapping[int, set[int]]
Spread = Callable[[Sequence[int]], int]
Cost = Callable[[Sequence[int]], tuple[int, int]]

SMALLEST = 3  # a table of 1 or 2 is no game of 31


def table_sizes(players: int, size: int) -> list[int]:
    """The tables for ``players`` at tables of ``size``: as many of ``size`` as can be, the rest
    of one less (13 at tables of 4: 4, 3, 3, 3) or, where that would make a table too small, of
    one more (5 at tables of 4: one of 5); largest first. Never a table of 1 or 2 while
    ``players`` is 3 or more."""
    if players < SMALLEST:
        return []
    for tables in (-(-players // size), players // size):
        if tables < 1:
            continue
        base, extra = divmod(players, tables)
        sizes = [base + 1] * extra + [base] * (tables - extra)
        if min(sizes) >= max(SMALLEST, size - 1) and max(sizes) <= size + 1:
            return sizes
    # Neither fits within one of the size asked (4 players at tables of 6): tables as close to
    # the size as allow none smaller than three.
    tables = max(1, min(-(-players // size), players // SMALLEST))
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def repeats(tables: Sequence[Sequence[int]], met: Met) -> int:
    """The pairs at these tables who met before."""
    return sum(
        1
        for table in tables
        for i, a in enumerate(table)
        for b in table[i + 1 :]
        if b in met.get(a, ())
    )


def _clashes(player: int, table: Sequence[int], met: Met, without: int | None = None) -> int:
    seen = met.get(player, set())
    return sum(1 for other in table if other != without and other in seen)


def mixed(players: Sequence[int], size: int, met: Met, rng: random.Random) -> list[list[int]]:
    """Tables where no two players meet again while that can be avoided (round 1: at random)."""
    sizes = table_sizes(len(players), size)
    best: list[list[int]] | None = None
    best_cost = -1
    for _attempt in range(12):
        order = list(players)
        rng.shuffle(order)
        # The players who met the most are placed first, while every table still has room.
        order.sort(key=lambda p: -len(met.get(p, ())))
        tables: list[list[int]] = [[] for _ in sizes]
        for player in order:
            open_ = [i for i, t in enumerate(tables) if len(t) < sizes[i]]
            fewest = min(_clashes(player, tables[i], met) for i in open_)
            choice = [i for i in open_ if _clashes(player, tables[i], met) == fewest]
            tables[rng.choice(choice)].append(player)
        _swap_while_it_helps(tables, met, lambda _t: 0)
        cost = repeats(tables, met)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    assert best is not None
    return best


def by_standings(standings: Sequence[int], size: int, met: Met) -> list[list[int]]:
    """Tables of players of like standing (Swiss): the top of the standings at table 1, the
    next at table 2, and so on; then the fewest swaps between near tables that keep pairs from
    meeting again, each moving players as little down or up the standings as it can."""
    sizes = table_sizes(len(standings), size)
    rank = {player: i for i, player in enumerate(standings)}
    tables: list[list[int]] = []
    at = 0
    for n in sizes:
        tables.append(list(standings[at : at + n]))
        at += n

    def spread(table: Sequence[int]) -> int:
        return max(rank[p] for p in table) - min(rank[p] for p in table)

    _swap_while_it_helps(tables, met, spread)
    return tables


def _swap_while_it_helps(tables: list[list[int]], met: Met, spread: Spread) -> None:
    """Swap two players of two tables while a swap lowers (repeats, spread): repeats first."""

    def cost(table: Sequence[int]) -> tuple[int, int]:
        return repeats([table], met), spread(table)

    for _pass in range(50):
        better = False
        for i, first in enumerate(tables):
            if repeats([first], met) == 0:
                continue
            for a_at, a in enumerate(first):
                if _clashes(a, first, met, without=a) == 0:
                    continue
                found = _best_swap(tables, i, a_at, cost)
                if found is not None:
                    j, b_at = found
                    first[a_at], tables[j][b_at] = tables[j][b_at], first[a_at]
                    better = True
        if not better:
            return


def _best_swap(tables: list[list[int]], i: int, a_at: int, cost: Cost) -> tuple[int, int] | None:
    """The swap of the player at ``tables[i][a_at]`` that lowers the two tables' cost most."""
    first = tables[i]
    best: tuple[int, int] | None = None
    best_gain = (0, 0)
    before_i = cost(first)
    for j, second in enumerate(tables):
        if j == i:
            continue
        before = (before_i[0] + cost(second)[0], before_i[1] + cost(second)[1])
        for b_at in range(len(second)):
            one, two = list(first), list(second)
            one[a_at], two[b_at] = two[b_at], one[a_at]
            c1, c2 = cost(one), cost(two)
            gain = (before[0] - c1[0] - c2[0], before[1] - c1[1] - c2[1])
            if gain > best_gain:
                best, best_gain = (j, b_at), gain
    return best
