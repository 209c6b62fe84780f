"""A showdown described in plain data (as the JSON API and the referee form send it), read into
the rules engine's values and resolved; and a round's result as plain data again.

Every refusal is an ``InputError`` naming the field, in the API's own terms
(``players[1].cards``, ``knocker``, ``rules.overrides.lives``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .cards import CardError, parse_cards
from .errors import InputError
from .hands import Hand, points
from .numbers import read_points, read_whole
from .presets import Preset, build_rules
from .resolve import ENDINGS, Outcome, RoundResult, Seat, Table, resolve_round
from .ruleset import RuleSet, json_value
from .words import _


def _text(value: Any, field: str, what: str, seat: int | None = None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(_("%(what)s must be some text") % {"what": what}, field, seat)
    if len(value) > 100:
        raise InputError(_("%(what)s is at most 100 characters") % {"what": what}, field, seat)
    return value.strip()


def _names(value: Any, field: str, known: list[str]) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise InputError(_("give a list of player names"), field)
    names = tuple(_text(item, field, _("a player's name")) for item in value)
    for name in names:
        if name not in known:
            raise InputError(_("%(name)s is not playing in this game") % {"name": name}, field)
    return names


def read_value(value: Any, field: str, seat: int | None = None) -> Fraction:
    """A hand value the table agreed: a number such as 19 or 30.5."""
    return read_points(value, field, seat=seat)


def read_showdown(data: Any) -> tuple[RuleSet, Preset, Table, Outcome]:
    """Check the shape of a showdown request and turn it into the engine's values."""
    if not isinstance(data, dict):
        raise InputError(_("send a JSON object"), "body")
    if "rules" not in data:
        raise InputError(_('say which rules: a preset id or {"preset", "overrides"}'), "rules")
    rules, preset = build_rules(data["rules"])
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise InputError(_("list the players, each with a name"), "players")
    seats = []
    for i, raw in enumerate(players):
        if not isinstance(raw, dict):
            raise InputError(_("each player is an object with a name"), f"players[{i}]")
        name = _text(raw.get("name"), "name", _("a player's name"), seat=i)
        status = raw.get("status")
        if status is not None and status not in ("in", "county", "out"):
            raise InputError(_("a status is “in”, “county” or “out”"), "status", seat=i)
        if raw.get("lives") is not None:
            if not isinstance(raw["lives"], int):
                raise InputError(_("lives must be a whole number"), "lives", seat=i)
            lives = read_whole(raw["lives"], "lives", _("lives"), 0, 99, seat=i)
        else:
            lives = rules.lives if status in (None, "in") else 0
        if status is None:
            status = "in" if lives > 0 else ("county" if rules.last_chance else "out")
        cards = value = None
        if raw.get("cards") is not None:
            if not isinstance(raw["cards"], (list, str)) or (
                isinstance(raw["cards"], list) and not all(isinstance(c, str) for c in raw["cards"])
            ):
                raise InputError(_('cards are a list like ["AS", "KS", "9D"]'), "cards", seat=i)
            try:
                cards = tuple(parse_cards(raw["cards"]))
            except CardError as error:
                raise InputError(f"{name}: {error}", "cards", seat=i) from None
        if raw.get("value") is not None:
            value = read_value(raw["value"], "value", seat=i)
        seats.append(Seat(name, lives, status, cards, value))
    names = [seat.name for seat in seats]
    ending = data.get("ending")
    if ending not in ENDINGS:
        raise InputError(
            _("the ending is one of %(endings)s") % {"endings": ", ".join(ENDINGS)}, "ending"
        )
    knocker = data.get("knocker")
    if knocker is not None:
        knocker = _text(knocker, "knocker", _("the knocker"))
        if knocker not in names:
            raise InputError(
                _("%(name)s is not playing in this game") % {"name": knocker}, "knocker"
            )
    shown_by = _names(data.get("shown_by") or [], "shown_by", names)
    lowest = None
    if data.get("lowest") is not None:
        lowest = _names(data["lowest"], "lowest", names)
    dealer = data.get("dealer")
    if dealer is not None:
        dealer = _text(dealer, "dealer", _("the dealer"))
        if dealer not in names:
            raise InputError(_("%(name)s is not playing in this game") % {"name": dealer}, "dealer")
    choice = data.get("choice")
    if choice is not None and not isinstance(choice, str):
        raise InputError(_("a choice is one of the ids the table was offered"), "choice")
    pot = data.get("pot", 0)
    if not isinstance(pot, int):
        raise InputError(_("the pot must be a whole number"), "pot")
    pot = read_whole(pot, "pot", _("the pot"), 0, 9999)
    table = Table(tuple(seats), dealer=dealer, pot=pot)
    outcome = Outcome(ending, knocker, shown_by, lowest, choice)
    return rules, preset, table, outcome


def settle(data: Any) -> tuple[RuleSet, RoundResult]:
    """Read a showdown request and resolve it; raises ``InputError`` naming the field."""
    rules, _unused, table, outcome = read_showdown(data)
    result = resolve_round(rules, table, outcome)
    refuse_a_stray_choice(outcome.choice, result)
    return rules, result


def refuse_a_stray_choice(choice: str | None, result: RoundResult) -> None:
    """A choice sent for a round that leaves nothing to the table is a mistake, not noise."""
    if choice and not result.choice_asked:
        raise InputError(
            _("the rules leave nothing in this round to the table: send no choice"), "choice"
        )


def hand_data(name: str | None, hand: Hand) -> dict[str, Any]:
    data = {
        "value": json_value(hand.value),
        "counted": [card.code for card in hand.counted],
        "explanation": hand.explanation,
    }
    return data if name is None else {"name": name, **data}


def result_data(rules: RuleSet, result: RoundResult) -> dict[str, Any]:
    """A round's result in the JSON API's shape."""
    return {
        "hands": [hand_data(name, hand) for name, hand in result.hands.items()],
        "losses": dict(result.losses),
        "players": [
            {
                "name": player.name,
                "lives": player.lives,
                "status": player.status,
                "status_label": player.status_label,
                "lost": player.lost,
                "reason": player.reason,
            }
            for player in result.players
        ],
        "pot": result.pot,
        "result": result.result,
        "choices": [{"id": choice.id, "words": choice.words} for choice in result.choices],
        "game_over": result.game_over,
        "winner": result.winner,
        "tie": list(result.tie),
        "next_dealer": result.next_dealer,
        "explanation": list(result.explanation),
    }


__all__ = ["hand_data", "points", "read_showdown", "read_value", "result_data", "settle"]
