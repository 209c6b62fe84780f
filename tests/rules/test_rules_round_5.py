"""Rules round 5: where two switches meet (an unshown 31 that counts as 30 and a knocker who
must have the top hand; a replayed hand and an agreed number of rounds), and a refusal that names
the ending asked."""

import pytest

from scorekeeper.rules import RoundError
from scorekeeper.rules.game import RoundInput, replay

from .cast import after, play, rules_for, seat

# ---- knocker_beaten reads a 31 nobody showed as the 30 it counts for -------------------------

# Ann knocks with 30; Ben holds a 31 he did not show; Cat is lowest.
ANN_30, BEN_31, CAT_19 = "AH KH 9H", "AS KS QS", "10C 7C 2D"


def test_an_unshown_31_counted_as_30_only_ties_a_knocker_with_30():
    seats = [seat("Ann", ANN_30), seat("Ben", BEN_31), seat("Cat", CAT_19)]
    result = play("scat", seats, knocker="Ann", knocker_beaten=1)
    assert "Ben's 31 was not shown at once, so it counts as 30." in result.explanation
    # Ann ties the top hand (30 and 30): only Cat, the lowest, loses.
    assert result.losses == {"Cat": 1}
    assert not any("better hand" in line for line in result.explanation)


def test_the_same_after_a_second_knock():
    seats = [seat("Ann", ANN_30), seat("Ben", BEN_31), seat("Cat", CAT_19)]
    result = play(
        "scat",
        seats,
        "second_knock",
        knocker="Ann",
        shown_by=("Cat",),
        second_knock=True,
        knocker_beaten=1,
    )
    assert result.losses == {"Cat": 1}


def test_where_an_unshown_31_counts_as_31_it_beats_the_knocker():
    seats = [seat("Ann", ANN_30), seat("Ben", BEN_31), seat("Cat", CAT_19)]
    result = play("scat", seats, knocker="Ann", knocker_beaten=1, unshown_31="counts_31")
    assert result.losses == {"Ann": 1, "Cat": 1}
    assert (
        "Ann loses 1 life: knocked and someone had a better hand: a knocker must have the top "
        "hand." in result.explanation
    )


def test_a_30_beats_a_knocker_whose_unshown_31_counts_30_no_more_than_it_ties():
    # The knocker's own unshown 31 counts as 30 as well: a 30 beside it ties, no more.
    seats = [seat("Ann", BEN_31), seat("Ben", ANN_30), seat("Cat", CAT_19)]
    assert play("scat", seats, knocker="Ann", knocker_beaten=1).losses == {"Cat": 1}


# ---- a replayed hand counts toward an agreed number of rounds -------------------------------


def test_a_replayed_last_round_ends_a_game_of_a_set_number_of_rounds():
    # Both would go out at once: the hand is replayed, but it was round 2 of 2.
    seats = [seat("Ann", "KH 9H 2C", lives=1), seat("Ben", "KC 9C 3D", lives=1)]
    before = play("friendly", seats, knocker="Ann", dealer="Ben", knocker_tied="like_others")
    assert before.result == "replay" and not before.game_over
    result = play(
        "friendly",
        seats,
        knocker="Ann",
        dealer="Ben",
        knocker_tied="like_others",
        round_limit=2,
        rounds_played=1,
    )
    assert result.game_over and result.losses == {}
    assert result.tie == ("Ann", "Ben") and result.winner is None
    assert after(result) == {"Ann": (1, "in"), "Ben": (1, "in")}
    assert "A replayed hand counts as a round, and it was the last." in result.explanation
    assert "That was round 2 of 2: the most lives wins." in result.explanation
    assert result.next_dealer is None


