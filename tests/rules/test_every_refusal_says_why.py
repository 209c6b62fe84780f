"""Every refusal of a way a round ends says why, in the game's own terms, in both languages:
over every preset and every ending the engine knows, and rounds answered wrongly."""

import gettext
from pathlib import Path

import pytest

from scorekeeper.rules import PRESETS, ROUND_ENDINGS
from scorekeeper.rules.endings import offered
from scorekeeper.rules.errors import InputError
from scorekeeper.rules.game import RoundInput, play, start
from scorekeeper.rules.words import speaking

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES" / "django.mo"
LANGUAGES = {
    "en": gettext.NullTranslations(),
    "de": gettext.GNUTranslations(CATALOGUE.open("rb")),
}
NAMES = ("Ann", "Ben", "Cat")
# The ways a round can be told: as the endings ask, and each answer left out or doubled.
ROUNDS = [
    {},
    {"knocker": 0},
    {"knocker": 0, "lowest": (1,)},
    {"shown_by": (1,)},
    {"knocker": 0, "shown_by": (0,)},
    {"winners": (1,)},
    {"losses": {1: 1}},
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("preset", PRESETS)
def test_every_refusal_over_every_ending_says_why(preset, language):
    rules = PRESETS[preset].rules
    state = start(rules, NAMES, 0)
    refused = 0
    with speaking(LANGUAGES[language]):
        for ending in ROUND_ENDINGS:
            for said in ROUNDS:
                try:
                    play(rules, state, RoundInput(ending, **said))
                except InputError as refusal:
                    refused += 1
                    assert refusal.message.strip(), (preset, ending, said)
                    # About the game at hand: a game played for a pot is never told of lives.
                    if rules.played_for_pot and language == "en":
                        assert "live" not in refusal.message, (ending, refusal.message)
                    if ending not in offered(rules) and ending != "manual" and said == {}:
                        assert refusal.part == "ending", (ending, refusal.message)
    assert refused > len(ROUND_ENDINGS)


@pytest.mark.parametrize(
    "preset, overrides, field",
    [
        ("scat", {"ante": 2}, "ante"),
        ("schwimmen", {"widow_swap": "several"}, "widow_swap"),
        ("widow", {"second_knock": True}, "second_knock"),
        ("widow", {"lives": 5}, "lives"),
        ("widow", {"last_chance": "swimming"}, "last_chance"),
    ],
)
def test_a_switch_of_the_other_way_of_playing_is_refused_naming_both(preset, overrides, field):
    from scorekeeper.rules import RulesError, build_rules

    with pytest.raises(RulesError) as refused:
        build_rules({"preset": preset, "overrides": overrides})
    assert refused.value.field == f"rules.overrides.{field}"
    assert "What the game is played for" in refused.value.message
