"""What the table shows, worked out in one place: a pure function of the game's state.

The server's templates draw it (``templates/scorekeeper/_seat.html``, ``game.html``) and the
phone draws the same values when its own engine played the round (``static/js/board.js``), so
the two cannot differ: every word a tile, the dealer badge, the header, the story line and the
toast show is in it, in the table's language, and the page only places them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypedDict

from .endings import ROUND_ENDINGS
from .game import GameState, RoundInput, Step
from .round import Status
from .ruleset import RuleSet
from .words import _, coins, ngettext

MOST_TOKENS = 5  # lives drawn one by one; more are shown as a count

# Where a name may break across the two lines of its tile: at a space, or after a hyphen.
NAME_PARTS = re.compile(r"\s+|(?<=-)")
# Letters of a name's part that every tile holds at the full size (the edit page's narrow tiles
# on a 320 px phone broke "Friederike"); a longer part is sized to its tile.
LONG_NAME_PART = 7
SHORT_LABEL = 8  # letters of a status ("swimming") a tile holds at the full size anywhere
LONGEST_FITTED = 24  # letters: a longer part is sized as one of 24, and breaks where it must


def capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


def label_fit(label: str) -> str:
    """The class that sizes a status's words to keep one line on a tile the status has to
    itself ("fit-18" for "auf Gemeindekosten"), or nothing where the full size holds them."""
    return f"fit-{min(len(label), LONGEST_FITTED)}" if len(label) > SHORT_LABEL else ""


def name_fit(name: str) -> str:
    """The class that sizes a name on a tile so that its longest part keeps one line ("fit-14"
    for "Schwarzenberger"), or nothing where the full size holds it."""
    longest = max(len(part) for part in NAME_PARTS.split(name))
    return f"fit-{min(longest, LONGEST_FITTED)}" if longest > LONG_NAME_PART else ""


class SeatView(TypedDict):
    """A player as their tile shows them. Every part a tile shows is decided here, once: the
    server's template (_seat.html) and the phone's board.js only fill it in, shown where it
    is not empty."""

    name: str
    name_fit: str
    lives: int
    status: str
    out: bool
    tappable: bool
    label: str
    label_fit: str
    deals: bool
    tokens: list[bool]
    count: str
    coins: str | None
    said: str


class TableView(TypedDict):
    """What the table shows after a round: every word of it, in the table's language."""

    heading: str
    next_round: int
    rounds: int
    start_lives: int
    game_over: bool
    dealer: str
    deals_line: list[str]
    pot: str
    winner: str | None
    wins_words: list[str]
    result_words: str
    seats: list[SeatView]
    deals_word: str
    headline: str
    story: Sequence[str]
    story_heading: str
    saved: str
    waiting: str
    record: str
    save: str


def seat_views(rules: RuleSet, state: GameState) -> list[SeatView]:
    """Each player as a tile shows them: name, lives (as tokens while they fit a phone) or
    coins, the status in the rules' words, and who deals."""
    seats: list[SeatView] = []
    for i, name in enumerate(state.names):
        status = str(state.statuses[i])
        deals = i == state.dealer and not state.game_over
        lives = state.lives[i]
        # The status is said only where it is not "in".
        label = rules.status_label(state.statuses[i]) if status != Status.IN else ""
        tokens = (
            [True] * lives + [False] * (state.start_lives - lives)
            if state.start_lives <= MOST_TOKENS
            else []
        )
        # What a screen reader says after the name (a comma where the status or the dealer follows).
        said = (
            _("%(coins)s coins") % {"coins": coins(state.coins[i])}
            if state.coins
            else ngettext(
                "%(lives)s of %(total)s life", "%(lives)s of %(total)s lives", state.start_lives
            )
            % {"lives": lives, "total": state.start_lives}
        )
        seats.append(
            {
                "name": name,
                # A part of the name that a line of a phone's tile holds only in a smaller size:
                # the class that sizes the name to its longest part, so no word breaks.
                "name_fit": name_fit(name),
                "lives": lives,
                "status": status,
                "out": status == Status.OUT,
                # A tile the round's taps can mark: not out, and the game not over.
                "tappable": status != Status.OUT and not state.game_over,
                "label": label,
                "label_fit": label_fit(label) if label else "",
                "deals": deals,
                "tokens": tokens,
                # Lives as a number where there are too many for tokens.
                "count": "" if tokens else f"{lives}/{state.start_lives}",
                # A game played for a pot: the coins up or down, in place of lives.
                "coins": coins(state.coins[i]) if state.coins else None,
                "said": f"{said}," if label or deals else said,
            }
        )
    return seats


