"""Properties over every three-card hand of both decks and over random rounds."""

from itertools import combinations

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    PRESETS,
    Outcome,
    RoundError,
    RulesError,
    Seat,
    Table,
    build_rules,
    deck,
    evaluate,
    resolve_round,
)
from scorekeeper.rules.endings import offered

HOUSE_RULES = [
    {},
    {"three_of_a_kind": 30},
    {"three_of_a_kind": 30.5, "three_aces": 32},
    {"aces_wild": True, "three_of_a_kind": 30.5},
    {"three_aces": 33},
]


def _buildable(preset, overrides):
    try:
        return build_rules({"preset": preset, "overrides": overrides})[0]
    except RulesError:  # a value of its own for three aces means nothing when aces are wild
        assert preset == "aces-wild" or "aces_wild" in overrides
        return None


RULE_SETS = [
    rules
    for preset in PRESETS
    for overrides in HOUSE_RULES
    if (rules := _buildable(preset, overrides)) is not None
]
assert len(RULE_SETS) == 27


@pytest.mark.parametrize(
    "rules", RULE_SETS, ids=lambda r: f"{r.deck}-{r.aces_wild}-{r.three_of_a_kind}-{r.three_aces}"
)
def test_no_hand_beats_the_rule_sets_best_and_some_hand_reaches_it(rules):
    values = {evaluate(hand, rules).value for hand in combinations(deck(rules.deck), 3)}
    assert max(values) == rules.best_hand
    # every value is a half point at the finest, and never below the lowest single card
    assert all((2 * value).denominator == 1 and value >= 2 for value in values)


@pytest.mark.parametrize("size, hands", [(52, 22_100), (32, 4_960)])
def test_every_hand_counts_only_cards_it_holds(size, hands):
    rules = PRESETS["scat"].rules if size == 52 else PRESETS["schwimmen"].rules
    seen = 0
    for hand in combinations(deck(size), 3):
        result = evaluate(hand, rules)
        assert set(result.counted) <= set(hand)
        seen += 1
    assert seen == hands


@st.composite
def rounds(draw):
    preset = draw(st.sampled_from(sorted(PRESETS)))
    overrides = draw(
        st.sampled_from(
            [
                {},
                {"knocker_tied": "knocker_2_others_1"},
                {"knocker_tied": "only_knocker"},
                {"lives": 4},
                {"stock_out": "draw"},
            ]
        )
    )
    try:
        rules, _ = build_rules({"preset": preset, "overrides": overrides})
    except RulesError:  # a switch of the other way of playing (lives in a game for a pot)
        assume(False)
    count = draw(st.integers(2, 6))
    cards = draw(st.permutations(deck(rules.deck)))
    seats = []
    for i in range(count):
        lives = draw(st.integers(0, rules.lives))
        if lives:
            status = "in"
        elif rules.last_chance:
            status = draw(st.sampled_from(["county", "out"]))
        else:
            status = "out"
        hand = tuple(cards[3 * i : 3 * i + 3]) if status != "out" else None
        seats.append(Seat(f"P{i}", lives, status, hand))
    playing = [s.name for s in seats if s.status != "out"]
    dealer = draw(st.sampled_from(playing)) if playing else None
    ending = draw(st.sampled_from(offered(rules)))
    knocker = draw(st.sampled_from(playing)) if playing and ending in ("knock", "highest") else None
    if playing and ending == "thirty_one":  # a 31 shown after a knock, or with none
        knocker = draw(st.none() | st.sampled_from(playing))
    shown = ()
    if ending in ("thirty_one", "three_aces", "pot_31"):
        shown = (draw(st.sampled_from(playing)),) if playing else ()
    elif ending == "dealt_thirty_one" and playing:
        shown = tuple(draw(st.lists(st.sampled_from(playing), min_size=1, max_size=2, unique=True)))
    # A player who shows 31 (or fire) holds it: the table agreed the value.
    claim = rules.best_hand if ending == "three_aces" else 31
    seats = [Seat(s.name, s.lives, s.status, None, claim) if s.name in shown else s for s in seats]
    choice = draw(st.sampled_from([None, "replay", "revival", "without_31_lose_1"]))
    table = Table(tuple(seats), dealer=dealer, pot=draw(st.integers(0, 10)))
    return rules, table, Outcome(ending, knocker, shown, None, choice)


