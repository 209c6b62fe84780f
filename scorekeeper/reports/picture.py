"""A finished game as a picture to share: who won, each player's lives (or coins) round by round as
the round log's chart draws them, each in the colour of their mark, where each finished, the
rules, the date and the club's name, in the table's language and theme.

Pillow draws it (fpdf2 depends on it already: no new dependency), 1200×630 pixels, the size chat
apps show as a link's preview; the text is set in the font the printed sheets use
(``lib.fonts``), else in Pillow's own. The words drawn also travel in the PNG's text chunks
("Title", "Description"), for whoever cannot see the picture.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from ..lib import fonts
from ..lib.marks import ON_DARK, ON_LIGHT, PALETTE, Mark
from ..models import Game
from ..rules import Status
from ..rules.game import GameState, seat_places
from ..rules.words import coins as signed
from ..rules.words import lives as lives_words
from .rounds import level, lives_over_rounds

WIDTH, HEIGHT, MARGIN = 1200, 630, 48
CHART = (MARGIN + 60, 250, 650, 570)  # left, top, right, bottom of the plot
END_MARK = 15  # the radius of the mark at the end of each line
PLACES = 700  # where the list of places starts


@dataclass(frozen=True)
class Theme:
    paper: str
    ink: str
    muted: str
    line: str
    band: str
    on_band: str
    on_mark: str
    dark: bool


# The page's own colours (static/css/knock.css), light and dark.
THEMES = {
    "light": Theme(
        "#fbfaf7", "#1b1f23", "#545c66", "#d8d4cc", "#0f5132", "#e8f3ec", ON_LIGHT, False
    ),
    "dark": Theme("#101311", "#ecebe6", "#b4bbb5", "#3a423d", "#0f5132", "#e8f3ec", ON_DARK, True),
}


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    face = fonts.bold() if bold else fonts.regular()
    if face is None:
        return ImageFont.load_default(size)
    return ImageFont.truetype(str(face), size)


def _fitted(
    draw: ImageDraw.ImageDraw, text: str, size: int, width: float, bold: bool = False
) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The largest font up to ``size`` in which ``text`` keeps within ``width`` (down to 12)."""
    while size > 12:
        font = _font(size, bold)
        if draw.textlength(text, font=font) <= width:
            return font
        size -= 2
    return _font(size, bold)


def _mark(
    draw: ImageDraw.ImageDraw, mark: Mark, x: float, y: float, radius: int, theme: Theme
) -> None:
    colour = PALETTE[mark.colour]
    draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius),
        fill=colour.dark if theme.dark else colour.light,
    )
    font = _fitted(draw, mark.initials, int(radius * 0.95), radius * 1.7, bold=True)
    draw.text((x, y), mark.initials, font=font, fill=theme.on_mark, anchor="mm")


