"""The OpenAPI 3.1 description of the JSON API, served at /api/v1/openapi.json."""

from __future__ import annotations

from typing import Any

from .rules import ENDINGS, PRESETS, SWITCHES

_ERROR = {
    "description": "Bad input: nothing was done",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def _ok(schema: str) -> dict[str, Any]:
    return {
        "description": "OK",
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


_NOT_FOUND = {"description": "No such club or game for this key (or no key)"}


def _path(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": {"type": "string", "format": "uuid"},
    }


def _body(schema: str) -> dict[str, Any]:
    return {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


def openapi_description() -> dict[str, Any]:
    cards = {
        "oneOf": [
            {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3},
            {"type": "string", "description": "Cards separated by spaces or commas"},
        ],
        "description": "Rank then suit: AS, 10h, Th, K♦, 7c",
        "examples": [["AS", "KS", "9D"]],
    }
    switches = {
        f.name: {"description": f"{f.metadata['label']}: {f.metadata['help']}"} for f in SWITCHES
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Knock",
            "version": "1",
            "description": "Scorekeeper and referee for the card game 31.",
        },
        "paths": {
            "/api/v1/rulesets": {
                "get": {
                    "summary": "Every preset rule set with all its switches",
                    "responses": {"200": _ok("RuleSets")},
                }
            },
            "/api/v1/evaluate": {
                "post": {
                    "summary": "What one hand is worth, and why",
                    "requestBody": _body("EvaluateRequest"),
                    "responses": {"200": _ok("Hand"), "400": _ERROR, "413": _ERROR},
                }
            },
            "/api/v1/showdown": {
                "post": {
                    "summary": "Who loses how many lives at the end of a round, and why",
                    "requestBody": _body("ShowdownRequest"),
                    "responses": {"200": _ok("ShowdownResult"), "400": _ERROR, "413": _ERROR},
                }
            },
            "/api/v1/clubs": {
                "post": {
                    "summary": "Start a club; its key opens it from then on",
                    "requestBody": _body("ClubRequest"),
                    "responses": {"201": _ok("Club"), "400": _ERROR},
                }
            },
            "/api/v1/clubs/{club}/games": {
                "post": {
                    "summary": "Start a game; players unknown to the club are added to it",
                    "security": [{"clubKey": []}],
                    "parameters": [_path("club")],
                    "requestBody": _body("GameRequest"),
                    "responses": {"201": _ok("Game"), "400": _ERROR, "404": _NOT_FOUND},
                }
            },
            "/api/v1/games/{game}": {
                "get": {
                    "summary": "A game as it stands, every round included",
                    "security": [{"clubKey": []}],
                    "parameters": [_path("game")],
                    "responses": {"200": _ok("Game"), "404": _NOT_FOUND},
                }
            },
            "/api/v1/games/{game}/rounds": {
                "post": {
                    "summary": "Record a round",
                    "security": [{"clubKey": []}],
                    "parameters": [_path("game")],
                    "requestBody": _body("RoundRequest"),
                    "responses": {
                        "200": _ok("Game"),
                        "400": _ERROR,
                        "404": _NOT_FOUND,
                        "409": {"description": "The game changed since the version sent"},
                    },
                }
            },
            "/api/v1/games/{game}/undo": {
                "post": {
                    "summary": "Take back the last round (it stays in the log)",
                    "security": [{"clubKey": []}],
                    "parameters": [_path("game")],
                    "requestBody": {
                        "required": False,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {"version": {"type": "integer"}},
                                }
                            }
                        },
                    },
                    "responses": {"200": _ok("Game"), "404": _NOT_FOUND, "409": _ERROR},
                }
            },
        },
        "components": {
            "securitySchemes": {
                "clubKey": {"type": "http", "scheme": "bearer", "description": "The club's key"}
            },
            "schemas": {
                "ClubRequest": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 100}},
                },
                "Club": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "format": "uuid"},
                        "key": {"type": "string"},
                        "url": {"type": "string"},
                    },
                },
                "GameRequest": {
                    "type": "object",
                    "required": ["rules", "players"],
                    "properties": {
                        "rules": {"$ref": "#/components/schemas/Rules"},
                        "players": {
                            "type": "array",
                            "items": {"type": "string", "minLength": 1, "maxLength": 60},
                            "minItems": 2,
                            "description": "Names in seat order, clockwise",
                        },
                        "first_dealer": {"type": "string"},
                        "lives": {"type": "integer", "minimum": 1, "maximum": 10},
                    },
                },
                "RoundRequest": {
                    "type": "object",
                    "required": ["ending"],
                    "properties": {
                        "ending": {"type": "string", "enum": list(ENDINGS)},
                        "knocker": {"type": ["string", "null"]},
                        "shown_by": {"type": "array", "items": {"type": "string"}},
                        "lowest": {"type": ["array", "null"], "items": {"type": "string"}},
                        "hands": {"type": ["object", "null"], "additionalProperties": cards},
                        "choice": {"type": ["string", "null"]},
                        "version": {
                            "type": "integer",
                            "description": "The version this client saw",
                        },
                        "client_id": {
                            "type": "string",
                            "maxLength": 64,
                            "description": "Made once per tap: a repeat is applied once",
                        },
                    },
                },
                "Game": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "format": "uuid"},
                        "version": {"type": "integer"},
                        "rules": {"type": "object"},
                        "players": {"type": "array", "items": {"type": "object"}},
                        "dealer": {"type": ["string", "null"]},
                        "next_dealer": {"type": ["string", "null"]},
                        "pot": {"type": "integer"},
                        "round": {"type": "integer"},
                        "finished": {"type": "boolean"},
                        "winner": {"type": ["string", "null"]},
                        "tie": {"type": "array", "items": {"type": "string"}},
                        "rounds": {"type": "array", "items": {"type": "object"}},
                    },
                },
                "Error": {
                    "type": "object",
                    "required": ["error", "field"],
                    "properties": {
                        "error": {"type": "string"},
                        "field": {"type": "string", "examples": ["players[1].cards"]},
                    },
                },
                "Rules": {
                    "oneOf": [
                        {"type": "string", "enum": list(PRESETS)},
                        {
                            "type": "object",
                            "required": ["preset"],
                            "additionalProperties": False,
                            "properties": {
                                "preset": {"type": "string", "enum": list(PRESETS)},
                                "overrides": {
                                    "type": "object",
                                    "properties": switches,
                                    "additionalProperties": False,
                                },
                            },
                        },
                    ]
                },
                "RuleSets": {
                    "type": "object",
                    "properties": {
                        "rulesets": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "id": {"type": "string"},
                                    "name": {"type": "string"},
                                    "description": {"type": "string"},
                                    "rules": {"type": "object", "properties": switches},
                                    "our_reading": {"type": "array", "items": {"type": "string"}},
                                },
                            },
                        }
                    },
                },
                "EvaluateRequest": {
                    "type": "object",
                    "required": ["rules", "cards"],
                    "properties": {"rules": {"$ref": "#/components/schemas/Rules"}, "cards": cards},
                },
                "Hand": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "value": {"type": "number"},
                        "counted": {"type": "array", "items": {"type": "string"}},
                        "explanation": {"type": "string"},
                    },
                },
                "ShowdownRequest": {
                    "type": "object",
                    "required": ["rules", "ending", "players"],
                    "properties": {
                        "rules": {"$ref": "#/components/schemas/Rules"},
                        "ending": {"type": "string", "enum": list(ENDINGS)},
                        "knocker": {"type": ["string", "null"]},
                        "shown_by": {"type": "array", "items": {"type": "string"}},
                        "lowest": {
                            "type": ["array", "null"],
                            "items": {"type": "string"},
                            "description": "The lowest players named by the table, instead of "
                            "every player's cards or value",
                        },
                        "dealer": {
                            "type": ["string", "null"],
                            "description": "Who dealt this round; needed for next_dealer",
                        },
                        "choice": {
                            "type": ["string", "null"],
                            "description": "The table's pick among the choices of an earlier "
                            "table_decides answer",
                        },
                        "pot": {"type": "integer", "minimum": 0, "default": 0},
                        "players": {
                            "type": "array",
                            "minItems": 2,
                            "maxItems": 17,
                            "items": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string", "minLength": 1, "maxLength": 100},
                                    "cards": cards,
                                    "value": {"type": "number"},
                                    "lives": {"type": "integer", "minimum": 0},
                                    "status": {"type": "string", "enum": ["in", "county", "out"]},
                                },
                            },
                        },
                    },
                },
                "ShowdownResult": {
                    "type": "object",
                    "properties": {
                        "hands": {"type": "array", "items": {"$ref": "#/components/schemas/Hand"}},
                        "losses": {"type": "object", "additionalProperties": {"type": "integer"}},
                        "players": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "name": {"type": "string"},
                                    "lives": {"type": "integer"},
                                    "status": {"type": "string", "enum": ["in", "county", "out"]},
                                    "status_label": {"type": "string"},
                                    "lost": {"type": "integer"},
                                    "reason": {"type": "string"},
                                },
                            },
                        },
                        "pot": {"type": "integer"},
                        "result": {"type": "string", "enum": ["scored", "replay", "table_decides"]},
                        "choices": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "id": {"type": "string"},
                                    "words": {"type": "string"},
                                },
                            },
                        },
                        "game_over": {"type": "boolean"},
                        "winner": {"type": ["string", "null"]},
                        "tie": {"type": "array", "items": {"type": "string"}},
                        "next_dealer": {"type": ["string", "null"]},
                        "explanation": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
        },
    }
