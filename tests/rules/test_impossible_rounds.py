"""Rounds that cannot have happened are refused, naming the field, and nothing is decided."""

import pytest

from scorekeeper.rules import RoundError

from .cast import play, seat


def three(**kw):
    return [seat("Ann", "KS 9S 2H"), seat("Ben", "AC 9C 7C"), seat("Cat", "AD 8D 6C")]


@pytest.mark.parametrize(
    "seats, kwargs, field, message",
    [
        (three(), {"knocker": "Zed"}, "knocker", "Zed is not playing in this game"),
        (
            [seat("Ann", "KS 9S 2H"), seat("Ben", "AC 9C 7C"), seat("Cat", status="out", lives=0)],
            {"knocker": "Cat"},
            "knocker",
            "Cat is out, so cannot knock",
        ),
        (three(), {}, "knocker", "say who knocked"),
        (
            [seat("Ann", "KS 9S 2H"), seat("Ben", "KS 9C 7C")],
            {"knocker": "Ann"},
            "players[1].cards",
            "K♠ is in Ann's hand and in Ben's",
        ),
        (
            [seat("Ann", "KS 9S"), seat("Ben", "AC 9C 7C")],
            {"knocker": "Ann"},
            "players[0].cards",
            "exactly 3 cards",
        ),
        (
            three(),
            {"ending": "thirty_one", "shown_by": ("Ann",)},
            "shown_by",
            "Ann's hand is worth 19, not 31",
        ),
        (
            three(),
            {"ending": "dealt_thirty_one", "shown_by": ("Ben",)},
            "shown_by",
            "Ben's hand is worth 27, not 31",
        ),
        (
            three(),
            {"ending": "thirty_one", "shown_by": ("Ann", "Ben")},
            "shown_by",
            "only one player can show 31",
        ),
        (three(), {"ending": "thirty_one"}, "shown_by", "say who showed 31"),
        (three(), {"knocker": "Ann", "shown_by": ("Ben",)}, "shown_by", "nobody shows a hand"),
        (three(), {"ending": "stock_out", "knocker": "Ann"}, "knocker", "nobody knocked"),
        (three(), {"knocker": "Ann", "lowest": ("Zed",)}, "lowest", "Zed is not playing"),
        (three(), {"ending": "sudden_death"}, "ending", "a round ends with"),
        (
            [seat("Ann", value=31.5), seat("Ben", value=20)],
            {"knocker": "Ann"},
            "players[0].value",
            "no hand is worth 31.5",
        ),
        (
            [seat("Ann", lives=2, status="county"), seat("Ben")],
            {"knocker": "Ann", "lowest": ("Ben",)},
            "players[0].status",
            "still has 2 lives",
        ),
        (
            [seat("Ann"), seat("ann ")],
            {"knocker": "Ann", "lowest": ("Ann",)},
            "players[1].name",
            "two players are called",
        ),
        (
            [seat("Ann"), seat("Ben"), seat("Cat")],
            {"knocker": "Ann"},
            "lowest",
            "Say who was lowest: tap them, or enter everyone's cards",
        ),
        (
            [seat("Ann"), seat("Ben", status="out", lives=0)],
            {"knocker": "Ann", "lowest": ("Ann",)},
            "players",
            "the game is over",
        ),
    ],
)
def test_it_refuses_an_impossible_round(seats, kwargs, field, message):
    kwargs.setdefault("ending", "knock")
    with pytest.raises(RoundError, match=message) as refusal:
        play("scat", seats, **kwargs)
    assert refusal.value.field == field


def test_fire_needs_three_aces():
    seats = [seat("Ann", "AS AH KD"), seat("Ben", "7C 8C 9C")]
    with pytest.raises(RoundError, match="does not hold three aces"):
        play("schwimmen", seats, "three_aces", shown_by=("Ann",))


def test_a_choice_the_table_was_not_offered_is_refused():
    seats = [seat("Ann", "AS AC 9D"), seat("Ben", "AH KH QH"), seat("Cat", "2C 3C 4C")]
    with pytest.raises(RoundError, match="choose one of without_31_lose_1, replay"):
        play("aces-wild", seats, "dealt_thirty_one", shown_by=("Ann", "Ben"), choice="everyone")


def test_a_shown_31_agreed_as_a_value_is_accepted():
    seats = [seat("Ann", value=31), seat("Ben", value=20), seat("Cat", value=12)]
    result = play("scat", seats, "thirty_one", shown_by=("Ann",))
    assert result.losses == {"Ben": 1, "Cat": 1}


def test_values_the_table_agreed_settle_a_showdown():
    seats = [seat("Ann", value=30.5), seat("Ben", value=30), seat("Cat", value=29)]
    result = play("kitchen-table", seats, knocker="Ann")
    assert result.losses == {"Cat": 1}
