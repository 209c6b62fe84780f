"""What the server and the phone's JavaScript share, said once, here.

The names both sides use (response headers, the service worker's caches, the phone's storage
keys, the record form's fields) and the shapes of the three contracts between them: the table
view (``rules/view.py``), the engine's messages (``rules/phone.py`` and the worker's), and a round
waiting in the phone's outbox. ``static/js/contract.js`` is made from this module by
``python -m scorekeeper.web.contract``, and ``tests/web/test_phone_contract.py`` fails while the two differ,
so a key renamed in ``view.py`` fails the JavaScript's type check in CI (``tsc``).
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict, get_args, get_origin, get_type_hints

from ..rules.phone import PhoneAnswer, PhonePayload, Played, Stopped
from ..rules.view import SeatView, TableView

# What a Record tap did, said by the server on its answer (the phone's sender reads it):
# saved; already (that very tap was stored before); stale (the table changed first: nothing
# saved); refused (the form says why).
TAP_OUTCOME = "Knock-Tap"
# The game's version after the answer, and the rounds another phone recorded since the version
# a stale tap was made on (JSON, ASCII only), so that the phone can show them beside its own.
TABLE_VERSION = "Knock-Version"
THEIR_ROUNDS = "Knock-Their-Rounds"
# Why a tap was not saved, in the page's language (JSON, ASCII only): what the page says.
TAP_WHY = "Knock-Why"
# A page the phone made itself (a game started without a connection, again.js).
MADE_ON_PHONE = "Knock-Made-On-Phone"

NAMES: dict[str, Any] = {
    "headers": {
        "outcome": TAP_OUTCOME,
        "version": TABLE_VERSION,
        "theirs": THEIR_ROUNDS,
        "why": TAP_WHY,
        "madeOnPhone": MADE_ON_PHONE,
    },
    "outcomes": ["saved", "already", "stale", "refused"],
    # A proxy in front of Knock answered for it (the app restarting, or too slow): as no
    # connection, and sent again later. A 500 is a fault that sending again would not mend.
    "proxyDown": [502, 503, 504],
    # "snapshot" holds the engine's started memory (one entry, for this runtime and bundle): a
    # warm start loads it instead of starting Python and importing the rules again.
    "caches": {"pages": "pages", "files": "files-", "engine": "engine-", "snapshot": "snapshot"},
    "storage": {
        "outbox": "knock-outbox",
        "theme": "knock-theme",
        "awake": "knock-awake",
        "vibrate": "knock-vibrate",
        "cardsOpen": "knock-cards-open",
        "installHint": "knock-install-hint",
    },
    "locks": {"outbox": "knock-outbox", "sender": "knock-sender"},
    "fields": {"confirm": "confirm", "tapId": "client_id", "version": "version"},
    # A phone keeps at most this many rounds waiting: past it, a round is refused, said plainly.
    "mostWaiting": 200,
    # The table region's bounds in a page, for the service worker to keep a page up to date from
    # the region an answer carries, without fetching the page again.
    "tableMarks": ["<!--knock:table-->", "<!--/knock:table-->"],
}


class TheirRound(TypedDict):
    """A round another phone recorded since a stale tap's table, as the phone shows it."""

    number: int
    tap: str  # the tap id it was recorded with ("" where none was sent)
    tapped: str
    headline: str


class Refusal(TypedDict):
    """Why a waiting round was not saved, and what the table holds instead."""

    why: str
    version: int
    theirs: list[TheirRound]


class OutboxEntry(TypedDict):
    """A round recorded on this phone that has not reached Knock yet (static/js/outbox.js)."""

    id: str  # the tap's id (the form's client_id): sent again, it is saved once
    url: str
    body: str  # the record form as sent, its version among the fields
    number: int
    tapped: str  # what was tapped, in words
    headline: str  # what it did, where the phone's engine played it ("" otherwise)
    refused: NotRequired[Refusal]


class Start(TypedDict):
    """A game this phone started without a connection: how to start it on the server."""

    url: str
    body: str
    refused: NotRequired[str]
    # The outbox's key of the game played again (its page's path): its waiting rounds go
    # before this start, so the server sees that game over before it starts the next.
    after: NotRequired[str]


