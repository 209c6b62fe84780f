"""The engine's words in the table's language, with no Django here.

Every sentence the engine says goes through ``_`` (or ``ngettext`` where a number decides the
form), with named ``%(…)s`` parameters so that a language can put them in its own order. Words
kept at import time (a switch's name, a preset's description) are marked with ``gettext_noop``
and translated where they are read. Who translates is the web layer's choice: it installs a
translator once (Django's, which follows each request's language), and tests may speak through
any ``gettext.GNUTranslations`` for a while with ``speaking``. Without either, the engine speaks
the English of its message ids.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol


class Translator(Protocol):
    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


_installed: Translator = _gettext.NullTranslations()
_speaking: ContextVar[Translator | None] = ContextVar("speaking", default=None)


def install(translator: Translator) -> None:
    """Speak through ``translator`` from now on (the web app installs Django's at start)."""
    global _installed
    _installed = translator


@contextmanager
def speaking(translator: Translator) -> Iterator[None]:
    """Speak through ``translator`` inside the ``with`` block (in this thread or task only)."""
    token = _speaking.set(translator)
    try:
        yield
    finally:
        _speaking.reset(token)


def _translator() -> Translator:
    return _speaking.get() or _installed


def _(message: str) -> str:
    return _translator().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translator().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _translator().pgettext(context, message)


def gettext_noop(message: str) -> str:
    """Marks ``message`` for translation where it is read, not here."""
    return message


# What a showdown is missing when the table named nobody and entered no hand: said alike by the
# server's form, the phone's engine and the phone before its engine has come (the record form's
# chips carry them, ``Ending.unanswered``), and never naming a player.
SAY_KNOCKER = gettext_noop("say who knocked")
SAY_LOWEST = gettext_noop("Say who was lowest: tap them, or enter everyone's cards.")
SAY_TOP = gettext_noop("Say who had the top hand: tap them, or enter everyone's cards.")
SAY_POT = gettext_noop("Say who won the pot: tap them, or enter everyone's cards.")


def names(people: Sequence[str]) -> str:
    """A list of names in words: "Ana", "Ana and Ben", "Ana, Ben and Cat"."""
    people = list(people)
    if len(people) == 1:
        return people[0]
    return _("%(names)s and %(last)s") % {"names": ", ".join(people[:-1]), "last": people[-1]}


def lives(n: int) -> str:
    """ "1 life", "2 lives"."""
    return ngettext("%(n)d life", "%(n)d lives", n) % {"n": n}


def coins(n: int) -> str:
    """A balance in coins, with its sign: "+3", "−2", "0"."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def sentence(message: str) -> str:
    """An engine refusal as a sentence: a capital letter and a full stop (the server's forms
    and the phone's engine say a refusal in the same words)."""
    message = message.strip()
    return message[:1].upper() + message[1:] + ("" if message.endswith((".", "!", "?")) else ".")
