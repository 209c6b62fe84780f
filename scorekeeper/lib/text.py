"""Text that people type and Knock keeps: one check for every way in (forms, the API, backups)."""

from __future__ import annotations

import unicodedata

from ..rules.errors import InputError
from ..rules.words import _
from ..rules.words import sentence as sentence  # the engine says its refusals so too

# Control characters (NUL, ESC, BEL…: PostgreSQL refuses NUL, a terminal obeys ESC) and lone
# surrogates (half of a character, which no database can store as text).
_REFUSED = frozenset({"Cc", "Cs"})


def clean_text(text: str, field: str) -> str:
    """``text`` unchanged, or an ``InputError`` naming ``field`` when it holds a character no
    one can mean to store."""
    if any(unicodedata.category(char) in _REFUSED for char in text):
        raise InputError(_("control characters and broken characters are not allowed here"), field)
    return text


def is_clean(text: str) -> bool:
    return not any(unicodedata.category(char) in _REFUSED for char in text)


def clean_name_text(text: str, field: str) -> str:
    """A name as it is kept: ``clean_text``'s check, no format characters (bidi overrides and
    isolates such as U+202E and U+2066 turn the text around them; zero-width characters such as
    U+200B, U+200D and U+FEFF make a look-alike of another name), composed (NFC)."""
    text = clean_text(text, field)
    if any(unicodedata.category(char) == "Cf" for char in text):
        raise InputError(
            _(
                "invisible characters (right-to-left marks, zero-width spaces) are not allowed "
                "in a name"
            ),
            field,
        )
    return unicodedata.normalize("NFC", text)


def name_text_is_clean(text: str) -> bool:
    return is_clean(text) and not any(unicodedata.category(char) == "Cf" for char in text)
