"""The presets, house rules as overrides, and combinations refused with a reason."""

import dataclasses
from fractions import Fraction

import pytest

from scorekeeper.rules import PRESETS, SWITCHES, RulesError, build_rules
from scorekeeper.rules.endings import asks as questions
from scorekeeper.rules.endings import endings_asking, offered


def test_the_five_presets_and_the_widow_game_ship_with_their_ids():
    assert list(PRESETS) == ["scat", "friendly", "schwimmen", "aces-wild", "kitchen-table", "widow"]


@pytest.mark.parametrize(
    "preset, switch, expected",
    [
        ("scat", "deck", 52),
        ("schwimmen", "deck", 32),
        ("scat", "three_of_a_kind", None),
        ("friendly", "three_of_a_kind", 30),
        ("schwimmen", "three_of_a_kind", Fraction(61, 2)),
        ("kitchen-table", "three_of_a_kind", Fraction(61, 2)),
        ("schwimmen", "three_aces", 33),
        ("aces-wild", "aces_wild", True),
        ("friendly", "tie_break", "highest_card"),
        ("kitchen-table", "knock_timing", "after_discard"),
        ("scat", "knocker_alone", 2),
        ("schwimmen", "knocker_alone", 1),
        ("aces-wild", "knocker_alone", 1),
        ("kitchen-table", "knocker_alone", 2),
        ("scat", "knocker_tied", "safe"),
        ("friendly", "knocker_tied", "safe"),
        ("schwimmen", "knocker_tied", "like_others"),
        ("kitchen-table", "knocker_tied", "like_others"),
        ("scat", "thirty_one", "others_lose_1"),
        ("friendly", "thirty_one", "showdown"),
        ("aces-wild", "thirty_one", "none"),
        ("aces-wild", "thirty_one_dealt", "others_lose_1_redeal"),
        ("scat", "stock_out", "showdown"),
        ("friendly", "stock_out", "reshuffle"),
        ("schwimmen", "stock_out", "showdown"),
        ("scat", "last_chance", "county"),
        ("friendly", "last_chance", None),
        ("schwimmen", "last_chance", "swimming"),
        ("aces-wild", "last_chance", "brink"),
        ("kitchen-table", "last_chance", None),
        ("aces-wild", "next_dealer", "loser"),
        ("scat", "all_out", "replay"),
        ("schwimmen", "all_out", "tie"),
        ("aces-wild", "all_out", "revival"),
    ],
)
def test_each_preset_follows_the_rules_map(preset, switch, expected):
    assert getattr(PRESETS[preset].rules, switch) == expected


@pytest.mark.parametrize(
    "preset, readings",
    [
        ("scat", {"all_out"}),
        ("friendly", {"tie_break", "unshown_31", "next_dealer", "all_out"}),
        # Fire and a dealt 31 both end the round at once: which comes first is ours.
        ("schwimmen", {"three_aces_fire"}),
        (
            "aces-wild",
            {
                "aces_wild",
                "thirty_one",
                "thirty_one_dealt",
                "unshown_31",
                "stock_out",
                "next_dealer",
            },
        ),
        # A dealt 31 nobody named counts as dealt: no source says.
        ("kitchen-table", {"knocker_tied", "unshown_31", "all_out"}),
    ],
)
def test_where_the_map_says_our_reading_the_rules_card_says_so(preset, readings):
    card = PRESETS[preset].rules.describe(PRESETS[preset].readings)
    # No source says how a set number of rounds is counted, nor what the pot does at the end:
    # our readings everywhere.
    assert {line["name"] for line in card if line["our_reading"]} == readings | {
        "round_limit",
        "pot_at_end",
    }


def test_every_switch_has_a_name_a_player_understands_and_a_one_line_explanation():
    for f in SWITCHES:
        assert f.label and f.help.endswith(".")
        assert "\n" not in f.help


