"""Thirty-One with a widow and a pot, from the scat page's own sentences: "Everyone pays into a
pot. Deal 3 cards each and 3 more face up in the middle, called the widow. There is no stock.
On your turn, swap one card with the widow. After a knock, everyone else gets one more turn,
and the highest hand wins the pot. A player with 31 knocks at once and wins. Some let you swap
several cards." """

import pytest

from scorekeeper.rules import PRESETS, RoundError, build_rules
from scorekeeper.rules.endings import offered
from scorekeeper.rules.game import RoundInput, advance, play, replay, start, tallies

from .cast import rules_for

WIDOW = PRESETS["widow"].rules
ANA, BEN, CAT = 0, 1, 2
NAMES = ["Ana", "Ben", "Cat"]


def hand(rules, rounds, names=NAMES):
    """The state after ``rounds`` and the last round's step."""
    state, steps = replay(rules, names, 0, rounds)
    return state, steps[-1]


def test_it_has_no_lives_and_its_own_endings():
    assert WIDOW.form == "pot" and WIDOW.middle == "widow"
    assert offered(WIDOW) == ("highest", "pot_31", "stop")
    # "Deal 3 cards each and 3 more face up in the middle": 52 cards seat 16.
    assert WIDOW.max_players == 16
    # No ending of a game of lives is offered, and no round is counted in lives.
    for ending in ("knock", "thirty_one", "manual"):
        with pytest.raises(RoundError) as refused:
            play(WIDOW, start(WIDOW, NAMES, 0), RoundInput(ending, knocker=ANA))
        assert refused.value.field == "ending"


def test_everyone_pays_in_and_the_highest_hand_wins_the_pot():
    # "Everyone pays into a pot … the highest hand wins the pot."
    state, step = hand(WIDOW, [RoundInput("highest", knocker=BEN, winners=(ANA,))])
    assert step.result.coins == {"Ana": 2, "Ben": -1, "Cat": -1}
    assert state.coins == (2, -1, -1) and state.pot == 0
    assert state.lives == (3, 3, 3) and not state.game_over
    assert "Everyone paid 1 coin in: the pot holds 3." in step.result.explanation
    assert "Ana takes the pot: 3." in step.result.explanation
    assert step.headline == "Ana takes 3 · Ben deals next"


def test_the_cards_find_the_highest_hand_and_a_wrong_winner_is_refused():
    cards = {ANA: ["7S", "8H", "2C"], BEN: ["AH", "KH", "9H"], CAT: ["AS", "KS", "8S"]}
    _state, step = hand(WIDOW, [RoundInput("highest", knocker=CAT, hands=cards)])
    assert step.result.winners == ("Ben",)
    assert "Ben has the highest hand, 30." in step.result.explanation
    with pytest.raises(RoundError) as refused:
        play(WIDOW, start(WIDOW, NAMES, 0), RoundInput("highest", hands=cards, winners=(CAT,)))
    assert refused.value.field == "winners"
    assert "make Ben highest, not Cat" in refused.value.message


def test_without_every_hand_the_table_names_the_winner():
    cards = {ANA: ["7S", "8H", "2C"]}
    with pytest.raises(RoundError) as refused:
        play(WIDOW, start(WIDOW, NAMES, 0), RoundInput("highest", hands=cards))
    assert "or name who won the pot" in refused.value.message


def test_a_31_knocks_at_once_and_wins():
    # "A player with 31 knocks at once and wins."
    state, step = hand(WIDOW, [RoundInput("pot_31", shown_by=(CAT,))])
    assert step.result.winners == ("Cat",) and state.coins == (-1, -1, 2)
    assert "Cat showed 31, which knocks at once and wins." in step.result.explanation
    # A 31 is a knock by itself: nobody else knocked.
    with pytest.raises(RoundError) as refused:
        play(WIDOW, start(WIDOW, NAMES, 0), RoundInput("pot_31", knocker=ANA, shown_by=(CAT,)))
    assert refused.value.field == "knocker"
    # Entered, the hand must be worth 31.
    with pytest.raises(RoundError):
        play(
            WIDOW,
            start(WIDOW, NAMES, 0),
            RoundInput("pot_31", shown_by=(CAT,), hands={CAT: ["AS", "KS", "8S"]}),
        )
    assert tallies(step, 3)[CAT]["thirty_ones"] == 1