def test_a_game_of_two_rounds_ends_after_a_replayed_second_round():
    rules = rules_for("friendly", round_limit=2, knocker_tied="like_others", lives=2)
    # Round 1: Ann knocks and ties Ben for lowest; both lose 1 (2 lives each, then 1). Round 2
    # the same would put both out at once: replayed, and it was the last agreed round.
    state, steps = replay(
        rules,
        ["Ann", "Ben"],
        0,
        [
            RoundInput("knock", knocker=0, lowest=(0, 1)),
            RoundInput("knock", knocker=0, lowest=(0, 1)),
        ],
    )
    assert steps[0].result.losses == {"Ann": 1, "Ben": 1}
    assert steps[1].result.losses == {} and steps[1].result.game_over
    assert state.game_over and state.rounds == 2 and state.tie == ("Ann", "Ben")
    with pytest.raises(RoundError, match="already over"):
        replay(
            rules,
            ["Ann", "Ben"],
            0,
            [RoundInput("knock", knocker=0, lowest=(0, 1))] * 3,
        )


# ---- a refusal names the ending that was asked ------------------------------------------------


def test_an_ending_of_the_other_way_of_playing_is_named_by_its_words():
    seats = [seat("Ann", ANN_30), seat("Ben", BEN_31)]
    with pytest.raises(RoundError) as refused:
        play("scat", seats, "highest")
    said = str(refused.value)
    assert "(“a knock, one more turn each, and the highest hand wins”)" in said
    assert "(“Knock”)" not in said
    with pytest.raises(RoundError) as refused:
        play("widow", seats, "knock", knocker="Ann")
    assert "(“a knock and a showdown”)" in str(refused.value)


# ---- lowest_tie: a tie for lowest voids the hand (a family rule on "Stop the Bus") -------------

TIED_LOW = [seat("Ann", "KH 10H 2C"), seat("Ben", "KS 10S 3D"), seat("Cat", "AC KC 9C")]


def test_a_tie_for_lowest_costs_everyone_tied_unless_the_table_voids_it():
    # Ann knocks with 20 and Ben has 20: scat's knocker is safe in a tie, Ben loses 1.
    assert play("scat", TIED_LOW, knocker="Cat").losses == {"Ann": 1, "Ben": 1}
    result = play("scat", TIED_LOW, knocker="Cat", lowest_tie="void")
    assert result.losses == {}
    assert result.explanation[1:3] == (
        "Ann and Ben tie for lowest with 20.",
        "A tie for lowest voids the hand: nobody loses.",
    )
    assert after(result) == {"Ann": (3, "in"), "Ben": (3, "in"), "Cat": (3, "in")}


def test_a_void_hand_costs_a_tied_or_beaten_knocker_nothing_as_our_reading():
    voided = play("kitchen-table", TIED_LOW, knocker="Ann", lowest_tie="void", knocker_beaten=1)
    assert voided.losses == {}
    # A tie the tie break settles is no tie: the lowest loses as ever.
    unequal = [seat("Ann", "AH 7H 2C"), seat("Ben", "KS 8S 3D"), seat("Cat", "AC KC 9C")]
    broken = play("scat", unequal, knocker="Cat", lowest_tie="void", tie_break="highest_card")
    assert broken.losses == {"Ben": 1}
    card = {row["name"]: row for row in rules_for("scat", lowest_tie="void").describe()}
    assert card["lowest_tie"]["our_reading"]
    assert "the knocker included" in card["lowest_tie"]["reading"]
    assert card["lowest_tie"]["words"] == "Nobody loses: the hand is void"


def test_a_void_tie_after_a_second_knock_too():
    result = play(
        "scat",
        TIED_LOW,
        "second_knock",
        knocker="Cat",
        shown_by=("Ann",),
        second_knock=True,
        lowest_tie="void",
    )
    assert result.losses == {}


# ---- more_than_left: a fall that stops at the last chance (a softer table) -------------------


