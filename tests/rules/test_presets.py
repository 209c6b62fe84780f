"""A table of rounds for each preset: who loses, how many lives, and what follows."""

import pytest

from scorekeeper.rules import RoundError

from .cast import after, play, seat

# Hands used below, with their values under every preset but aces-wild:
# H31 = 31, H27 = 27, H25 = 25, H19 = 19, H19b = 19 (another suit), H15 = 15
H31, H27, H25, H19, H19b, H15 = (
    "AH KH QH",
    "AC 9C 7C",
    "KD QD 5D",
    "KS 9S 2H",
    "AD 8D 6C",
    "10S 5S 2D",
)


def four(knocker_hand=H25, **lives):
    """Ann, Ben, Cat and Dan; Ann holds ``knocker_hand``."""
    hands = {"Ann": knocker_hand, "Ben": H27, "Cat": H19, "Dan": H15}
    return [seat(name, cards, lives=lives.get(name, 3)) for name, cards in hands.items()]


class TestScat:
    def test_one_other_player_lowest_loses_1(self):
        assert play("scat", four(), knocker="Ann").losses == {"Dan": 1}

    def test_two_others_tied_for_lowest_lose_1_each(self):
        seats = [seat("Ann", H25), seat("Ben", H19), seat("Cat", H19b)]
        assert play("scat", seats, knocker="Ann").losses == {"Ben": 1, "Cat": 1}

    def test_a_knocker_tied_for_lowest_is_safe(self):
        seats = [seat("Ann", H19), seat("Ben", H19b), seat("Cat", H27)]
        assert play("scat", seats, knocker="Ann").losses == {"Ben": 1}

    def test_a_knocker_alone_at_the_bottom_loses_2(self):
        assert play("scat", four(knocker_hand="2C 3C 4H"), knocker="Ann").losses == {"Ann": 2}

    def test_a_31_costs_every_other_player_a_life_the_knocker_included(self):
        seats = [seat("Ann", H25), seat("Ben", H31), seat("Cat", H19)]
        result = play("scat", seats, "thirty_one", knocker="Ann", shown_by=("Ben",))
        assert result.losses == {"Ann": 1, "Cat": 1}

    def test_when_the_stock_runs_out_everyone_tied_for_lowest_loses(self):
        seats = [seat("Ann", H19), seat("Ben", H19b), seat("Cat", H27)]
        assert play("scat", seats, "stock_out").losses == {"Ann": 1, "Ben": 1}

    def test_a_player_losing_the_last_life_goes_on_the_county(self):
        result = play("scat", four(Dan=1), knocker="Ann")
        assert after(result)["Dan"] == (0, "county")
        assert result.players[3].status_label == "on the county"

    def test_a_player_on_the_county_who_loses_again_is_out(self):
        result = play("scat", four(Dan=0), knocker="Ann")
        assert after(result)["Dan"] == (0, "out")
        assert "Dan is now out." in result.explanation

    def test_a_player_with_1_life_who_loses_2_is_out_skipping_the_county(self):
        result = play("scat", four(knocker_hand="2C 3C 4H", Ann=1), knocker="Ann")
        assert after(result)["Ann"] == (0, "out")
        assert result.pot == 1  # one token was all Ann had left to pay

    def test_stock_out_with_everyone_on_the_county_tied_is_replayed(self):
        seats = [seat("Ann", H19, lives=0), seat("Ben", H19b, lives=0)]
        result = play("scat", seats, "stock_out", dealer="Ben")
        assert result.result == "replay"
        assert result.losses == {}
        assert after(result) == {"Ann": (0, "county"), "Ben": (0, "county")}
        assert result.next_dealer == "Ben"

    def test_when_several_are_dealt_31_every_player_without_31_loses(self):
        seats = [seat("Ann", H31), seat("Ben", "AS KS QS"), seat("Cat", H19b), seat("Dan", H15)]
        result = play("scat", seats, "dealt_thirty_one", shown_by=("Ann", "Ben"))
        assert result.losses == {"Cat": 1, "Dan": 1}

    def test_a_31_not_shown_at_once_counts_as_30(self):
        # Ann knocks with 30; Ben kept a 31 quiet, so it counts 30 and ties Ann: the knocker
        # is safe in a tie and Ben loses. Counted as 31, Ann would lose 2.
        seats = [seat("Ann", "KC QC JC"), seat("Ben", H31)]
        result = play("scat", seats, knocker="Ann")
        assert result.losses == {"Ben": 1}
        assert "Ben's 31 was not shown at once, so it counts as 30." in result.explanation
        assert play("scat", seats, knocker="Ann", unshown_31="counts_31").losses == {"Ann": 2}

    def test_the_last_player_in_wins(self):
        seats = [seat("Ann", H25), seat("Ben", H19, lives=0), seat("Cat", status="out", lives=0)]
        result = play("scat", seats, knocker="Ann")
        assert result.game_over and result.winner == "Ann"
        assert result.next_dealer is None

    def test_the_deal_passes_left_skipping_players_who_are_out(self):
        seats = [
            seat("Ann", H25),
            seat("Ben", status="out", lives=0),
            seat("Cat", H19b),
            seat("Dan", H27),
        ]
        assert play("scat", seats, knocker="Ann", dealer="Ann").next_dealer == "Cat"

    def test_the_table_can_name_the_lowest_instead_of_entering_cards(self):
        seats = [seat("Ann"), seat("Ben"), seat("Cat")]
        result = play("scat", seats, knocker="Ann", lowest=("Ann", "Cat"))
        assert result.losses == {"Cat": 1}


