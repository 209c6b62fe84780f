"""The rounds the sources walk through, each resolved under its own rule set."""

from .cast import after, play, seat


def ben_cara_you_ana(ana: str):
    return [
        seat("Ben", "KS 9S 2H"),
        seat("Cara", "AC 9C 7C"),  # 27 in clubs
        seat("You", "KH QH 5H"),  # 25 in hearts
        seat("Ana", ana),
    ]


def test_scat_ben_knocks_ties_with_ana_and_only_ana_loses():
    result = play("scat", ben_cara_you_ana("AD 8D 6C"), knocker="Ben", dealer="Ana")
    assert result.losses == {"Ana": 1}
    assert result.hands["Ben"].value == result.hands["Ana"].value == 19
    assert "Ana loses 1 life: tied for lowest with Ben, the knocker, who is safe in a tie." in (
        result.explanation
    )


def test_scat_had_ana_ended_above_19_ben_alone_at_the_bottom_loses_2():
    result = play("scat", ben_cara_you_ana("AD 10D 6C"), knocker="Ben", dealer="Ana")
    assert result.losses == {"Ben": 2}
    assert after(result)["Ben"] == (1, "in")
    assert result.pot == 2


def test_schwimmen_you_show_31_and_lena_alone_loses():
    seats = [seat("You", "AH KH QH"), seat("Lena", "10H 9H 8D"), seat("Tom", "AS KS 9S")]
    result = play("schwimmen", seats, "thirty_one", shown_by=("You",), dealer="Tom")
    assert result.losses == {"Lena": 1}
    assert [result.hands[name].value for name in ("You", "Tom", "Lena")] == [31, 30, 19]
    assert result.next_dealer == "You"  # the deal passes to the left


def test_schwimmen_had_you_knocked_with_29_the_lowest_still_loses_only_1():
    seats = [seat("You", "AH KH 8H"), seat("Lena", "10H 9H 8D"), seat("Tom", "AS KS 9S")]
    result = play("schwimmen", seats, knocker="You")
    assert result.losses == {"Lena": 1}


def test_kitchen_table_west_knocks_with_30_and_east_loses_one():
    seats = [seat("West", "AH 9H 10H"), seat("North", "KD 7D 10D"), seat("East", "QS JS 6S")]
    result = play("kitchen-table", seats, knocker="West", dealer="East")
    assert result.losses == {"East": 1}
    assert after(result)["East"] == (2, "in")
    assert result.pot == 1
    assert result.next_dealer == "West"


def test_kitchen_table_had_west_shown_31_north_and_east_each_lose():
    seats = [seat("West", "AH KH 10H"), seat("North", "KD 7D 2S"), seat("East", "QS JS 6S")]
    result = play("kitchen-table", seats, "thirty_one", shown_by=("West",))
    assert result.losses == {"North": 1, "East": 1}


def test_kitchen_table_west_caught_knocking_at_18_loses_two():
    # "If you had knocked at 18 [...] you would be caught: two lives", with North on 27 and
    # East on the 26 of the walk-through: West alone at the bottom.
    seats = [seat("West", "AH 7H 4C"), seat("North", "KD 7D 10D"), seat("East", "QS JS 6S")]
    result = play("kitchen-table", seats, knocker="West")
    assert result.hands["West"].value == 18
    assert result.losses == {"West": 2}
    assert after(result)["West"] == (1, "in")


def test_kitchen_table_a_knocker_at_18_is_not_caught_when_east_shows_16():
    # The same sentence of the source has East showing 16, below West's 18. Its own table says
    # the knocker is caught only when lowest, so we follow the table: East loses one.
    seats = [seat("West", "AH 7H 4C"), seat("North", "KD 7D 10D"), seat("East", "10S 6S 2H")]
    result = play("kitchen-table", seats, knocker="West")
    assert result.hands["East"].value == 16
    assert result.losses == {"East": 1}


def test_aces_wild_two_aces_and_a_nine_dealt_costs_everyone_else_a_life():
    seats = [seat("Ann", "AS 9D AC"), seat("Ben", "KH QH 2S"), seat("Cat", "5C 6C 7C")]
    result = play("aces-wild", seats, "dealt_thirty_one", shown_by=("Ann",), dealer="Cat")
    assert result.losses == {"Ben": 1, "Cat": 1}
    assert "Then the cards are dealt again." in result.explanation
    assert result.next_dealer == "Ben"  # the first loser to the dealer's left
