"""How a hand played for a pot ends (``RuleSet.form == "pot"``): a knock and one more turn for
everyone else, then the highest hand takes the pot; a 31, which knocks at once and wins; or the
table stops playing, which ends the game."""

from __future__ import annotations

from ..pot import highest_of
from ..round import RoundState
from ..words import _, gettext_noop
from .base import Ending, declared, worth_31


@declared
class Highest(Ending):
    id = "highest"
    order = 70
    words = gettext_noop("a knock, one more turn each, and the highest hand wins")
    chip = gettext_noop("Knock")
    knocker = "asked"
    asks_winners = True
    form = "pot"
    not_offered = gettext_noop("a hand is won by the highest only in a game played for a pot")

    def score(self, state: RoundState) -> None:
        knocker = state.outcome.knocker
        if knocker is not None:
            state.story.append(
                _("%(name)s knocked; everyone else had one more turn, then the hands were shown.")
                % {"name": knocker}
            )
        state.winners = highest_of(state)


@declared
class PotThirtyOne(Ending):
    id = "pot_31"
    order = 80
    words = gettext_noop("a 31, which knocks at once and wins")
    chip = "31"
    shows = "one"
    form = "pot"
    shown_question = gettext_noop("who showed 31")
    shown_word = gettext_noop("showed 31")
    say_who_showed = gettext_noop("say who showed 31")
    only_one_shows = gettext_noop("only one player can show 31 to win the pot")
    no_knocker = gettext_noop("a 31 knocks by itself: nobody else knocked")
    knocker_cannot_show = gettext_noop("%(name)s knocked: a 31 knocks by itself, before anyone")
    not_offered = gettext_noop("a 31 wins the pot only in a game played for a pot")
    counts_as_31 = True

    def check_shown(self, state: RoundState, name: str) -> None:
        worth_31(state, name)

    def score(self, state: RoundState) -> None:
        who = state.outcome.shown_by[0]
        state.story.append(_("%(name)s showed 31, which knocks at once and wins.") % {"name": who})
        state.winners = [who]


@declared
class Stop(Ending):
    id = "stop"
    order = 90
    words = gettext_noop("the table stops playing")
    chip = gettext_noop("End the game")
    form = "pot"
    no_knocker = gettext_noop("nobody knocks to end the game: the table stops")
    not_offered = gettext_noop(
        "a game played for lives ends when one player is left, not when the table stops"
    )

    def score(self, state: RoundState) -> None:
        state.story.append(_("The table stops playing: no more hands, and nobody pays in."))
        state.stopped = True
