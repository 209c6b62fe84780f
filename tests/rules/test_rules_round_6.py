"""Rules round 6: where the newer switches meet the older ones. A table is asked only what the
rules leave open (docs/rules.md): never what it already said by naming the lowest or the top."""

import pytest

from scorekeeper.rules import RoundError

from .cast import play, seat

BARE = [seat("Ann"), seat("Ben"), seat("Cat")]


# ---- knocker_beaten: what the table named already says whether the knocker was beaten --------


@pytest.mark.parametrize("beaten, lost", [("in_all", 2), (1, 3)])
def test_a_knocker_named_alone_lowest_was_beaten_and_nothing_is_asked(beaten, lost):
    # Scat: a knocker alone at the bottom loses 2; every other hand beat them. In all, that is
    # what a beaten knocker pays; one more makes it 3.
    result = play("scat", BARE, knocker="Ann", lowest=("Ann",), knocker_beaten=beaten)
    assert result.result == "scored" and not result.choices
    assert result.losses == {"Ann": lost}


def test_a_knocker_tied_for_lowest_with_a_hand_above_them_was_beaten():
    result = play("scat", BARE, knocker="Ann", lowest=("Ann", "Cat"), knocker_beaten=1)
    assert result.result == "scored" and not result.choices
    # Scat: the knocker is safe in a tie, Cat loses 1; Ben's hand beat Ann: 1 more for her.
    assert result.losses == {"Ann": 1, "Cat": 1}


def test_in_all_asks_nothing_of_a_knocker_the_showdown_already_cost_a_life():
    # Lowest by the cards is not needed: Ann was named lowest with Cat, and pays 1 in all
    # whatever Ben had (schwimmen: the lowest lose one each, the knocker like the others).
    result = play("schwimmen", BARE, knocker="Ann", lowest=("Ann", "Cat"), knocker_beaten="in_all")
    assert result.result == "scored" and not result.choices
    assert result.losses["Ann"] == 1


def test_a_knocker_named_lowest_with_everyone_was_not_beaten():
    result = play("scat", BARE, knocker="Ann", lowest=("Ann", "Ben", "Cat"), knocker_beaten=1)
    assert result.result == "scored" and not result.choices
    # Scat: the knocker is safe in a tie, and nobody beat her.
    assert result.losses == {"Ben": 1, "Cat": 1}


def test_where_the_table_named_another_lowest_it_is_still_asked():
    asked = play("scat", BARE, knocker="Ann", lowest=("Cat",), knocker_beaten="in_all")
    assert asked.result == "table_decides"
    assert [c.id for c in asked.choices] == ["top", "beaten"]


@pytest.mark.parametrize(
    "winners, losses",
    [
        (("Ben",), {"Ann": 2, "Cat": 1}),  # Ben had the top hand: Ann was beaten, 1 + 1 more
        (("Ann",), {"Ben": 1, "Cat": 1}),  # Ann had it: not beaten
        (("Ann", "Ben"), {"Cat": 1}),  # tied for the top is the top hand
    ],
)
def test_the_top_hand_named_says_whether_the_knocker_was_beaten(winners, losses):
    result = play(
        "scat", BARE, knocker="Ann", winners=winners, showdown_loses="all_but_top", knocker_beaten=1
    )
    assert result.result == "scored" and not result.choices
    assert result.losses == losses


def test_in_all_with_the_top_hand_named_pays_one():
    result = play(
        "scat",
        BARE,
        knocker="Ann",
        winners=("Ben",),
        showdown_loses="all_but_top",
        knocker_beaten="in_all",
    )
    assert result.losses == {"Ann": 1, "Cat": 1}


def test_a_round_the_table_named_is_recorded_in_a_game():
    from scorekeeper.rules.game import RoundInput, advance, start
    from scorekeeper.rules.game import play as play_game

    from .cast import rules_for

    rules = rules_for("scat", knocker_beaten="in_all")
    state = start(rules, ["Ann", "Ben", "Cat"], first_dealer=2)
    after = advance(state, play_game(rules, state, RoundInput("knock", knocker=0, lowest=(0,))))
    assert after.lives == (rules.lives - 2, rules.lives, rules.lives)


# ---- dealt_three_fire: the right player shows, on a value a three of a kind can have ---------


def test_of_two_dealt_three_of_a_kinds_the_first_from_the_dealers_left_shows():
    seats = [seat("Ann", "KS KH KD"), seat("Ben", "QS QH QD"), seat("Cat", "7S 8H 9D")]
    with pytest.raises(RoundError) as wrong:
        play(
            "schwimmen",
            seats,
            "dealt_three",
            shown_by=("Ben",),
            dealer="Cat",
            dealt_three_fire=True,
        )
    assert wrong.value.field == "shown_by"
    assert "Ann was dealt three of a kind too" in str(wrong.value) and "Ann shows" in str(
        wrong.value
    )
    right = play(
        "schwimmen", seats, "dealt_three", shown_by=("Ann",), dealer="Cat", dealt_three_fire=True
    )
    assert right.losses == {"Ben": 1, "Cat": 1}
    # Ben deals: Cat, then Ann, then Ben; Ann still comes first of the two.
    assert play(
        "schwimmen", seats, "dealt_three", shown_by=("Ann",), dealer="Ben", dealt_three_fire=True
    ).losses
    # Ann deals: Ben plays first from her left, and shows.
    assert play(
        "schwimmen", seats, "dealt_three", shown_by=("Ben",), dealer="Ann", dealt_three_fire=True
    ).losses == {"Ann": 1, "Cat": 1}


