"""A game keeps the rules it started with, as the rules version of its day stored them: rules
frozen here as each past version wrote them must keep reading, and a switch added to a version
games are already stored at (so that they have no value for it) fails here, loudly, rather than
as an error on every page of every old game."""

import pytest

from scorekeeper.rules import SWITCHES, RuleSet
from scorekeeper.rules.ruleset import RULES_VERSION, stored_rules

# The switches each rules version had. A new switch comes with a new version: declare it with
# ``since=N`` (and ``before=`` what games stored earlier played, if not its default), then add
# version N here with the rules a game of that version stores.
VERSION_1 = {
    "deck", "aces_wild", "three_of_a_kind", "three_aces", "tie_break", "middle", "knock_timing",
    "knock_out_of_gate", "min_knock", "knocker_alone", "knocker_tied", "thirty_one",
    "thirty_one_after_knock", "thirty_one_dealt", "several_dealt_31", "unshown_31",
    "three_aces_fire", "stock_out", "lives", "last_chance", "next_dealer", "all_out",
    "round_limit",
}  # fmt: skip
# Version 3: the variants other tables play, and the rules of play a card prints.
VERSION_3 = VERSION_1 | {
    "knocker_beaten", "second_knock", "knocker_caught", "no_knock_first_round",
    "new_middle_789", "pass_once", "dealer_two_hands", "pot_at_end",
}  # fmt: skip
# Version 4: the widow-and-pot game, played for a pot instead of lives.
VERSION_4 = VERSION_3 | {"form", "ante", "widow_swap"}
# Version 5: cards of one rank that add up (Board Game Arena); ``highest_in_hand`` reads as its
# source (the highest card only), and a game stored before plays ``highest_in_hand_then_next``.
VERSION_5 = VERSION_4 | {"same_rank"}
# Version 6: a tie for lowest that voids the hand, a fall that stops at the last chance, and
# who deals first when the table plays again.
VERSION_6 = VERSION_5 | {"lowest_tie", "more_than_left", "first_dealer_again"}
# Version 7: everyone but the top hand loses, a dealt three of a kind as fire, and the words of
# the Austrian and Swiss tables for going out.
VERSION_7 = VERSION_6 | {"showdown_loses", "dealt_three_fire", "going_out"}

SWITCHES_OF_VERSION = {
    1: VERSION_1,
    2: VERSION_1,  # version 2 began storing the version; it added no switch
    3: VERSION_3,
    4: VERSION_4,
    5: VERSION_5,
    6: VERSION_6,
    7: VERSION_7,
}

