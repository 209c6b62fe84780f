"""Playing cards: what players type, what a deck holds, what a card is worth."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import cache


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[self.value]

    @property
    def word(self) -> str:
        return self.name.lower()


RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_WORDS = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}


@dataclass(frozen=True)
class Card:
    rank: str
    suit: Suit

    @property
    def points(self) -> int:
        if self.rank == "A":
            return 11
        if self.rank in ("K", "Q", "J"):
            return 10
        return int(self.rank)

    @property
    def order(self) -> int:
        """Rank from the top, for tie-breaks: A 14, K 13, Q 12, J 11, 10 … 2."""
        return RANKS.index(self.rank) + 2

    @property
    def code(self) -> str:
        """The short form the API and forms use: AS, 10H, 7C."""
        return f"{self.rank}{self.suit.value}"

    def __str__(self) -> str:
        return f"{self.rank}{self.suit.symbol}"


class CardError(ValueError):
    """A card (or a hand) that cannot be read or cannot be in this deck."""


_SUIT_ALIASES = {
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
}  # fmt: skip
_TOKEN = re.compile(r"^(10|[2-9TJQKA])(.)$")
# Emoji suits arrive with a variation selector (♠️); it carries no meaning here.
_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200b\u200e\u200f"), None)


def parse_card(token: str) -> Card:
    """Read one card as a player types it: AS, as, A♠, 10h, Th, 10♥, kd, 7c."""
    text = token.translate(_INVISIBLE).strip().upper()
    match = _TOKEN.match(text)
    if not match or match.group(2) not in _SUIT_ALIASES:
        raise CardError(
            f"“{token.strip()}” is not a card: write the rank then the suit, like AS, 10h or K♦"
        )
    rank = "10" if match.group(1) == "T" else match.group(1)
    return Card(rank, _SUIT_ALIASES[match.group(2)])


def parse_cards(text: str | list[str]) -> list[Card]:
    """Read cards separated by spaces or commas (or given as a list of tokens)."""
    tokens = text if isinstance(text, list) else re.split(r"[\s,;]+", text.strip())
    return [parse_card(token) for token in tokens if token.strip()]


@cache
def deck(size: int) -> tuple[Card, ...]:
    """Every card of a 52-card deck, or of a 32-card deck (7 to ace)."""
    ranks = RANKS if size == 52 else RANKS[RANKS.index("7") :]
    return tuple(Card(rank, suit) for suit in Suit for rank in ranks)


@cache
def _deck_set(size: int) -> frozenset[Card]:
    return frozenset(deck(size))


def check_hand(cards: list[Card], deck_size: int) -> None:
    """Refuse a hand that is not three cards of this deck, each once."""
    if len(cards) != 3:
        raise CardError(f"a hand is exactly 3 cards, not {len(cards)}")
    missing = [card for card in cards if card not in _deck_set(deck_size)]
    if missing:
        raise CardError(f"the {deck_size}-card deck has no {missing[0]}")
    if len(set(cards)) != 3:
        twice = next(card for card in cards if cards.count(card) > 1)
        raise CardError(f"{twice} is in this hand twice")


def rank_word(rank: str) -> str:
    return RANK_WORDS.get(rank, rank)
