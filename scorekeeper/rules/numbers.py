"""Every number that reaches the engine from outside (JSON, forms, backup files) is read here.

One small, strict reader: a plain decimal number of a few digits (``3``, ``30.5``, ``30,5``), or
an int or float already in range. Nothing is turned into an exact number before it is known to
be short and in range, so no input can make the server work hard: ``"1e50000000"`` is refused
as text, not expanded.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from .errors import InputError
from .words import _

# A sign, up to four ASCII digits, and up to two decimals after a point or a comma. Nothing else.
_PLAIN = re.compile(r"(-?)([0-9]{1,4})(?:[.,]([0-9]{1,2}))?")
_LONGEST = 12  # characters, spaces included: anything longer is not a plain small number


def parse_plain(raw: object) -> Fraction | None:
    """The exact value of a plain small number, or None when ``raw`` is not one."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return Fraction(raw) if -10_000 < raw < 10_000 else None
    if isinstance(raw, float):
        if not math.isfinite(raw) or not -10_000 < raw < 10_000:
            return None
        raw = repr(raw)  # 30.5 → "30.5"; 1e-05 → "1e-05", refused below
    if not isinstance(raw, str) or len(raw) > _LONGEST:
        return None
    match = _PLAIN.fullmatch(raw.strip())
    if match is None:
        return None
    sign, whole, decimals = match.groups()
    value = Fraction(int(whole)) + (Fraction(int(decimals), 10 ** len(decimals)) if decimals else 0)
    return -value if sign else value


def read_whole(
    raw: object, field: str, what: str, low: int, high: int, seat: int | None = None
) -> int:
    """A whole number from ``low`` to ``high``, or an ``InputError`` naming ``field``."""
    value = parse_plain(raw)
    if value is None or value.denominator != 1 or not low <= value <= high:
        raise InputError(
            _("%(what)s must be a whole number from %(low)d to %(high)d")
            % {"what": what, "low": low, "high": high},
            field,
            seat,
        )
    return int(value)


def read_points(raw: object, field: str, high: int = 40, seat: int | None = None) -> Fraction:
    """A hand's value a table agreed, such as 19 or 30.5: from 0 to ``high``, in halves."""
    value = parse_plain(raw)
    if value is None or not 0 <= value <= high or (value * 2).denominator != 1:
        raise InputError(_("a hand's value is a number such as 19 or 30.5"), field, seat)
    return value