def test_a_dealt_three_of_a_kind_on_a_value_no_three_of_a_kind_has_is_refused():
    seats = [seat("Ann", value=20), seat("Ben"), seat("Cat")]
    with pytest.raises(RoundError) as wrong:
        play("schwimmen", seats, "dealt_three", shown_by=("Ann",), dealt_three_fire=True)
    assert wrong.value.field == "players[0].cards" and "no three of a kind is worth 20" in str(
        wrong.value
    )
    # Schwimmen's three of a kind is 30½ (three aces 33 where the table says so): accepted.
    half = [seat("Ann", value=30.5), seat("Ben"), seat("Cat")]
    assert play(
        "schwimmen", half, "dealt_three", shown_by=("Ann",), dealt_three_fire=True
    ).losses == {"Ben": 1, "Cat": 1}


# ---- a replayed last hand under round_limit is a replay, and the game is over on it ----------


def test_a_replayed_last_round_is_reported_as_a_replay_with_the_game_over():
    from scorekeeper.rules.game import RoundInput, replay

    from .cast import rules_for

    seats = [seat("Ann", "KH 9H 2C", lives=1), seat("Ben", "KC 9C 3D", lives=1)]
    last = play(
        "friendly",
        seats,
        knocker="Ann",
        dealer="Ben",
        knocker_tied="like_others",
        round_limit=2,
        rounds_played=1,
    )
    assert last.result == "replay" and last.game_over and last.losses == {}
    rules = rules_for("friendly", round_limit=2, knocker_tied="like_others", lives=2)
    both_low = RoundInput("knock", knocker=0, lowest=(0, 1))
    state, steps = replay(rules, ["Ann", "Ben"], 0, [both_low, both_low])
    assert state.game_over and steps[1].result.result == "replay"
    assert steps[1].summary == "Nobody loses: the hand was replayed, and it was the last round"


# ---- readings chosen and said on the card ------------------------------------------------------


def test_hands_tied_at_the_top_keep_their_lives_whatever_the_tie_break_and_the_card_says_so():
    from .cast import rules_for

    # Friendly breaks ties by the highest card; Ann (K 9 8 of hearts) and Ben (K 10 7 of
    # spades) both have 27, and Ben's 10 would rank him first. At the top, both keep their lives.
    seats = [seat("Ann", "KH 9H 8H"), seat("Ben", "KS 10S 7S"), seat("Cat", "2C 3D 4S")]
    result = play("friendly", seats, knocker="Cat", showdown_loses="all_but_top")
    assert result.losses == {"Cat": 1}
    card = {r["name"]: r for r in rules_for("friendly", showdown_loses="all_but_top").describe()}
    assert (
        "the tie break settles ties for lowest, not for the top"
        in card["showdown_loses"]["reading"]
    )
    plain = {r["name"]: r for r in rules_for("scat", showdown_loses="all_but_top").describe()}
    assert "tie break" not in plain["showdown_loses"]["reading"]  # scat has no tie break


def test_a_void_tie_moves_the_deal_on_even_when_everyone_tied_and_the_card_says_so():
    from .cast import rules_for

    seats = [seat("Ann", "KH 9H 2C", lives=0), seat("Ben", "KC 9C 3D", lives=0)]
    result = play(
        "scat", seats, knocker="Ann", dealer="Ben", lowest=("Ann", "Ben"), lowest_tie="void"
    )
    assert result.result == "scored" and result.losses == {}
    assert result.next_dealer == "Ann"  # the deal moves on from Ben, as after any hand
    card = {r["name"]: r for r in rules_for("scat", lowest_tie="void").describe()}
    assert "the deal then moves on" in card["lowest_tie"]["reading"]


# ---- the last chance in Swiss and Bavarian words: only the words change ------------------------


@pytest.mark.parametrize(
    "word, status, now, german",
    [
        ("hosa_aba", "Hosa aba", "Cat is now Hosa aba.", "Cat hat jetzt Hosa aba."),
        ("kuhreiter", "Kuhreiter", "Cat is now the Kuhreiter.", "Cat ist jetzt der Kuhreiter."),
    ],
)
def test_hosa_aba_and_kuhreiter_are_the_last_chance_in_a_tables_own_words(
    word, status, now, german
):
    import gettext
    from pathlib import Path

    from scorekeeper.rules.words import speaking

    from .cast import rules_for

    cat_low = [seat("Ann", "AH KH 9H"), seat("Ben", "AS KS 9S"), seat("Cat", "9C 8C 7D", lives=1)]
    result = play("schwimmen", cat_low, knocker="Ben", last_chance=word)
    plain = play("schwimmen", cat_low, knocker="Ben", last_chance="swimming")
    assert result.losses == plain.losses and now in result.explanation
    rules = rules_for("schwimmen", last_chance=word)
    assert rules.status_label("county") == status
    card = {r["name"]: r for r in rules.describe()}
    assert (
        card["last_chance"]["our_reading"]
        and "only the word changes" in card["last_chance"]["reading"]
    )
    translation = gettext.translation(
        "django", Path(__file__).resolve().parents[2] / "locale", languages=["de"]
    )
    with speaking(translation):
        assert german in play("schwimmen", cat_low, knocker="Ben", last_chance=word).explanation
