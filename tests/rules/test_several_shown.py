"""Several players showing at once: under rules where a dealt 31 goes to a showdown and a 31 not
shown at once counts 30, every player who showed a dealt 31 is the top hand, whatever the order
the table named them in; only a 31 nobody showed counts 30."""

import pytest

from scorekeeper.rules import RoundError

from .cast import after, play, seat

# 31, 31 and 31 in three suits, then 20 and 19.
THIRTY_ONE = ("AS KS QS", "AH KH QH", "AD KD QD")
MID, LOW = "QC JC 2S", "KC 9C 2H"

SHOWDOWN_RULES = [
    ("scat", {"thirty_one_dealt": "showdown"}),
    ("schwimmen", {"unshown_31": "counts_30", "deck": 52}),
]


@pytest.mark.parametrize("preset, overrides", SHOWDOWN_RULES)
@pytest.mark.parametrize("order", [("Ann", "Ben"), ("Ben", "Ann")])
def test_two_dealt_31s_both_shown_both_count(preset, overrides, order):
    seats = [
        seat("Ann", THIRTY_ONE[0]),
        seat("Ben", THIRTY_ONE[1]),
        seat("Cat", MID),
        seat("Dev", LOW),
    ]
    result = play(preset, seats, "dealt_thirty_one", shown_by=order, **overrides)
    assert result.losses == {"Dev": 1}
    assert not any("counts as 30" in sentence for sentence in result.explanation)
    assert "Dev loses 1 life: the lowest hand." in result.explanation


@pytest.mark.parametrize("preset, overrides", SHOWDOWN_RULES)
def test_a_31_nobody_showed_still_counts_30_beside_two_shown(preset, overrides):
    seats = [
        seat("Ann", THIRTY_ONE[0]),
        seat("Ben", THIRTY_ONE[1]),
        seat("Cat", THIRTY_ONE[2]),
        seat("Dev", "AC KC 10C"),
    ]  # Dev: 31 too, not shown
    result = play(preset, seats, "dealt_thirty_one", shown_by=("Ben", "Ann"), **overrides)
    assert "Cat's 31 was not shown at once, so it counts as 30." in result.explanation
    assert "Dev's 31 was not shown at once, so it counts as 30." in result.explanation
    assert result.losses == {"Cat": 1, "Dev": 1}
    assert "Ann's 31" not in " ".join(result.explanation)
    assert "Ben's 31" not in " ".join(result.explanation)


@pytest.mark.parametrize("preset, overrides", SHOWDOWN_RULES)
def test_a_player_who_showed_cannot_be_named_lowest(preset, overrides):
    seats = [seat("Ann"), seat("Ben"), seat("Cat")]
    with pytest.raises(RoundError) as refusal:
        play(
            preset, seats, "dealt_thirty_one", shown_by=("Ann", "Ben"), lowest=("Ben",), **overrides
        )
    assert refusal.value.message == "Ben showed the top hand, so cannot be lowest"
    named = play(
        preset, seats, "dealt_thirty_one", shown_by=("Ann", "Ben"), lowest=("Cat",), **overrides
    )
    assert named.losses == {"Cat": 1}


@pytest.mark.parametrize("preset, overrides", SHOWDOWN_RULES)
def test_when_everyone_still_in_showed_31_nobody_loses(preset, overrides):
    seats = [
        seat("Ann", THIRTY_ONE[0]),
        seat("Ben", THIRTY_ONE[1]),
        seat("Cat", lives=0, status="out"),
    ]
    result = play(preset, seats, "dealt_thirty_one", shown_by=("Ben", "Ann"), **overrides)
    assert result.losses == {}
    assert "Everyone still in showed 31, so no hand is lower." in result.explanation
    assert after(result)["Ann"] == (3, "in") and after(result)["Ben"] == (3, "in")


def test_one_31_shown_in_play_is_still_the_only_top_hand():
    # The single-show endings are unchanged: another player's quiet 31 counts 30.
    seats = [seat("Ann", THIRTY_ONE[0]), seat("Ben", THIRTY_ONE[1]), seat("Cat", MID)]
    result = play(
        "scat",
        seats,
        "thirty_one",
        shown_by=("Ann",),
        thirty_one="showdown",
        thirty_one_after_knock="counts",
    )
    assert "Ben's 31 was not shown at once, so it counts as 30." in result.explanation
    assert result.losses == {"Cat": 1}
