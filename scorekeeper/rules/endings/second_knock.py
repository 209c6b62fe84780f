"""A second knock: after a knock another player knocks too, which ends the hand at once (a
house rule, as github.com/oli-69/schwimmen plays it). A tie for lowest goes against the first
knocker, then the second."""

from __future__ import annotations

from ..lowest import all_but_top, knocker_alone_lowest, knocker_beaten, lowest_of, void_tie
from ..round import RoundState
from ..ruleset import RuleSet
from ..words import _, gettext_noop
from ..words import names as _names
from .base import Ending, declared


@declared
class SecondKnock(Ending):
    id = "second_knock"
    order = 20
    words = gettext_noop("two knocks and a showdown")
    chip = gettext_noop("Second knock")
    knocker = "required"
    shows = "one"
    shown_question = gettext_noop("who knocked second")
    shown_word = gettext_noop("knocked second")
    say_who_showed = gettext_noop("say who knocked second")
    only_one_shows = gettext_noop("only one player can knock second")
    knocker_cannot_show = gettext_noop("%(name)s knocked first, so cannot also knock second")
    not_offered = gettext_noop("under these rules a second knock does not end the hand")

    def offered(self, rules: RuleSet) -> bool:
        return rules.second_knock

    def asks_lowest(self, rules: RuleSet) -> bool:
        return True

    def score(self, state: RoundState) -> None:
        first, second = state.outcome.knocker, state.outcome.shown_by[0]
        said = {"first": first, "second": second}
        state.story.append(
            _("%(first)s knocked, then %(second)s knocked too, which ends the hand at once.") % said
        )
        assert first is not None
        self._lowest_lose(state, first, second)
        knocker_beaten(state, first)

    def _lowest_lose(self, state: RoundState, first: str, second: str) -> None:
        if state.rules.showdown_loses == "all_but_top":
            all_but_top(state, ())
            return
        lowest = lowest_of(state, ())
        if void_tie(state, lowest):
            return
        if len(lowest) == 1:
            (name,) = lowest
            if name == first:
                knocker_alone_lowest(state, first)
            else:
                # Our reading: only the first knocker is "the knocker" of the knocker switches;
                # the second knocker alone at the bottom loses 1, like any lowest hand.
                state.lose(name, 1, _("the lowest hand"))
            return
        tied = {"names": _names(lowest)}
        for knocked, why in (
            (first, _("%(names)s tie for lowest, and a tie goes against the first knocker")),
            (second, _("%(names)s tie for lowest, and a tie goes against the second knocker")),
        ):
            if knocked in lowest:
                state.lose(knocked, 1, why % tied)
                return
        for name in lowest:
            state.lose(
                name,
                1,
                _("tied for lowest with %(names)s")
                % {"names": _names([n for n in lowest if n != name])},
            )
