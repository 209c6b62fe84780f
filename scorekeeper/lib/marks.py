"""A player's mark: a colour of the palette and initials, always drawn together (never the colour
alone), the same on the tiles, the lives chart, the score sheet, the statistics and the picture
a game is shared as.

Each colour has a shade for each theme: on the light paper a dark one, with white initials on it
(4.5:1 or more), on the dark paper a light one, with dark initials on it (4.5:1 or more); each
shade stands 3:1 or more against its paper, as a chart's line must. ``tests/web/test_marks.py``
measures all of it, and checks that ``static/css/knock.css`` holds the palette as
``palette_css()`` writes it: the colours are declared here, once.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import product

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy


@dataclass(frozen=True)
class Colour:
    word: Promise  # its name, for a screen reader and the colour picker
    light: str  # on the light paper, under white initials
    dark: str  # on the dark paper, under dark initials


# Ten hues (OKLCH lightness 0.55–0.58 in the light theme, 0.70 in the dark one), the first ones
# the furthest apart, so a small club's colours differ most.
PALETTE = (
    Colour(pgettext_lazy("colour", "blue"), "#2474cf", "#5fa1f3"),
    Colour(pgettext_lazy("colour", "orange"), "#b45c03", "#e87f25"),
    Colour(pgettext_lazy("colour", "green"), "#428252", "#43b966"),
    Colour(pgettext_lazy("colour", "purple"), "#975ac0", "#bd7fe8"),
    Colour(pgettext_lazy("colour", "red"), "#c74b47", "#f2716a"),
    Colour(pgettext_lazy("colour", "teal"), "#298084", "#40b1b7"),
    Colour(pgettext_lazy("colour", "pink"), "#bc4b87", "#e670ac"),
    Colour(pgettext_lazy("colour", "olive"), "#70790e", "#9ca831"),
    Colour(pgettext_lazy("colour", "grey"), "#5f6b78", "#a3afbd"),
    Colour(pgettext_lazy("colour", "indigo"), "#6868d2", "#8d90ff"),
)
# The initials' colour on a shade: white on the light theme's, dark on the dark theme's.
ON_LIGHT, ON_DARK = "#ffffff", "#101311"
MOST_INITIALS = 3
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
NAME_PARTS = re.compile(r"[\s\-‐]+")


@dataclass(frozen=True)
class Mark:
    colour: int  # an index into PALETTE
    initials: str

    @property
    def word(self) -> str:
        return str(PALETTE[self.colour].word)

    @property
    def css(self) -> str:
        """The class that colours the mark (``palette_css``)."""
        return f"pc-{self.colour}"


def initials_of(name: str) -> str:
    """Two letters of a name: the first of its first and last parts ("Maximiliane-Josephine"
    is "MJ"), or its first two letters ("Ana" is "An")."""
    letters = [part for part in NAME_PARTS.split(name) if part]
    if not letters:
        return "?"
    if len(letters) >= 2:
        return (letters[0][0] + letters[-1][0]).upper()
    word = letters[0]
    return word[:1].upper() + word[1:2].lower()


def _key(initials: str) -> str:
    return unicodedata.normalize("NFC", initials).casefold()


def initials_for(name: str, taken: Iterable[str]) -> str:
    """Initials for a new player that no other player of the club has: the name's own
    (``initials_of``), else its first three letters ("Anton" beside "Ana" is "Ant"), else its
    first letter with a later one, else its first letter and a number, else its first letter
    and any two letters or digits, else any three. Always found: where a club has worn out
    every one of those (46,000 and more), the name's own initials, shared, which the player's
    page can change."""
    used = {_key(initials) for initials in taken}
    first = initials_of(name)
    return next((c for c in _candidates(name, first) if _key(c) not in used), first)


def _candidates(name: str, first: str) -> Iterator[str]:
    letters = [c for c in name if c.isalnum()]
    head = first[:1] if first[:1].isalnum() else "X"
    said = [first, head + "".join(letters[1:3]).lower(), *(head + c.lower() for c in letters[1:])]
    yield from (c for c in said if len(c) > 1)
    yield from (f"{head}{n}" for n in range(2, 100))
    yield from (head + a + b for a, b in product(ALPHABET, repeat=2))
    yield from ("".join(three) for three in product(ALPHABET, repeat=MOST_INITIALS))


def free_colour(used: Iterable[int]) -> int:
    """The colour fewest of the club's players wear (the first of the palette among those)."""
    worn = Counter(used)
    return min(range(len(PALETTE)), key=lambda colour: (worn[colour], colour))


def clean_initials(initials: str) -> str:
    """Initials as a player is shown with them: 1 to 3 letters or digits, or ValueError."""
    initials = unicodedata.normalize("NFC", "".join(initials.split()))
    if not 1 <= len(initials) <= MOST_INITIALS or not all(c.isalnum() for c in initials):
        raise ValueError(initials)
    return initials


def palette_css() -> str:
    """The palette as static/css/knock.css declares it: each colour's class sets ``--pc`` (the
    shade of the theme) and ``--on-pc`` (its initials' colour)."""
    lines = [
        f".pc-{i} {{ --pc: light-dark({colour.light}, {colour.dark}); }}"
        for i, colour in enumerate(PALETTE)
    ]
    return "\n".join(lines)
