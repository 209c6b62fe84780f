"""The engine's door on the phone: the table page's worker (``static/js/engine-worker.js``) runs
this very package under Pyodide and calls ``play`` with JSON, as the server's views call the
engine with Python values.

The phone sends what the table's form says about each round, the fields as the server's form
reads them (``ending``, ``knocker``, ``shown``, ``lowest``, ``winners``, ``cards_<seat>``,
``lost_<seat>``, ``choice``), and gets back, round by round, the table view the server's pages
draw (``rules.view.table_view``) and the state the server would store. A round the engine
refuses, or one only the table can decide (its choices, a count no round of the rules gives),
stops the answer there: the phone then leaves that round to the server.
"""

from __future__ import annotations

import gettext
import io
import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, TypedDict

from . import words
from .errors import InputError
from .game import GameState, RoundInput, advance, asked_round, read_state, stored_state
from .game import play as play_round
from .numbers import read_whole
from .resolve import refuse_a_stray_choice
from .round import Result
from .ruleset import RuleSet, stored_rules
from .view import TableView, table_view
from .words import sentence


class PhonePayload(TypedDict):
    """What the phone asks its engine: the rounds, played from the table stored with the game."""

    rules: dict[str, Any]
    rules_version: int
    names: list[str]
    state: dict[str, Any]
    rounds: list[dict[str, list[str]]]


class Played(TypedDict):
    """A round the engine played: the table after it, and the state the server would store."""

    view: TableView
    state: dict[str, Any]
    round: dict[str, Any]


class Stopped(TypedDict):
    """The round the engine leaves to the server (refused, or the table's to decide), and why."""

    round: int
    why: str  # a sentence, as the server's form says it
    field: str
    refused: (
        bool  # the round cannot be played as tapped (else: the table decides, or it is unusual)
    )


class PhoneAnswer(TypedDict):
    """The engine's answer: the table before the rounds (when none is played), then after each."""

    before: TableView | None
    played: list[Played]
    stopped: Stopped | None


def speak(catalogue: bytes | None) -> None:
    """Speak the language of ``catalogue`` (a compiled gettext catalogue), or English."""
    if catalogue is None:
        words.install(gettext.NullTranslations())
    else:
        words.install(gettext.GNUTranslations(io.BytesIO(catalogue)))


def _seats(fields: Mapping[str, Sequence[str]], name: str, count: int) -> list[int]:
    return [read_whole(raw, name, name, 0, count - 1) for raw in fields.get(name, ()) if raw != ""]


def read_fields(
    rules: RuleSet, state: GameState, fields: Mapping[str, Sequence[str]]
) -> RoundInput:
    """A round from the table's form fields (each a list of the values sent)."""
    count = len(state.names)
    first = {name: values[0] if values else "" for name, values in fields.items()}
    knocker = _seats(fields, "knocker", count)
    return asked_round(
        rules,
        first.get("ending", ""),
        knocker=knocker[0] if knocker else None,
        shown_by=_seats(fields, "shown", count),
        lowest=_seats(fields, "lowest", count),
        winners=_seats(fields, "winners", count),
        hands={seat: first.get(f"cards_{seat}", "") for seat in range(count)},
        losses={
            seat: read_whole(first[f"lost_{seat}"], "losses", "lives", 0, rules.most_lost, seat)
            for seat in range(count)
            if first.get(f"lost_{seat}", "") != ""
        },
        choice=first.get("choice", ""),
    )


@lru_cache(maxsize=8)
def _rules(values: str, version: int) -> RuleSet:
    """A game's rules, read once per page (every tap sends the same)."""
    return stored_rules(json.loads(values), version)


def play(payload: str) -> str:
    """The table after each round of ``rounds``, played in order from the stored ``state``.

    In: ``{"rules", "rules_version", "names", "state", "rounds": [fields, …]}``. Out:
    ``{"before": view | null, "played": [{"view", "state", "round"}, …], "stopped": null | {"round",
    "why", "field"}}``: the table before the rounds (when none is given), then after each.
    """
    data = json.loads(payload)
    rules = _rules(json.dumps(data["rules"], sort_keys=True), data["rules_version"])
    state = read_state(data["state"], data["names"])
    # The table before the rounds, only when no round is played (an undo of the last waiting
    # round draws it): a tap's answer is as quick as the phone can make it.
    before = None if data["rounds"] else table_view(rules, state)
    played: list[Played] = []
    stopped: Stopped | None = None
    for number, fields in enumerate(data["rounds"]):
        try:
            round = read_fields(rules, state, fields)
            step = play_round(rules, state, round)
            refuse_a_stray_choice(round.choice, step.result)
        except InputError as refusal:
            why = sentence(refusal.message)
            stopped = {"round": number, "why": why, "field": refusal.field, "refused": True}
            break
        result = step.result
        if result.result == Result.TABLE_DECIDES and not round.choice:
            stopped = {
                "round": number,
                "why": "the table decides",
                "field": "choice",
                "refused": False,
            }
            break
        if result.unusual and not fields.get("as_counted"):
            stopped = {
                "round": number,
                "why": "counted as no round gives",
                "field": "losses",
                "refused": False,
            }
            break
        state = advance(state, step)
        played.append(
            {
                "view": table_view(rules, state, step),
                "state": stored_state(state),
                "round": round.as_data(),
            }
        )
    answer: PhoneAnswer = {"before": before, "played": played, "stopped": stopped}
    return json.dumps(answer)
