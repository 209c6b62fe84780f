"""What a three-card hand is worth under a rule set, and why, in words."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .cards import Card, Suit, deck, three_of
from .ruleset import RuleSet
from .words import _, names, pgettext


@dataclass(frozen=True)
class Hand:
    cards: tuple[Card, ...]
    value: Fraction
    counted: tuple[Card, ...]
    explanation: str

    @property
    def tie_key(self) -> tuple[int, ...]:
        """The counted cards' ranks from the top, for a tie-break by highest card."""
        return tuple(sorted((card.order for card in self.counted), reverse=True))

    @property
    def hand_key(self) -> tuple[int, ...]:
        """All three cards' ranks from the top, counted or not, for a tie-break by the
        highest card in the hand."""
        return tuple(sorted((card.order for card in self.cards), reverse=True))


def points(value: Fraction) -> str:
    """30.5 stays 30.5 (30,5 in German); 21 stays 21."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}".replace(".", pgettext("decimal separator", "."))


def _cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(str(card) for card in cards)


def evaluate(cards: list[Card] | tuple[Card, ...], rules: RuleSet) -> Hand:
    """The hand's value, the cards that count and a sentence that explains the count.

    The cards are assumed to be a valid hand (see ``cards.check_hand``).
    """
    cards = tuple(cards)
    # Whole numbers in the loop: Fraction arithmetic is slow, and suit totals are whole.
    best_key: tuple[int, tuple[int, ...]] | None = None
    best_suit: Suit | None = None
    best_counted: tuple[Card, ...] = ()
    for suit in Suit:
        counted = tuple(c for c in cards if c.suit == suit or (rules.aces_wild and c.rank == "A"))
        if not any(c.suit == suit for c in counted):
            continue
        key = (
            sum(c.points for c in counted),
            tuple(sorted((c.order for c in counted), reverse=True)),
        )
        if best_key is None or key > best_key:
            best_key, best_suit, best_counted = key, suit, counted
    assert best_key is not None and best_suit is not None
    value = Fraction(best_key[0])
    special = _special_value(cards, rules)
    if special is not None and special > value:
        return Hand(cards, special, cards, _explain_special(cards, special, rules))
    by_rank = _best_rank(cards) if rules.same_rank == "adds" else None
    if by_rank is not None and by_rank[0] > best_key:
        counted = by_rank[1]
        return Hand(cards, Fraction(by_rank[0][0]), counted, _explain_rank(cards, counted))
    explanation = _explain_suit(cards, best_counted, best_suit, value)
    return Hand(cards, value, best_counted, explanation)


def _best_rank(
    cards: tuple[Card, ...],
) -> tuple[tuple[int, tuple[int, ...]], tuple[Card, ...]] | None:
    """Under ``same_rank: adds``, the best group of two or three cards of one rank: its key
    (total, ranks from the top, as a suit's) and its cards."""
    best: tuple[tuple[int, tuple[int, ...]], tuple[Card, ...]] | None = None
    for rank in {c.rank for c in cards}:
        counted = tuple(c for c in cards if c.rank == rank)
        if len(counted) < 2:
            continue
        key = (sum(c.points for c in counted), tuple(c.order for c in counted))
        if best is None or key > best[0]:
            best = (key, counted)
    return best


def _explain_rank(cards: tuple[Card, ...], counted: tuple[Card, ...]) -> str:
    left_out = [str(c) for c in cards if c not in counted]
    said = {
        "cards": _cards(counted),
        "value": points(Fraction(sum(c.points for c in counted))),
        "rest": names(left_out) if left_out else "",
    }
    if not left_out:
        return _("%(cards)s count %(value)s: cards of one rank add up") % said
    return (
        _("%(cards)s count %(value)s: cards of one rank add up; the %(rest)s does not join them")
        % said
    )


def _special_value(cards: tuple[Card, ...], rules: RuleSet) -> Fraction | None:
    if len({c.rank for c in cards}) != 1:
        return None
    if cards[0].rank == "A" and rules.three_aces is not None:
        return Fraction(rules.three_aces)
    return None if rules.three_of_a_kind is None else Fraction(rules.three_of_a_kind)


def _explain_special(cards: tuple[Card, ...], value: Fraction, rules: RuleSet) -> str:
    rank = cards[0].rank
    if rank == "A" and rules.three_aces is not None:
        said = {"cards": _cards(cards), "value": points(value)}
        if rules.three_aces_fire:
            return _("%(cards)s: three aces count %(value)s (fire)") % said
        return _("%(cards)s: three aces count %(value)s") % said
    kind = _("%(cards)s: %(three)s count %(value)s as three of a kind") % {
        "cards": _cards(cards),
        "three": three_of(rank),
        "value": points(value),
    }
    if rank == "A" and rules.three_aces_fire:
        return _("%(said)s (fire)") % {"said": kind}
    return kind


def _explain_suit(
    cards: tuple[Card, ...], counted: tuple[Card, ...], suit: Suit, value: Fraction
) -> str:
    left_out = [str(c) for c in cards if c not in counted]
    wild = [c for c in counted if c.suit != suit]
    said = {"cards": _cards(counted), "value": points(value), "suit": suit.word}
    if len(counted) == 1 and len({c.suit for c in cards}) == 3:
        return (
            _("%(cards)s counts %(value)s: three different suits, so only the highest card counts")
            % said
        )
    if len(counted) == 1:
        head = _("%(cards)s counts %(value)s on its own") % said
    elif all(c.rank == "A" for c in counted):
        head = _("%(cards)s count %(value)s") % said
    else:
        head = _("%(cards)s count %(value)s in %(suit)s") % said
    if wild:
        head += (
            _(", the ace joining any suit") if len(wild) == 1 else _(", the aces joining any suit")
        )
    if not left_out:
        return head
    rest = {"head": head, "cards": names(left_out)}
    if len(left_out) == 1:
        if len(counted) == 1:
            return _("%(head)s; the %(cards)s does not join it") % rest
        return _("%(head)s; the %(cards)s does not join them") % rest
    if len(counted) == 1:
        return _("%(head)s; the %(cards)s do not join it") % rest
    return _("%(head)s; the %(cards)s do not join them") % rest


@lru_cache(maxsize=64)
def three_of_a_kind_values(rules: RuleSet) -> frozenset[Fraction]:
    """Every value a three of a kind can have under these rules (for a dealt three of a kind
    whose value a table entered)."""
    cards = deck(rules.deck)
    ranks = {card.rank for card in cards}
    return frozenset(
        evaluate(tuple(card for card in cards if card.rank == rank)[:3], rules).value
        for rank in ranks
    )


@lru_cache(maxsize=64)
def possible_values(rules: RuleSet) -> frozenset[Fraction]:
    """Every value a hand can have under these rules (for checking a value a table agreed)."""
    cards = deck(rules.deck)
    return frozenset(
        evaluate((a, b, c), rules).value
        for i, a in enumerate(cards)
        for j, b in enumerate(cards[i + 1 :], i + 1)
        for c in cards[j + 1 :]
    )
