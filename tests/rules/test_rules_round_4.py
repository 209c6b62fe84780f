"""Rules round 4: the knock switches reach every ending that has a knocker, each tie rule reads
as its source says, cards of one rank add up where a table plays it (Board Game Arena), and the
cases the sources leave open are marked on the rules card as our reading."""

import pytest

from scorekeeper.rules import PRESETS, evaluate, parse_cards
from scorekeeper.rules.game import RoundInput, replay
from scorekeeper.rules.ruleset import stored_rules

from .cast import play as play_round
from .cast import rules_for, seat

# ---- A switch about the knocker acts in a second knock too ----------------------------------

LOW_20, MID_25, TOP_28 = "KD 10D 2C", "KS 10S 5S", "KH 10H 8H"


def second_knock(preset, hands, **overrides):
    seats = [seat(name, cards) for name, cards in zip(("Ann", "Ben", "Cat"), hands, strict=True)]
    return play_round(
        preset,
        seats,
        "second_knock",
        knocker="Ann",
        shown_by=("Ben",),
        second_knock=True,
        **overrides,
    )


def test_a_first_knocker_alone_at_the_bottom_after_a_second_knock_is_caught():
    # kitchen-table: "If the knocker is lowest, the knocker loses two (caught)."
    result = second_knock("kitchen-table", (LOW_20, MID_25, TOP_28))
    assert result.losses == {"Ann": 2}
    assert "Ann loses 2 lives: caught: knocked and alone has the lowest hand." in (
        result.explanation
    )
    # The same hand after a plain knock says the same, from the same place.
    seats = [seat("Ann", LOW_20), seat("Ben", MID_25), seat("Cat", TOP_28)]
    plain = play_round("kitchen-table", seats, knocker="Ann")
    assert [s for s in plain.explanation if s.startswith("Ann loses")] == [
        s for s in result.explanation if s.startswith("Ann loses")
    ]
    scat = second_knock("scat", (LOW_20, MID_25, TOP_28))
    assert scat.losses == {"Ann": 2}
    assert not any("caught" in s for s in scat.explanation)


def test_a_beaten_first_knocker_loses_the_extra_life_after_a_second_knock():
    # Ann knocked with 25; Cat's 28 beats her: a life more, though Ben's 20 is lowest.
    result = second_knock("scat", (MID_25, LOW_20, TOP_28), knocker_beaten=1)
    assert result.losses == {"Ann": 1, "Ben": 1}
    assert (
        "Ann loses 1 life: knocked and someone had a better hand: a knocker must have the top "
        "hand." in result.explanation
    )
    # Alone at the bottom under scat: 2, and 1 more for not having the top hand.
    assert second_knock("scat", (LOW_20, MID_25, TOP_28), knocker_beaten=1).losses == {"Ann": 3}
    # With the top hand nothing more; the switch off, nothing more either.
    assert second_knock("scat", (TOP_28, LOW_20, MID_25), knocker_beaten=1).losses == {"Ben": 1}
    assert second_knock("scat", (MID_25, LOW_20, TOP_28)).losses == {"Ben": 1}


def test_the_second_knocker_alone_at_the_bottom_loses_one_as_our_reading():
    result = second_knock("scat", (MID_25, LOW_20, TOP_28))
    assert result.losses == {"Ben": 1}
    card = {row["name"]: row for row in rules_for("scat", second_knock=True).describe()}
    assert card["second_knock"]["our_reading"]
    assert "a second knocker alone at the bottom loses 1" in card["second_knock"]["reading"]
    assert "a single knock" in card["second_knock"]["reading"]
    plain = {row["name"]: row for row in PRESETS["scat"].rules.describe()}
    assert plain["second_knock"]["reading"] == ""


# ---- tie_break: highest_in_hand, as github.com/jmisabella/cards compares ------------------
# ThirtyOneHandEvaluation.scala, preference(): ``case (c1, c2) if (c1 == c2) => None``; its
# spec: "not break a tie when both hands share the same high card rank".

TIED_QUEENS = [seat("Ann", "AH KH 9H"), seat("Ben", "2D QD 10D"), seat("Cat", "2S JS QS")]


def test_the_highest_card_in_the_hand_alone_breaks_a_tie_as_its_source_says():
    result = play_round("scat", TIED_QUEENS, knocker="Ann", tie_break="highest_in_hand")
    assert result.losses == {"Ben": 1, "Cat": 1}
    assert (
        "Ben and Cat have 22 each and the same highest card, so the tie stands: only the "
        "highest card breaks a tie." in result.explanation
    )


