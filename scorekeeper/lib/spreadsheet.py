"""Rows for a spreadsheet (CSV): every cell shown as text, never run as a formula."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

# A cell that starts with one of these is a formula to a spreadsheet (OWASP, CSV injection).
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """A value a spreadsheet shows as text, never runs: a leading quote disarms a formula."""
    if isinstance(value, str) and value.startswith(FORMULA):
        return "'" + value
    return value


def spreadsheet(rows: Iterable[Sequence[Any]]) -> str:
    """The rows as CSV, each cell disarmed (``cell``)."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return out.getvalue()
