"""The real server answers a phone's Record as the shared cases say (tests/js/record_cases.json),
the same cases the model of Knock that the phone's simulation of evenings runs against is held
to (tests/js/model.test.js): the model cannot drift from Knock unseen."""

import json
from pathlib import Path

import pytest

from scorekeeper.web import contract

from ..factory import make_game

pytestmark = pytest.mark.django_db

CASES = json.loads((Path(__file__).parents[1] / "js" / "record_cases.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_server_answers_as_the_shared_cases_say(client, case):
    game = make_game(players=("Ann", "Ben", "Cat"), lives=9)
    url = game.get_absolute_url() + "record"
    for step in case["steps"]:
        body = {
            "ending": "knock",
            "knocker": "0",
            "version": str(step["version"]),
            "client_id": step["tap"],
            "confirm": "1",
        }
        if step.get("lowest", True):
            body["lowest"] = ["1"]
        answer = client.post(url, body, headers={"HX-Request": "true", "HX-Target": "table"})
        expect = step["expect"]
        assert answer[contract.TAP_OUTCOME] == expect["outcome"]
        assert int(answer[contract.TABLE_VERSION]) == expect["version"]
        if "theirs" in expect:
            theirs = json.loads(answer[contract.THEIR_ROUNDS])
            assert [round["tap"] for round in theirs] == expect["theirs"]
        if isinstance(expect.get("why"), str):
            assert json.loads(answer[contract.TAP_WHY]) == expect["why"]
        elif expect.get("why"):
            assert json.loads(answer[contract.TAP_WHY])
