"""Each house rule the sources list, on top of the scat preset."""

import pytest

from scorekeeper.rules import RoundError

from .cast import after, play, seat

LOW, MID, HIGH, TOP = "2C 3C 4H", "KS 9S 2H", "AC 9C 7C", "AH KH QH"  # 7, 19, 27, 31
MID2 = "AD 8D 6C"  # 19 too


def test_the_knocker_loses_only_1():
    seats = [seat("Ann", LOW), seat("Ben", HIGH)]
    assert play("scat", seats, knocker="Ann", knocker_alone=1).losses == {"Ann": 1}


@pytest.mark.parametrize(
    "knocker_tied, losses",
    [
        ("safe", {"Ben": 1}),
        ("like_others", {"Ann": 1, "Ben": 1}),
        ("knocker_2_others_1", {"Ann": 2, "Ben": 1}),
        ("only_knocker", {"Ann": 2}),
    ],
)
def test_the_knocker_tied_for_lowest(knocker_tied, losses):
    seats = [seat("Ann", MID), seat("Ben", MID2), seat("Cat", HIGH)]
    assert play("scat", seats, knocker="Ann", knocker_tied=knocker_tied).losses == losses


def test_only_the_knocker_loses_1_when_the_knocker_alone_loses_1():
    seats = [seat("Ann", MID), seat("Ben", MID2), seat("Cat", HIGH)]
    result = play("scat", seats, knocker="Ann", knocker_tied="only_knocker", knocker_alone=1)
    assert result.losses == {"Ann": 1}


def ben_shows_31_after_anns_knock(**house_rules):
    seats = [seat("Ann", MID), seat("Ben", TOP), seat("Cat", HIGH)]
    return play("scat", seats, "thirty_one", knocker="Ann", shown_by=("Ben",), **house_rules)


def test_the_knocker_loses_2_to_a_31_made_after_the_knock():
    result = ben_shows_31_after_anns_knock(thirty_one_after_knock="knocker_loses_2")
    assert result.losses == {"Ann": 2, "Cat": 1}


def test_a_31_after_a_knock_only_ranks_top_when_31_counts_only_before_a_knock():
    result = ben_shows_31_after_anns_knock(thirty_one_after_knock="top_hand")
    assert result.losses == {"Ann": 2}  # a showdown: Ann, the knocker, alone at the bottom
    assert any("counts only before a knock" in line for line in result.explanation)


def test_a_31_before_any_knock_still_costs_everyone_a_life_under_that_rule():
    seats = [seat("Ann", MID), seat("Ben", TOP), seat("Cat", HIGH)]
    result = play("scat", seats, "thirty_one", shown_by=("Ben",), thirty_one_after_knock="top_hand")
    assert result.losses == {"Ann": 1, "Cat": 1}


@pytest.mark.parametrize("minimum", [17, 19, 21])
def test_a_lowest_score_to_knock(minimum):
    seats = [seat("Ann", "KS 8S 2H"), seat("Ben", HIGH)]  # Ann has 18
    if minimum <= 18:
        assert play("scat", seats, knocker="Ann", min_knock=minimum).losses == {"Ann": 2}
    else:
        with pytest.raises(RoundError, match=f"need at least {minimum} to knock") as refusal:
            play("scat", seats, knocker="Ann", min_knock=minimum)
        assert refusal.value.field == "knocker"


def test_knocking_out_of_the_gate_changes_how_play_stops_not_who_loses():
    seats = [seat("Ann", MID), seat("Ben", MID2), seat("Cat", HIGH)]
    plain = play("scat", seats, knocker="Ann")
    gate = play("scat", seats, knocker="Ann", knock_out_of_gate=True)
    assert plain.losses == gate.losses == {"Ben": 1}


def test_no_loser_when_the_stock_runs_out():
    seats = [seat("Ann", MID), seat("Ben", HIGH)]
    result = play("scat", seats, "stock_out", dealer="Ann", stock_out="draw")
    assert result.result == "scored" and result.losses == {}
    assert "Nobody loses a life." in result.explanation
    assert result.next_dealer == "Ben"


def test_four_lives_cadillac():
    seats = [seat("Ann", LOW, lives=4), seat("Ben", HIGH, lives=4)]
    result = play("scat", seats, knocker="Ben", lives=4)
    assert after(result)["Ann"] == (3, "in")


def test_three_of_a_kind_at_30_5_beats_30():
    seats = [seat("Ann", "7S 7H 7D"), seat("Ben", "KC QC JC")]
    assert play("scat", seats, knocker="Ann", three_of_a_kind=30.5).losses == {"Ben": 1}
    assert play("scat", seats, knocker="Ann").losses == {"Ann": 2}  # worth 7 in the main rules


def test_three_of_a_kind_at_30_ties_with_30():
    seats = [seat("Ann", "7S 7H 7D"), seat("Ben", "KC QC JC"), seat("Cat", "AH KH QH")]
    result = play("scat", seats, knocker="Cat", three_of_a_kind=30)
    assert result.losses == {"Ann": 1, "Ben": 1}


def test_a_set_number_of_rounds_ending_level_is_a_tie():
    seats = [seat("Ann", MID, lives=2), seat("Ben", HIGH, lives=1), seat("Cat", TOP, lives=1)]
    result = play("scat", seats, knocker="Cat", round_limit=5, rounds_played=4)
    assert result.losses == {"Ann": 1}
    assert result.game_over
    assert result.winner is None and result.tie == ("Ann", "Ben", "Cat")  # 1 life each