def test_losing_two_with_one_life_left_stops_at_the_last_chance_where_the_table_says_so():
    seats = [seat("Ann", "KH 9H 2C", lives=1), seat("Ben", "AS KS 9S"), seat("Cat", "AC KC 9C")]
    # Scat: Ann knocks and is alone at the bottom, 2 lives with 1 left: out.
    assert after(play("scat", seats, knocker="Ann"))["Ann"] == (0, "out")
    soft = play("scat", seats, knocker="Ann", more_than_left="last_chance")
    assert after(soft)["Ann"] == (0, "county")
    assert "Ann is now on the county." in soft.explanation
    # Already on the county, the next loss puts a player out as ever.
    on_it = [seat("Ann", "KH 9H 2C", lives=0), *seats[1:]]
    assert after(play("scat", on_it, knocker="Ann", more_than_left="last_chance"))["Ann"] == (
        0,
        "out",
    )


def test_without_a_last_chance_more_than_left_is_out_as_our_reading():
    seats = [seat("Ann", "KH 9H 2C", lives=1), seat("Ben", "AS KS 9S"), seat("Cat", "AC KC 9C")]
    result = play("scat", seats, knocker="Ann", last_chance=None, more_than_left="last_chance")
    assert after(result)["Ann"] == (0, "out")
    card = {
        row["name"]: row
        for row in rules_for("scat", last_chance=None, more_than_left="last_chance").describe()
    }
    assert card["more_than_left"]["our_reading"]


# ---- first_dealer_again: the game's first loser deals the next game's first hand --------------


def test_the_first_player_out_deals_first_when_the_table_plays_again():
    from scorekeeper.rules.game import first_dealer_again

    rules = rules_for("friendly", lives=1, first_dealer_again="first_out")
    names = ["Ann", "Ben", "Cat", "Dan"]
    # Round 1: Cat out; round 2: Ben out; Ann wins. Ann dealt first.
    state, _steps = replay(
        rules,
        names,
        0,
        [
            RoundInput("knock", knocker=0, lowest=(2,)),
            RoundInput("knock", knocker=0, lowest=(1,)),
            RoundInput("knock", knocker=0, lowest=(3,)),
        ],
    )
    assert state.game_over and state.winner == "Ann"
    assert first_dealer_again(rules, state, 0) == 2  # Cat went out first
    left = rules_for("friendly", lives=1)
    assert first_dealer_again(left, state, 0) == 1  # the player on Ann's left
    # Two out in one round: the first of them in seat order.
    both, _ = replay(rules, names, 0, [RoundInput("knock", knocker=0, lowest=(3, 1))])
    assert first_dealer_again(rules, both, 0) == 1


# ---- the new switches in German ------------------------------------------------------------


def test_the_new_switches_speak_german():
    import gettext
    from pathlib import Path

    from scorekeeper.rules.words import speaking

    german = gettext.translation(
        "django", Path(__file__).resolve().parents[2] / "locale", languages=["de"]
    )
    with speaking(german):
        voided = play("scat", TIED_LOW, knocker="Cat", lowest_tie="void")
        card = {
            row["name"]: row
            for row in rules_for(
                "scat",
                lowest_tie="void",
                first_dealer_again="first_out",
                last_chance=None,
                more_than_left="last_chance",
            ).describe()
        }
    assert "Gleichstand unten: die Hand gilt nicht, niemand verliert." in voided.explanation
    for name in ("lowest_tie", "more_than_left", "first_dealer_again"):
        row = card[name]
        english = {r["name"]: r for r in rules_for("scat").describe()}[name]
        assert row["label"] != english["label"] and row["help"] != english["help"], name
        assert row["reading"] and "the " not in row["reading"], (name, row["reading"])


# ---- three aces at 30.5 that are still fire (github.com/spossner's engine) -------------------