def test_going_on_to_the_next_card_is_its_own_value():
    result = play_round("scat", TIED_QUEENS, knocker="Ann", tie_break="highest_in_hand_then_next")
    assert result.losses == {"Ben": 1}  # Q Q, then 10 under J
    # A different highest card breaks the tie under both.
    seats = [seat("Ann", "AH KH 9H"), seat("Ben", "2D QD 10D"), seat("Cat", "2S JS KS")]
    for tie_break in ("highest_in_hand", "highest_in_hand_then_next"):
        broken = play_round("scat", seats, knocker="Ann", tie_break=tie_break)
        assert broken.losses == {"Ben": 1}, tie_break


def test_a_game_stored_before_version_5_keeps_going_on_to_the_next_card():
    stored = {**PRESETS["scat"].rules.as_dict(), "tie_break": "highest_in_hand"}
    del stored["same_rank"]
    assert stored_rules(stored, 4).tie_break == "highest_in_hand_then_next"
    assert stored_rules({**stored, "same_rank": "apart"}, 5).tie_break == "highest_in_hand"


# ---- The widow game: the highest-ranking card wins a tie (Bicycle) -------------------------


def test_the_widow_preset_gives_a_tie_to_the_highest_ranking_card():
    # Bicycle: "If there is a tie for the highest score, the player with the highest-ranking
    # card wins. Example: K, Q, 6 (total 26) would beat Q, 9, 7".
    rules = PRESETS["widow"].rules
    assert rules.tie_break == "highest_in_hand"
    cards = {0: ["QS", "9S", "7S"], 1: ["KH", "QH", "6H"], 2: ["2C", "3D", "4H"]}
    names = ["Ann", "Ben", "Cat"]
    step = replay(rules, names, 0, [RoundInput("highest", hands=cards)])[1][-1]
    assert step.result.winners == ("Ben",)
    assert "tie_break" not in PRESETS["widow"].readings  # a source decides it now
    split = replay(
        rules_for("widow", tie_break="tie"), names, 0, [RoundInput("highest", hands=cards)]
    )
    assert split[1][-1].result.winners == ("Ann", "Ben")


# ---- same_rank: adds (Board Game Arena: "7 7 7 is 21") -------------------------------------


@pytest.mark.parametrize(
    "cards, value",
    [
        ("7S 7H 7D", 21),  # Board Game Arena: "7 7 7 is 21"
        ("10S 10H 9S", 20),  # a pair of tens beats the 19 in spades
        ("10S 10H AS", 21),  # the spades' 21 is the suit's, not the tens' 20
        ("KS KH KD", 30),
        ("AS AH AD", 33),  # our reading: adding up, where three aces have no value of their own
        ("9C 7D 4S", 9),  # nothing of one rank: as before
    ],
)
def test_cards_of_one_rank_add_up(cards, value):
    assert evaluate(parse_cards(cards), rules_for("scat", same_rank="adds")).value == value


def test_cards_of_one_rank_explain_their_count_and_meet_the_other_switches():
    adds = rules_for("scat", same_rank="adds")
    hand = evaluate(parse_cards("7S 7H KD"), adds)
    assert hand.explanation == "7♠ 7♥ count 14: cards of one rank add up; the K♦ does not join them"
    assert evaluate(parse_cards("7S 7H 7D"), PRESETS["scat"].rules).value == 7  # off: as before
    # Three of a kind worth more than the sum still counts its own value; three aces theirs.
    assert evaluate(parse_cards("7S 7H 7D"), rules_for("schwimmen", same_rank="adds")).value == (
        30.5
    )
    assert evaluate(parse_cards("AS AH AD"), rules_for("schwimmen", same_rank="adds")).value == 33
    card = {row["name"]: row for row in adds.describe()}
    assert card["same_rank"]["our_reading"] and "33" in card["same_rank"]["reading"]


def test_a_showdown_counts_cards_of_one_rank_where_the_table_adds_them():
    seats = [seat("Ann", "7S 7H 7D"), seat("Ben", "KS 5S 2H"), seat("Cat", "AC 9C 2C")]
    assert play_round("scat", seats, knocker="Cat").losses == {"Ann": 1}  # 7 against 15
    assert play_round("scat", seats, knocker="Cat", same_rank="adds").losses == {"Ben": 1}


# ---- A second 31 on the last turn after a 31 -----------------------------------------------


def test_a_second_31_on_the_last_turn_counts_30_and_the_card_says_it_is_our_reading():
    seats = [seat("Ann", "AS KS QS"), seat("Ben", "AH KH QH"), seat("Cat", "KC QC JC")]
    result = play_round("scat", seats, "thirty_one", shown_by=("Ann",), thirty_one="last_turn")
    # Ben's 31 counts 30 and ties Cat's 30 for lowest.
    assert result.losses == {"Ben": 1, "Cat": 1}
    card = {row["name"]: row for row in rules_for("scat", thirty_one="last_turn").describe()}
    assert card["unshown_31"]["our_reading"]
    assert "a second 31 made on the last turn" in card["unshown_31"]["reading"]
    assert PRESETS["scat"].rules.value_readings() == {}