def test_a_tie_splits_the_pot_and_what_does_not_divide_stays_said_as_our_reading():
    state, step = hand(WIDOW, [RoundInput("highest", knocker=ANA, winners=(ANA, BEN))])
    assert state.coins == (0, 0, -1) and state.pot == 1
    text = " ".join(step.result.explanation)
    assert "Ana and Ben share the pot, 1 each (our reading" in text
    assert "1 coin stays in the middle" in text
    # What equal hands the tie break leaves equal do is ours; the card says so beside it.
    assert "tie_break" in WIDOW.value_readings()
    # The coin left over goes into the next pot.
    state, step = hand(
        WIDOW,
        [
            RoundInput("highest", knocker=ANA, winners=(ANA, BEN)),
            RoundInput("highest", knocker=CAT, winners=(CAT,)),
        ],
    )
    assert "Everyone paid 1 coin in: the pot holds 4." in step.result.explanation
    assert state.coins == (-1, -1, 2) and state.pot == 0


def test_the_ante_is_a_house_rule():
    rules = rules_for("widow", ante=5)
    state, step = hand(rules, [RoundInput("highest", winners=(BEN,))])
    assert state.coins == (-5, 10, -5)
    assert "Everyone paid 5 coins in: the pot holds 15." in step.result.explanation


def test_equal_highest_hands_go_to_the_highest_card_and_a_table_may_split_them():
    cards = {ANA: ["AS", "KS", "2S"], BEN: ["QH", "JH", "3H"], CAT: ["7C", "8C", "2D"]}
    # A 23 each; the widow preset gives it to Ana's ace, as Bicycle's rules do.
    broken = hand(WIDOW, [RoundInput("highest", hands=cards)])[1]
    assert broken.result.winners == ("Ana",)
    split = hand(rules_for("widow", tie_break="tie"), [RoundInput("highest", hands=cards)])
    assert split[1].result.winners == ("Ana", "Ben")
    counted = hand(
        rules_for("widow", tie_break="highest_card"), [RoundInput("highest", hands=cards)]
    )
    assert counted[1].result.winners == ("Ana",)


def test_the_table_ends_the_game_and_the_most_coins_wins():
    state, step = hand(
        WIDOW,
        [
            RoundInput("highest", knocker=ANA, winners=(ANA,)),
            RoundInput("highest", knocker=ANA, winners=(BEN,)),
            RoundInput("pot_31", shown_by=(ANA,)),
            RoundInput("stop"),
        ],
    )
    assert state.game_over and state.winner == "Ana" and state.coins == (3, 0, -3)
    assert step.summary == "The table stops"
    assert "nobody pays in" in step.result.explanation[0]
    # Equal coins at the end are a tie.
    state, _step = hand(
        WIDOW,
        [
            RoundInput("highest", winners=(ANA,)),
            RoundInput("highest", winners=(BEN,)),
            RoundInput("stop"),
        ],
    )
    assert state.tie == ("Ana", "Ben") and state.winner is None


def test_a_set_number_of_hands_ends_the_game():
    rules = rules_for("widow", round_limit=2)
    state, step = hand(
        rules, [RoundInput("highest", winners=(ANA,)), RoundInput("highest", winners=(ANA,))]
    )
    assert state.game_over and state.winner == "Ana"
    assert "That was hand 2 of 2: the most coins wins." in step.result.explanation


