"""What every ending is: the questions it may ask, the words it is said in, and the parts of a
check or a score that every ending may need."""

from __future__ import annotations

from typing import ClassVar, Literal

from ..hands import points
from ..round import RoundError, RoundState
from ..ruleset import RuleSet
from ..words import SAY_KNOCKER, SAY_LOWEST, SAY_POT, SAY_TOP, _, gettext_noop, sentence

COUNTED = "manual"

# The questions a table answers about a round: who knocked, who showed (31, three aces, a dealt
# 31), who was lowest (or everyone's cards); in a game played for a pot, who won the hand.
Question = Literal["knocker", "shown_by", "lowest", "winners"]
QUESTIONS: tuple[Question, ...] = ("knocker", "shown_by", "lowest", "winners")


class Ending:
    """A way a round ends (one module of this package each, its class ``@declared``). Subclasses set the words and say what differs.

    ``knocker``: the knocker is ``required`` (a knock), ``asked`` but may be nobody (a 31 after
    a knock), ``allowed`` when given but not asked, or ``refused`` (``no_knocker`` says why).
    ``shows``: nobody shows a hand (``none``), exactly ``one`` player does, or ``several``.
    Words are English message ids, translated where they are read.
    """

    id: ClassVar[str]
    order: ClassVar[int]  # where a table meets it among the others (its chip's place)
    words: ClassVar[str]  # how the round ended: "a knock and a showdown"
    chip: ClassVar[str]  # the tap target's short word: "Knock"
    knocker: ClassVar[Literal["required", "asked", "allowed", "refused"]] = "refused"
    no_knocker: ClassVar[str] = ""
    shows: ClassVar[Literal["none", "one", "several"]] = "none"
    shown_question: ClassVar[str] = ""  # for the hint: "who showed 31"
    shown_word: ClassVar[str] = ""  # on a tile: "showed 31"
    say_who_showed: ClassVar[str] = ""
    only_one_shows: ClassVar[str] = ""
    knocker_cannot_show: ClassVar[str] = ""  # "%(name)s knocked … cannot also show 31"
    # Why these rules have no such ending (each ending that some rules leave out says its own).
    not_offered: ClassVar[str] = gettext_noop("these rules have no such way for a round to end")
    counts_as_31: ClassVar[bool] = False  # a 31 for the club's statistics
    by_hand: ClassVar[bool] = False
    form: ClassVar[str] = "lives"  # the way of playing it ends a round of (``RuleSet.form``)
    asks_winners: ClassVar[bool] = False  # the table says who won the pot (or enters the cards)
    shows_top: ClassVar[bool] = False  # who shows has the top hand (a 31), never lower

    def offered(self, rules: RuleSet) -> bool:
        """Whether a round can end so under these rules."""
        return True

    def asks_lowest(self, rules: RuleSet) -> bool:
        """Whether the table says who was lowest (or enters the cards)."""
        return False

    def asks(self, rules: RuleSet) -> tuple[Question, ...]:
        """The questions a table answers about a round that ended so, in the order of
        ``QUESTIONS``."""
        asked: list[Question] = []
        if self.knocker in ("required", "asked"):
            asked.append("knocker")
        if self.shows != "none":
            asked.append("shown_by")
        if self.asks_lowest(rules) and rules.showdown_loses == "all_but_top":
            # Everyone but the top hand loses: the table names the top hand (a 31 shown is it).
            if not self.shows_top:
                asked.append("winners")
        elif self.asks_lowest(rules):
            asked.append("lowest")
        if self.asks_winners:
            asked.append("winners")
        return tuple(asked)

    def unanswered(self, rules: RuleSet) -> tuple[tuple[Question, str], ...]:
        """What a round that ended so cannot be recorded without, each with the words the
        server refuses it in when it is missing (a showdown's only while no hand is entered):
        the record form's chips carry them, so a phone refuses an incomplete round at the tap
        in these words before its engine has come."""
        said = {
            "knocker": SAY_KNOCKER if self.knocker == "required" else "",
            "shown_by": self.say_who_showed,
            "lowest": SAY_LOWEST,
            "winners": SAY_POT if rules.played_for_pot else SAY_TOP,
        }
        return tuple(
            (question, sentence(_(said[question])))
            for question in self.asks(rules)
            if said[question]
        )

    def tap_order(self, rules: RuleSet) -> tuple[Question, ...]:
        """The order in which taps on the players answer the questions: what must be answered
        first, and who knocked last where a knock is optional (a 31 after a knock)."""
        asked = self.asks(rules)
        if self.knocker != "asked":
            return asked
        return (*(q for q in asked if q != "knocker"), "knocker")

    def check_shown(self, state: RoundState, name: str) -> None:
        """A hand shown to end the round must be worth what it claims, when it was entered."""

    def check(self, state: RoundState) -> None:
        """What only this ending checks, in place of the checks every other ending shares
        (``by_hand``)."""

    def then(self, rules: RuleSet) -> list[str]:
        """What happens next when the game goes on, beyond the deal: "Then the cards are
        dealt again." """
        return []

    def score(self, state: RoundState) -> None:
        """Who loses how many lives, and why (``state.lose``), with what was said."""
        raise NotImplementedError


def worth_31(state: RoundState, name: str, at_least: bool = False) -> None:
    """``name`` showed 31 (``at_least``: 31 or more): so their hand is, when it was entered."""
    if name not in state.values:
        return
    value = state.values[name]
    if value == 31 or (at_least and value >= 31):
        return
    worth = _("31 or more") if at_least else "31"
    raise RoundError(
        _("%(name)s's hand is worth %(value)s, not %(worth)s")
        % {"name": name, "value": points(value), "worth": worth},
        "shown_by",
    )


# Every way a round ends, as its module declares it (``@declared``); the package's
# ``__init__`` imports each module and orders them.
DECLARED: list[Ending] = []


def declared[E: type[Ending]](ending: E) -> E:
    """Declares a way a round ends: the engine, the forms and the API know it from here."""
    DECLARED.append(ending())
    return ending