class WorkerStart(TypedDict):
    runtime: str
    stdlib: str
    bundle: str
    language: str


class ToWorkerStart(TypedDict):
    start: WorkerStart


class ToWorkerPlay(TypedDict):
    id: int
    play: str  # a PhonePayload as JSON


class FromWorkerReady(TypedDict):
    ready: str  # the bundle's version
    ms: int
    warm: bool  # started from the kept snapshot, not from scratch


class FromWorkerFailed(TypedDict):
    failed: str
    id: NotRequired[int]


class FromWorkerAnswer(TypedDict):
    id: int
    answer: str  # a PhoneAnswer as JSON


class FromWorkerKept(TypedDict):
    """The started engine is kept for the next start: its packed size in bytes."""

    kept: int


class FromWorkerFault(TypedDict):
    """A fault the engine works on past (its snapshot not kept): reported, nothing stops."""

    fault: str


class Fault(TypedDict):
    """What a phone reports of a fault (static/js/faults.js): no key, no name, no page URL."""

    kind: Literal["error", "rejection", "outbox", "engine", "csp"]
    message: str
    where: str
    release: str


CONTRACTS: tuple[type, ...] = (
    SeatView,
    TableView,
    Stopped,
    Played,
    PhoneAnswer,
    PhonePayload,
    TheirRound,
    Refusal,
    OutboxEntry,
    Start,
    WorkerStart,
    ToWorkerStart,
    ToWorkerPlay,
    FromWorkerReady,
    FromWorkerFailed,
    FromWorkerAnswer,
    FromWorkerKept,
    FromWorkerFault,
    Fault,
)


def _js_type(hint: Any) -> str:
    """A Python type as JSDoc's TypeScript type."""
    if hint is Any:
        return "unknown"
    if hint is type(None) or hint is None:
        return "null"
    if hint is str:
        return "string"
    if hint in (int, float):
        return "number"
    if hint is bool:
        return "boolean"
    if typing.is_typeddict(hint):
        return hint.__name__
    origin, args = get_origin(hint), get_args(hint)
    if origin is NotRequired:
        return _js_type(args[0])
    if origin is Literal:
        return " | ".join(json.dumps(arg) for arg in args)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_js_type(arg) for arg in args)
    if origin in (list, tuple, Sequence):
        inner = _js_type(args[0]) if args else "unknown"
        return f"Array<{inner}>"
    if origin in (dict, Mapping):
        return f"Record<{_js_type(args[0])}, {_js_type(args[1])}>"
    raise TypeError(f"no JavaScript type for {hint!r}")


def _typedef(contract: type) -> str:
    hints = get_type_hints(contract, include_extras=True)
    # NotRequired read from the hints themselves: with postponed annotations the class's own
    # __optional_keys__ does not see it.
    optional = {name for name, hint in hints.items() if get_origin(hint) is NotRequired}
    fields = [
        f"  {name}{'?' if name in optional else ''}: {_js_type(hint)};"
        for name, hint in hints.items()
    ]
    doc = (contract.__doc__ or "").strip().splitlines()
    said = f" * {doc[0]}\n" if doc else ""
    return (
        "/**\n" + said + " * @typedef {{\n" + "\n".join(fields) + f"\n}}}} {contract.__name__}\n */"
    )


def javascript() -> str:
    """``static/js/contract.js`` as it must read."""
    parts = [
        "// @ts-check",
        "/* Made by `python -m scorekeeper.web.contract` from scorekeeper/web/contract.py: do not edit.",
        " * The names the server and the phone share, and the shapes of what passes between them. */",
        "",
        *(_typedef(contract) for contract in CONTRACTS),
        "",
        "export const NAMES = Object.freeze("
        + json.dumps(NAMES, indent=2, ensure_ascii=False)
        + ");",
        "",
    ]
    return "\n".join(parts)


TARGET = "static/js/contract.js"

if __name__ == "__main__":
    # python -m scorekeeper.web.contract: write static/js/contract.js from this module.
    from pathlib import Path

    Path(__file__).resolve().parents[2].joinpath(TARGET).write_text(javascript())
    print(f"wrote {TARGET}")
