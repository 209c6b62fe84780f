"""Every hand counted in the five sources, each under its own rule set."""

from fractions import Fraction

import pytest

from scorekeeper.rules import PRESETS, evaluate, parse_cards

from .cast import rules_for, value

SOURCE_HANDS = [
    # scat.txt, the table of hand values and the worked counts
    ("scat", "AH KH QH", 31),
    ("scat", "KC QC JC", 30),
    ("scat", "AS KS 9D", 21),
    ("scat", "10C 4C AD", 14),
    ("scat", "9C 7D 4S", 9),
    ("scat", "7S 7H 7D", 7),
    ("scat", "JD 8D AS", 18),
    ("scat", "KS 9H 5D", 10),  # "a king, a 9 and a 5 of three suits are worth 10"
    ("scat", "QS QH QD", 10),  # "three queens are worth 10"
    ("scat", "KS 9S 2H", 19),  # Ben's knock
    ("scat", "AD 8D 6C", 19),  # Ana in the knock example
    # friendly.txt
    ("friendly", "AH 9H KC", 20),
    ("friendly", "AH KH 10H", 31),
    ("friendly", "7S 7H 7D", 30),
    # schwimmen.txt
    ("schwimmen", "AH 9H KS", 20),
    ("schwimmen", "AD QD 10D", 31),
    ("schwimmen", "QS QH QD", Fraction(61, 2)),
    ("schwimmen", "7S 7H 7C", Fraction(61, 2)),
    ("schwimmen", "AS AH AD", 33),
    ("schwimmen", "AH 8H KS", 19),  # You, Lena and Tom: your first hand
    ("schwimmen", "AH KH 8H", 29),
    ("schwimmen", "AH KH QH", 31),
    ("schwimmen", "AS KS 9S", 30),  # Tom
    ("schwimmen", "10H 9H 8D", 19),  # Lena
    # aces-wild.txt, and the map's "A♠ A♣ K♦ = 32"
    ("aces-wild", "6S 10S 7H", 16),
    ("aces-wild", "KC KD KS", 10),
    ("aces-wild", "AD JD JS", 21),
    ("aces-wild", "AS 9D AC", 31),
    ("aces-wild", "AS AC KD", 32),
    ("aces-wild", "AS AC AD", 33),
    # kitchen-table.txt
    ("kitchen-table", "AH KH 7S", 21),
    ("kitchen-table", "9D 8D 5D", 22),
    ("kitchen-table", "KS KH KD", Fraction(61, 2)),
    ("kitchen-table", "AS 10S KS", 31),
    ("kitchen-table", "AC QC JC", 31),
    ("kitchen-table", "AH 9H 4C", 20),  # West's first hand
    ("kitchen-table", "KD 7D 2S", 17),  # North
    ("kitchen-table", "QS JS 6S", 26),  # East
    ("kitchen-table", "AH 9H 10H", 30),  # West after the discard
    ("kitchen-table", "KD 7D 10D", 27),  # North after the last turn
]


@pytest.mark.parametrize("preset, cards, worth", SOURCE_HANDS)
def test_every_hand_in_the_sources_counts_as_written(preset, cards, worth):
    assert value(preset, cards) == worth


def test_thirty_and_a_half_stays_exact():
    hand = evaluate(parse_cards("7S 7H 7D"), PRESETS["kitchen-table"].rules)
    assert hand.value == Fraction(61, 2)
    assert "30.5" in hand.explanation


@pytest.mark.parametrize(
    "cards, counted, explanation",
    [
        ("AH KH 9C", "AH KH", "A♥ K♥ count 21 in hearts; the 9♣ does not join them"),
        ("10C 4C AD", "10C 4C", "10♣ 4♣ count 14 in clubs; the A♦ does not join them"),
        ("9C 7D 4S", "9C", "9♣ counts 9: three different suits, so only the highest card counts"),
        ("AH KH QH", "AH KH QH", "A♥ K♥ Q♥ count 31 in hearts"),
    ],
)
def test_it_explains_the_count_in_words(cards, counted, explanation):
    hand = evaluate(parse_cards(cards), PRESETS["scat"].rules)
    assert [card.code for card in hand.counted] == counted.split()
    assert hand.explanation == explanation


def test_aces_joining_another_suit_are_said_so():
    hand = evaluate(parse_cards("AS 9D AC"), PRESETS["aces-wild"].rules)
    assert hand.explanation == "A♠ 9♦ A♣ count 31 in diamonds, the aces joining any suit"


@pytest.mark.parametrize(
    "overrides, cards, worth",
    [
        ({"three_of_a_kind": 30}, "7S 7H 7D", 30),
        ({"three_of_a_kind": 30.5}, "7S 7H 7D", Fraction(61, 2)),
        ({"three_of_a_kind": 30}, "KC QC JC", 30),  # "at 30 it ties with three 10-point cards"
        ({"three_aces": 32}, "AS AH AD", 32),
        ({"three_aces": 33}, "AS AH AD", 33),
        ({"three_of_a_kind": 30.5}, "AS AH AD", Fraction(61, 2)),  # aces as any three of a kind
        ({"aces_wild": True}, "AS AC KD", 32),
    ],
)
def test_house_rules_change_what_a_hand_is_worth(overrides, cards, worth):
    assert value("scat", cards, **overrides) == worth


def test_thirty_and_a_half_beats_every_hand_but_31():
    rules = rules_for("scat", three_of_a_kind=30.5)
    trips = evaluate(parse_cards("2S 2H 2D"), rules).value
    assert evaluate(parse_cards("KC QC JC"), rules).value < trips < 31
