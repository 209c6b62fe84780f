from django import template
from django.utils.html import format_html

from ..rules.cards import Card, Suit, card_words
from ..rules.hands import points as format_points
from ..rules.words import coins as format_coins

register = template.Library()


@register.filter
def face(card: Card) -> str:
    """A card as a small face: rank and suit symbol, red for hearts and diamonds."""
    red = card.suit in (Suit.HEARTS, Suit.DIAMONDS)
    return format_html(
        '<span class="face{}" aria-label="{}">{}</span>',
        " red" if red else "",
        card_words(card),
        str(card),
    )


@register.filter
def points(value) -> str:
    """30.5 stays 30.5; 21 stays 21."""
    return format_points(value)


@register.filter
def coins(n: int) -> str:
    """Coins up or down, with their sign, as everywhere else: "+3", "−2", "0"."""
    return format_coins(n)
