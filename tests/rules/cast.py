"""A small cast and plain helpers for rules tests: no database, values in and out."""

from __future__ import annotations

from fractions import Fraction

from scorekeeper.rules import (
    PRESETS,
    Outcome,
    RoundResult,
    Seat,
    Table,
    build_rules,
    evaluate,
    parse_cards,
    resolve_round,
)


def rules_for(preset: str, **overrides):
    rules, _ = build_rules({"preset": preset, "overrides": overrides})
    return rules


def value(preset: str, cards: str, **overrides) -> Fraction:
    return evaluate(parse_cards(cards), rules_for(preset, **overrides)).value


def seat(
    name: str,
    cards: str | None = None,
    *,
    lives: int = 3,
    status: str | None = None,
    value: float | None = None,
) -> Seat:
    if status is None:
        status = "in" if lives else "county"
    return Seat(
        name,
        lives,
        status,
        tuple(parse_cards(cards)) if cards else None,
        None if value is None else Fraction(str(value)),
    )


def play(
    preset: str,
    seats: list[Seat],
    ending: str = "knock",
    *,
    knocker: str | None = None,
    shown_by: tuple[str, ...] = (),
    lowest: tuple[str, ...] | None = None,
    dealer: str | None = None,
    choice: str | None = None,
    winners: tuple[str, ...] | None = None,
    pot: int = 0,
    rounds_played: int = 0,
    **overrides,
) -> RoundResult:
    rules = rules_for(preset, **overrides) if overrides else PRESETS[preset].rules
    table = Table(tuple(seats), dealer=dealer, pot=pot, rounds_played=rounds_played)
    outcome = Outcome(ending, knocker, tuple(shown_by), lowest, choice, winners=winners)
    return resolve_round(rules, table, outcome)


def after(result: RoundResult) -> dict[str, tuple[int, str]]:
    """Each player's lives and status after the round."""
    return {player.name: (player.lives, player.status) for player in result.players}
