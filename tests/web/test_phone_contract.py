"""What the server and the phone's JavaScript share (scorekeeper/web/contract.py) is said once:
static/js/contract.js is made from it, and the values the server sends have its shapes."""

import json
from pathlib import Path
from typing import get_type_hints

from scorekeeper.rules import PRESETS
from scorekeeper.rules import phone as engine
from scorekeeper.rules.game import start, stored_state
from scorekeeper.rules.ruleset import stored_form
from scorekeeper.rules.view import SeatView, TableView, table_view
from scorekeeper.web import contract

ROOT = Path(__file__).resolve().parents[2]


def test_the_phones_copy_is_made_from_the_servers():
    """A name or a key changed on the server changes the phone's copy, which the JavaScript's
    type check (`npm run check`) then holds every module to."""
    kept = (ROOT / contract.TARGET).read_text()
    assert kept == contract.javascript(), "run: python -m scorekeeper.web.contract"


def test_the_view_and_the_engines_answer_have_the_shapes_the_phone_is_told():
    rules = PRESETS["scat"].rules
    state = start(rules, ("Ana", "Ben", "Cara"), 0)
    view = table_view(rules, state)
    assert set(view) == set(get_type_hints(TableView))
    assert set(view["seats"][0]) == set(get_type_hints(SeatView))
    data, version = stored_form(rules)
    payload = {"rules": data, "rules_version": version, "names": list(state.names)}
    answer = json.loads(
        engine.play(
            json.dumps(
                {
                    **payload,
                    "state": stored_state(state),
                    "rounds": [{"ending": ["knock"], "knocker": ["0"], "lowest": ["2"]}],
                }
            )
        )
    )
    assert set(answer) == set(get_type_hints(engine.PhoneAnswer))
    assert set(answer["played"][0]) == set(get_type_hints(engine.Played))
    assert set(answer["played"][0]["view"]) == set(get_type_hints(TableView))


SEAT_TEMPLATE = ROOT / "tests" / "js" / "seat-template.html"


def test_the_board_s_unit_tests_draw_into_the_real_tile_template(settings):
    """board.js fills the tile template the table page carries (_seat.html with every part, in
    game.html's <template id="seat-template">); tests/js/board.test.js draws into this very
    markup, kept in tests/js/seat-template.html and made again from the template here
    (KNOCK_WRITE_FIXTURES=1 writes it): a part renamed in _seat.html fails the board's tests."""
    import os
    import re

    from django.template.loader import render_to_string

    from scorekeeper.web.views.games import BLANK_SEAT

    page = (ROOT / "templates" / "scorekeeper" / "game.html").read_text()
    tag = re.search(r'<template id="seat-template">(.*?)</template>', page)
    assert tag, "game.html carries the tile template"
    include = tag.group(1)
    assert include == ('{% include "scorekeeper/_seat.html" with row=blank_seat every=True %}'), (
        "the page's tile template is _seat.html with every part"
    )
    made = (
        '<template id="seat-template">'
        + render_to_string(
            "scorekeeper/_seat.html",
            {"row": BLANK_SEAT, "every": True, "view": {"start_lives": 0}},
        )
        + "</template>\n"
    )
    if os.environ.get("KNOCK_WRITE_FIXTURES"):
        SEAT_TEMPLATE.write_text(made)
    assert SEAT_TEMPLATE.read_text() == made, "run the test with KNOCK_WRITE_FIXTURES=1"