@settings(max_examples=400, deadline=None)
@given(rounds())
def test_random_rounds_keep_the_game_sound(game):
    rules, table, outcome = game
    try:
        result = resolve_round(rules, table, outcome)
    except RoundError as refusal:
        assert refusal.field  # refused, naming where
        event(f"refused: {refusal.field}")
        return
    event(result.result)
    assert resolve_round(rules, table, outcome) == result  # the same inputs, the same result
    assert_reads_well(rules, outcome, result)
    before = {seat.name: seat for seat in table.players}
    revived = any("returns" in line for line in result.explanation)
    for player in result.players:
        seat = before[player.name]
        assert player.lives <= seat.lives  # lives never rise
        assert player.lives >= 0
        if seat.status == "out" and not revived:
            assert player.status == "out"
        if player.name in result.losses:
            assert seat.status != "out" and result.losses[player.name] in (1, 2)
    if rules.played_for_pot:
        # No lives in a game played for a pot, and no coin is made or lost: what the players
        # are down, the pot holds.
        assert [(p.lives, p.status) for p in result.players] == [
            (s.lives, s.status) for s in table.players
        ]
        change = sum(p.coins - before[p.name].coins for p in result.players)
        assert change + result.pot - table.pot == 0
        assert set(result.winners) <= {p.name for p in result.players}
        assert result.game_over == (outcome.ending == "stop")
        return
    assert result.pot == table.pot + sum(before[p.name].lives - p.lives for p in result.players)
    still_in = [p.name for p in result.players if p.status != "out"]
    if result.result == "scored":
        if result.winner:
            assert result.game_over and still_in == [result.winner]
            assert not result.tie
        elif result.game_over:
            assert len(result.tie) >= 2
        else:
            assert len(still_in) >= 2 and result.next_dealer in still_in
    else:
        assert result.result in ("replay", "table_decides")
        assert not result.losses and not result.game_over
        assert [(p.lives, p.status) for p in result.players] == [
            (s.lives, s.status) for s in table.players
        ]
        if result.result == "table_decides":
            assert len(result.choices) >= 2


LIST_OF_NAMES = r"P\d(?:, P\d)* and P\d"  # two or more names


def assert_reads_well(rules, outcome, result):
    """Every sentence of an explanation, as a table reads it out loud: a capital letter and a
    full stop, verbs that agree with one or several names, the rule set's own status words."""
    import re

    words = {"county": "on the county", "swimming": "swimming", "brink": "on the brink"}
    own = words.get(rules.last_chance or "")
    text = " ".join(result.explanation)
    for sentence in result.explanation:
        assert sentence[:1].isupper() and sentence.endswith("."), sentence
    assert "last chance" not in text
    for word in words.values():
        if word != own:
            assert word not in text, (word, text)
    assert not re.search(r"\b1 lives\b|\b[02-9] life\b", text), text
    # one name with a plural verb, several with a singular one
    assert not re.search(r"(?<!, )(?<! and )\bP\d (lose|were|have|tie)\b", text), text
    assert not re.search(LIST_OF_NAMES + r" (loses|was|has|ties)\b", text), text
    # "both" for two players, "all" for three or more
    assert not re.search(r"(?<!, )\bP\d and P\d would all\b", text), text
    assert not re.search(r"P\d, P\d(?:, P\d)* and P\d would both\b", text), text
    assert text.count("obody loses") <= 1, text
    if result.game_over:
        assert "dealt again" not in text
    if "Then the cards are dealt again." in result.explanation:
        again = result.explanation.index("Then the cards are dealt again.")
        assert all(again > i for i, line in enumerate(result.explanation) if " loses " in line)
    if outcome.knocker and outcome.ending == "thirty_one" and result.result != "table_decides":
        assert f"{outcome.knocker} knocked" in text