@pytest.mark.parametrize(
    "pot_at_end, coins, left", [("stays", (2, -1, -2), 1), ("winner", (3, -1, -2), 0)]
)
def test_what_is_left_in_the_middle_at_the_end_stays_or_goes_to_the_winner(pot_at_end, coins, left):
    # The scat page: "agree on it if you play for real coins".
    rules = rules_for("widow", pot_at_end=pot_at_end)
    rounds = [
        RoundInput("highest", winners=(ANA,)),
        RoundInput("highest", winners=(ANA, BEN)),  # 3 coins, 1 each: 1 stays in the middle
        RoundInput("stop"),
    ]
    state, step = hand(rules, rounds)
    assert state.winner == "Ana" and state.coins == coins and state.pot == left
    said = "What is left in the middle goes to Ana: 1." in step.result.explanation
    assert said == (pot_at_end == "winner")


def test_what_is_left_does_not_divide_among_those_who_tie_it_stays():
    rules = rules_for("widow", pot_at_end="winner")
    rounds = [RoundInput("highest", winners=(ANA, BEN)), RoundInput("stop")]
    state, step = hand(rules, rounds)
    assert state.tie == ("Ana", "Ben") and state.pot == 1
    assert not any("goes to" in line for line in step.result.explanation)


def test_coins_are_never_made_or_lost():
    rounds = [
        RoundInput("highest", knocker=ANA, winners=(ANA, BEN, CAT)),
        RoundInput("highest", knocker=BEN, winners=(ANA, BEN)),
        RoundInput("pot_31", shown_by=(BEN,)),
    ]
    state = start(WIDOW, NAMES, 0)
    for round in rounds:
        state = advance(state, play(WIDOW, state, round))
        assert sum(state.coins) + state.pot == 0


def test_the_stats_count_hands_won_coins_and_a_knock_that_did_not_win():
    step = hand(WIDOW, [RoundInput("highest", knocker=BEN, winners=(ANA,))])[1]
    counts = tallies(step, 3)
    assert [c["hands_won"] for c in counts] == [1, 0, 0]
    assert [c["coins"] for c in counts] == [2, -1, -1]
    assert counts[BEN]["knocks"] == 1 and counts[BEN]["knocks_caught"] == 1
    assert sum(c["lives_lost"] for c in counts) == 0


def test_a_game_of_lives_stores_no_coins_and_a_pot_game_does():
    lives = start(PRESETS["scat"].rules, NAMES, 0)
    assert "coins" not in lives.as_data()
    pot = start(WIDOW, NAMES, 0)
    assert pot.as_data()["coins"] == [0, 0, 0]
    assert type(pot).from_data(pot.as_data()) == pot


def test_the_rules_card_of_a_pot_game_shows_no_switch_of_lives():
    card = {row["name"] for row in WIDOW.describe()}
    assert {"ante", "widow_swap", "pot_at_end", "tie_break"} <= card
    assert not card & {"lives", "last_chance", "knocker_alone", "thirty_one", "all_out"}
    scat = {row["name"] for row in PRESETS["scat"].rules.describe()}
    assert "ante" not in scat and "lives" in scat


def test_winners_are_named_only_for_a_hand_played_for_a_pot():
    scat = PRESETS["scat"].rules
    with pytest.raises(RoundError) as refused:
        play(scat, start(scat, NAMES, 0), RoundInput("knock", knocker=ANA, winners=(BEN,)))
    assert refused.value.field == "winners"
    for winners, words in [((), "name who won"), ((ANA, ANA), "named twice")]:
        with pytest.raises(RoundError) as refused:
            play(WIDOW, start(WIDOW, NAMES, 0), RoundInput("highest", winners=winners))
        assert words in refused.value.message


def test_a_pot_game_can_be_built_from_any_preset():
    rules, _preset = build_rules({"preset": "schwimmen", "overrides": {"form": "pot"}})
    assert offered(rules) == ("highest", "pot_31", "stop")
