import pytest

from scorekeeper.rules import CardError, check_hand, deck, parse_card, parse_cards
from scorekeeper.rules.cards import Card, Suit


@pytest.mark.parametrize(
    "typed, rank, suit",
    [
        ("AS", "A", Suit.SPADES),
        ("as", "A", Suit.SPADES),
        ("A♠", "A", Suit.SPADES),
        ("A♠️", "A", Suit.SPADES),  # with the emoji variation selector
        ("10h", "10", Suit.HEARTS),
        ("Th", "10", Suit.HEARTS),
        ("10♥", "10", Suit.HEARTS),
        ("kd", "K", Suit.DIAMONDS),
        ("7c", "7", Suit.CLUBS),
        (" q♣ ", "Q", Suit.CLUBS),
    ],
)
def test_it_reads_cards_as_players_type_them(typed, rank, suit):
    assert parse_card(typed) == Card(rank, suit)


@pytest.mark.parametrize("typed", ["1S", "11H", "ZZ", "A", "AX", "10", "♠A", "", "A♠♠", "<b>"])
def test_it_refuses_what_is_not_a_card_naming_the_token(typed):
    with pytest.raises(CardError) as refusal:
        parse_card(typed)
    assert f"“{typed.strip()}” is not a card" in str(refusal.value)


def test_it_reads_cards_separated_by_spaces_or_commas():
    assert parse_cards("AS, KS 9d,,10♥") == [
        Card("A", Suit.SPADES),
        Card("K", Suit.SPADES),
        Card("9", Suit.DIAMONDS),
        Card("10", Suit.HEARTS),
    ]


def test_a_bad_token_among_good_ones_is_named():
    with pytest.raises(CardError, match="“QX” is not a card"):
        parse_cards("AS QX 9D")


def test_the_decks_hold_52_and_32_cards():
    assert len(set(deck(52))) == 52
    assert len(set(deck(32))) == 32
    assert {card.rank for card in deck(32)} == {"7", "8", "9", "10", "J", "Q", "K", "A"}


@pytest.mark.parametrize(
    "cards, size, message",
    [
        ("AS KS", 52, "exactly 3 cards, not 2"),
        ("AS KS QS JS", 52, "exactly 3 cards, not 4"),
        ("AS KS 5S", 32, "the 32-card deck has no 5♠"),
        ("AS KS AS", 52, "A♠ is in this hand twice"),
    ],
)
def test_it_refuses_impossible_hands(cards, size, message):
    with pytest.raises(CardError, match=message):
        check_hand(parse_cards(cards), size)


def test_a_card_prints_with_its_suit_symbol_and_code():
    card = parse_card("th")
    assert str(card) == "10♥"
    assert card.code == "10H"
    assert card.points == 10


class TestGermanCards:
    """Cards as German players write them, on any page: the suit's word and the rank."""

    @pytest.mark.parametrize(
        ("typed", "codes"),
        [
            ("Herz Dame, Pik Ass, Kreuz 10", ["QH", "AS", "10C"]),
            ("herz d pik a karo b", ["QH", "AS", "JD"]),
            ("Karo König Kreuz Koenig Caro 7", ["KD", "KC", "7D"]),
            ("Bube Karo Dame Herz", ["JD", "QH"]),
            ("Herz Zehn A♠ KD", ["10H", "AS", "KD"]),  # German and the codes mixed
            # A German rank letter with a suit's symbol, as a German player writes it.
            ("D♦ B♣ A♥", ["QD", "JC", "AH"]),
            ("d♠ b♦", ["QS", "JD"]),
            # A number first, then the suit's word; a card written as one word with a hyphen.
            ("7 Karo, 10 Herz", ["7D", "10H"]),
            ("Herz-Dame Pik-Ass Kreuz-10", ["QH", "AS", "10C"]),
            ("Karo 7 Kreuz-Bube KS", ["7D", "JC", "KS"]),
        ],
    )
    def test_read(self, typed, codes):
        assert [card.code for card in parse_cards(typed)] == codes

    def test_the_english_codes_keep_their_meaning(self):
        # "KD" is the king of diamonds and "D" alone is no card: the German letters count only
        # after a German suit.
        assert [card.code for card in parse_cards("KD QD")] == ["KD", "QD"]
        # "DS" and "BH" stay no cards: only a suit's symbol makes D and B German letters.
        for typed in ("DS", "BH"):
            with pytest.raises(CardError):
                parse_cards(typed)

    @pytest.mark.parametrize("typed", ["Herz X", "Pik", "Kreuz Elf"])
    def test_a_refusal_names_the_token_as_typed(self, typed):
        with pytest.raises(CardError, match=f"“{typed}” is not a card"):
            parse_cards(typed)