def test_three_aces_at_three_of_a_kinds_value_may_be_fire():
    rules = {"three_of_a_kind": "30.5", "three_aces": None, "three_aces_fire": True}
    seats = [seat("Ann", "AH AS AD"), seat("Ben", "KS QS JS"), seat("Cat", "9C 8C 2D")]
    result = play("kitchen-table", seats, "three_aces", shown_by=("Ann",), **rules)
    assert result.losses == {"Ben": 1, "Cat": 1}
    assert "Ann showed three aces (fire)." in result.explanation
    assert "A♥ A♠ A♦: three aces count 30.5 as three of a kind (fire)" in (
        result.hands["Ann"].explanation
    )
    # By value alone, as a table that does not enter cards.
    by_value = [seat("Ann", value=30.5), seat("Ben", value=30), seat("Cat", value=17)]
    assert play("kitchen-table", by_value, "three_aces", shown_by=("Ann",), **rules).losses == {
        "Ben": 1,
        "Cat": 1,
    }
    card = {row["name"]: row for row in rules_for("kitchen-table", **rules).describe()}
    assert card["three_aces_fire"]["our_reading"]
    assert "a 31 would beat them" in card["three_aces_fire"]["reading"]


def test_three_aces_worth_one_card_are_never_fire():
    from scorekeeper.rules.switches import RulesError

    with pytest.raises(RulesError, match="count as three of a kind") as refused:
        rules_for("scat", three_aces_fire=True)
    assert refused.value.field.endswith("three_aces_fire")


# ---- showdown_loses: everyone but the top hand loses (gamepoint's showdown) -----------------

FOUR = [
    seat("Ann", "KH 9H 2C"),  # 19, the knocker
    seat("Ben", "AS KS 9S"),  # 30
    seat("Cat", "AC KC 9C"),  # 30
    seat("Dan", "7D 8D 2S"),  # 15
]


def test_everyone_below_the_top_hand_loses_one_the_knocker_too():
    from scorekeeper.rules.endings import asks

    # Scat: the lowest (Dan) alone loses.
    assert play("scat", FOUR, knocker="Ann").losses == {"Dan": 1}
    result = play("scat", FOUR, knocker="Ann", showdown_loses="all_but_top")
    # Ben and Cat tie for the top hand and keep their lives; the knocker loses 1, not scat's 2.
    assert result.losses == {"Ann": 1, "Dan": 1}
    assert "Ben and Cat tie for the top hand with 30." in result.explanation
    assert "Ann loses 1 life: everyone but the top hand loses." in result.explanation
    rules = rules_for("scat", showdown_loses="all_but_top")
    assert asks(rules, "knock") == ("knocker", "winners")
    assert asks(rules_for("scat"), "knock") == ("knocker", "lowest")


def test_the_table_names_the_top_hand_when_the_cards_are_not_entered():
    bare = [seat("Ann"), seat("Ben"), seat("Cat"), seat("Dan")]
    result = play("scat", bare, knocker="Ann", winners=("Cat",), showdown_loses="all_but_top")
    assert result.losses == {"Ann": 1, "Ben": 1, "Dan": 1}
    assert "The table named Cat the top hand." in result.explanation
    with pytest.raises(RoundError) as refused:
        play("scat", bare, knocker="Ann", lowest=("Dan",), showdown_loses="all_but_top")
    assert refused.value.field == "lowest" and "name the top hand" in str(refused.value)
    with pytest.raises(RoundError) as missing:
        play("scat", bare, knocker="Ann", showdown_loses="all_but_top")
    # Nobody named and no hand entered: what is missing is who had the top hand, naming nobody.
    assert missing.value.field == "winners" and "Say who had the top hand" in str(missing.value)
    # Cards that say otherwise than the table are refused, naming the top hand field.
    with pytest.raises(RoundError) as wrong:
        play("scat", FOUR, knocker="Ann", winners=("Dan",), showdown_loses="all_but_top")
    assert wrong.value.field == "winners"


def test_a_31_shown_is_the_top_hand_and_nothing_is_asked():
    from scorekeeper.rules.endings import asks

    rules = rules_for("schwimmen", showdown_loses="all_but_top")
    assert asks(rules, "thirty_one") == ("knocker", "shown_by")
    seats = [seat("Ann", "AH KH QH"), seat("Ben", "AS KS 9S"), seat("Cat", "9C 8C 7D")]
    result = play("schwimmen", seats, "thirty_one", shown_by=("Ann",), showdown_loses="all_but_top")
    assert result.losses == {"Ben": 1, "Cat": 1}


