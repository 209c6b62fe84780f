"""The readings the table is told, and the variants other tables play, each from the sentence of
the source that plays it (quoted where the source is a text; named where it is an engine)."""

from dataclasses import replace

import pytest

from scorekeeper.rules import PRESETS, SWITCHES, Outcome, RoundError, Table, resolve_round
from scorekeeper.rules.game import RoundInput, play, start
from scorekeeper.rules.possible import gives
from scorekeeper.rules.ruleset import BY_NAME

from .cast import play as play_round
from .cast import rules_for, seat

# ---- A knocker must have the top hand ---------------------------------------------------------
# github.com/paigedotgay/thirty-one: a knocker whose hand is not the highest loses a life;
# gamepoint's Thirty-one page: "If the player who knocked does not have the highest hand, he
# loses an extra life" (on top of what the lowest hand costs).

KNOCK_25, BEN_28, CAT_20, CAT_28 = "KS 10S 5S", "KH 10H 8H", "KD 10D 2C", "KC 10C 8C"


def test_a_beaten_knocker_who_is_not_lowest_loses_one_beside_the_lowest():
    seats = [seat("Ann", KNOCK_25), seat("Ben", BEN_28), seat("Cat", CAT_20)]
    result = play_round("scat", seats, knocker="Ann", knocker_beaten=1)
    assert result.losses == {"Ann": 1, "Cat": 1}
    assert (
        "Ann loses 1 life: knocked and someone had a better hand: a knocker must have the top "
        "hand." in result.explanation
    )
    assert play_round("scat", seats, knocker="Ann").losses == {"Cat": 1}  # off: as before


def test_a_beaten_knocker_who_is_lowest_loses_the_extra_life_on_top():
    seats = [seat("Ann", CAT_20), seat("Ben", BEN_28), seat("Cat", KNOCK_25)]
    # scat: a knocker alone at the bottom loses 2, and one more for not having the top hand.
    assert play_round("scat", seats, knocker="Ann", knocker_beaten=1).losses == {"Ann": 3}
    # schwimmen: the lowest loses 1, knocker or not; the extra life makes it 2.
    swim = [seat("Ann", "7S 8H 9D"), seat("Ben", "AH KH 9H"), seat("Cat", "AS KS 8S")]
    result = play_round("schwimmen", swim, knocker="Ann", knocker_beaten=1)
    assert result.losses == {"Ann": 2}
    assert any("and 1 life more: a knocker must have the top hand" in s for s in result.explanation)


def test_a_knocker_tied_for_the_top_hand_has_the_top_hand():
    seats = [seat("Ann", BEN_28), seat("Ben", CAT_28), seat("Cat", CAT_20)]
    assert play_round("scat", seats, knocker="Ann", knocker_beaten=1).losses == {"Cat": 1}


def test_without_every_hand_the_table_says_whether_the_knocker_was_beaten():
    seats = [seat("Ann"), seat("Ben"), seat("Cat")]
    asked = play_round("scat", seats, knocker="Ann", lowest=("Cat",), knocker_beaten=1)
    assert asked.result == "table_decides" and not asked.losses
    assert [c.id for c in asked.choices] == ["top", "beaten"]
    top = play_round("scat", seats, knocker="Ann", lowest=("Cat",), choice="top", knocker_beaten=1)
    assert top.losses == {"Cat": 1}
    beaten = play_round(
        "scat", seats, knocker="Ann", lowest=("Cat",), choice="beaten", knocker_beaten=1
    )
    assert beaten.losses == {"Ann": 1, "Cat": 1}


# ---- A second knock ends the round (github.com/oli-69/schwimmen, its "Knocking" rule) -------


def test_a_second_knock_ends_the_hand_and_the_lowest_loses():
    seats = [seat("Ann", BEN_28), seat("Ben", KNOCK_25), seat("Cat", CAT_20)]
    result = play_round(
        "scat", seats, "second_knock", knocker="Ann", shown_by=("Ben",), second_knock=True
    )
    assert result.losses == {"Cat": 1}
    assert result.explanation[0] == (
        "Ann knocked, then Ben knocked too, which ends the hand at once."
    )


@pytest.mark.parametrize(
    "hands, loser, knocker_word",
    [
        (("KD 10D 2C", "KC 10C 2D", "KH 10H 8H"), "Ann", "first"),  # Ann and Ben at 20
        (("KH 10H 8H", "KD 10D 2C", "KC 10C 2D"), "Ben", "second"),  # Ben and Cat at 20
    ],
)
def test_a_tie_goes_against_the_first_knocker_then_the_second(hands, loser, knocker_word):
    seats = [seat(name, cards) for name, cards in zip(("Ann", "Ben", "Cat"), hands, strict=True)]
    result = play_round(
        "scat", seats, "second_knock", knocker="Ann", shown_by=("Ben",), second_knock=True
    )
    assert result.losses == {loser: 1}
    assert any(f"a tie goes against the {knocker_word} knocker" in s for s in result.explanation)


