"""The rules of 31 through the API: the rule sets, a hand's value, and a disputed showdown."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router

from ..rules import ENDINGS, PRESETS, Outcome, Seat, Table, build_rules, evaluate, resolve_round
from ..rules.cards import CardError, check_hand, parse_cards
from ..rules.errors import InputError
from ..rules.resolve import refuse_a_stray_choice
from ..rules.ruleset import RuleSet
from .schemas import REFUSALS, EvaluateIn, HandOut, RuleSetsOut, ShowdownIn, ShowdownOut
from .serialise import hand_data, result_data

router = Router()


@router.get("/rulesets", response=RuleSetsOut, url_name="rulesets")
def rulesets(request: HttpRequest) -> dict[str, Any]:
    """The five rule sets, each with every switch and where the map has our reading."""
    return {
        "rulesets": [
            {
                "id": preset.id,
                "name": preset.title,
                "description": preset.summary,
                "rules": preset.rules.as_dict(),
                "our_reading": sorted(preset.readings),
            }
            for preset in PRESETS.values()
        ]
    }


@router.post("/evaluate", response={200: HandOut, **REFUSALS}, url_name="evaluate")
def evaluate_hand(request: HttpRequest, payload: EvaluateIn) -> dict[str, Any]:
    """What a three-card hand is worth under these rules, and why."""
    rules, _preset = build_rules(payload.rules.model_dump())
    try:
        cards = parse_cards(payload.cards)
        check_hand(cards, rules.deck)
    except CardError as refusal:
        raise InputError(str(refusal), "cards") from None
    return hand_data(None, evaluate(cards, rules))


@router.post("/showdown", response={200: ShowdownOut, **REFUSALS}, url_name="showdown")
def showdown(request: HttpRequest, payload: ShowdownIn) -> dict[str, Any]:
    """Who loses how many lives, and why, from the hands or the lowest players."""
    rules, table, outcome = showdown_values(payload)
    result = resolve_round(rules, table, outcome)
    refuse_a_stray_choice(outcome.choice, result)
    return result_data(rules, result)


def showdown_values(payload: ShowdownIn) -> tuple[RuleSet, Table, Outcome]:
    """The checked request as the engine's values; the engine judges the rest (who may knock,
    show or be lowest, and what the hands are worth)."""
    rules, _preset = build_rules(payload.rules.model_dump())
    seats = []
    for i, player in enumerate(payload.players):
        cards = None
        if player.cards is not None:
            try:
                cards = tuple(parse_cards(player.cards))
            except CardError as error:
                raise InputError(f"{player.name}: {error}", "cards", seat=i) from None
        lives = player.lives
        if lives is None:
            lives = rules.lives if player.status in (None, "in") else 0
        status = player.status or ("in" if lives else "county" if rules.last_chance else "out")
        value = None if player.value is None else Fraction(str(player.value))
        seats.append(Seat(player.name, lives, status, cards, value))
    if payload.ending not in ENDINGS:
        raise InputError(
            _("the ending is one of %(endings)s") % {"endings": ", ".join(ENDINGS)}, "ending"
        )
    if payload.dealer is not None and payload.dealer not in [seat.name for seat in seats]:
        raise InputError(
            _("%(name)s is not playing in this game") % {"name": payload.dealer}, "dealer"
        )
    outcome = Outcome(
        payload.ending,
        payload.knocker,
        tuple(payload.shown_by),
        None if payload.lowest is None else tuple(payload.lowest),
        payload.choice,
        winners=None if payload.winners is None else tuple(payload.winners),
    )
    return rules, Table(tuple(seats), dealer=payload.dealer, pot=payload.pot), outcome
