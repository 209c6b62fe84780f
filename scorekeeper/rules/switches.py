"""A house-rule switch: what a table can set, declared once with everything said about it.

Each field of ``RuleSet`` is declared with ``switch(...)``: its default (the base every preset
starts from), its words (label, help, each choice's words, or a range), and the rules version
it appeared in. Forms, the API's schema, the rules card and the stored games' rules all read
the switch from here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .errors import InputError
from .numbers import parse_plain, read_whole
from .words import _


class RulesError(InputError):
    """A rule set that cannot be built; ``field`` names the switch at fault."""

    def __init__(self, message: str, field: str = "rules") -> None:
        super().__init__(message, field)


_SAME = object()  # ``before`` left out: games stored before a switch played its default


@dataclass(frozen=True)
class Switch:
    """One switch. ``choices`` maps each allowed value to its words; without them the switch
    is a whole number from ``low`` to ``high`` (or None, with ``optional``). Words are English
    message ids, translated where they are read. ``since`` is the rules version that brought
    the switch; a game stored before it plays ``before`` (by default the switch's default).
    ``play_only``: a rule of play the table keeps (the rules card prints it), not the score.
    ``form``: the way of playing (``RuleSet.form``) it belongs to, when only one."""

    label: str
    help: str
    default: Any
    since: int = 1
    choices: Mapping[Any, str] | None = None
    low: int = 0
    high: int = 0
    optional: bool = False
    none_label: str = ""
    before: Any = _SAME
    play_only: bool = False  # played at the table, printed on the card, never read by the engine
    form: str | None = None  # the one way of playing (lives, pot) it is read in; None: both
    name: str = ""  # the RuleSet field's, filled in once the class is made

    @property
    def played_before(self) -> Any:
        """What a game stored before this switch existed plays with."""
        return self.default if self.before is _SAME else self.before

    def words(self, value: Any) -> str:
        """A value in words, in the table's language."""
        if self.choices is not None:
            return _(self.choices[value])
        return _(self.none_label) if value is None else str(value)

    def read(self, raw: Any) -> Any:
        """A value from JSON or a form, checked against the choices or the range."""
        if self.choices is not None and isinstance(raw, str) and raw in self.choices:
            return raw  # an exact word, such as the "none" of "A 31 shown in play"
        if isinstance(raw, str) and raw.strip().lower() in ("", "none", "null"):
            raw = None
        if self.choices is not None:
            for allowed in self.choices:
                if _same(allowed, raw):
                    return allowed
            words = ", ".join(json_dump(value) for value in self.choices)
            raise RulesError(
                _("“%(switch)s” can be %(values)s, not %(value)s")
                % {"switch": _(self.label), "values": words, "value": json_dump(raw)},
                self.name,
            )
        if raw is None and self.optional:
            return None
        try:
            return read_whole(raw, self.name, f"“{_(self.label)}”", self.low, self.high)
        except InputError as refusal:
            raise RulesError(refusal.message, self.name) from None

    def schema(self) -> dict[str, Any]:
        """The switch as JSON schema, for the API's description."""
        said: dict[str, Any] = {"description": f"{self.label}: {self.help}"}
        if self.choices is not None:
            said["enum"] = [json_value(value) for value in self.choices]
        else:
            said["type"] = ["integer", "null"] if self.optional else "integer"
            said["minimum"], said["maximum"] = self.low, self.high
        return said


def switch(
    label: str, help: str, choices: Mapping[Any, str] | None = None, *, default: Any, **more: Any
) -> Any:
    """A ``RuleSet`` field: its default, and the ``Switch`` that says everything else."""
    said = Switch(label, help, default, choices=choices, **more)
    return field(default=default, metadata={"switch": said})


def switches_of(cls: type) -> tuple[Switch, ...]:
    """The switches of a dataclass whose fields were declared with ``switch``, named."""
    return tuple(
        dataclasses.replace(f.metadata["switch"], name=f.name) for f in dataclasses.fields(cls)
    )


def json_value(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def json_dump(value: Any) -> str:
    value = json_value(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"“{value}”"
    return str(value)


def _same(allowed: Any, raw: Any) -> bool:
    if isinstance(allowed, bool) or isinstance(raw, bool):
        if isinstance(raw, str):
            return str(allowed).lower() == raw.strip().lower()
        return type(allowed) is type(raw) and allowed == raw
    if allowed is None or raw is None:
        return allowed is raw
    if isinstance(allowed, (int, Fraction)):
        return parse_plain(raw) == allowed
    return bool(allowed == raw)
