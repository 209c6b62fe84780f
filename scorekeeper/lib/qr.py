"""Links as QR codes, drawn on the server as inline SVG: no script, no network."""

import segno


def qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=5, dark="#1b1f23", border=2, omitsize=True)
