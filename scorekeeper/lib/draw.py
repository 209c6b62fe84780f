"""The draw of a tournament's tables: how many tables of which size, and who sits at which.

Pure and seeded: players are numbers, what they did before is who they met (``met``) and, for a
draw by standings, their order in the standings. Each draw leaves as few pairs meeting again as
it can find. Mixed: a greedy placement, then swaps of two players between any tables while a
swap helps. By standings: of the seatings that keep every player at their own table in the
standings or one next to it, the one with the fewest repeats (an exact search, table by table)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence

Met = Mapping[int, set[int]]
Spread = Callable[[Sequence[int]], int]

SMALLEST = 3  # a table of 1 or 2 is no game of 31


def table_sizes(players: int, size: int) -> list[int]:
    """The tables for ``players`` at tables of ``size``: as many of ``size`` as can be, the rest
    of one more (25 at tables of 4: one of 5 and five of 4; 13: 5, 4, 4), so that no table is
    short; where that cannot be, the rest of one less (11 at tables of 4: 4, 4, 3), as few as
    can be; largest first. A tournament's rules always seat one more than its table size.
    Never a table of 1 or 2 while ``players`` is 3 or more."""
    if players < SMALLEST:
        return []
    for tables in (players // size, -(-players // size)):
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
        _swap_while_it_helps(tables, met)
        cost = repeats(tables, met)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    assert best is not None
    return best


# A draw by standings moves a player at most one table from the table their place in the
# standings gives them (their own): each table's players come from a band of three tables' worth
# of places (a round of 200 at tables of 4: no table wider than 11 places).
# The search keeps this many of the best part-seatings after each table: every one where tables
# are of up to 5 (at most 252), so the fewest repeats within the band are found, not guessed; at
# tables of 6 (up to 924) the best 256, which found fewer repeats than a local search did.
KEPT = 256

# A part-seating after a table: its own players still to sit at the next table, and the next
# table's own players already seated.
_State = tuple[frozenset[int], frozenset[int]]
_Cost = tuple[int, int, int]


def by_standings(standings: Sequence[int], size: int, met: Met) -> list[list[int]]:
    """Tables of players of like standing (Swiss): table 1 from the top of the standings, table
    2 from the next places, and so on, each player at their own table or one next to it. Of all
    such seatings, the one with the fewest pairs meeting again; of those, the one whose tables
    span the fewest places in the standings; of those, the one that moves the fewest players
    from their own table (the leader stays at table 1 unless a repeat needs them moved).

    Tables are seated in order, keeping for each part-seating (who of this table's own players
    still waits, who of the next table's already sat) only the best way there, so the search
    costs tables × part-seatings × ways to fill a table: for 200 players, 0.04 s of CPU at
    tables of 3, 0.2 s at 4, 1 s at 5, 2.4 s at 6 (``bench/draw.py``, on a busy machine)."""
    sizes = table_sizes(len(standings), size)
    own: list[tuple[int, ...]] = []
    at = 0
    for n in sizes:
        own.append(tuple(standings[at : at + n]))
        at += n
    rank = {player: i for i, player in enumerate(standings)}

    empty: frozenset[int] = frozenset()
    best: dict[_State, tuple[_Cost, _State, tuple[int, ...]]] = {
        (empty, empty): ((0, 0, 0), (empty, empty), ())
    }
    steps: list[dict[_State, tuple[_Cost, _State, tuple[int, ...]]]] = []
    for number, players in enumerate(own):
        following = own[number + 1] if number + 1 < len(own) else ()
        # The next table's players are in standings order, and each is away from their own
        # table here: a group of them is costed by its repeats, its first and its last.
        groups = {
            n: [(group, repeats([group], met)) for group in itertools.combinations(following, n)]
            for n in range(len(following) + 1)
        }
        reached: dict[_State, tuple[_Cost, _State, tuple[int, ...]]] = {}
        for state, (so_far, _, _) in best.items():
            waiting, seated = state
            free = [p for p in players if p not in seated]
            seats = sizes[number] - len(waiting)
            for taken in range(max(0, seats - len(following)), min(seats, len(free)) + 1):
                for mine in itertools.combinations(free, taken):
                    left = frozenset(free).difference(mine)
                    start = (*waiting, *mine)
                    start_repeats = repeats([start], met)
                    # (a table is never empty: the bounds of an empty start never stand)
                    low = min((rank[p] for p in start), default=len(rank))
                    high = max((rank[p] for p in start), default=-1)
                    moved = so_far[2] + len(waiting)
                    meets = {p: _clashes(p, start, met) for p in following}
                    for theirs, among in groups[seats - taken]:
                        again = start_repeats + among + sum(meets[p] for p in theirs)
                        first, last = (rank[theirs[0]], rank[theirs[-1]]) if theirs else (low, high)
                        total = (
                            so_far[0] + again,
                            so_far[1] + max(high, last) - min(low, first),
                            moved + len(theirs),
                        )
                        after = (left, frozenset(theirs))
                        known = reached.get(after)
                        if known is None or total < known[0]:
                            reached[after] = (total, state, (*start, *theirs))
        if len(reached) > KEPT:
            reached = dict(sorted(reached.items(), key=lambda item: item[1][0])[:KEPT])
        steps.append(reached)
        best = reached
    tables: list[list[int]] = []
    state = (empty, empty)
    for reached in reversed(steps):
        _, state, table = reached[state]
        tables.append(list(table))
    return tables[::-1]


def _swap_while_it_helps(tables: list[list[int]], met: Met) -> None:
    """Swap two players of two tables while a swap lowers the repeats."""
    for _pass in range(50):
        better = False
        for i, first in enumerate(tables):
            if repeats([first], met) == 0:
                continue
            for a_at, a in enumerate(first):
                if _clashes(a, first, met, without=a) == 0:
                    continue
                found = _best_swap(tables, i, a_at, met)
                if found is not None:
                    j, b_at = found
                    first[a_at], tables[j][b_at] = tables[j][b_at], first[a_at]
                    better = True
        if not better:
            return


def _best_swap(tables: list[list[int]], i: int, a_at: int, met: Met) -> tuple[int, int] | None:
    """The swap of the player at ``tables[i][a_at]`` that lowers the two tables' repeats most."""
    first = tables[i]
    best: tuple[int, int] | None = None
    best_gain = 0
    before_i = repeats([first], met)
    for j, second in enumerate(tables):
        if j == i:
            continue
        before = before_i + repeats([second], met)
        for b_at in range(len(second)):
            one, two = list(first), list(second)
            one[a_at], two[b_at] = two[b_at], one[a_at]
            gain = before - repeats([one, two], met)
            if gain > best_gain:
                best, best_gain = (j, b_at), gain
    return best
