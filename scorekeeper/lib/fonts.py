"""The font Knock draws its printed sheets and shared pictures in: DejaVu Sans where the system
has it (Debian's fonts-dejavu-core: the suits, quotes and every European letter), or the one
``KNOCK_PDF_FONT`` names. No Django here."""

from __future__ import annotations

import os
from pathlib import Path

FONT_PATHS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
)


def regular() -> Path | None:
    """The regular face, or None where the system has none of them."""
    named = os.environ.get("KNOCK_PDF_FONT", "")
    return next((Path(p) for p in (named, *FONT_PATHS) if p and Path(p).is_file()), None)


def bold() -> Path | None:
    """The bold face beside the regular one ("DejaVuSans-Bold.ttf"), else the regular."""
    face = regular()
    if face is None:
        return None
    beside = face.with_name(face.stem + "-Bold" + face.suffix)
    return beside if beside.is_file() else face
