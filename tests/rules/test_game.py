"""A game as a fold over its rounds: folding one round at a time, as recording does from the
stored state, always equals replaying every round from the start. No database."""

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import PRESETS, RoundError, RulesError, Status, build_rules
from scorekeeper.rules.endings import lowest_endings, offered
from scorekeeper.rules.game import (
    GameState,
    RoundInput,
    advance,
    describe_changes,
    play,
    replay,
    start,
)

NAMES = ("Ann", "Ben", "Cat", "Dev", "Eve")


@st.composite
def games(draw):
    """Rules, seats, and a list of rounds a table could have played, built round by round."""
    preset = draw(st.sampled_from(sorted(PRESETS)))
    overrides = draw(
        st.sampled_from(
            [
                {},
                {"lives": 2},
                {"lives": 8},
                {"knocker_tied": "only_knocker"},
                {"round_limit": 6},
                {"stock_out": "draw"},
            ]
        )
    )
    try:
        rules, _ = build_rules({"preset": preset, "overrides": overrides})
    except RulesError:  # a switch of the other way of playing (lives in a game for a pot)
        assume(False)
    names = NAMES[: draw(st.integers(2, 5))]
    first = draw(st.integers(0, len(names) - 1))
    state = start(rules, names, first)
    rounds = []
    for _ in range(draw(st.integers(0, 40))):
        if state.game_over:
            break
        playing = [i for i, status in enumerate(state.statuses) if status != Status.OUT]
        ending = draw(st.sampled_from((*offered(rules), "manual")))
        seat = st.sampled_from(playing)
        counted = draw(st.dictionaries(seat, st.integers(1, rules.most_lost), min_size=1))
        round = RoundInput(
            ending=ending,
            knocker=draw(seat) if ending == "knock" else None,
            shown_by=(draw(seat),)
            if ending in ("thirty_one", "three_aces", "dealt_thirty_one")
            else (),
            lowest=tuple(draw(st.lists(seat, min_size=1, max_size=2, unique=True)))
            if ending in lowest_endings(rules)
            else None,
            # Mostly none: a choice only counts where the rules leave something open.
            choice=draw(st.sampled_from([None] * 6 + ["replay", "revival", "without_31_lose_1"])),
            losses=counted if ending == "manual" else None,
        )
        try:
            step = play(rules, state, round)
        except RoundError:
            continue  # a round the table could not have played: not recorded
        if step.result.result == "table_decides" or (round.choice and not step.result.choice_asked):
            continue  # recording refuses both
        rounds.append(round)
        state = advance(state, step)
    return rules, names, first, rounds


@settings(max_examples=300, deadline=None)
@given(games())
def test_folding_round_by_round_equals_replaying_from_the_start(game):
    rules, names, first, rounds = game
    state = start(rules, names, first)
    for round in rounds:
        # A round read back from its data (how a game keeps its latest round, to tell it in
        # another language) is the round, and tells the same.
        kept = RoundInput.from_data(json.loads(json.dumps(round.as_data())))
        assert kept == round
        assert play(rules, state, kept) == play(rules, state, round)
        state = advance(state, play(rules, state, round))
        stored = json.loads(json.dumps(state.as_data()))  # as the game row keeps it
        assert GameState.from_data(stored) == state
        state = GameState.from_data(stored)
    replayed, steps = replay(rules, names, first, rounds)
    assert replayed == state
    assert len(steps) == len(rounds) == state.rounds
    assert state.pot == sum(state.start_lives - lives for lives in state.lives) or any(
        "returns" in line for step in steps for line in step.result.explanation
    )


def test_a_round_left_to_the_table_ends_the_replay_without_moving_the_state():
    rules = PRESETS["kitchen-table"].rules
    dealt = RoundInput("dealt_thirty_one", shown_by=(0, 1))
    state, steps = replay(rules, ("Ann", "Ben", "Cat"), 0, [dealt])
    assert steps[-1].result.result == "table_decides"
    assert state == start(rules, ("Ann", "Ben", "Cat"), 0)


def test_a_round_after_the_end_is_refused_and_a_replay_names_the_round():
    rules = PRESETS["friendly"].rules
    knock = RoundInput("knock", knocker=0, lowest=(1,))
    state, _ = replay(rules, ("Ann", "Ben"), 0, [knock] * 3)
    assert state.game_over and state.winner == "Ann"
    # The next round at the table is the one being recorded: its number would be noise.
    with pytest.raises(RoundError, match=r"^the game was already over$"):
        play(rules, state, knock)
    # Worked out again from the start, the refusal says which round it is about.
    with pytest.raises(RoundError, match=r"^round 4: the game was already over$"):
        replay(rules, ("Ann", "Ben"), 0, [knock] * 4)


def test_an_edit_is_told_in_words():
    rules = PRESETS["scat"].rules
    names = ("Ann", "Ben", "Cat")
    knock_cat = RoundInput("knock", knocker=0, lowest=(2,))
    before, _ = replay(rules, names, 0, [knock_cat] * 4)
    after, _ = replay(
        rules, names, 0, [RoundInput("knock", knocker=0, lowest=(1,))] + [knock_cat] * 3
    )
    assert "Cat is no longer out." in describe_changes(rules, before, after)
    assert describe_changes(rules, after, after) == ["Nothing changes for the table now."]


def test_a_rounds_line_names_the_one_who_did_not_lose_when_everyone_else_did():
    rules = PRESETS["scat"].rules
    state = start(rules, NAMES, 0)
    step = play(rules, state, RoundInput("thirty_one", shown_by=(2,)))
    assert step.summary == "everyone but Cat −1"
    assert step.headline == "everyone but Cat −1 · Ben deals next"
    # Two losers, or different losses: each by name.
    step = play(rules, start(rules, NAMES[:3], 0), RoundInput("thirty_one", shown_by=(2,)))
    assert step.summary == "Ann −1, Ben −1"
    step = play(rules, state, RoundInput("manual", losses={0: 2, 1: 1, 3: 1, 4: 1}))
    assert step.summary == "Ann −2, Ben −1, Dev −1, Eve −1 (counted by hand)"


def test_a_round_with_cards_and_lives_counted_by_hand_reads_back_from_its_data():
    for round in (
        RoundInput(
            "knock", knocker=1, lowest=(0,), hands={0: ["7H", "8H", "2C"], 2: ["AS", "KS", "QS"]}
        ),
        RoundInput("manual", losses={0: 2, 2: 1}),
    ):
        assert RoundInput.from_data(json.loads(json.dumps(round.as_data()))) == round