def test_a_beaten_knocker_still_pays_what_knocker_beaten_says_and_a_second_knock_too():
    result = play("scat", FOUR, knocker="Ann", showdown_loses="all_but_top", knocker_beaten=1)
    assert result.losses == {"Ann": 2, "Dan": 1}
    second = play(
        "scat",
        FOUR,
        "second_knock",
        knocker="Ann",
        shown_by=("Dan",),
        second_knock=True,
        showdown_loses="all_but_top",
    )
    assert second.losses == {"Ann": 1, "Dan": 1}
    card = {r["name"]: r for r in rules_for("scat", showdown_loses="all_but_top").describe()}
    assert card["showdown_loses"]["our_reading"]
    assert "names the top hand" in card["showdown_loses"]["reading"]


# ---- knocker_beaten: in_all, a beaten knocker pays 1 in all (paigedotgay's engine) ----------


def test_a_beaten_knocker_pays_one_in_all_not_one_more():
    # Ann knocks with 19 and is beaten, Dan is lowest: 1 for Ann either way.
    assert play("scat", FOUR, knocker="Ann", knocker_beaten="in_all").losses == {
        "Ann": 1,
        "Dan": 1,
    }
    assert play("scat", FOUR, knocker="Ann", knocker_beaten=1).losses == {"Ann": 1, "Dan": 1}
    # Alone at the bottom: "1 more" adds to scat's 2; "in all" adds nothing.
    low = [seat("Ann", "7H 8H 2C"), seat("Ben", "AS KS 9S"), seat("Cat", "AC KC 9C")]
    assert play("scat", low, knocker="Ann", knocker_beaten=1).losses == {"Ann": 3}
    in_all = play("scat", low, knocker="Ann", knocker_beaten="in_all")
    assert in_all.losses == {"Ann": 2}
    assert rules_for("scat", knocker_beaten="in_all").most_lost == 2
    assert rules_for("scat", knocker_beaten=1).most_lost == 3
    # Not beaten (tied for top), nothing at all.
    top = [seat("Ann", "AH KH 9H"), seat("Ben", "AS KS 9S"), seat("Cat", "7C 8C 2D")]
    assert play("scat", top, knocker="Ann", knocker_beaten="in_all").losses == {"Cat": 1}


def test_in_all_reads_from_json_and_forms_beside_the_numbers():
    from scorekeeper.rules.ruleset import BY_NAME

    switch = BY_NAME["knocker_beaten"]
    assert switch.read("in_all") == "in_all"
    assert switch.read("1") == 1 and switch.read(0) == 0
    assert switch.schema()["enum"] == [0, 1, "in_all"]
    card = {r["name"]: r for r in rules_for("scat", knocker_beaten="in_all").describe()}
    assert card["knocker_beaten"]["our_reading"]


# ---- dealt_three_fire: any three of a kind dealt is fire (gamexpla.in) ----------------------


def test_a_dealt_three_of_a_kind_ends_the_round_and_costs_every_other_player_a_life():
    from scorekeeper.rules.endings import offered

    assert "dealt_three" not in offered(rules_for("scat"))
    assert "dealt_three" in offered(rules_for("scat", dealt_three_fire=True))
    seats = [seat("Ann", "7H 7S 7D"), seat("Ben", "AS KS 9S"), seat("Cat", "9C 8C 2D")]
    result = play("scat", seats, "dealt_three", shown_by=("Ann",), dealt_three_fire=True)
    assert result.losses == {"Ben": 1, "Cat": 1}
    assert result.explanation[0] == "Ann was dealt three of a kind (fire)."
    with pytest.raises(RoundError) as refused:
        play("scat", seats, "dealt_three", shown_by=("Ben",), dealt_three_fire=True)
    assert refused.value.field == "shown_by" and "Ben was not dealt" in str(refused.value)
    with pytest.raises(RoundError) as knocked:
        play("scat", seats, "dealt_three", knocker="Ben", shown_by=("Ann",), dealt_three_fire=True)
    assert knocked.value.field == "knocker"
    with pytest.raises(RoundError) as off:
        play("scat", seats, "dealt_three", shown_by=("Ann",))
    assert "does not end the round" in str(off.value)