# A schwimmen game as versions 1 and 2 stored it, word for word.
SCHWIMMEN = {
    "deck": 32, "aces_wild": False, "three_of_a_kind": 30.5, "three_aces": 33, "tie_break": "tie",
    "middle": "three_face_up", "knock_timing": "instead_of_draw", "knock_out_of_gate": False,
    "min_knock": None, "knocker_alone": 1, "knocker_tied": "like_others",
    "thirty_one": "showdown", "thirty_one_after_knock": "counts", "thirty_one_dealt": "showdown",
    "several_dealt_31": "table_decides", "unshown_31": "counts_31", "three_aces_fire": True,
    "stock_out": "showdown", "lives": 3, "last_chance": "swimming", "next_dealer": "left",
    "all_out": "tie", "round_limit": None,
}  # fmt: skip
# A house-ruled scat game: the county, 4 lives, a minimum to knock, the stock a draw.
SCAT_HOUSE = {
    **SCHWIMMEN, "deck": 52, "three_of_a_kind": None, "three_aces": None, "middle": "discard_pile",
    "knocker_alone": 2, "knocker_tied": "safe", "thirty_one": "others_lose_1",
    "thirty_one_dealt": "others_lose_1", "several_dealt_31": "without_31_lose_1",
    "unshown_31": "counts_30", "three_aces_fire": False, "stock_out": "draw", "lives": 4,
    "last_chance": "county", "all_out": "replay", "min_knock": 17,
}  # fmt: skip
# A kitchen-table game as version 3 stores it: the knocker caught, a second knock, a knocker
# without the top hand losing a life more, the dealer's two hands, the pot to the winner.
KITCHEN_TABLE_3 = {
    **SCAT_HOUSE, "three_of_a_kind": 30.5, "knock_timing": "after_discard",
    "knocker_tied": "like_others", "thirty_one_dealt": "others_lose_1",
    "several_dealt_31": "table_decides", "unshown_31": "counts_31", "stock_out": "reshuffle",
    "lives": 3, "last_chance": None, "min_knock": None, "knocker_beaten": 1,
    "second_knock": True, "knocker_caught": True, "no_knock_first_round": False,
    "new_middle_789": False, "pass_once": True, "dealer_two_hands": True, "pot_at_end": "winner",
}  # fmt: skip
STORED = {
    1: [SCHWIMMEN, SCAT_HOUSE],
    2: [SCHWIMMEN, SCAT_HOUSE],
    3: [KITCHEN_TABLE_3, {**SCHWIMMEN, **{n: False for n in VERSION_3 - VERSION_1},
                          "knocker_beaten": 0, "pot_at_end": "stays"}],
    4: [{**KITCHEN_TABLE_3, "form": "lives", "ante": 1, "widow_swap": "one"},
        {**KITCHEN_TABLE_3, "form": "pot", "ante": 2, "widow_swap": "several",
         "middle": "widow"}],
    5: [{**KITCHEN_TABLE_3, "form": "lives", "ante": 1, "widow_swap": "one",
         "same_rank": "adds", "tie_break": "highest_in_hand"}],
    6: [{**KITCHEN_TABLE_3, "form": "lives", "ante": 1, "widow_swap": "one",
         "same_rank": "adds", "tie_break": "highest_in_hand", "lowest_tie": "void",
         "more_than_left": "last_chance", "first_dealer_again": "first_out",
         "last_chance": "county"}],
    7: [{**KITCHEN_TABLE_3, "form": "lives", "ante": 1, "widow_swap": "one",
         "same_rank": "adds", "tie_break": "highest_in_hand", "lowest_tie": "all_lose",
         "more_than_left": "out", "first_dealer_again": "left", "last_chance": "trousers_down",
         "knocker_beaten": "in_all", "showdown_loses": "all_but_top", "dealt_three_fire": True,
         "going_out": "under"}],
}  # fmt: skip


def test_every_switch_belongs_to_a_version_frozen_here():
    for version, names in SWITCHES_OF_VERSION.items():
        now = {s.name for s in SWITCHES if s.since <= version}
        assert now == names, (
            f"the switches of rules version {version} changed ({sorted(now ^ names)}): games "
            f"stored at version {version} have no value for a new switch. Declare it with "
            f"since={RULES_VERSION + 1} and freeze that version in this file."
        )
    assert max(SWITCHES_OF_VERSION) == RULES_VERSION, (
        f"rules version {RULES_VERSION} is not frozen here: add its switches and a game's rules"
    )
    assert set(STORED) == set(SWITCHES_OF_VERSION)


@pytest.mark.parametrize("version", sorted(STORED))
def test_the_rules_each_past_version_stored_still_read(version):
    for stored in STORED[version]:
        assert set(stored) == SWITCHES_OF_VERSION[version]
        rules = stored_rules(stored, version)
        assert isinstance(rules, RuleSet)
        for name, value in stored.items():
            assert rules.as_dict()[name] == value, name
        # Every switch that came later reads as games played before it existed.
        for later in SWITCHES:
            if later.since > version:
                assert getattr(rules, later.name) == later.played_before, later.name


def test_a_new_game_stores_every_switch_of_the_current_version():
    from scorekeeper.rules import PRESETS

    for preset in PRESETS.values():
        stored = preset.rules.as_dict()
        assert set(stored) == SWITCHES_OF_VERSION[RULES_VERSION]
        assert stored_rules(stored, RULES_VERSION) == preset.rules
