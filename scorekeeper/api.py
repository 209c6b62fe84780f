"""The JSON API, version 1: thin over the rules engine. Every refusal is a 400 with
``{"error": message, "field": where}``; nothing here can answer a 500 for bad input."""

from __future__ import annotations

import json
from functools import wraps
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from .openapi import openapi_description
from .rules import PRESETS, build_rules, evaluate
from .rules.cards import CardError, check_hand, parse_cards
from .rules.errors import InputError
from .rules.showdown import hand_data, result_data, settle

MAX_BODY = 64 * 1024


def error(message: str, field: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message, "field": field}, status=status)


def json_endpoint(view):
    """Parse the JSON body and turn any ``InputError`` into a 400 naming the field.

    The API is for programs, which authenticate by what they send (a club's key) rather than by
    a cookie, so it is exempt from CSRF. A view returns a dict (200) or a (status, dict) pair.
    """

    @csrf_exempt
    @require_POST
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        if len(request.body) > MAX_BODY:
            return error("the request is larger than 64 KiB", "body", status=413)
        try:
            data = json.loads(request.body or b"{}")
        except (ValueError, UnicodeDecodeError):
            return error("the body is not valid JSON", "body")
        if not isinstance(data, dict):
            return error("send a JSON object", "body")
        try:
            answer = view(request, data, *args, **kwargs)
        except InputError as refusal:
            return error(refusal.message, refusal.field)
        status, body = answer if isinstance(answer, tuple) else (200, answer)
        return body if isinstance(body, JsonResponse) else JsonResponse(body, status=status)

    return wrapper


@require_GET
def rulesets(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {
            "rulesets": [
                {
                    "id": preset.id,
                    "name": preset.name,
                    "description": preset.description,
                    "rules": preset.rules.as_dict(),
                    "our_reading": sorted(preset.readings),
                }
                for preset in PRESETS.values()
            ]
        }
    )


@json_endpoint
def evaluate_hand(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    if "rules" not in data:
        raise InputError('say which rules: a preset id or {"preset", "overrides"}', "rules")
    rules, _preset = build_rules(data["rules"])
    raw = data.get("cards")
    if not isinstance(raw, (list, str)) or (
        isinstance(raw, list) and not all(isinstance(card, str) for card in raw)
    ):
        raise InputError('cards are a list like ["AS", "KS", "9D"]', "cards")
    try:
        cards = parse_cards(raw)
        check_hand(cards, rules.deck)
    except CardError as refusal:
        raise InputError(str(refusal), "cards") from None
    return hand_data(None, evaluate(cards, rules))


@json_endpoint
def showdown(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    rules, result = settle(data)
    return result_data(rules, result)


@require_GET
def openapi(request: HttpRequest) -> JsonResponse:
    return JsonResponse(openapi_description())
