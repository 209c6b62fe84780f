"""A 31 shown in play (perhaps after a knock): every other player loses a life, or the hand
ends with a showdown, as the rules say."""

from __future__ import annotations

from ..lowest import showdown
from ..round import RoundState
from ..ruleset import RuleSet
from ..words import _, gettext_noop
from .base import Ending, declared, worth_31


@declared
class ThirtyOne(Ending):
    id = "thirty_one"
    order = 30
    words = gettext_noop("a 31 shown in play")
    chip = "31"
    knocker = "asked"
    shows = "one"
    shown_question = gettext_noop("who showed 31")
    shown_word = gettext_noop("showed 31")
    say_who_showed = gettext_noop("say who showed 31")
    only_one_shows = gettext_noop("only one player can show 31 to end the round")
    knocker_cannot_show = gettext_noop(
        "%(name)s knocked, and a knocker's hand stays as it is after the knock: "
        "%(name)s cannot also show 31"
    )
    not_offered = gettext_noop(
        "under these rules a 31 in play has no special effect: the round goes on"
    )
    counts_as_31 = True
    shows_top = True

    def offered(self, rules: RuleSet) -> bool:
        return rules.thirty_one != "none"

    def asks_lowest(self, rules: RuleSet) -> bool:
        return (
            rules.thirty_one in ("showdown", "last_turn")
            or rules.thirty_one_after_knock == "top_hand"
        )

    def check_shown(self, state: RoundState, name: str) -> None:
        worth_31(state, name)

    def score(self, state: RoundState) -> None:
        rules, knocker = state.rules, state.outcome.knocker
        who = state.outcome.shown_by[0]
        said = {"knocker": knocker, "name": who}
        if rules.thirty_one == "last_turn":
            if knocker is not None:
                told = _(
                    "%(knocker)s knocked, then %(name)s showed 31; everyone else had one last "
                    "turn, then the hands were shown."
                )
            else:
                told = _(
                    "%(name)s showed 31; everyone else had one last turn, then the hands were "
                    "shown."
                )
            state.story.append(told % said)
            showdown(state, knocker, tops=(who,))
        elif rules.thirty_one == "showdown":
            if knocker is not None:
                told = _(
                    "%(knocker)s knocked, then %(name)s showed 31, which ends the hand at once."
                )
            else:
                told = _("%(name)s showed 31, which ends the hand at once.")
            state.story.append(told % said)
            showdown(state, knocker, tops=(who,))
        elif knocker is not None and rules.thirty_one_after_knock == "top_hand":
            state.story.append(
                _(
                    "%(knocker)s knocked and %(name)s made 31 after the knock: under these rules "
                    "a 31 counts only before a knock, so it is the top hand at the showdown."
                )
                % said
            )
            showdown(state, knocker, tops=(who,))
        else:
            if knocker is not None:
                state.story.append(_("%(knocker)s knocked, then %(name)s showed 31.") % said)
            else:
                state.story.append(_("%(name)s showed 31.") % said)
            self._everyone_else_loses(state, who, knocker)

    def _everyone_else_loses(self, state: RoundState, who: str, knocker: str | None) -> None:
        for name in state.playing:
            if name == who:
                continue
            if name == knocker and state.rules.thirty_one_after_knock == "knocker_loses_2":
                state.lose(
                    name,
                    2,
                    _("%(name)s made 31 after %(knocker)s's knock")
                    % {"name": who, "knocker": name},
                )
            else:
                state.lose(
                    name,
                    1,
                    _("%(name)s showed 31, which costs every other player a life") % {"name": who},
                )
