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
