"""Playing cards: what players type, what a deck holds, what a card is worth."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import cache

from .words import _, pgettext


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
        """The suit's name in the table's language: "spades", "Pik"."""
        if self is Suit.SPADES:
            return pgettext("suit", "spades")
        if self is Suit.HEARTS:
            return pgettext("suit", "hearts")
        if self is Suit.DIAMONDS:
            return pgettext("suit", "diamonds")
        return pgettext("suit", "clubs")


RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


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
        """The card as the table writes it, in its language: Q♦ in English, D♦ in German."""
        return f"{rank_letter(self.rank)}{self.suit.symbol}"


class CardError(ValueError):
    """A card (or a hand) that cannot be read or cannot be in this deck."""


_SUIT_ALIASES = {
    "S": Suit.SPADES,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "H": Suit.HEARTS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
}
_TOKEN = re.compile(r"^(10|[2-9TJQKA])(.)$")
# German rank letters with a suit's symbol, as German players write them: D♦ (Dame), B♣ (Bube).
_GERMAN_LETTER = re.compile(r"^([DB])([♠♤♥♡♦♢♣♧])$")
# Emoji suits arrive with a variation selector (♠️); it carries no meaning here.
_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200b\u200e\u200f"), None)


def parse_card(token: str) -> Card:
    """Read one card as a player types it: AS, as, A♠, 10h, Th, 10♥, kd, 7c; and D♦, B♣."""
    text = token.translate(_INVISIBLE).strip().upper()
    german = _GERMAN_LETTER.match(text)
    if german:
        return Card("Q" if german.group(1) == "D" else "J", _SUIT_ALIASES[german.group(2)])
    match = _TOKEN.match(text)
    if not match or match.group(2) not in _SUIT_ALIASES:
        raise CardError(
            _("“%(token)s” is not a card: write the rank then the suit, like AS, 10h or K♦")
            % {"token": token.strip()}
        )
    rank = "10" if match.group(1) == "T" else match.group(1)
    return Card(rank, _SUIT_ALIASES[match.group(2)])


# Cards as German players write them: the suit's word and the rank, either way round ("Herz
# Dame", "Pik Ass", "Kreuz 10", "Bube Karo"), the ranks also as their letters (A, K, D, B).
_GERMAN_SUITS = {
    "HERZ": Suit.HEARTS,
    "PIK": Suit.SPADES,
    "KREUZ": Suit.CLUBS,
    "KARO": Suit.DIAMONDS,
    "CARO": Suit.DIAMONDS,
}
_GERMAN_RANKS = {
    "ASS": "A",
    "AS": "A",
    "A": "A",
    "KÖNIG": "K",
    "KOENIG": "K",
    "K": "K",
    "DAME": "Q",
    "D": "Q",
    "BUBE": "J",
    "B": "J",
    "ZEHN": "10",
    "NEUN": "9",
    "ACHT": "8",
    "SIEBEN": "7",
    "SECHS": "6",
    "FÜNF": "5",
    "FUENF": "5",
    "VIER": "4",
    "DREI": "3",
    "ZWEI": "2",
    **{rank: rank for rank in RANKS},
}


def _german(first: str, second: str) -> Card | None:
    """A card from two German words (suit and rank, in either order), or None."""
    a, b = first.translate(_INVISIBLE).strip().upper(), second.translate(_INVISIBLE).strip().upper()
    if a in _GERMAN_SUITS and b in _GERMAN_RANKS:
        return Card(_GERMAN_RANKS[b], _GERMAN_SUITS[a])
    # A rank before the suit: a word or a number ("Dame Herz", "7 Karo"), not a lone letter.
    if b in _GERMAN_SUITS and a in _GERMAN_RANKS and (len(a) > 1 or a.isdigit()):
        return Card(_GERMAN_RANKS[a], _GERMAN_SUITS[b])
    return None


def _hyphenated(token: str) -> list[str]:
    """ "Herz-Dame" as "Herz" and "Dame": a German card written as one word."""
    parts = token.split("-")
    words = {*_GERMAN_SUITS, *_GERMAN_RANKS}
    if len(parts) == 2 and all(part.strip().upper() in words for part in parts):
        return parts
    return [token]


def parse_cards(text: str | list[str]) -> list[Card]:
    """Read cards separated by spaces or commas (or given as a list of tokens); German pairs of
    words ("Herz Dame") count as one card."""
    raw = text if isinstance(text, list) else re.split(r"[\s,;]+", text.strip())
    tokens = [part for token in raw for part in _hyphenated(token) if part.strip()]
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
            raise CardError(
                _(
                    "“%(token)s” is not a card: write the suit then the rank, like Herz "
                    "Dame, Pik Ass or Kreuz 10"
                )
                % {"token": (tokens[i] + " " + following).strip()}
            )
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
        raise CardError(_("a hand is exactly 3 cards, not %(count)d") % {"count": len(cards)})
    missing = [card for card in cards if card not in _deck_set(deck_size)]
    if missing:
        raise CardError(
            _("the %(size)d-card deck has no %(card)s") % {"size": deck_size, "card": missing[0]}
        )
    if len(set(cards)) != 3:
        twice = next(card for card in cards if cards.count(card) > 1)
        raise CardError(_("%(card)s is in this hand twice") % {"card": twice})


def rank_letter(rank: str) -> str:
    """A court card's letter in the table's language (German: B for Bube, D for Dame)."""
    letters = {
        "J": pgettext("card rank letter", "J"),
        "Q": pgettext("card rank letter", "Q"),
        "K": pgettext("card rank letter", "K"),
        "A": pgettext("card rank letter", "A"),
    }
    return letters.get(rank, rank)


def rank_word(rank: str) -> str:
    """A rank in words, in the table's language: "king", "König", "7"."""
    if rank == "A":
        return pgettext("rank", "ace")
    if rank == "K":
        return pgettext("rank", "king")
    if rank == "Q":
        return pgettext("rank", "queen")
    if rank == "J":
        return pgettext("rank", "jack")
    return rank


def three_of(rank: str) -> str:
    """Three cards of a rank, in words: "three kings", "three 7s"."""
    if rank == "A":
        return _("three aces")
    if rank == "K":
        return _("three kings")
    if rank == "Q":
        return _("three queens")
    if rank == "J":
        return _("three jacks")
    return _("three %(rank)ss") % {"rank": rank}


def card_words(card: Card) -> str:
    """A card in words, for a screen reader: "king of spades", "Pik König"."""
    return card_words_of(rank_word(card.rank), card.suit.word)


def card_words_of(rank: str, suit: str) -> str:
    """A rank and a suit, in words, as the table's language puts them together (the card
    picker fills in ``{rank}`` and ``{suit}`` itself)."""
    return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": suit}