class TestFriendly:
    def test_a_knocker_alone_at_the_bottom_loses_2_and_in_a_tie_is_safe(self):
        assert play("friendly", four(knocker_hand="2C 3C 4H"), knocker="Ann").losses == {"Ann": 2}
        seats = [seat("Ann", H19), seat("Ben", H19b), seat("Cat", H27)]
        # 19 against 19: K♠ 9♠ and A♦ 8♦; the ace is higher, so Ann (the knocker) is lowest.
        assert play("friendly", seats, knocker="Ann").losses == {"Ann": 2}

    def test_equal_totals_are_broken_by_the_highest_card(self):
        seats = [seat("Ann", "AH 9H 2C"), seat("Ben", "KC QC 3D"), seat("Cat", H27)]
        result = play("friendly", seats, knocker="Cat")
        assert result.losses == {"Ben": 1}
        assert any("highest counted card breaks the tie" in line for line in result.explanation)

    def test_equal_totals_with_equal_cards_stay_a_tie(self):
        seats = [seat("Ann", "KH 9H 2C"), seat("Ben", "KC 9C 3D"), seat("Cat", "AD KD QD")]
        assert play("friendly", seats, knocker="Cat").losses == {"Ann": 1, "Ben": 1}

    def test_a_player_with_no_lives_left_is_out(self):
        result = play("friendly", four(Dan=1), knocker="Ann")
        assert after(result)["Dan"] == (0, "out")

    def test_a_31_ends_the_hand_and_the_lowest_loses(self):
        seats = [seat("Ann", H31), seat("Ben", H27), seat("Cat", H15)]
        result = play("friendly", seats, "thirty_one", shown_by=("Ann",))
        assert result.losses == {"Cat": 1}

    def test_a_31_dealt_is_played_as_in_play(self):
        seats = [seat("Ann", H31), seat("Ben", H27), seat("Cat", H15)]
        result = play("friendly", seats, "dealt_thirty_one", shown_by=("Ann",))
        assert result.losses == {"Cat": 1}

    def test_the_stock_running_out_does_not_end_the_round(self):
        with pytest.raises(RoundError, match="discard pile becomes a new stock"):
            play("friendly", four(), "stock_out")

    def test_after_a_set_number_of_rounds_the_most_lives_wins(self):
        seats = [seat("Ann", H25, lives=3), seat("Ben", H27, lives=2), seat("Cat", H15, lives=3)]
        result = play("friendly", seats, knocker="Ann", round_limit=10, rounds_played=9)
        assert result.game_over and result.winner == "Ann"
        assert after(result)["Cat"] == (2, "in")

    def test_everyone_out_at_once_replays_the_hand(self):
        seats = [seat("Ann", "KH 9H 2C", lives=1), seat("Ben", "KC 9C 3D", lives=1)]
        result = play("friendly", seats, knocker="Ann", dealer="Ben", knocker_tied="like_others")
        assert result.result == "replay" and result.losses == {}
        assert after(result) == {"Ann": (1, "in"), "Ben": (1, "in")}
        assert result.next_dealer == "Ben"