def test_a_second_knock_is_refused_where_the_rules_do_not_play_it():
    seats = [seat("Ann"), seat("Ben"), seat("Cat")]
    with pytest.raises(RoundError) as refused:
        play_round("scat", seats, "second_knock", knocker="Ann", shown_by=("Ben",))
    assert refused.value.message == "under these rules a second knock does not end the hand"


# ---- A 31 gives everyone one last turn (github.com/IT-Jeroen/31Single) -------------------


def test_a_31_with_a_last_turn_goes_to_a_showdown_the_31_on_top():
    seats = [seat("Ann", "AS KS QS"), seat("Ben", BEN_28), seat("Cat", CAT_20)]
    result = play_round("scat", seats, "thirty_one", shown_by=("Ann",), thirty_one="last_turn")
    assert result.losses == {"Cat": 1}
    assert result.explanation[0] == (
        "Ann showed 31; everyone else had one last turn, then the hands were shown."
    )
    # Another 31 made on the last turn ties for the top: only the lowest still loses.
    seats[1] = seat("Ben", "AH KH QH")
    again = play_round("scat", seats, "thirty_one", shown_by=("Ann",), thirty_one="last_turn")
    assert again.losses == {"Cat": 1}
    # Under scat as written, showing 31 costs everyone else a life.
    assert play_round("scat", seats, "thirty_one", shown_by=("Ann",)).losses == {
        "Ben": 1,
        "Cat": 1,
    }


# ---- Equal totals broken by the highest card of the hand (github.com/jmisabella/cards) ------


def test_the_two_tie_breaks_differ_on_a_card_outside_the_counted_suit():
    # 9♠ 8♠ K♥ and 10♦ 7♦ 9♣ are both 17; the third player is higher.
    seats = [seat("Ann", "9S 8S KH"), seat("Ben", "10D 7D 9C"), seat("Cat", "AC KC 5C")]
    counted = play_round("scat", seats, knocker="Cat", tie_break="highest_card")
    in_hand = play_round("scat", seats, knocker="Cat", tie_break="highest_in_hand")
    tied = play_round("scat", seats, knocker="Cat")
    assert counted.losses == {"Ann": 1}  # 10♦ beats 9♠ among the counted cards
    assert in_hand.losses == {"Ben": 1}  # K♥ is the highest card of either hand
    assert tied.losses == {"Ann": 1, "Ben": 1}
    assert any("the highest card in the hand breaks the tie" in s for s in in_hand.explanation)


# ---- The kitchen-table text's word: "caught" -----------------------------------------------


def test_a_kitchen_table_knocker_who_loses_is_caught():
    # "If the knocker is lowest, the knocker loses two (caught)." (kitchen-table)
    seats = [seat("Ann", CAT_20), seat("Ben", BEN_28), seat("Cat", KNOCK_25)]
    result = play_round("kitchen-table", seats, knocker="Ann")
    assert result.losses == {"Ann": 2}
    assert "Ann loses 2 lives: caught: knocked and alone has the lowest hand." in (
        result.explanation
    )
    scat = play_round("scat", seats, knocker="Ann")
    assert not any("caught" in sentence for sentence in scat.explanation)


# ---- Two dealt 31s, one of them not named ---------------------------------------------------


@pytest.mark.parametrize("preset", ["kitchen-table", "aces-wild"])
def test_a_dealt_31_nobody_named_beside_a_named_one_goes_to_the_table(preset):
    # The map: "if several are dealt 31" the rules do not say, so the table decides; a second
    # 31 seen in the cards is a second 31 dealt, whether or not the table named it.
    seats = [
        seat("Ann", "AS KS QS"),
        seat("Ben", "AH KH QH"),
        seat("Cat", CAT_20),
        seat("Dev", "5C 4C 2D"),
    ]
    asked = play_round(preset, seats, "dealt_thirty_one", shown_by=("Ann",))
    assert asked.result == "table_decides" and not asked.losses
    both = {"shown_by": ("Ann", "Ben"), "choice": "without_31_lose_1"}
    named = play_round(preset, seats, "dealt_thirty_one", **both)
    unnamed = play_round(
        preset, seats, "dealt_thirty_one", shown_by=("Ann",), choice=both["choice"]
    )
    assert named.losses == {"Cat": 1, "Dev": 1}
    assert unnamed.losses == named.losses
    assert "Ben's hand shows a 31 dealt too, though nobody named it." in unnamed.explanation


