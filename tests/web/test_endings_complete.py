"""Every way a round can end is one object of the rules engine (``rules.endings``), and what the
table sees of it comes from that object: nothing about an ending can be forgotten silently,
its chip, its questions, its hint and its words in both languages included."""

import re

import pytest
from django.utils import translation

from scorekeeper.rules import ENDINGS, PRESETS, ROUND_ENDINGS
from scorekeeper.rules.endings import offered as offered_by

from ..factory import make_game

pytestmark = pytest.mark.django_db

# Ways of playing under which an ending that some presets lack is offered.
OFFERING = {
    "thirty_one": ("scat", {}),
    "three_aces": ("schwimmen", {}),
    "stock_out": ("scat", {}),
    "second_knock": ("schwimmen", {"second_knock": True}),
    "dealt_three": ("scat", {"dealt_three_fire": True}),
}


def german(words: str) -> str:
    with translation.override("de"):
        return translation.gettext(words)


@pytest.mark.parametrize("ending", ROUND_ENDINGS.values(), ids=lambda e: e.id)
def test_every_ending_has_its_words_in_both_languages(ending):
    said = [ending.words, ending.chip]
    if ending.shows != "none":
        said += [ending.shown_question, ending.shown_word, ending.say_who_showed]
    if ending.shows == "one":
        said.append(ending.only_one_shows)
        if ending.knocker != "refused":  # where nobody knocks, no knocker can also show
            said.append(ending.knocker_cannot_show)
    if ending.knocker == "refused" and not ending.by_hand:
        said.append(ending.no_knocker)
    if ending.id in OFFERING:
        said.append(ending.not_offered)
    for words in said:
        assert words, f"{ending.id} says nothing where it must"
        if re.search("[a-z]", words):
            assert german(words) != words, f"{ending.id}: “{words}” has no German"


@pytest.mark.parametrize("ending", ENDINGS.values(), ids=lambda e: e.id)
def test_an_ending_some_rules_lack_says_why(ending):
    lacking = [p for p in PRESETS.values() if not ending.offered(p.rules)]
    assert bool(lacking) == (ending.id in OFFERING)
    for preset in lacking:
        assert ending.id not in offered_by(preset.rules)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_table_shows_every_ending_the_rules_offer_with_its_questions(client, preset):
    game = make_game(preset=preset)
    page = client.get(game.get_absolute_url()).content.decode()
    offered = offered_by(game.rules)
    chips = re.findall(r'<input type="radio" name="ending" value="(\w+)"([^>]*)>', page)
    assert [value for value, _rest in chips[: len(offered)]] == list(offered)
    for value, rest in chips[: len(offered)]:
        asks = re.search(r'data-asks="([^"]*)"', rest).group(1).split()
        assert asks == list(ENDINGS[value].asks(game.rules))
        assert re.search(r'data-hint="Tap [^"]+|data-hint="Nothing to tap', rest), value
        for question in asks:
            assert f'data-question="{question}"' in page, (value, question)
    labels = re.findall(r'data-order="[^"]*"[^>]*><span>([^<]+)</span>', page)
    assert labels == [translation.gettext(ENDINGS[e].chip) for e in offered]
