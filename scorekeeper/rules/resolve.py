"""How a round of 31 ends: who loses how many lives and why, and what the table looks like after.

``resolve_round(rules, table, outcome)`` takes values and returns a value. It never guesses: where
the rules leave the outcome open it returns ``result == "table_decides"`` with the choices, and the
table's pick comes back as ``outcome.choice``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction

from .cards import Card, CardError, check_hand
from .errors import InputError
from .hands import Hand, evaluate, points, possible_values
from .ruleset import RuleSet
from .words import _, gettext_noop, ngettext
from .words import lives as lives_word
from .words import names as _names

# The words are translated where they are read: ``_(ENDINGS[ending])``.
ENDINGS = {
    "knock": gettext_noop("a knock and a showdown"),
    "thirty_one": gettext_noop("a 31 shown in play"),
    "dealt_thirty_one": gettext_noop("a 31 dealt"),
    "three_aces": gettext_noop("three aces (fire)"),
    "stock_out": gettext_noop("the stock running out"),
}
# A game's round may also be counted by hand, as on a paper sheet: not a way a hand of 31 ends,
# so the referee never offers it; the rules apply what the table counted (last chance, out, the
# pot, the deal, the winner).
COUNTED = "manual"
ROUND_ENDINGS = {**ENDINGS, COUNTED: gettext_noop("counted by hand")}
# The endings where exactly one player shows a hand (several may be dealt 31).
SHOWN_BY_ONE = ("thirty_one", "three_aces")


class Status(StrEnum):
    """Where a player stands. ``COUNTY`` is the last chance under every rule set; each rule
    set has its own word for it (``RuleSet.status_label``)."""

    IN = "in"
    COUNTY = "county"
    OUT = "out"


class Result(StrEnum):
    SCORED = "scored"  # lives were lost (or nobody lost one) and play goes on or ends
    REPLAY = "replay"  # nobody loses and the hand is dealt again
    TABLE_DECIDES = "table_decides"  # the rules leave it open: the table must choose


STATUSES = tuple(Status)


class RoundError(InputError):
    """A round that cannot have happened under these rules; ``field`` says where."""


@dataclass(frozen=True)
class Seat:
    """A player at the table before the round, with what they hold if the table entered it."""

    name: str
    lives: int
    status: str = Status.IN
    cards: tuple[Card, ...] | None = None
    value: Fraction | None = None

    @property
    def playing(self) -> bool:
        return self.status != Status.OUT


@dataclass(frozen=True)
class Table:
    players: tuple[Seat, ...]  # in seat order, clockwise
    dealer: str | None = None
    pot: int = 0
    rounds_played: int = 0


@dataclass(frozen=True)
class Outcome:
    ending: str
    knocker: str | None = None
    shown_by: tuple[str, ...] = ()
    lowest: tuple[str, ...] | None = None  # named by the table instead of entering hands
    choice: str | None = None
    losses: Mapping[str, int] | None = None  # a round counted by hand: who lost how many


@dataclass(frozen=True)
class Choice:
    id: str
    words: str


@dataclass(frozen=True)
class PlayerAfter:
    name: str
    lives: int
    status: str
    status_label: str
    lost: int = 0
    reason: str = ""


@dataclass(frozen=True)
class RoundResult:
    result: Result
    hands: dict[str, Hand]
    losses: dict[str, int]
    players: tuple[PlayerAfter, ...]
    pot: int
    explanation: tuple[str, ...]
    choices: tuple[Choice, ...] = ()
    game_over: bool = False
    winner: str | None = None
    tie: tuple[str, ...] = ()
    next_dealer: str | None = None
    # Whether the rules left something to the table in this round (and so read ``choice``);
    # ``choices`` then lists what it could choose, picked or not.
    choice_asked: bool = False


@dataclass
class _Round:
    """The working state of one resolution: checked inputs, losses and their reasons."""

    rules: RuleSet
    table: Table
    outcome: Outcome
    hands: dict[str, Hand] = field(default_factory=dict)
    values: dict[str, Fraction] = field(default_factory=dict)
    losses: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    story: list[str] = field(default_factory=list)
    asked: tuple[Choice, ...] = ()  # what the rules left to the table, if anything

    @property
    def seats(self) -> dict[str, Seat]:
        return {seat.name: seat for seat in self.table.players}

    @property
    def playing(self) -> list[str]:
        return [seat.name for seat in self.table.players if seat.playing]

    def lose(self, name: str, lives: int, reason: str) -> None:
        self.losses[name] = lives
        self.reasons[name] = _("%(name)s loses %(lives)s: %(reason)s") % {
            "name": name,
            "lives": lives_word(lives),
            "reason": reason,
        }


def resolve_round(rules: RuleSet, table: Table, outcome: Outcome) -> RoundResult:
    """Resolve one round of 31 under ``rules``; raises ``RoundError`` for an impossible round."""
    state = _Round(rules, table, outcome)
    _check_table(state)
    _check_hands(state)
    _check_outcome(state)
    result = _score(state) or _finish(state)
    if not state.asked:
        return result
    # The choices stay on the result once picked, so that a page can show the table's pick.
    return replace(result, choice_asked=True, choices=state.asked)


# ---- checking the inputs --------------------------------------------------------------------


def _check_table(state: _Round) -> None:
    rules, table = state.rules, state.table
    names = [seat.name for seat in table.players]
    if not 2 <= len(names) <= rules.max_players:
        raise RoundError(
            _("a game of 31 with %(deck)d cards has 2 to %(most)d players, not %(count)d")
            % {"deck": rules.deck, "most": rules.max_players, "count": len(names)},
            "players",
        )
    folded = [name.strip().casefold() for name in names]
    for i, seat in enumerate(table.players):
        if not seat.name.strip():
            raise RoundError(_("every player needs a name"), "name", seat=i)
        if folded[i] in folded[:i]:
            raise RoundError(
                _("two players are called %(name)s") % {"name": seat.name.strip()}, "name", seat=i
            )
        if seat.status not in STATUSES:
            raise RoundError(_("a status is “in”, “county” or “out”"), "status", seat=i)
        if not 0 <= seat.lives <= rules.lives:
            raise RoundError(
                _(
                    "%(name)s cannot have %(lives)s: the game starts with %(start)s and lives "
                    "are never won back"
                )
                % {
                    "name": seat.name,
                    "lives": lives_word(seat.lives),
                    "start": lives_word(rules.lives),
                },
                "lives",
                seat=i,
            )
        if seat.status == Status.IN and seat.lives == 0:
            raise RoundError(
                _("%(name)s has no lives left, so cannot be in") % {"name": seat.name},
                "status",
                seat=i,
            )
        if seat.status != Status.IN and seat.lives:
            raise RoundError(
                _("%(name)s still has %(lives)s, so cannot be “%(status)s”")
                % {
                    "name": seat.name,
                    "lives": lives_word(seat.lives),
                    "status": rules.status_label(seat.status),
                },
                "status",
                seat=i,
            )
        if seat.status == Status.COUNTY and rules.last_chance is None:
            raise RoundError(
                _("under these rules a player with no lives left is out, never on a last chance"),
                "status",
                seat=i,
            )
    if len(state.playing) < 2:
        raise RoundError(_("the game is over: fewer than two players are still in"), "players")
    if table.dealer is not None and table.dealer not in state.playing:
        raise RoundError(
            _("the dealer must be a player still in, not %(name)s") % {"name": table.dealer},
            "dealer",
        )


def _check_hands(state: _Round) -> None:
    rules = state.rules
    seen: dict[Card, str] = {}
    for i, seat in enumerate(state.table.players):
        if seat.cards is not None and seat.value is not None:
            raise RoundError(
                _("give %(name)s's cards or a value, not both") % {"name": seat.name},
                "value",
                seat=i,
            )
        if not seat.playing and (seat.cards is not None or seat.value is not None):
            raise RoundError(
                _("%(name)s is out and holds no cards") % {"name": seat.name}, "cards", seat=i
            )
        if seat.cards is not None:
            try:
                check_hand(list(seat.cards), rules.deck)
            except CardError as error:
                raise RoundError(f"{seat.name}: {error}", "cards", seat=i) from None
            for card in seat.cards:
                if card in seen:
                    raise RoundError(
                        _("%(card)s is in %(first)s's hand and in %(second)s's: a deck has one")
                        % {"card": card, "first": seen[card], "second": seat.name},
                        "cards",
                        seat=i,
                    )
                seen[card] = seat.name
            hand = evaluate(seat.cards, rules)
            state.hands[seat.name] = hand
            state.values[seat.name] = hand.value
        elif seat.value is not None:
            if seat.value not in possible_values(rules):
                raise RoundError(
                    _("no hand is worth %(value)s under these rules")
                    % {"value": points(Fraction(seat.value))},
                    "value",
                    seat=i,
                )
            state.values[seat.name] = Fraction(seat.value)


def _check_outcome(state: _Round) -> None:
    rules, outcome, playing = state.rules, state.outcome, state.playing
    if outcome.ending == COUNTED:
        _check_counted(state)
        return
    if outcome.ending not in ENDINGS:
        raise RoundError(
            _("a round ends with %(endings)s; not “%(ending)s”")
            % {"endings": ", ".join(ENDINGS), "ending": outcome.ending},
            "ending",
        )
    if outcome.losses is not None:
        raise RoundError(_("lives are counted by hand only in a round counted by hand"), "losses")
    if outcome.ending not in rules.endings:
        raise RoundError(_no_such_ending(rules, outcome.ending), "ending")
    knocker = outcome.knocker
    if knocker is not None and knocker not in playing:
        raise RoundError(
            _not_playing(state, knocker, _("%(name)s is out, so cannot knock")), "knocker"
        )
    if outcome.ending == "knock" and knocker is None:
        raise RoundError(_("say who knocked"), "knocker")
    if outcome.ending in ("dealt_thirty_one", "stock_out") and knocker is not None:
        why = (
            _("nobody knocked: a dealt 31 is shown before anyone plays")
            if outcome.ending != "stock_out"
            else _("nobody knocked: the stock ran out before anyone knocked")
        )
        raise RoundError(why, "knocker")
    minimum = rules.min_knock
    if knocker in state.values and minimum is not None and state.values[knocker] < minimum:
        raise RoundError(
            _(
                "%(name)s cannot have knocked with %(value)s: these rules need at least %(min)d to knock"
            )
            % {"name": knocker, "value": points(state.values[knocker]), "min": rules.min_knock},
            "knocker",
        )
    shown = list(outcome.shown_by)
    for name in shown:
        if name not in playing:
            raise RoundError(
                _not_playing(state, name, _("%(name)s is out, so cannot show a hand")), "shown_by"
            )
    if len(set(shown)) != len(shown):
        raise RoundError(_("a player is named twice"), "shown_by")
    if outcome.ending in (*SHOWN_BY_ONE, "dealt_thirty_one"):
        if not shown:
            raise RoundError(
                _("say who showed three aces")
                if outcome.ending == "three_aces"
                else _("say who showed 31"),
                "shown_by",
            )
        if outcome.ending in SHOWN_BY_ONE and len(shown) > 1:
            raise RoundError(
                _("only one player can show three aces to end the round")
                if outcome.ending == "three_aces"
                else _("only one player can show 31 to end the round"),
                "shown_by",
            )
    elif shown:
        raise RoundError(
            _("nobody shows a hand to end %(ending)s") % {"ending": _(ENDINGS[outcome.ending])},
            "shown_by",
        )
    if knocker is not None and knocker in shown:
        raise RoundError(
            (
                _(
                    "%(name)s knocked, and a knocker's hand stays as it is after the knock: "
                    "%(name)s cannot also show three aces"
                )
                if outcome.ending == "three_aces"
                else _(
                    "%(name)s knocked, and a knocker's hand stays as it is after the knock: "
                    "%(name)s cannot also show 31"
                )
            )
            % {"name": knocker},
            "shown_by",
        )
    for name in shown:
        _check_shown(state, name)
    if outcome.lowest is not None:
        if not outcome.lowest:
            raise RoundError(_("name at least one lowest player"), "lowest")
        for name in outcome.lowest:
            if name not in playing:
                raise RoundError(
                    _not_playing(state, name, _("%(name)s is out, so cannot be lowest")), "lowest"
                )
        if len(set(outcome.lowest)) != len(outcome.lowest):
            raise RoundError(_("a player is named twice"), "lowest")


def _check_counted(state: _Round) -> None:
    """A round counted by hand names who lost how many lives, and nothing else."""
    rules, outcome = state.rules, state.outcome
    if outcome.knocker is not None or outcome.shown_by or outcome.lowest is not None:
        raise RoundError(
            _(
                "a round counted by hand names only who lost lives, not who knocked, showed or "
                "was lowest"
            ),
            "losses",
        )
    if state.hands or state.values:
        raise RoundError(_("a round counted by hand has no cards to count"), "losses")
    if not outcome.losses:
        raise RoundError(_("tap a player to take a life"), "losses")
    seats = {seat.name: i for i, seat in enumerate(state.table.players)}
    for name, lives in outcome.losses.items():
        if name not in seats:
            raise RoundError(_("%(name)s is not playing in this game") % {"name": name}, "losses")
        seat = seats[name]
        if name not in state.playing:
            raise RoundError(
                _("%(name)s is out, so cannot lose a life") % {"name": name}, "losses", seat=seat
            )
        if not 1 <= lives <= rules.most_lost:
            raise RoundError(
                _(
                    "%(name)s cannot lose %(lives)s in one round: under these rules a round "
                    "costs a player at most %(most)s"
                )
                % {"name": name, "lives": lives_word(lives), "most": lives_word(rules.most_lost)},
                "losses",
                seat=seat,
            )


def _check_shown(state: _Round, name: str) -> None:
    """A shown 31 (or fire) must be worth what it claims, when the table entered it."""
    rules, ending = state.rules, state.outcome.ending
    if name not in state.values:
        return
    value = state.values[name]
    if ending == "three_aces":
        hand = state.hands.get(name)
        aces = hand is not None and all(card.rank == "A" for card in hand.cards)
        if not aces and not (hand is None and value == rules.best_hand):
            raise RoundError(_("%(name)s does not hold three aces") % {"name": name}, "shown_by")
        return
    at_least = ending == "dealt_thirty_one" and rules.thirty_one_dealt == "others_lose_1_redeal"
    if value == 31 or (at_least and value >= 31):
        return
    worth = _("31 or more") if at_least else "31"
    raise RoundError(
        _("%(name)s's hand is worth %(value)s, not %(worth)s")
        % {"name": name, "value": points(value), "worth": worth},
        "shown_by",
    )


def _dealt(state: _Round) -> str:
    """What the players who showed a dealt 31 were dealt, in words: 31, 32, or 31 or more."""
    shown = state.outcome.shown_by
    values = {state.values[name] for name in shown if name in state.values}
    if len(values) == 1 and len(shown) == sum(name in state.values for name in shown):
        return points(values.pop())
    if state.rules.thirty_one_dealt == "others_lose_1_redeal":
        return _("31 or more")
    return "31"


def _not_playing(state: _Round, name: str, out: str) -> str:
    """Why ``name`` cannot do something: not at this table, or (``out``) out of the game."""
    seat = state.seats.get(name)
    if seat is None:
        return _("%(name)s is not playing in this game") % {"name": name}
    return out % {"name": name}


def _no_such_ending(rules: RuleSet, ending: str) -> str:
    if ending == "thirty_one":
        return _("under these rules a 31 in play has no special effect: the round goes on")
    if ending == "three_aces":
        return _("under these rules three aces do not end the round")
    return _("under these rules the discard pile becomes a new stock: the round goes on")


# ---- who loses ------------------------------------------------------------------------------


def _score(state: _Round) -> RoundResult | None:
    """Fill in the losses; return early with a decision for the table where the rules are open."""
    rules, outcome = state.rules, state.outcome
    ending, knocker, shown = outcome.ending, outcome.knocker, list(outcome.shown_by)
    if ending == COUNTED:
        assert outcome.losses is not None  # checked
        state.story.append(_("The table counted this round by hand."))
        for name in state.playing:
            if outcome.losses.get(name):
                state.lose(name, outcome.losses[name], _("counted by hand"))
    elif ending == "knock":
        state.story.append(_("%(name)s knocked.") % {"name": knocker})
        _showdown(state, knocker)
    elif ending == "thirty_one":
        who = shown[0]
        if rules.thirty_one == "showdown":
            if knocker is not None:
                said = _(
                    "%(knocker)s knocked, then %(name)s showed 31, which ends the hand at once."
                )
            else:
                said = _("%(name)s showed 31, which ends the hand at once.")
            state.story.append(said % {"knocker": knocker, "name": who})
            _showdown(state, knocker, tops=(who,))
        elif knocker is not None and rules.thirty_one_after_knock == "top_hand":
            state.story.append(
                _(
                    "%(knocker)s knocked and %(name)s made 31 after the knock: under these rules "
                    "a 31 counts only before a knock, so it is the top hand at the showdown."
                )
                % {"knocker": knocker, "name": who}
            )
            _showdown(state, knocker, tops=(who,))
        else:
            if knocker is not None:
                state.story.append(
                    _("%(knocker)s knocked, then %(name)s showed 31.")
                    % {"knocker": knocker, "name": who}
                )
            else:
                state.story.append(_("%(name)s showed 31.") % {"name": who})
            for name in state.playing:
                if name == who:
                    continue
                if name == knocker and rules.thirty_one_after_knock == "knocker_loses_2":
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
                        _("%(name)s showed 31, which costs every other player a life")
                        % {"name": who},
                    )
    elif ending == "dealt_thirty_one":
        dealt = {"names": _names(shown), "value": _dealt(state)}
        state.story.append(
            ngettext(
                "%(names)s was dealt %(value)s.", "%(names)s were dealt %(value)s.", len(shown)
            )
            % dealt
        )
        if rules.thirty_one_dealt == "showdown":
            state.story.append(_("A dealt 31 ends the round at once and the lowest hand loses."))
            _showdown(state, None, tops=tuple(shown))
        else:
            if len(shown) > 1 and rules.several_dealt_31 == "table_decides":
                choices = (
                    Choice("without_31_lose_1", _("Every player without 31 loses 1 life")),
                    Choice("replay", _("Nobody loses and the cards are dealt again")),
                )
                picked = _pick(
                    state,
                    choices,
                    _("these rules do not say what happens when several players are dealt 31"),
                )
                if isinstance(picked, RoundResult):
                    return picked
                if picked == "replay":
                    return _replay(state)  # "The table chose: nobody loses …" says it all
            for name in state.playing:
                if name not in shown:
                    state.lose(
                        name,
                        1,
                        ngettext(
                            "%(names)s was dealt %(value)s, which costs every other player a life",
                            "%(names)s were dealt %(value)s, which costs every other player a life",
                            len(shown),
                        )
                        % dealt,
                    )
    elif ending == "three_aces":
        who = shown[0]
        state.story.append(_("%(name)s showed three aces (fire).") % {"name": who})
        for name in state.playing:
            if name != who:
                state.lose(
                    name,
                    1,
                    _("%(name)s showed three aces, which cost every other player a life")
                    % {"name": who},
                )
    elif ending == "stock_out":
        if rules.stock_out == "draw":
            state.story.append(_("The stock ran out: under these rules the hand is a draw."))
        else:
            state.story.append(_("The stock ran out and the hands were shown."))
            _showdown(state, None)
    return None


def _lowest(state: _Round, tops: tuple[str, ...]) -> list[str]:
    """The players at the bottom: named by the table, or found from the hands entered.
    ``tops`` showed the top hand (a 31, or several players' dealt 31s), each as shown."""
    named = state.outcome.lowest
    missing = [
        seat for seat in state.table.players if seat.playing and seat.name not in state.values
    ]
    if named is not None:
        shown = [name for name in named if name in tops]
        if shown:
            raise RoundError(
                _("%(name)s showed the top hand, so cannot be lowest") % {"name": shown[0]},
                "lowest",
            )
        if missing:
            state.story.append(_("The table named %(names)s lowest.") % {"names": _names(named)})
            return list(named)
        # Every hand is known: the cards decide, and a table that named others is told so.
        found = _lowest_by_cards(state, tops, [])
        if set(found) != set(named):
            raise RoundError(
                _(
                    "the cards entered make %(found)s lowest, not %(named)s: correct the cards "
                    "or the lowest players"
                )
                % {"found": _names(found), "named": _names(named)},
                "lowest",
            )
    if missing:
        i = state.table.players.index(missing[0])
        raise RoundError(
            _("enter %(name)s's cards or value, or name the lowest players")
            % {"name": missing[0].name},
            "cards",
            seat=i,
        )
    return _lowest_by_cards(state, tops, state.story)


def _lowest_by_cards(state: _Round, tops: tuple[str, ...], story: list[str]) -> list[str]:
    """The lowest players by the hands entered, telling ``story`` how the cards were read."""
    values = {name: state.values[name] for name in state.playing}
    if state.rules.unshown_31 == "counts_30":
        for name, value in values.items():
            if value == 31 and name not in tops:
                values[name] = Fraction(30)
                story.append(
                    _("%(name)s's 31 was not shown at once, so it counts as 30.") % {"name": name}
                )
    low = min(values.values())
    lowest = [name for name in state.playing if values[name] == low]
    if len(lowest) > 1 and state.rules.tie_break == "highest_card":
        if all(name in state.hands for name in lowest):
            keys = {name: state.hands[name].tie_key for name in lowest}
            bottom = min(keys.values())
            broken = [name for name in lowest if keys[name] == bottom]
            if len(broken) < len(lowest):
                story.append(
                    _(
                        "%(names)s have %(value)s each; the highest counted card breaks the tie, "
                        "leaving %(lowest)s lowest."
                    )
                    % {"names": _names(lowest), "value": points(low), "lowest": _names(broken)}
                )
                return broken
        else:
            story.append(
                _(
                    "%(names)s have %(value)s each; without their cards the tie cannot be "
                    "broken by the highest card."
                )
                % {"names": _names(lowest), "value": points(low)}
            )
    if len(lowest) == 1:
        story.append(
            _("%(name)s has the lowest hand, %(value)s.")
            % {"name": lowest[0], "value": points(low)}
        )
    else:
        story.append(
            _("%(names)s tie for lowest with %(value)s.")
            % {"names": _names(lowest), "value": points(low)}
        )
    return lowest


def _showdown(state: _Round, knocker: str | None, tops: tuple[str, ...] = ()) -> None:
    rules = state.rules
    if tops and set(state.playing) <= set(tops):
        # Our reading: every player still in showed the top hand, so no hand is lower.
        state.story.append(_("Everyone still in showed 31, so no hand is lower."))
        return
    lowest = _lowest(state, tops)
    if knocker is None or knocker not in lowest:
        for name in lowest:
            if len(lowest) == 1:
                why = _("the lowest hand")
            else:
                why = _("tied for lowest with %(names)s") % {
                    "names": _names([n for n in lowest if n != name])
                }
            state.lose(name, 1, why)
        return
    others = [name for name in lowest if name != knocker]
    if not others:
        lives = rules.knocker_alone
        state.lose(knocker, lives, _("knocked and alone has the lowest hand"))
        return
    tied = _("tied for lowest with %(knocker)s, the knocker") % {"knocker": knocker}
    if rules.knocker_tied == "safe":
        state.story.append(
            _("The knocker is safe in a tie, so %(knocker)s loses nothing.") % {"knocker": knocker}
        )
        for name in others:
            state.lose(
                name,
                1,
                _("tied for lowest with %(knocker)s, the knocker, who is safe in a tie")
                % {"knocker": knocker},
            )
    elif rules.knocker_tied == "like_others":
        for name in others:
            state.lose(name, 1, tied)
        state.lose(
            knocker,
            1,
            _("knocked and tied for lowest with %(names)s; the knocker loses like the others")
            % {"names": _names(others)},
        )
    elif rules.knocker_tied == "knocker_2_others_1":
        for name in others:
            state.lose(name, 1, tied)
        state.lose(
            knocker,
            2,
            _("knocked and tied for lowest with %(names)s; a knocker in a tie loses 2")
            % {"names": _names(others)},
        )
    else:  # only_knocker
        state.story.append(
            ngettext(
                "Only the knocker loses in a tie, so %(names)s loses nothing.",
                "Only the knocker loses in a tie, so %(names)s lose nothing.",
                len(others),
            )
            % {"names": _names(others)}
        )
        state.lose(
            knocker,
            rules.knocker_alone,
            _("knocked and tied for lowest with %(names)s; only the knocker loses in a tie")
            % {"names": _names(others)},
        )


def _pick(state: _Round, choices: tuple[Choice, ...], why: str) -> str | RoundResult:
    """The table's pick among ``choices``, or a ``table_decides`` result asking for it."""
    state.asked = choices
    picked = state.outcome.choice
    if picked is None:
        return RoundResult(
            result=Result.TABLE_DECIDES,
            hands=state.hands,
            losses={},
            players=_unchanged(state),
            pot=state.table.pot,
            explanation=(*state.story, _("The table decides: %(why)s.") % {"why": why}),
            choices=choices,
        )
    if picked not in {choice.id for choice in choices}:
        raise RoundError(
            _("choose one of %(ids)s") % {"ids": ", ".join(choice.id for choice in choices)},
            "choice",
        )
    words = next(c.words for c in choices if c.id == picked)
    state.story.append(_("The table chose: %(choice)s.") % {"choice": words})
    return picked


# ---- what follows ---------------------------------------------------------------------------


def _unchanged(state: _Round) -> tuple[PlayerAfter, ...]:
    return tuple(
        PlayerAfter(seat.name, seat.lives, seat.status, state.rules.status_label(seat.status))
        for seat in state.table.players
    )


def _replay(state: _Round, sentence: str | None = None) -> RoundResult:
    said = (sentence,) if sentence else ()
    return RoundResult(
        result=Result.REPLAY,
        hands=state.hands,
        losses={},
        players=_unchanged(state),
        pot=state.table.pot,
        explanation=(*state.story, *said, _deals(state.table.dealer, again=True)),
        next_dealer=state.table.dealer,
    )


def _deals(name: str | None, again: bool = False) -> str:
    if name is None:
        return _("Whoever dealt deals again.") if again else ""
    if again:
        return _("%(name)s deals again.") % {"name": name}
    return _("%(name)s deals next.") % {"name": name}


def _after(state: _Round, seat: Seat) -> tuple[int, str]:
    lost = state.losses.get(seat.name, 0)
    if not lost or not seat.playing:
        return seat.lives, seat.status
    if seat.status == Status.COUNTY:
        return 0, Status.OUT
    lives = seat.lives - lost
    if lives > 0:
        return lives, Status.IN
    if lives == 0 and state.rules.last_chance is not None:
        return 0, Status.COUNTY
    return 0, Status.OUT


def _finish(state: _Round) -> RoundResult:
    rules, table = state.rules, state.table
    after = {seat.name: _after(state, seat) for seat in table.players}
    still_in = [name for name in state.playing if after[name][1] != Status.OUT]
    revived = False
    if state.losses and not still_in:
        everyone = {"names": _names(state.playing)}
        both = len(state.playing) == 2
        if rules.all_out == "replay":
            return _replay(
                state,
                (
                    _(
                        "%(names)s would both go out at once, so nobody loses and the hand is replayed."
                    )
                    if both
                    else _(
                        "%(names)s would all go out at once, so nobody loses and the hand is "
                        "replayed."
                    )
                )
                % everyone,
            )
        if rules.all_out == "revival":
            picked: str | RoundResult = "revival"
            returns = {"status": rules.returning_words()}
            final_two = len(state.playing) == 2 and all(
                state.seats[name].status == Status.COUNTY for name in state.playing
            )
            if not final_two:
                picked = _pick(
                    state,
                    (
                        Choice(
                            "revival",
                            _("Everyone goes out, and every eliminated player returns %(status)s")
                            % returns,
                        ),
                        Choice("replay", _("Nobody loses and the hand is replayed")),
                    ),
                    _(
                        "the revival is written for the final two; here more players would go "
                        "out together"
                    ),
                )
                if isinstance(picked, RoundResult):
                    return picked
            if picked == "replay":
                return _replay(state)
            revived = True
            state.story.append(
                (
                    _(
                        "%(names)s would both go out at once, so every eliminated player returns "
                        "%(status)s and play goes on."
                    )
                    if both
                    else _(
                        "%(names)s would all go out at once, so every eliminated player returns "
                        "%(status)s and play goes on."
                    )
                )
                % {**everyone, **returns}
            )
            after = {seat.name: (0, Status.COUNTY) for seat in table.players}
            still_in = [seat.name for seat in table.players]
    players = []
    paid = 0
    for seat in table.players:
        lives, status = after[seat.name]
        lost = state.losses.get(seat.name, 0)
        paid += seat.lives - lives
        players.append(
            PlayerAfter(
                seat.name,
                lives,
                status,
                rules.status_label(status),
                lost,
                state.reasons.get(seat.name, ""),
            )
        )
    story = list(state.story)
    story.extend(state.reasons[name] + "." for name in state.playing if name in state.reasons)
    if not state.losses:
        story.append(_("Nobody loses a life."))
    for player, seat in zip(players, table.players, strict=True):
        if player.status != seat.status and not revived:
            story.append(rules.now_sentence(player.status) % {"name": player.name})
    winner: str | None = None
    tie: tuple[str, ...] = ()
    over = False
    if len(still_in) == 1:
        winner, over = still_in[0], True
    elif not still_in:
        tie, over = tuple(state.playing), True
    elif rules.round_limit is not None and table.rounds_played + 1 >= rules.round_limit:
        over = True
        most = max(after[name][0] for name in still_in)
        leaders = [name for name in still_in if after[name][0] == most]
        if len(leaders) == 1:
            winner = leaders[0]
        else:
            tie = tuple(leaders)
        story.append(
            _("That was round %(n)d of %(n)d: the most lives wins.") % {"n": rules.round_limit}
        )
    if (
        not over
        and state.outcome.ending == "dealt_thirty_one"
        and (rules.thirty_one_dealt == "others_lose_1_redeal")
    ):
        story.append(_("Then the cards are dealt again."))
    if winner:
        story.append(_("%(name)s wins the game.") % {"name": winner})
    if tie:
        story.append(_("The game is a tie between %(names)s.") % {"names": _names(tie)})
    next_dealer = None if over else _next_dealer(state, after)
    if next_dealer:
        story.append(_deals(next_dealer))
    return RoundResult(
        result=Result.SCORED,
        hands=state.hands,
        losses=dict(state.losses),
        players=tuple(players),
        pot=table.pot + paid,
        explanation=tuple(story),
        game_over=over,
        winner=winner,
        tie=tie,
        next_dealer=next_dealer,
    )


def _next_dealer(state: _Round, after: dict[str, tuple[int, str]]) -> str | None:
    seats = [seat.name for seat in state.table.players]
    dealer = state.table.dealer
    active = [name for name in seats if after[name][1] != Status.OUT]

    def left_of(name: str) -> str:
        i = seats.index(name)
        for step in range(1, len(seats) + 1):
            candidate = seats[(i + step) % len(seats)]
            if candidate in active:
                return candidate
        raise AssertionError("a game that goes on has players in")

    losers = [name for name in seats if state.losses.get(name)]
    if state.rules.next_dealer == "loser" and losers:
        standing = [name for name in losers if name in active]
        if dealer is None:
            # Without a dealer there is no "first to the dealer's left" among several losers.
            if len(standing) == 1:
                return standing[0]
            return left_of(losers[0]) if len(losers) == 1 else None
        i = seats.index(dealer)
        in_order = [seats[(i + step) % len(seats)] for step in range(1, len(seats) + 1)]
        # The first loser to the dealer's left who is still in deals; when every loser went
        # out, the deal passes to the left of the first of them (our reading).
        for candidate in in_order:
            if candidate in standing:
                return candidate
        first = next(candidate for candidate in in_order if candidate in losers)
        return left_of(first)
    return None if dealer is None else left_of(dealer)