def test_under_scat_a_dealt_31_nobody_showed_counts_30():
    # scat: "A 31 not declared at once cannot be claimed later." (it counts 30)
    seats = [seat("Ann", "AS KS QS"), seat("Ben", "AH KH QH"), seat("Cat", CAT_20)]
    result = play_round("scat", seats, "dealt_thirty_one", shown_by=("Ann",))
    assert result.losses == {"Ben": 1, "Cat": 1}
    assert "Ben's 31 was not shown at once, so it counts as 30." in result.explanation


def test_a_dealt_31_beside_dealt_fire_is_refused_for_the_fire():
    # schwimmen: "Fire: three Aces also end the round on the spot." ... "three Aces cost every
    # other player a life, whatever they hold": a dealt 31 beside them cannot come first.
    seats = [seat("Ann", "AS KS QS"), seat("Ben", "AH AD AC"), seat("Cat", "7S 8H 9D")]
    with pytest.raises(RoundError) as refused:
        play_round("schwimmen", seats, "dealt_thirty_one", shown_by=("Ann",))
    assert refused.value.message == (
        "Ben was dealt three aces, fire, which ends the round before any 31: record three aces"
    )
    fire = play_round("schwimmen", seats, "three_aces", shown_by=("Ben",))
    assert fire.losses == {"Ann": 1, "Cat": 1}


# ---- Play-only switches: printed on the card, never counted --------------------------------

PLAY_ONLY = [s.name for s in SWITCHES if s.play_only]


def test_the_play_only_switches_are_the_five_the_sources_name():
    # schwimmen's own variant list: "Two hands for the dealer: in many German homes the dealer
    # takes two hands, keeps one and lays the other face up as the middle." and "Some tables
    # don't allow knocking during the first go-around."; the scat page's widow game: "Some let
    # you swap several cards."
    assert PLAY_ONLY == [
        "no_knock_first_round",
        "new_middle_789",
        "pass_once",
        "dealer_two_hands",
        "widow_swap",
    ]


YES = {name: True for name in PLAY_ONLY if name != "widow_swap"} | {"widow_swap": "several"}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_play_only_switch_changes_no_round(preset):
    rules = PRESETS[preset].rules
    played = replace(rules, **YES)
    seats = [seat("Ann", "7S 8H 9D"), seat("Ben", "AH KH 9H"), seat("Cat", "AS KS 8S")]
    knock = "highest" if rules.played_for_pot else "knock"
    for outcome in [{"knocker": "Ann"}, {"knocker": "Cat"}, {"knocker": "Ben"}]:
        table = Table(tuple(seats))
        asked = Outcome(knock, outcome["knocker"])
        assert resolve_round(played, table, asked) == resolve_round(rules, table, asked)
    card = {row["name"]: row for row in played.describe()}
    shown = [name for name in PLAY_ONLY if rules.applies(BY_NAME[name])]
    # swapping with the widow is a rule of a game played for a pot only
    assert shown == [n for n in PLAY_ONLY if n != "widow_swap" or rules.played_for_pot]
    words = {True: "Yes", "several": "One, two or all three cards"}
    assert all(card[n]["play_only"] and card[n]["words"] == words[YES[n]] for n in shown)


# ---- Counted by hand: what no round of the rules gives ------------------------------------


@pytest.mark.parametrize(
    "preset, losses",
    [
        ("scat", {0: 2, 1: 2}),  # two players −2
        ("kitchen-table", {0: 2, 1: 1}),  # −2 and −1
        ("friendly", {0: 1, 1: 1, 2: 1}),  # everyone −1
    ],
)
def test_a_count_no_round_gives_is_kept_only_when_the_table_confirms(preset, losses):
    rules = PRESETS[preset].rules
    names = ("Ann", "Ben", "Cat")
    table = Table(tuple(seat(name) for name in names))
    assert not gives(rules, table, {names[i]: n for i, n in losses.items()})
    state = start(rules, names, 0)
    step = play(rules, state, RoundInput("manual", losses=losses))
    assert step.result.unusual
    assert "No round of these rules costs these lives" in step.result.explanation[1]


@pytest.mark.parametrize(
    "preset, losses",
    [
        ("scat", {0: 2}),  # a knocker alone at the bottom
        ("scat", {0: 1, 1: 1}),  # a 31 shown by the third
        ("kitchen-table", {1: 1, 2: 1}),
        ("friendly", {2: 1}),
    ],
)
def test_a_count_a_round_can_give_is_usual(preset, losses):
    rules = PRESETS[preset].rules
    state = start(rules, ("Ann", "Ben", "Cat"), 0)
    assert not play(rules, state, RoundInput("manual", losses=losses)).result.unusual


def test_rules_for_a_variant_are_checked_like_any_house_rule():
    rules = rules_for("scat", knocker_beaten=1, second_knock=True)
    assert rules.most_lost == 3 and rules.second_knock
