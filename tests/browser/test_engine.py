"""The rules engine on the phone, in a real Chromium: the very package the server runs, loaded
in the table page's worker under Pyodide, plays every preset and switch as the server does, and
keeps a table playing without a connection."""

import json
import random
import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from scorekeeper.models import Game, Round
from scorekeeper.rules import PRESETS, SWITCHES, build_rules
from scorekeeper.rules import phone as engine
from scorekeeper.rules.game import read_state, stored_state
from scorekeeper.rules.ruleset import json_value

from ..factory import make_game
from .test_phone_app import kept_table, wifi_to

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
START = 90_000  # ms: the runtime's start on a busy two-core machine (3-4 s idle, 15 s busy)


def engine_phone(browser, url, locale="en-GB"):
    context = browser.new_context(engine=True, viewport=PHONE, has_touch=True, locale=locale)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=START)
    return context, page


def table_of(game):
    return {
        "rules": game.rules_data,
        "rules_version": game.rules_version,
        "names": list(game.state.names),
        "state": stored_state(game.state),
    }


def on_the_phone(page, table, rounds):
    return page.evaluate("([table, rounds]) => knockEngine.play(table, rounds)", [table, rounds])


def on_the_server(table, rounds, language):
    with translation.override(language):
        return json.loads(engine.play(json.dumps({**table, "rounds": rounds})))


def test_the_phone_plays_a_round_as_the_server_does(browser, live_server):
    game = make_game(players=("Ana", "Ben", "Cara"))
    context, page = engine_phone(browser, live_server.url + game.get_absolute_url())
    rounds = [{"ending": ["knock"], "knocker": ["0"], "lowest": ["2"]}]
    answer = on_the_phone(page, table_of(game), rounds)
    assert answer == on_the_server(table_of(game), rounds, "en")
    assert answer["played"][0]["view"]["saved"] == "Cara −1 · Ben deals next · round 1 saved"
    context.close()