def test_a_dealt_three_of_a_kind_comes_before_a_dealt_31_as_our_reading():
    seats = [seat("Ann", "7H 7S 7D"), seat("Ben", "AS KS QS"), seat("Cat", "9C 8C 2D")]
    with pytest.raises(RoundError, match="record a dealt three of a kind") as refused:
        play("scat", seats, "dealt_thirty_one", shown_by=("Ben",), dealt_three_fire=True)
    assert refused.value.field == "ending"
    card = {r["name"]: r for r in rules_for("scat", dealt_three_fire=True).describe()}
    assert card["dealt_three_fire"]["our_reading"]


# ---- the words of Austrian and Swiss tables: trousers down, gone under -----------------------


def test_trousers_down_and_gone_under_are_only_words():
    seats = [seat("Ann", "7H 8H 9C", lives=0), seat("Ben", "AS KS 9S", lives=1)]
    seats += [seat("Cat", "AC KC 8D", lives=1)]
    words = {"last_chance": "trousers_down", "going_out": "under"}
    result = play("schwimmen", seats[1:] + seats[:1], knocker="Ben", **words)
    assert after(result)["Ann"] == (0, "out")
    assert "Ann has gone under." in result.explanation
    rules = rules_for("schwimmen", **words)
    assert rules.status_label("county") == "trousers down"
    assert rules.status_label("out") == "gone under"
    cat_low = [seat("Ann", "AH KH 9H"), seat("Ben", "AS KS 9S"), seat("Cat", "9C 8C 7D", lives=1)]
    assert (
        "Cat now has their trousers down."
        in play("schwimmen", cat_low, knocker="Ben", **words).explanation
    )
    card = {r["name"]: r for r in rules.describe()}
    assert card["last_chance"]["our_reading"] and card["going_out"]["our_reading"]
    plain = rules_for("schwimmen")
    assert plain.status_label("out") == "out" and plain.status_label("county") == "swimming"


def test_the_round_six_switches_speak_german():
    import gettext
    from pathlib import Path

    from scorekeeper.rules.words import speaking

    german = gettext.translation(
        "django", Path(__file__).resolve().parents[2] / "locale", languages=["de"]
    )
    overrides = {
        "showdown_loses": "all_but_top",
        "knocker_beaten": "in_all",
        "dealt_three_fire": True,
        "last_chance": "trousers_down",
        "going_out": "under",
    }
    seats = [seat("Ann", "7H 7S 7D"), seat("Ben", "AS KS 9S", lives=0), seat("Cat", "9C 8C 8D")]
    with speaking(german):
        rules = rules_for("schwimmen", **overrides)
        card = {row["name"]: row for row in rules.describe()}
        fire = play("schwimmen", seats, "dealt_three", shown_by=("Ann",), **overrides)
        top = play("scat", FOUR, knocker="Ann", showdown_loses="all_but_top")
        status = (rules.status_label("county"), rules.status_label("out"))
    assert "Ann hat einen Drilling bekommen (Feuer)." in fire.explanation
    assert "Ben geht unter." in fire.explanation
    assert "Ann verliert 1 Leben: alle außer der besten Hand verlieren." in top.explanation
    assert status == ("Hosen runter", "untergegangen")
    english = {r["name"]: r for r in rules_for("schwimmen", **overrides).describe()}
    for name in (*overrides, "going_out"):
        row = card[name]
        assert row["label"] != english[name]["label"], name
        assert row["words"] != english[name]["words"], name
        assert row["reading"] and "the " not in row["reading"], (name, row["reading"])