def heading(state: GameState) -> str:
    if state.game_over:
        return _("Game over")
    return _("Round %(n)s") % {"n": state.rounds + 1}


def pot_words(state: GameState) -> str:
    if state.coins:
        return ngettext("%(n)s coin in the pot", "%(n)s coins in the pot", state.pot) % {
            "n": state.pot
        }
    return ngettext("%(n)s life paid into the pot", "%(n)s lives paid into the pot", state.pot) % {
        "n": state.pot
    }


def saved_words(step: Step) -> str:
    """The toast after a round is saved: the outcome first, then that it is saved."""
    return capfirst(
        _("%(headline)s · round %(n)d saved") % {"n": step.number, "headline": step.headline}
    )


def waiting_words(step: Step) -> str:
    """The toast after a round played on the phone that has not reached the server yet."""
    return capfirst(
        _("%(headline)s · round %(n)d not sent yet") % {"n": step.number, "headline": step.headline}
    )


def toast_words(state: GameState, step: Step | None, waiting: bool = False) -> str:
    """What the toast says after ``step``: nothing after the round that ends the game, which the
    game-over screen says, and whose actions no toast may cover."""
    if step is None or state.game_over:
        return ""
    return waiting_words(step) if waiting else saved_words(step)


def tapped_words(rules: RuleSet, names: Sequence[str], round: RoundInput) -> str:
    """What was tapped for a round, as its tiles said it: "Knock · Ana knocked · Cara lowest"
    (the phone says a round it keeps in the same words, static/js/taps.js ``tappedWords``), so
    that a table can tell two phones' rounds apart."""
    ending = ROUND_ENDINGS[round.ending]
    said: dict[str, Callable[[int], bool]] = {
        "knocker": lambda seat: round.knocker == seat,
        "shown_by": lambda seat: seat in round.shown_by,
        "lowest": lambda seat: seat in (round.lowest or ()),
        "winners": lambda seat: seat in (round.winners or ()),
    }
    role_words = {
        "knocker": _("knocked"),
        "shown_by": _(ending.shown_word) if ending.shown_word else _("showed 31"),
        "lowest": _("lowest"),
        "winners": _("wins"),
    }
    parts = [] if ending.by_hand else [_(ending.chip)]
    for seat, name in enumerate(names):
        if ending.by_hand:
            roles = [f"−{lost}"] if (lost := (round.losses or {}).get(seat)) else []
        else:
            roles = [role_words[q] for q in ending.tap_order(rules) if said[q](seat)]
        if roles:
            parts.append(f"{name} {' · '.join(roles)}")
    typed = [" ".join(cards) for cards in (round.hands or {}).values() if cards]
    if typed:
        parts.append(" / ".join(typed))
    return " · ".join(parts)


def around(words: str, placeholder: str) -> list[str]:
    """The words before and after a name in a sentence of the language ("%(name)s wins!",
    "%(name)s deals"), so that a page can set the name apart (in bold) without reading HTML."""
    before, _found, after = words.partition(placeholder)
    return [before, after]


def table_view(
    rules: RuleSet, state: GameState, step: Step | None = None, story: Sequence[str] = ()
) -> TableView:
    """The table after ``step`` (the round that led to ``state``, when there is one); a page
    drawn from the stored game, with no round played, gives the latest round's ``story``
    (it may be lazy: only a page that draws it reads it)."""
    return {
        "heading": heading(state),
        "next_round": state.rounds + 1,
        "rounds": state.rounds,
        "start_lives": state.start_lives,
        "game_over": state.game_over,
        "dealer": "" if state.game_over else state.dealer_name,
        # "<strong>Ben</strong> deals": the words around the name, in the language's order.
        "deals_line": around(_("<strong>%(name)s</strong> deals"), "<strong>%(name)s</strong>"),
        "pot": pot_words(state),
        "winner": state.winner,
        "wins_words": around(_("<strong>%(name)s</strong> wins!"), "<strong>%(name)s</strong>"),
        "result_words": state.result_words,
        "seats": seat_views(rules, state),
        "deals_word": _("deals"),
        "headline": step.headline if step else "",
        "story": list(step.result.explanation) if step else story,
        "story_heading": _("Round %(n)s") % {"n": state.rounds} if state.rounds else "",
        "saved": toast_words(state, step),
        "waiting": toast_words(state, step, waiting=True),
        # The page's words that name the next round.
        "record": _("Record round %(n)s") % {"n": state.rounds + 1},
        "save": _("Save round %(n)s") % {"n": state.rounds + 1},
    }
