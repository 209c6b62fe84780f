"""The engine in German: every sentence it says comes out in German, with no English left.

The engine keeps no Django: these tests hand it the German catalogue through Python's own
gettext, and compare every explanation with the English one of the same round.
"""

import gettext
import re
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    PRESETS,
    Outcome,
    RoundError,
    Seat,
    Table,
    deck,
    evaluate,
    resolve_round,
)
from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.game import RoundInput, replay
from scorekeeper.rules.words import speaking

from .test_properties import rounds

LOCALE = Path(__file__).resolve().parents[2] / "locale"
GERMAN = gettext.translation("django", LOCALE, languages=["de"])
ENGLISH = gettext.NullTranslations()

# Words of the engine's English that no German sentence of it has (names are P0, P1…).
ENGLISH_WORDS = re.compile(
    r"\b(the|loses?|lost|knock(?:ed|er)|show(?:ed|s|n)|deals?|dealt|wins?|and|is|are|were|"
    r"lowest|nobody|every(?:one)?|table|round|with|counts?|lives|life|tie[sd]?|out|now|again|"
    r"three|aces|cards?|suits?|joining|does|do|not|so|which|at|once|spades|hearts|diamonds|"
    r"clubs|king|queen|jack|ace|swimming|county|brink|fire)\b",
    re.IGNORECASE,
)


def said(translator, work):
    """What ``work`` says, in the language of ``translator``: its answer, or its refusal."""
    with speaking(translator):
        try:
            return work()
        except RoundError as refusal:
            return refusal


def assert_german(german: str, english: str) -> None:
    assert german != english or not re.search("[a-z]", english), (german, english)
    left = ENGLISH_WORDS.findall(german)
    assert not left, (left, german, english)


@st.composite
def any_rounds(draw):
    """A random round, its hands entered as cards, or (as tables mostly do) with none and the
    lowest players named by the table."""
    rules, table, outcome = draw(rounds())
    if draw(st.booleans()):
        return rules, table, outcome
    seats = tuple(Seat(s.name, s.lives, s.status, None, s.value) for s in table.players)
    playing = [s.name for s in seats if s.status != "out"] or ["P0"]
    lowest = tuple(draw(st.lists(st.sampled_from(playing), min_size=1, max_size=3, unique=True)))
    return (
        rules,
        Table(seats, table.dealer, table.pot),
        Outcome(outcome.ending, outcome.knocker, outcome.shown_by, lowest, outcome.choice),
    )


@settings(max_examples=500, deadline=None)
@given(any_rounds())
def test_every_explanation_of_every_ending_under_every_preset_comes_out_in_german(game):
    rules, table, outcome = game
    english = said(ENGLISH, lambda: resolve_round(rules, table, outcome))
    german = said(GERMAN, lambda: resolve_round(rules, table, outcome))
    if isinstance(english, RoundError):
        assert isinstance(german, RoundError) and german.field == english.field
        assert_german(german.message, english.message)
        return
    assert german.result == english.result and german.losses == english.losses
    assert len(german.explanation) == len(english.explanation)
    for de, en in zip(german.explanation, english.explanation, strict=True):
        assert_german(de, en)
    for de, en in zip(german.players, english.players, strict=True):
        assert_german(de.status_label, en.status_label)
        assert_german(de.reason, en.reason)
    for de, en in zip(german.choices, english.choices, strict=True):
        assert de.id == en.id
        assert_german(de.words, en.words)
    for name, hand in german.hands.items():
        assert_german(hand.explanation, english.hands[name].explanation)


@pytest.mark.parametrize("preset", ["schwimmen", "aces-wild"])
def test_every_hand_is_explained_in_german(preset):
    rules = PRESETS[preset].rules
    for hand in combinations(deck(rules.deck), 3):
        german = said(GERMAN, lambda hand=hand: evaluate(hand, rules).explanation)
        english = said(ENGLISH, lambda hand=hand: evaluate(hand, rules).explanation)
        assert_german(german, english)


def test_a_schwimmen_game_in_german_uses_the_words_german_tables_use():
    rules = PRESETS["schwimmen"].rules
    knock = RoundInput("knock", knocker=0, lowest=(2,))
    with speaking(GERMAN):
        state, steps = replay(rules, ("Ann", "Ben", "Cara"), 0, [knock] * 4)
    assert steps[0].result.explanation == (
        "Ann klopfte.",
        "Niedrigste Hand laut Tisch: Cara.",
        "Cara verliert 1 Leben: die niedrigste Hand.",
        "Als Nächstes gibt Ben.",
    )
    assert "Cara schwimmt jetzt." in steps[2].result.explanation
    assert "Cara ist jetzt raus." in steps[3].result.explanation
    with speaking(GERMAN):
        assert rules.status_label(state.statuses[0]) == "dabei"
        assert rules.status_label("county") == "schwimmt"
        assert PRESETS["aces-wild"].rules.status_label("county") == "auf der Kippe"
        assert steps[3].headline == "Cara −1 · als Nächstes gibt Ben"


def test_cards_typed_in_german_are_read_and_refused_in_their_own_words():
    assert [c.code for c in parse_cards("Herz Dame, Pik Ass, Kreuz 10")] == ["QH", "AS", "10C"]
    assert [c.code for c in parse_cards("Karo B Herz K Pik D")] == ["JD", "KH", "QS"]
    with speaking(GERMAN):
        with pytest.raises(ValueError, match="„Herz Zwölf“ ist keine Karte"):
            parse_cards("Herz Zwölf, Pik Ass")
        with pytest.raises(ValueError, match="„Q5“ ist keine Karte"):
            parse_cards("Q5")


def test_numbers_are_written_the_german_way():
    rules = PRESETS["schwimmen"].rules
    with speaking(GERMAN):
        hand = evaluate(parse_cards("Herz 7, Pik 7, Kreuz 7"), rules)
    assert hand.explanation == "7♥ 7♠ 7♣: drei 7er zählen 30,5 als Drilling"
