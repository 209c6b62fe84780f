"""Where each seat finished a game: the winner first, then by how long each lasted; in a game
played for a pot, by coins. No database."""

from dataclasses import replace

from scorekeeper.rules import Status, build_rules
from scorekeeper.rules.game import RoundInput, advance, play, seat_places, start

NAMES = ("Ann", "Ben", "Cat", "Dev")


def knocks(rules, names, rounds):
    """The table after knocks: (knocker, [lowest]) by name."""
    state = start(rules, names, 0)
    for knocker, lowest in rounds:
        inputs = RoundInput(
            "knock", knocker=names.index(knocker), lowest=tuple(names.index(n) for n in lowest)
        )
        state = advance(state, play(rules, state, inputs))
    return state


def test_the_winner_is_first_and_the_others_in_the_order_they_went_out():
    rules, _ = build_rules({"preset": "friendly", "overrides": {"lives": 1}})
    state = knocks(rules, NAMES, [("Ann", ["Cat"]), ("Ann", ["Ben"]), ("Ann", ["Dev"])])
    assert state.game_over and state.winner == "Ann"
    assert seat_places(state) == [1, 3, 4, 2]


def test_seats_out_in_the_same_round_share_a_place_and_the_next_is_skipped():
    rules, _ = build_rules({"preset": "friendly", "overrides": {"lives": 1}})
    state = knocks(rules, NAMES, [("Ann", ["Ben", "Cat"]), ("Ann", ["Dev"])])
    assert state.game_over
    assert seat_places(state) == [1, 3, 3, 2]


def test_nothing_while_the_game_goes_on():
    rules, _ = build_rules({"preset": "scat", "overrides": {}})
    state = knocks(rules, NAMES, [("Ann", ["Ben"])])
    assert not state.game_over and seat_places(state) == [None] * 4


def test_a_tie_shares_the_first_place_and_a_pot_game_ranks_by_coins():
    rules, _ = build_rules({"preset": "friendly", "overrides": {"lives": 1}})
    state = knocks(rules, NAMES, [("Ann", ["Ben"])])
    tied = replace(state, game_over=True, winner=None, tie=("Ann", "Cat"))
    assert seat_places(tied)[0] == seat_places(tied)[2] == 1
    assert seat_places(tied)[1] == 4  # out in round 1; Dev, never out, before him
    assert seat_places(tied)[3] == 3
    pot = replace(
        state, game_over=True, winner="Dev", tie=(), coins=(2, -3, 2, 5), statuses=(Status.IN,) * 4
    )
    assert seat_places(pot) == [2, 4, 2, 1]