class TestSchwimmen:
    def test_knocking_gives_no_protection(self):
        assert play(
            "schwimmen", [seat("Ann", "7C 8D 9H"), seat("Ben", "AS KS 7S")], knocker="Ann"
        ).losses == {"Ann": 1}
        seats = [seat("Ann", "9S 8S 7H"), seat("Ben", "KD 7D 8H"), seat("Cat", "AC KC QC")]
        assert play("schwimmen", seats, knocker="Ann").losses == {"Ann": 1, "Ben": 1}

    def test_fire_costs_everyone_else_a_life_and_puts_the_swimming_out(self):
        seats = [seat("Ann", "AS AH AD"), seat("Ben", "AC KC QC", lives=0), seat("Cat", "7S 8S 9S")]
        result = play("schwimmen", seats, "three_aces", shown_by=("Ann",))
        assert result.losses == {"Ben": 1, "Cat": 1}
        assert after(result) == {"Ann": (3, "in"), "Ben": (0, "out"), "Cat": (2, "in")}

    def test_a_player_out_of_lives_is_swimming(self):
        result = play(
            "schwimmen", [seat("Ann", "7C 8D 9H", lives=1), seat("Ben", "AS KS 7S")], knocker="Ben"
        )
        assert result.players[0].status_label == "swimming"

    def test_when_the_final_players_all_go_out_together_the_game_is_a_tie(self):
        seats = [seat("Ann", "KS 9S 8H", lives=0), seat("Ben", "KD 9D 8C", lives=0)]
        result = play("schwimmen", seats, "stock_out")
        assert result.game_over and result.tie == ("Ann", "Ben") and result.winner is None

    def test_a_31_after_a_knock_ends_the_round_and_the_lowest_loses(self):
        seats = [seat("Ann", "AH KH QH"), seat("Ben", "9S 8S 7H"), seat("Cat", "KD 10D 8H")]
        result = play("schwimmen", seats, "thirty_one", shown_by=("Ann",), knocker="Cat")
        assert result.losses == {"Ben": 1}

    def test_a_5_is_not_in_a_32_card_deck(self):
        with pytest.raises(RoundError, match="the 32-card deck has no 5♠") as refusal:
            play("schwimmen", [seat("Ann", "5S 8S 7H"), seat("Ben", "KD 7D 8H")], knocker="Ann")
        assert refusal.value.field == "players[0].cards"

    def test_ten_players_are_too_many_for_32_cards(self):
        seats = [seat(f"P{i}", lives=3) for i in range(10)]
        with pytest.raises(RoundError, match="2 to 9 players"):
            play("schwimmen", seats, knocker="P0", lowest=("P1",))


class TestAcesWild:
    def test_everyone_tied_for_lowest_loses_and_the_loser_deals(self):
        seats = [seat("Ann", "KS 9S 2H"), seat("Ben", "KD 9D 2C"), seat("Cat", "AC KC QC")]
        result = play("aces-wild", seats, knocker="Ann", dealer="Cat")
        assert result.losses == {"Ann": 1, "Ben": 1}
        assert result.next_dealer == "Ann"

    def test_the_final_two_tied_on_the_brink_bring_everyone_back(self):
        seats = [
            seat("Ann", "KS 9S 2H", lives=0),
            seat("Ben", status="out", lives=0),
            seat("Cat", "KD 9D 2C", lives=0),
            seat("Dan", status="out", lives=0),
        ]
        result = play("aces-wild", seats, knocker="Ann", dealer="Ann")
        assert result.result == "scored" and not result.game_over
        assert set(after(result).values()) == {(0, "county")}
        assert [p.status_label for p in result.players] == ["on the brink"] * 4
        assert result.next_dealer == "Cat"  # the first of the losers to the dealer's left

    def test_three_tied_on_the_brink_is_for_the_table_to_decide(self):
        seats = [seat(name, lives=0) for name in ("Ann", "Ben", "Cat")]
        result = play("aces-wild", seats, knocker="Ann", lowest=("Ann", "Ben", "Cat"))
        assert result.result == "table_decides"
        assert [choice.id for choice in result.choices] == ["revival", "replay"]
        picked = play(
            "aces-wild", seats, knocker="Ann", lowest=("Ann", "Ben", "Cat"), choice="replay"
        )
        assert picked.result == "replay"

    def test_a_31_in_play_is_nothing_special(self):
        with pytest.raises(RoundError, match="no special effect"):
            play("aces-wild", four(), "thirty_one", shown_by=("Ann",))

    def test_a_dealt_hand_worth_more_than_31_counts_as_a_dealt_31(self):
        seats = [seat("Ann", "AS AC KD"), seat("Ben", "KH QH 2S")]
        assert play("aces-wild", seats, "dealt_thirty_one", shown_by=("Ann",)).losses == {"Ben": 1}

    def test_two_players_dealt_31_is_for_the_table_to_decide(self):
        seats = [seat("Ann", "AS AC 9D"), seat("Ben", "AH KH QH"), seat("Cat", "2C 3C 4C")]
        result = play("aces-wild", seats, "dealt_thirty_one", shown_by=("Ann", "Ben"))
        assert result.result == "table_decides" and result.losses == {}
        assert after(result)["Cat"] == (3, "in")
        picked = play(
            "aces-wild",
            seats,
            "dealt_thirty_one",
            shown_by=("Ann", "Ben"),
            choice="without_31_lose_1",
        )
        assert picked.losses == {"Cat": 1}


class TestKitchenTable:
    def test_a_knocker_tied_for_lowest_loses_1_like_the_others(self):
        seats = [seat("Ann", H19), seat("Ben", H19b), seat("Cat", H27)]
        assert play("kitchen-table", seats, knocker="Ann").losses == {"Ann": 1, "Ben": 1}

    def test_out_of_lives_you_sit_out(self):
        result = play("kitchen-table", four(Dan=1), knocker="Ann")
        assert after(result)["Dan"] == (0, "out")

    def test_everyone_out_at_once_replays_the_hand(self):
        seats = [seat("Ann", H19, lives=1), seat("Ben", H19b, lives=1)]
        assert play("kitchen-table", seats, knocker="Ann").result == "replay"