@pytest.mark.parametrize(
    "best, preset, overrides",
    [
        (31, "scat", {}),
        (33, "schwimmen", {}),
        (33, "aces-wild", {}),
        (31, "kitchen-table", {}),
        (32, "scat", {"three_aces": 32}),
    ],
)
def test_each_rule_set_knows_its_best_hand(best, preset, overrides):
    rules, _ = build_rules({"preset": preset, "overrides": overrides})
    assert rules.best_hand == best


def test_house_rules_are_a_preset_plus_overrides_and_leave_the_preset_alone():
    rules, preset = build_rules({"preset": "scat", "overrides": {"lives": 4, "knocker_alone": 1}})
    assert (rules.lives, rules.knocker_alone) == (4, 1)
    assert (preset.rules.lives, preset.rules.knocker_alone) == (3, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.lives = 5


@pytest.mark.parametrize(
    "spec, field, message",
    [
        ("poker", "rules.preset", "there is no rule set called “poker”"),
        ({"preset": "scat", "overrides": {"jokers": 2}}, "rules.overrides.jokers", "no house rule"),
        (
            {"preset": "scat", "overrides": {"lives": 0}},
            "rules.overrides.lives",
            "whole number from 1 to 10",
        ),
        (
            {"preset": "scat", "overrides": {"lives": "many"}},
            "rules.overrides.lives",
            "whole number",
        ),
        ({"preset": "scat", "overrides": {"deck": 48}}, "rules.overrides.deck", "can be 52, 32"),
        (
            {"preset": "scat", "overrides": {"three_of_a_kind": 29}},
            "rules.overrides.three_of_a_kind",
            "can be null, 30, 30.5",
        ),
        (
            {"preset": "friendly", "overrides": {"all_out": "revival"}},
            "rules.overrides.all_out",
            "needs a last chance",
        ),
        (
            {"preset": "friendly", "overrides": {"thirty_one_after_knock": "top_hand"}},
            "rules.overrides.thirty_one_after_knock",
            "only be special",
        ),
        (
            {"preset": "scat", "overrides": {"three_aces_fire": True}},
            "rules.overrides.three_aces_fire",
            "value of their own",
        ),
        (
            {"preset": "aces-wild", "overrides": {"unshown_31": "counts_30"}},
            "rules.overrides.unshown_31",
            "showing 31 does nothing",
        ),
        (
            {"preset": "aces-wild", "overrides": {"three_aces": 32}},
            "rules.overrides.three_aces",
            "already count 33",
        ),
        (
            {"preset": "scat", "overrides": {"aces_wild": True, "three_aces": 33}},
            "rules.overrides.three_aces",
            "would change nothing",
        ),
        (
            {"preset": "scat", "overrides": {"min_knock": 31}},
            "rules.overrides.min_knock",
            "a 31 is shown, not knocked with",
        ),
        (
            {"preset": "scat", "overrides": {"lives": "1e50000000"}},
            "rules.overrides.lives",
            "whole number",
        ),
        (
            {"preset": "scat", "overrides": {"deck": "1e50000000"}},
            "rules.overrides.deck",
            "can be 52, 32",
        ),
        ({"preset": "scat", "extra": 1}, "rules", "not “extra”"),
        (7, "rules", "preset id"),
    ],
)
def test_it_refuses_rules_that_cannot_be_with_the_reason(spec, field, message):
    with pytest.raises(RulesError, match=message) as refusal:
        build_rules(spec)
    assert refusal.value.field == field


def test_overrides_from_a_form_arrive_as_text():
    rules, _ = build_rules(
        {
            "preset": "scat",
            "overrides": {
                "three_of_a_kind": "30.5",
                "aces_wild": "true",
                "min_knock": "17",
                "last_chance": "none",
            },
        }
    )
    assert rules.three_of_a_kind == Fraction(61, 2)
    assert rules.aces_wild is True and rules.min_knock == 17 and rules.last_chance is None


def test_each_rule_set_lists_only_the_endings_it_has():
    assert offered(PRESETS["scat"].rules) == (
        "knock",
        "thirty_one",
        "dealt_thirty_one",
        "stock_out",
    )
    assert offered(PRESETS["friendly"].rules) == ("knock", "thirty_one", "dealt_thirty_one")
    assert "three_aces" in offered(PRESETS["schwimmen"].rules)
    assert "thirty_one" not in offered(PRESETS["aces-wild"].rules)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_rule_set_survives_being_stored_and_read_back(preset):
    # A game keeps its rules as JSON: they must read back as the same rules.
    rules = PRESETS[preset].rules
    assert rules.replace(rules.as_dict()) == rules
    assert PRESETS["scat"].rules.replace(rules.as_dict()) == rules


def test_a_minimum_of_31_is_allowed_where_showing_31_does_nothing():
    rules, _ = build_rules({"preset": "aces-wild", "overrides": {"min_knock": 31}})
    assert rules.min_knock == 31


@pytest.mark.parametrize(
    "preset, overrides, players",
    [
        ("scat", {}, 17),  # 51 dealt, the discard pile's first card
        ("scat", {"middle": "three_face_up"}, 16),  # 48 dealt, three in the middle
        ("schwimmen", {}, 9),  # 27 dealt, three in the middle
        ("schwimmen", {"middle": "discard_pile"}, 10),  # 30 dealt, one face up
    ],
)
def test_the_player_limit_comes_from_the_deck_and_the_middle(preset, overrides, players):
    rules, _ = build_rules({"preset": preset, "overrides": overrides})
    assert rules.max_players == players
    assert 3 * players + rules.middle_cards <= rules.deck < 3 * (players + 1) + rules.middle_cards


@pytest.mark.parametrize(
    "preset, ending, asks",
    [
        ("scat", "knock", ("knocker", "lowest")),
        ("scat", "thirty_one", ("knocker", "shown_by")),  # a 31 after a knock names the knocker
        ("friendly", "thirty_one", ("knocker", "shown_by", "lowest")),  # then a showdown
        ("scat", "dealt_thirty_one", ("shown_by",)),
        ("schwimmen", "dealt_thirty_one", ("shown_by", "lowest")),
        ("schwimmen", "three_aces", ("shown_by",)),
        ("scat", "stock_out", ("lowest",)),
    ],
)
def test_each_ending_asks_its_own_questions(preset, ending, asks):
    assert questions(PRESETS[preset].rules, ending) == asks


def test_the_endings_asking_a_question_are_those_the_rules_have():
    rules = PRESETS["aces-wild"].rules
    assert endings_asking(rules, "knocker") == ("knock",)  # no 31 in play under aces wild
    assert endings_asking(rules, "shown_by") == ("dealt_thirty_one",)


class TestStoredRules:
    """A game keeps the rules it was played with, whatever switches are added later."""

    def test_a_game_stored_by_the_previous_version_reads_as_it_was(self):
        from scorekeeper.rules.ruleset import stored_rules

        kept = PRESETS["schwimmen"].rules.as_dict()
        assert stored_rules(kept, version=1) == PRESETS["schwimmen"].rules

    def test_a_switch_added_later_takes_the_value_older_games_played_with(self):
        import dataclasses

        from scorekeeper.rules import SWITCHES
        from scorekeeper.rules.ruleset import stored_rules

        # As if "middle" had come in version 3, before which every game had a pile.
        old = {k: v for k, v in PRESETS["schwimmen"].rules.as_dict().items() if k != "middle"}
        later = tuple(
            dataclasses.replace(s, since=3, before="discard_pile") if s.name == "middle" else s
            for s in SWITCHES
        )
        rules = stored_rules(old, version=2, switches=later)
        assert rules.middle == "discard_pile"  # what the game was played with
        assert rules.deck == 32 and rules.three_aces_fire  # the rest as stored

    def test_a_missing_switch_is_never_filled_in_from_a_preset(self):
        from scorekeeper.rules.ruleset import RULES_VERSION, stored_rules

        old = {k: v for k, v in PRESETS["schwimmen"].rules.as_dict().items() if k != "deck"}
        with pytest.raises(RulesError, match="no value for “deck”"):
            stored_rules(old, version=RULES_VERSION)
