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


# Cards as German players write them: the suit's word and the rank, either way round ("Herz
# Dame", "Pik Ass", "Kreuz 10", "Bube Karo"), the ranks also as their letters (A, K, D, B).
_GERMAN_SUITS = {"HERZ": Suit.HEARTS, "PIK": Suit.SPADES, "KREUZ": Suit.CLUBS, "KARO": Suit.DIAMONDS,
                 "CARO": Suit.DIAMONDS}  # fmt: skip
_GERMAN_RANKS = {
    "ASS": "A", "AS": "A", "A": "A", "KÖNIG": "K", "KOENIG": "K", "K": "K", "DAME": "Q", "D": "Q",
    "BUBE": "J", "B": "J", "ZEHN": "10", "NEUN": "9", "ACHT": "8", "SIEBEN": "7", "SECHS": "6",
    "FÜNF": "5", "FUENF": "5", "VIER": "4", "DREI": "3", "ZWEI": "2",
    **{rank: rank for rank in RANKS},
}  # fmt: skip


def _german(first: str, second: str) -> Card | None:
    """A card from two German words (suit and rank, in either order), or None."""
    a, b = first.translate(_INVISIBLE).strip().upper(), second.translate(_INVISIBLE).strip().upper()
    if a in _GERMAN_SUITS and b in _GERMAN_RANKS:
        return Card(_GERMAN_RANKS[b], _GERMAN_SUITS[a])
    if b in _GERMAN_SUITS and a in _GERMAN_RANKS and len(a) > 1:
        return Card(_GERMAN_RANKS[a], _GERMAN_SUITS[b])
    return None


def parse_cards(text: str | list[str]) -> list[Card]:
    """Read cards separated by spaces or commas (or given as a list of tokens); German pairs of
    words ("Herz Dame") count as one card."""
    raw = text if isinstance(text, list) else re.split(r"[\s,;]+", text.strip())
    tokens = [token for token in raw if token.strip()]
    cards: list[Card] = []
    i = 0
    while i < len(tokens):
        pair = _german(tokens[i], tokens[i + 1]) if i + 1 < len(tokens) else None
        if pair is not None:
            cards.append(pair)
            i += 2
            continue
        if tokens[i].strip().upper() in _GERMAN_SUITS:
            following = tokens[i + 1] if i + 1 < len(tokens) else ""
            raise CardError(f"“{(tokens[i] + ' ' + following).strip()}” is not a card: write the "
                            "suit then the rank, like Herz Dame, Pik Ass or Kreuz 10")  # fmt: skip
        cards.append(parse_card(tokens[i]))
        i += 1
    return cards


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
