"""Rounds counted by hand: the scat source's own scorekeeper, played through the engine.

"Tap a player's button to take a life, twice for a knocker who loses 2. The Has 31 button takes
a life from everyone else still in. A player who loses their last life is shown on the county,
the next loss puts them out, and the game ends when one player is left." (scat, Scorekeeper)
"""

import pytest

from scorekeeper.rules import PRESETS, RoundError, Status, build_rules
from scorekeeper.rules.game import RoundInput, advance, play, replay, start

NAMES = ("Ann", "Ben", "Cat")


def counted(**losses: int) -> RoundInput:
    return RoundInput("manual", losses={NAMES.index(name): n for name, n in losses.items()})


def test_the_scat_scorekeeper_worked_through_to_a_winner():
    rules = PRESETS["scat"].rules
    rounds = [
        counted(Ann=2),  # a knocker who loses 2: two taps, one round
        counted(Ann=1, Ben=1),  # "Has 31" for Cat; Ann lost her last life: on the county
        counted(Ann=1),  # the next loss puts her out
    ]
    states = []
    state = start(rules, NAMES, 0)
    for round in rounds:
        step = play(rules, state, round)
        state = advance(state, step)
        states.append(state)
    assert states[0].lives == (1, 3, 3) and states[0].rounds == 1
    assert states[1].lives == (0, 2, 3)
    assert states[1].statuses[0] == Status.COUNTY
    assert rules.status_label(states[1].statuses[0]) == "on the county"
    assert states[2].statuses[0] == Status.OUT
    assert state.pot == 4  # every life lost goes to the pot
    assert not state.game_over
    state = advance(state, play(rules, state, counted(Ben=2)))
    state = advance(state, play(rules, state, counted(Ben=1)))
    assert state.game_over and state.winner == "Cat"
    assert replay(rules, NAMES, 0, [*rounds, counted(Ben=2), counted(Ben=1)])[0] == state


def test_a_counted_round_says_what_the_table_counted():
    rules = PRESETS["scat"].rules
    step = play(rules, start(rules, NAMES, 0), counted(Cat=1, Ben=2))
    assert step.result.losses == {"Ben": 2, "Cat": 1}
    # Under scat only a knocker loses 2, and a knocker who loses 2 loses alone: no round of
    # these rules costs this, and the table is told so (it keeps it only if it confirms).
    assert step.result.unusual
    assert step.result.explanation[:4] == (
        "The table counted this round by hand.",
        "No round of these rules costs these lives; it is kept as the table counted it.",
        "Ben loses 2 lives: counted by hand.",
        "Cat loses 1 life: counted by hand.",
    )
    usual = play(rules, start(rules, NAMES, 0), counted(Ben=2))
    assert not usual.result.unusual and usual.result.losses == {"Ben": 2}


def test_the_loser_deals_after_a_counted_round_too():
    rules = PRESETS["aces-wild"].rules
    assert rules.next_dealer == "loser"
    step = play(rules, start(rules, NAMES, 0), counted(Cat=1))
    assert step.result.next_dealer == "Cat"


@pytest.mark.parametrize(
    ("preset", "losses", "message"),
    [
        (
            "scat",
            {"Ben": 3},
            "Ben cannot lose 3 lives in one round: under these rules a round "
            "costs a player at most 2 lives",
        ),
        (
            "schwimmen",
            {"Ben": 2},
            "Ben cannot lose 2 lives in one round: under these rules a "
            "round costs a player at most 1 life",
        ),
        ("scat", {"Ben": 0}, "Ben cannot lose 0 lives in one round"),
        ("scat", {}, "tap a player to take a life"),
    ],
)
def test_a_loss_the_rules_could_never_give_is_refused_naming_the_player(preset, losses, message):
    rules = PRESETS[preset].rules
    with pytest.raises(RoundError, match=message) as refusal:
        play(rules, start(rules, NAMES, 0), counted(**losses))
    assert refusal.value.part == "losses"
    if losses:
        assert refusal.value.seat == NAMES.index("Ben")


def test_a_player_who_is_out_cannot_lose_a_life():
    rules, _ = build_rules({"preset": "scat", "overrides": {"lives": 1}})
    state = start(rules, NAMES, 0)
    for _ in range(2):
        state = advance(state, play(rules, state, counted(Cat=1)))
    assert state.statuses[2] == Status.OUT
    with pytest.raises(RoundError, match="Cat is out, so cannot lose a life") as refusal:
        play(rules, state, counted(Cat=1))
    assert refusal.value.seat == 2


@pytest.mark.parametrize(
    "round",
    [
        RoundInput("manual", knocker=0, losses={1: 1}),
        RoundInput("manual", lowest=(1,), losses={1: 1}),
        RoundInput("manual", hands={0: ["AS", "KS", "QS"]}, losses={1: 1}),
        RoundInput("knock", knocker=0, lowest=(1,), losses={1: 1}),
        RoundInput("manual", losses={7: 1}),
    ],
)
def test_a_counted_round_mixed_with_a_played_one_is_refused(round):
    rules = PRESETS["scat"].rules
    with pytest.raises(RoundError):
        play(rules, start(rules, NAMES, 0), round)
