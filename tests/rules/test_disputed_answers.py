"""Rule answers a table would dispute, each checked against the written rules, with cases of our
own around each: who deals after a loser goes out, a knocker's hand after the knock, cards that
contradict the lowest named, lives a game cannot have, and the sentences read out loud."""

import pytest

from scorekeeper.rules import RoundError
from scorekeeper.rules.errors import InputError
from scorekeeper.rules.numbers import read_points, read_whole

from .cast import after, play, seat

# 19, 19, 20, 24 and 31 points, no card twice.
LOW, LOW2, MID, HIGH, TOP = "KS 9S 2H", "KC 9C 2D", "QH JH 2S", "AH KH 3H", "AD KD 10D"


class TestTheLoserDeals:
    """aces-wild: "the player who lost the round deals the next one"."""

    def test_when_the_first_loser_goes_out_the_other_loser_deals(self):
        # Seats Ann, Cat, Ben; Ben deals, so Ann is the first loser to his left, and goes out.
        seats = [seat("Ann", LOW, lives=0), seat("Cat", HIGH), seat("Ben", LOW2, lives=2)]
        result = play("aces-wild", seats, knocker="Cat", dealer="Ben")
        assert after(result)["Ann"] == (0, "out") and after(result)["Ben"] == (1, "in")
        assert result.next_dealer == "Ben"
        assert result.explanation[-1] == "Ben deals next."

    def test_when_the_first_loser_stays_in_they_deal(self):
        seats = [seat("Ann", LOW, lives=2), seat("Cat", HIGH), seat("Ben", LOW2, lives=0)]
        assert play("aces-wild", seats, knocker="Cat", dealer="Ben").next_dealer == "Ann"

    def test_when_the_only_loser_goes_out_the_deal_passes_to_their_left(self):
        # Our reading, shown on the rules card: the player on the loser's left deals.
        seats = [seat("Ann", HIGH), seat("Ben", LOW, lives=0), seat("Cat", TOP), seat("Dev", MID)]
        result = play("aces-wild", seats, knocker="Cat", dealer="Dev")
        assert after(result)["Ben"] == (0, "out")
        assert result.next_dealer == "Cat"

    def test_the_reading_is_on_the_rules_card(self):
        from scorekeeper.rules import PRESETS

        card = {
            line["name"]: line
            for line in PRESETS["aces-wild"].rules.describe(PRESETS["aces-wild"].readings)
        }
        assert card["next_dealer"]["our_reading"]
        assert (
            "when the only loser goes out, the player on their left" in card["next_dealer"]["words"]
        )
        assert card["round_limit"]["our_reading"]
        assert "a replayed hand and a drawn one included" in card["round_limit"]["help"]


class TestTheKnockersHandStaysAsItIs:
    @pytest.mark.parametrize(
        "preset, ending, shown",
        [
            ("scat", "thirty_one", "AS KS QS"),
            ("friendly", "thirty_one", "AS KS QS"),
            ("schwimmen", "thirty_one", "AS KS QS"),
            ("schwimmen", "three_aces", "AS AH AD"),
            ("kitchen-table", "thirty_one", "AS KS QS"),
        ],
    )
    def test_a_knocker_cannot_also_show_after_the_knock(self, preset, ending, shown):
        seats = [seat("Ann", shown), seat("Ben", "7C 8C 9D"), seat("Cat", "7H 8H 9C")]
        with pytest.raises(RoundError, match="hand stays as it is after the knock") as refusal:
            play(preset, seats, ending, knocker="Ann", shown_by=("Ann",))
        assert refusal.value.field == "shown_by"

    def test_another_player_can_show_31_after_the_knock_and_the_knock_is_told(self):
        seats = [seat("Ann", "AC QC JC"), seat("Ben", LOW), seat("Cat", MID)]
        result = play("scat", seats, "thirty_one", knocker="Ben", shown_by=("Ann",))
        assert result.explanation[0] == "Ben knocked, then Ann showed 31."
        assert result.losses == {"Ben": 1, "Cat": 1}


class TestCardsAndTheLowestNamed:
    def test_cards_that_contradict_the_lowest_named_are_refused(self):
        seats = [seat("Ann", LOW), seat("Ben", HIGH), seat("Cat", TOP)]
        with pytest.raises(RoundError, match="the cards entered make Ann lowest, not Ben"):
            play("scat", seats, knocker="Cat", lowest=("Ben",))

    def test_cards_that_agree_with_the_lowest_named_settle_the_round(self):
        seats = [seat("Ann", LOW), seat("Ben", HIGH), seat("Cat", TOP)]
        result = play("scat", seats, knocker="Cat", lowest=("Ann",))
        assert result.losses == {"Ann": 1}
        assert "Ann has the lowest hand, 19." in result.explanation

    def test_a_tie_must_be_named_whole(self):
        seats = [seat("Ann", LOW), seat("Ben", LOW2), seat("Cat", TOP)]
        with pytest.raises(RoundError, match="make Ann and Ben lowest, not Ann"):
            play("scat", seats, knocker="Cat", lowest=("Ann",))

    def test_every_hand_that_cannot_be_held_is_refused_at_once(self):
        # A hand of two cards, and a card that is in another hand: both said, each by seat.
        seats = [seat("Ann", "AS KS 9S"), seat("Ben", "7H 8H"), seat("Cat", "AS 2C 3C")]
        with pytest.raises(RoundError, match="Ben: a hand is exactly 3 cards") as refusal:
            play("scat", seats, knocker="Ann")
        assert (refusal.value.part, refusal.value.seat) == ("cards", 1)
        [also] = refusal.value.also
        assert (also.part, also.seat) == ("cards", 2)
        assert also.message == "A♠ is in Ann's hand and in Cat's: a deck has one"

    def test_with_some_cards_missing_the_table_names_the_lowest(self):
        seats = [seat("Ann", LOW), seat("Ben"), seat("Cat", TOP)]
        result = play("scat", seats, knocker="Cat", lowest=("Ben",))
        assert result.losses == {"Ben": 1}