def _heading(
    theme: Theme, club_name: str, title: str, line: str
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A picture begun: the band with Knock and the club, the title, and a line under it."""
    image = Image.new("RGB", (WIDTH, HEIGHT), theme.paper)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 76), fill=theme.band)
    knock = _font(34, bold=True)
    draw.text((MARGIN, 38), "Knock", font=knock, fill="#ffffff", anchor="lm")
    left = MARGIN + draw.textlength("Knock", font=knock) + 32
    club = _fitted(draw, club_name, 30, WIDTH - MARGIN - left)
    draw.text((WIDTH - MARGIN, 38), club_name, font=club, fill=theme.on_band, anchor="rm")
    draw.text(
        (MARGIN, 108),
        title,
        font=_fitted(draw, title, 60, WIDTH - 2 * MARGIN, True),
        fill=theme.ink,
    )
    draw.text(
        (MARGIN, 190), line, font=_fitted(draw, line, 26, WIDTH - 2 * MARGIN), fill=theme.muted
    )
    return image, draw


def _png(image: Image.Image, title: str, description: str) -> bytes:
    """The PNG, with the words drawn in its text chunks for whoever cannot see it."""
    kept = io.BytesIO()
    info = PngInfo()
    info.add_itxt("Title", title)
    info.add_itxt("Description", description)
    image.save(kept, format="PNG", pnginfo=info, optimize=True)
    return kept.getvalue()


def picture(game: Game, marks: Sequence[Mark], theme_name: str = "light") -> bytes:
    """The game as a PNG (``marks``: each seat's, in seat order)."""
    theme = THEMES.get(theme_name, THEMES["light"])
    state = game.state
    points = lives_over_rounds(game)
    # Who won, and the game in a line.
    title = state.result_words or _("Game over")
    when = date_format(game.created, "DATE_FORMAT")
    rounds = ngettext("%(n)d round", "%(n)d rounds", state.rounds) % {"n": state.rounds}
    line = f"{game.preset_name} · {when} · {rounds}"
    image, draw = _heading(theme, game.club.name, title, line)
    if state.coins:
        _coins_chart(draw, points, marks, theme)
    else:
        last_chance = game.rules.status_label(Status.COUNTY) if game.rules.last_chance else ""
        out = game.rules.status_label(Status.OUT)
        _lives_chart(draw, points, marks, theme, last_chance, out)
    _places(draw, state, marks, theme)
    return _png(image, f"{title} · {game.club.name}", f"{line}. {_standing_words(state)}")


@dataclass(frozen=True)
class Standing:
    """A line of a tournament's or a night's standings, as its picture draws it."""

    place: int
    mark: Mark
    name: str
    said: str  # "7 points · 2 won", "2 wins · 3 lives lost"
    star: bool = False  # a prize place


SHOWN = 16  # lines a standings picture holds: two columns of eight


def standings_picture(
    club_name: str, title: str, line: str, standings: Sequence[Standing], theme_name: str = "light"
) -> bytes:
    """Final standings as a PNG of the size a finished game's is shared at: the first sixteen
    in two columns of eight, each with their mark; "and N more" below when there are more."""
    theme = THEMES.get(theme_name, THEMES["light"])
    image, draw = _heading(theme, club_name, title, line)
    shown = list(standings[:SHOWN])
    rows = 8 if len(shown) > 8 else max(1, len(shown))
    row = min(64, (HEIGHT - 250 - 40) // rows)
    column = (WIDTH - 2 * MARGIN) // 2
    for i, standing in enumerate(shown):
        x = MARGIN + (i // 8) * column + 44
        y = 250 + (i % 8) * row + row / 2
        place = f"{standing.place}."
        draw.text((x - 8, y), place, font=_font(22, True), fill=theme.muted, anchor="rm")
        _mark(draw, standing.mark, x + 18, y, min(18, row // 2 - 2), theme)
        small = _font(20)
        right = x - 44 + column - 24
        room = right - (x + 48) - draw.textlength(standing.said, font=small) - 12
        name = ("★ " if standing.star else "") + standing.name
        draw.text(
            (x + 48, y),
            name,
            font=_fitted(draw, name, 26, room, bold=standing.place == 1),
            fill=theme.ink,
            anchor="lm",
        )
        draw.text((right, y), standing.said, font=small, fill=theme.muted, anchor="rm")
    if len(standings) > SHOWN:
        more = _("and %(n)d more") % {"n": len(standings) - SHOWN}
        draw.text(
            (WIDTH - MARGIN, HEIGHT - 24), more, font=_font(20), fill=theme.muted, anchor="rm"
        )
    words = "; ".join(f"{s.place}. {s.name}: {s.said}" for s in standings)
    return _png(image, f"{title} · {club_name}", f"{line}. {words}")


def _axes(
    draw: ImageDraw.ImageDraw, levels: list[tuple[int, str]], top: int, bottom: int, theme: Theme
) -> None:
    left, plot_top, right, plot_bottom = CHART
    for value, words in levels:
        y = plot_top + (plot_bottom - plot_top) * (top - value) / (top - bottom)
        draw.line((left, y, right, y), fill=theme.line, width=2)
        draw.text(
            (left - 12, y), words, font=_fitted(draw, words, 20, 56), fill=theme.muted, anchor="rm"
        )


def _lines(
    draw: ImageDraw.ImageDraw,
    rows: list[list[int]],
    numbers: list[int],
    marks: Sequence[Mark],
    theme: Theme,
    top: int,
    bottom: int,
) -> None:
    left, plot_top, right, plot_bottom = CHART
    last = numbers[-1] or 1
    ends: dict[int, int] = {}  # how many marks stand at each last level already
    at_the_end = []
    for seat, mark in enumerate(marks):
        offset = (seat - len(marks) / 2) * 2.5  # equal lines do not hide each other
        dots = [
            (
                left + (right - left) * n / last,
                plot_top + (plot_bottom - plot_top) * (top - row[seat]) / (top - bottom) + offset,
            )
            for n, row in zip(numbers, rows, strict=True)
        ]
        colour = PALETTE[mark.colour]
        draw.line(dots, fill=colour.dark if theme.dark else colour.light, width=6, joint="curve")
        # Each line ends in its player's mark, so no one needs the colour to tell the lines
        # apart (lib.marks); marks at the same level stand side by side, leftwards from the end.
        level = rows[-1][seat]
        beside = ends.get(level, 0)
        ends[level] = beside + 1
        at_the_end.append((mark, right - beside * (2 * END_MARK + 4), dots[-1][1] - offset))
    for mark, x, y in at_the_end:  # over every line
        _mark(draw, mark, x, y, END_MARK, theme)


def _lives_chart(draw, points, marks, theme, last_chance: str, out: str) -> None:
    rows = [[level(state, seat) for seat in range(len(state.names))] for _n, state in points]
    top = max(max(row) for row in rows) or 1
    levels = [(v, str(v)) for v in range(1, top + 1)]
    levels += [(0, last_chance or "0"), (-1, out)]
    _axes(draw, levels, top, -1, theme)
    _lines(draw, rows, [n for n, _state in points], marks, theme, top, -1)


def _coins_chart(draw, points, marks, theme) -> None:
    rows = [list(state.coins) or [0] * len(state.names) for _n, state in points]
    top = max(1, max(max(row) for row in rows))
    bottom = min(-1, min(min(row) for row in rows))
    levels = [(v, signed(v)) for v in (top, 0, bottom)]
    _axes(draw, levels, top, bottom, theme)
    _lines(draw, rows, [n for n, _state in points], marks, theme, top, bottom)


def _standing(state: GameState, seat: int) -> str:
    if state.coins:
        return signed(state.coins[seat])
    if state.statuses[seat] == Status.OUT:
        return (
            _("out in round %(n)d") % {"n": state.out_in[seat]}
            if state.out_in
            else pgettext("status", "out")
        )
    return lives_words(state.lives[seat])


def _standing_words(state: GameState) -> str:
    places = seat_places(state)
    order = sorted(range(len(state.names)), key=lambda seat: (places[seat] or 99, seat))
    return "; ".join(
        f"{places[seat]}. {state.names[seat]}: {_standing(state, seat)}" for seat in order
    )


def _places(
    draw: ImageDraw.ImageDraw, state: GameState, marks: Sequence[Mark], theme: Theme
) -> None:
    """Each player, where they finished, with their mark: the winner on top."""
    places = seat_places(state)
    order = sorted(range(len(state.names)), key=lambda seat: (places[seat] or 99, seat))
    x, width = PLACES + 40, WIDTH - MARGIN - PLACES - 40
    row = min(56, (CHART[3] - CHART[1] + 30) // max(1, len(order)))
    for i, seat in enumerate(order):
        y = CHART[1] - 10 + i * row + row / 2
        draw.text(
            (x - 20, y),
            f"{places[seat]}.",
            font=_font(22, bold=True),
            fill=theme.muted,
            anchor="rm",
        )
        _mark(draw, marks[seat], x + 18, y, min(18, row // 2 - 2), theme)
        name = state.names[seat]
        said = _standing(state, seat)
        small = _font(20)
        room = width - 48 - draw.textlength(said, font=small) - 12
        draw.text(
            (x + 48, y),
            name,
            font=_fitted(draw, name, 26, room, bold=i == 0),
            fill=theme.ink,
            anchor="lm",
        )
        draw.text((WIDTH - MARGIN, y), said, font=small, fill=theme.muted, anchor="rm")
