"""The draw itself (``lib/draw.py``), pure and seeded: table sizes that leave the fewest short
tables, and a draw by standings that stays Swiss (each player at their own table of the standings
or one next to it) with the fewest repeats such a draw can have, found, not guessed."""

import itertools
import random

import pytest

from scorekeeper.lib import draw


def own_tables(standings, size):
    """The tables the standings give, cut in order (each player's own table)."""
    tables, at = [], 0
    for n in draw.table_sizes(len(standings), size):
        tables.append(list(standings[at : at + n]))
        at += n
    return tables


def away(tables, standings, size):
    """How far each player sits from their own table, the farthest."""
    home = {p: i for i, table in enumerate(own_tables(standings, size)) for p in table}
    return max(abs(home[p] - i) for i, table in enumerate(tables) for p in table)


def met_of(tables):
    met = {}
    for table in tables:
        for a, b in itertools.permutations(table, 2):
            met.setdefault(a, set()).add(b)
    return met


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(25, [5, 4, 4, 4, 4, 4]), (13, [5, 4, 4]), (11, [4, 4, 3]), (7, [4, 3]), (6, [3, 3])],
)
def test_players_who_do_not_divide_sit_at_tables_of_one_more_before_one_less(players, sizes):
    assert draw.table_sizes(players, 4) == sizes


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_no_way_to_seat_the_players_has_fewer_short_tables(size):
    """For every number of players up to 200: never a table under three; where tables within one
    of the size asked can seat them, such tables, and none with fewer tables short of the size."""
    for players in range(3, 201):
        sizes = draw.table_sizes(players, size)
        assert sum(sizes) == players and min(sizes) >= 3
        smallest = size - 1 if size - 1 >= 3 else None
        fewest = min(
            (
                small
                for big in range(players // (size + 1) + 1)
                for small in range(players // smallest + 1 if smallest else 1)
                if (rest := players - big * (size + 1) - small * (smallest or 0)) >= 0
                and rest % size == 0
            ),
            default=None,
        )
        if fewest is None:
            continue  # no seating within one of the size (5 at tables of 3: one of 5)
        assert all(size - 1 <= n <= size + 1 for n in sizes), (players, sizes)
        short = sum(1 for n in sizes if n < size)
        assert short == fewest, (players, sizes)


def all_banded_seatings(standings, size):
    """Every seating with each player at their own table or one next to it (small cases)."""
    sizes = draw.table_sizes(len(standings), size)
    home = {p: i for i, table in enumerate(own_tables(standings, size)) for p in table}

    def seat(number, left):
        if number == len(sizes):
            yield []
            return
        near = [p for p in left if abs(home[p] - number) <= 1]
        for table in itertools.combinations(near, sizes[number]):
            rest = [p for p in left if p not in table]
            # Whoever's own table was the one before must sit by now.
            if any(home[p] < number for p in rest):
                continue
            for tail in seat(number + 1, rest):
                yield [list(table), *tail]

    yield from seat(0, list(standings))


@pytest.mark.parametrize("seed", range(12))
def test_the_draw_by_standings_finds_the_best_of_every_swiss_seating(seed):
    """Against every seating that keeps players within one table of their own: none has fewer
    repeats; of those, none spans fewer places; of those, none moves fewer players."""
    rng = random.Random(seed)
    players = rng.choice([12, 13, 15])
    standings = rng.sample(range(100), players)
    met = {}
    for a, b in itertools.combinations(standings, 2):
        if rng.random() < 0.4:
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    rank = {p: i for i, p in enumerate(standings)}
    home = {p: i for i, table in enumerate(own_tables(standings, 4)) for p in table}

    def score(tables):
        return (
            draw.repeats(tables, met),
            sum(max(rank[p] for p in t) - min(rank[p] for p in t) for t in tables),
            sum(1 for i, t in enumerate(tables) for p in t if home[p] != i),
        )

    drawn = draw.by_standings(standings, 4, met)
    assert sorted(itertools.chain(*drawn)) == sorted(standings)
    assert away(drawn, standings, 4) <= 1
    assert score(drawn) == min(score(s) for s in all_banded_seatings(standings, 4))


@pytest.mark.parametrize("seed", range(6))
def test_where_a_swiss_seating_without_repeats_exists_the_draw_finds_it(seed):
    """200 players whose history was made so that a seating without repeats exists within one
    table of each player's own (a tenth of all pairs near each other met before, every pair of
    the hidden seating not): the draw meets nobody again."""
    rng = random.Random(seed)
    standings = list(range(200))
    hidden = own_tables(standings, 4)
    home = {p: i for i, table in enumerate(hidden) for p in table}
    for _ in range(400):
        i = rng.randrange(len(hidden) - 1)
        a, b = rng.randrange(4), rng.randrange(4)
        x, y = hidden[i][a], hidden[i + 1][b]
        if abs(home[x] - (i + 1)) <= 1 and abs(home[y] - i) <= 1:
            hidden[i][a], hidden[i + 1][b] = y, x
    together = met_of(hidden)
    met = {}
    for a, b in itertools.combinations(standings, 2):
        if abs(home[a] - home[b]) <= 2 and b not in together.get(a, ()) and rng.random() < 0.7:
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    assert draw.repeats(own_tables(standings, 4), met) > 100
    drawn = draw.by_standings(standings, 4, met)
    assert draw.repeats(drawn, met) == 0
    assert away(drawn, standings, 4) <= 1


def test_200_players_over_10_rounds_stay_swiss():
    """An open of 200 at tables of 4, ten rounds, each game's places at random: every table of
    every round spans at most three tables' worth of places (11), and the leader sits at one of
    the top two tables."""
    rng = random.Random(200)
    players = list(range(200))
    lot = {p: rng.random() for p in players}
    points = dict.fromkeys(players, 0)
    met: dict[int, set[int]] = {}
    for number in range(1, 11):
        standings = sorted(players, key=lambda p: (-points[p], lot[p]))
        if number == 1:
            tables = draw.mixed(players, 4, met, rng)
        else:
            tables = draw.by_standings(standings, 4, met)
            rank = {p: i for i, p in enumerate(standings)}
            assert max(max(rank[p] for p in t) - min(rank[p] for p in t) for t in tables) <= 11
            assert next(i for i, t in enumerate(tables) if standings[0] in t) <= 1
            assert away(tables, standings, 4) <= 1
        assert sorted(itertools.chain(*tables)) == players
        for table in tables:
            order = rng.sample(table, len(table))
            for place, p in enumerate(order):
                points[p] += len(order) - 1 - place
        for p, others in met_of(tables).items():
            met.setdefault(p, set()).update(others)
