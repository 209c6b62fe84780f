"""Every bound the API's description publishes agrees with the engine on both sides of it: a
client that keeps to the schema is never refused for a number the schema allows under some
rules, and the schema never promises what no rules accept."""

import json

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.api import api
from scorekeeper.rules import PRESETS, Outcome, RoundError, Table, build_rules, resolve_round
from scorekeeper.rules.ruleset import BY_NAME, MOST_LOST_READS, RulesError

from .cast import seat

SPEC = json.loads(json.dumps(api.get_openapi_schema()))


def published(schema_name: str, field: str) -> dict:
    """A field's schema as published, through ``anyOf`` (an optional field) and references."""
    said = SPEC["components"]["schemas"][schema_name]["properties"][field]
    for option in said.get("anyOf", [said]):
        for by_name in option.get("patternProperties", {}).values():  # {name: lives}
            return by_name
        if option.get("type") == "integer":
            return option
    raise AssertionError(f"{schema_name}.{field} has no integer bound: {said}")


def counted(rules, lives):
    table = Table((seat("Ann"), seat("Ben"), seat("Cat")), dealer="Ann")
    return resolve_round(rules, table, Outcome("manual", losses={"Ann": lives}))


def refused(rules, lives) -> bool:
    try:
        counted(rules, lives)
    except RoundError as refusal:
        assert refusal.field.endswith("losses") and refusal.message
        return True
    return False


@st.composite
def lives_rules(draw):
    preset = draw(st.sampled_from([p for p in PRESETS if PRESETS[p].rules.form == "lives"]))
    overrides = {
        name: draw(st.sampled_from(list(BY_NAME[name].choices or ())))
        for name in MOST_LOST_READS
        if draw(st.booleans())
    }
    try:
        return build_rules({"preset": preset, "overrides": overrides})[0]
    except RulesError:
        return None


def test_the_most_lives_a_round_costs_is_the_most_some_rules_accept():
    bound = published("RoundIn", "losses")
    top = bound["maximum"]
    assert bound["minimum"] == 1
    # Some rules accept the published most (scat, a knocker alone losing 2, and 1 more beaten),
    # none accepts one more, and none accepts less than the minimum.
    most = build_rules({"preset": "scat", "overrides": {"knocker_beaten": 1}})[0]
    assert most.most_lost == top == 3
    assert not refused(most, top) and refused(most, top + 1) and refused(most, 0)


@given(lives_rules())
def test_each_rule_sets_own_most_is_within_the_published_bound_and_the_engine_keeps_to_it(rules):
    if rules is None:
        return
    top = published("RoundIn", "losses")["maximum"]
    assert 1 <= rules.most_lost <= top
    assert not refused(rules, rules.most_lost) and not refused(rules, 1)
    assert refused(rules, rules.most_lost + 1) and refused(rules, 0)


def test_a_new_games_lives_are_the_lives_switchs_range():
    bound = published("GameIn", "lives")
    switch = BY_NAME["lives"]
    assert (bound["minimum"], bound["maximum"]) == (switch.low, switch.high)
    for lives, ok in (
        (switch.low, True),
        (switch.high, True),
        (0, False),
        (switch.high + 1, False),
    ):
        try:
            PRESETS["scat"].rules.replace({"lives": lives})
        except RulesError:
            assert not ok, lives
        else:
            assert ok, lives