def test_lives_above_the_games_start_are_refused():
    with pytest.raises(RoundError, match="cannot have 5 lives: the game starts with 3") as refusal:
        play("scat", [seat("Ann", LOW, lives=5), seat("Ben", HIGH)], knocker="Ben")
    assert refusal.value.field == "players[0].lives"


@pytest.mark.parametrize(
    "raw",
    [
        "1e50000000",
        "1e4300",
        "1e-5000",
        "-1e-5000",
        "9" * 5000,
        "0x1F",
        "3_0",
        "½",
        "٣",
        "30.25",
        "nan",
        "inf",
        float("inf"),
        float("nan"),
        1e-5,
        True,
        None,
        [],
        {},
        "31\x00",
        " " * 100,
    ],
)
def test_the_number_reader_refuses_what_is_not_a_plain_small_number(raw):
    with pytest.raises(InputError) as refusal:
        read_points(raw, "value")
    assert refusal.value.field == "value"
    with pytest.raises(InputError):
        read_whole(raw, "lives", "lives", 1, 10)


@pytest.mark.parametrize(
    "raw, points", [(19, 19), ("19", 19), (" 30.5 ", 30.5), ("30,5", 30.5), (30.5, 30.5), (0, 0)]
)
def test_the_number_reader_reads_plain_numbers(raw, points):
    assert read_points(raw, "value") == points


class TestSentencesReadOutLoud:
    def test_one_player_spared_by_only_the_knocker_loses(self):
        seats = [seat("Ann", LOW), seat("Ben", LOW2), seat("Cat", TOP)]
        result = play("scat", seats, knocker="Ann", knocker_tied="only_knocker")
        assert "Only the knocker loses in a tie, so Ben loses nothing." in result.explanation

    def test_two_players_spared_by_only_the_knocker_loses(self):
        seats = [seat("Ann", LOW), seat("Ben", LOW2), seat("Cat", "KH 9H 2S")]
        result = play("scat", seats, knocker="Ann", knocker_tied="only_knocker")
        assert "Only the knocker loses in a tie, so Ben and Cat lose nothing." in result.explanation

    def test_the_revival_uses_the_rule_sets_own_word(self):
        seats = [seat("Ann", LOW, lives=0), seat("Ben", LOW2, lives=0)]
        seats.append(seat("Cat", status="out", lives=0))
        result = play("aces-wild", seats, knocker="Ann")
        text = " ".join(result.explanation)
        assert "last chance" not in text
        assert (
            "Ann and Ben would both go out at once, so every eliminated player returns on the brink"
            in text
        )

    def test_two_players_would_both_go_out(self):
        seats = [seat("Ann", LOW, lives=0), seat("Ben", LOW2, lives=0)]
        result = play("scat", seats, knocker="Ann", knocker_tied="like_others")
        assert result.result == "replay"
        assert result.explanation[-2] == (
            "Ann and Ben would both go out at once, so nobody loses and the hand is replayed."
        )

    def test_three_players_would_all_go_out(self):
        hands = [("Ann", LOW), ("Ben", LOW2), ("Cat", "KD 9D 2C")]
        result = play("scat", [seat(n, c, lives=0) for n, c in hands], "stock_out")
        assert result.result == "replay"
        assert result.explanation[-2] == (
            "Ann, Ben and Cat would all go out at once, so nobody loses and the hand is replayed."
        )

    def test_a_dealt_32_is_told_as_32_and_the_redeal_follows_the_losses(self):
        seats = [seat("Ann", "AS AC KD"), seat("Ben", LOW), seat("Cat", MID)]
        result = play("aces-wild", seats, "dealt_thirty_one", shown_by=("Ann",), dealer="Cat")
        lines = result.explanation
        assert lines[0] == "Ann was dealt 32."
        assert lines.index("Then the cards are dealt again.") > lines.index(
            "Cat loses 1 life: Ann was dealt 32, which costs every other player a life."
        )

    def test_no_redeal_after_a_dealt_31_that_ends_the_game(self):
        seats = [seat("Ann", "AC QC JC"), seat("Ben", LOW, lives=0)]
        result = play("aces-wild", seats, "dealt_thirty_one", shown_by=("Ann",), dealer="Ann")
        assert result.game_over and result.winner == "Ann"
        assert "Then the cards are dealt again." not in result.explanation

    def test_a_draw_says_nobody_loses_once(self):
        seats = [seat("Ann", LOW), seat("Ben", HIGH)]
        result = play("scat", seats, "stock_out", stock_out="draw")
        assert sum("obody loses" in line for line in result.explanation) == 1
