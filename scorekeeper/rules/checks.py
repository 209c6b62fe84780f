"""Whether a round can have happened as the table says: the table itself, the hands, and how
the round ended as its ending allows. ``resolve`` checks every round so before it scores it;
``possible`` asks what a round would cost (``losses_of``) without the rest of resolving it.

Below ``resolve`` and ``possible``, above the endings: it imports neither of those.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .cards import Card, CardError, check_hand
from .endings import ENDINGS, ROUND_ENDINGS, Ending, offered
from .hands import evaluate, points, possible_values
from .round import (
    STATUSES,
    Outcome,
    RoundError,
    RoundState,
    Seat,
    Status,
    Table,
    not_playing,
)
from .ruleset import RuleSet
from .words import SAY_KNOCKER, _
from .words import lives as lives_word
from .words import names as _names


def losses_of(rules: RuleSet, table: Table, outcome: Outcome) -> dict[str, int]:
    """Who a round that ended so costs how many lives, as its ending scores it (before the
    rules for everyone going out at once); ``RoundError`` for a round that cannot have happened,
    ``TableDecides`` for one the rules leave open."""
    state = RoundState(rules, table, outcome)
    check_table(state)
    check_hands(state)
    check_outcome(state).score(state)
    return {} if state.replayed else dict(state.losses)


# ---- checking the inputs --------------------------------------------------------------------


def check_table(state: RoundState) -> None:
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
        _check_seat(rules, seat, i)
    if len(state.playing) < 2:
        raise RoundError(_("the game is over: fewer than two players are still in"), "players")
    if table.dealer is not None and table.dealer not in state.playing:
        raise RoundError(
            _("the dealer must be a player still in, not %(name)s") % {"name": table.dealer},
            "dealer",
        )


def _check_seat(rules: RuleSet, seat: Seat, i: int) -> None:
    """A player's lives and status agree with each other and with the rules."""
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
            _("%(name)s has no lives left, so cannot be in") % {"name": seat.name}, "status", seat=i
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


def check_hands(state: RoundState) -> None:
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
        if seat.cards is None and seat.value is not None:
            if seat.value not in possible_values(state.rules):
                raise RoundError(
                    _("no hand is worth %(value)s under these rules")
                    % {"value": points(Fraction(seat.value))},
                    "value",
                    seat=i,
                )
            state.values[seat.name] = Fraction(seat.value)
    problems = hand_problems(
        [(seat.name, seat.cards) for seat in state.table.players], state.rules.deck
    )
    if problems:
        (first, why), *rest = problems
        raise RoundError(
            why, "cards", seat=first, also=tuple(RoundError(w, "cards", seat=j) for j, w in rest)
        )
    for seat in state.table.players:
        if seat.cards is not None:
            hand = evaluate(seat.cards, state.rules)
            state.hands[seat.name] = hand
            state.values[seat.name] = hand.value


def hand_problems(
    hands: Sequence[tuple[str, Sequence[Card] | None]], deck_size: int
) -> list[tuple[int, str]]:
    """Every hand of ``hands`` (a name and its cards, or None) that is not three cards of this
    deck, or holds a card another hand holds, with why: all of them at once, in seat order."""
    problems: list[tuple[int, str]] = []
    seen: dict[Card, str] = {}
    for i, (name, cards) in enumerate(hands):
        if cards is None:
            continue
        try:
            check_hand(list(cards), deck_size)
        except CardError as error:
            problems.append((i, f"{name}: {error}"))
            continue
        for card in cards:
            if card in seen:
                problems.append(
                    (
                        i,
                        _("%(card)s is in %(first)s's hand and in %(second)s's: a deck has one")
                        % {"card": card, "first": seen[card], "second": name},
                    )
                )
                break
            seen[card] = name
    return problems


def check_outcome(state: RoundState) -> Ending:
    """How the round ended is one these rules have, with who knocked, who showed and who was
    lowest as that ending allows; the ending."""
    rules, outcome = state.rules, state.outcome
    ending = ROUND_ENDINGS.get(outcome.ending)
    if ending is None:
        raise RoundError(
            _("a round ends with %(endings)s; not “%(ending)s”")
            % {"endings": ", ".join(ENDINGS), "ending": outcome.ending},
            "ending",
        )
    if ending.form != rules.form:
        raise RoundError(_wrong_form(rules, ending), "ending")
    if outcome.winners is not None and "winners" not in ending.asks(rules):
        if rules.played_for_pot or rules.showdown_loses != "all_but_top":
            raise RoundError(_("only a hand played for a pot has winners to name"), "winners")
        raise RoundError(
            _("the top hand is named only at a showdown with nobody's 31 shown"), "winners"
        )
    if (
        outcome.lowest is not None
        and rules.showdown_loses == "all_but_top"
        and not rules.played_for_pot
    ):
        raise RoundError(
            _(
                "under these rules everyone but the top hand loses: name the top hand, not the lowest"
            ),
            "lowest",
        )
    if ending.by_hand:
        ending.check(state)
        return ending
    if outcome.losses is not None:
        if rules.played_for_pot:
            raise RoundError(
                _("a game played for a pot counts coins, so nobody's loss is counted by hand"),
                "losses",
            )
        raise RoundError(_("lives are counted by hand only in a round counted by hand"), "losses")
    if not ending.offered(rules):
        raise RoundError(_(ending.not_offered), "ending")
    _check_knocker(state, ending)
    _check_shown(state, ending)
    _check_lowest(state)
    _check_winners(state)
    return ending


def _wrong_form(rules: RuleSet, ending: Ending) -> str:
    """Why an ending of the other way of playing is refused, in the words of the game at hand
    (a knock in a game played for a pot is refused with what ends a hand there). The ending
    asked is named by its words, not its chip: a pot's "highest" and a game of lives' "knock"
    share the chip "Knock"."""
    endings = _names([_(ROUND_ENDINGS[e].chip) for e in offered(rules)])
    if rules.played_for_pot:
        return _(
            "in a game played for a pot no hand ends so (“%(ending)s”): a hand ends with "
            "%(endings)s"
        ) % {"ending": _(ending.words), "endings": endings}
    return _(
        "in a game of lives no round ends so (“%(ending)s”): a round ends with %(endings)s"
    ) % {"ending": _(ending.words), "endings": endings}


def _check_knocker(state: RoundState, ending: Ending) -> None:
    rules, knocker = state.rules, state.outcome.knocker
    if knocker is not None and knocker not in state.playing:
        raise RoundError(
            not_playing(state, knocker, _("%(name)s is out, so cannot knock")), "knocker"
        )
    if ending.knocker == "required" and knocker is None:
        raise RoundError(_(SAY_KNOCKER), "knocker")
    if ending.knocker == "refused" and knocker is not None:
        raise RoundError(_(ending.no_knocker), "knocker")
    minimum = rules.min_knock
    if knocker in state.values and minimum is not None and state.values[knocker] < minimum:
        raise RoundError(
            _(
                "%(name)s cannot have knocked with %(value)s: these rules need at least %(min)d to knock"
            )
            % {"name": knocker, "value": points(state.values[knocker]), "min": minimum},
            "knocker",
        )


def _check_shown(state: RoundState, ending: Ending) -> None:
    shown = list(state.outcome.shown_by)
    for name in shown:
        if name not in state.playing:
            raise RoundError(
                not_playing(state, name, _("%(name)s is out, so cannot show a hand")), "shown_by"
            )
    if len(set(shown)) != len(shown):
        raise RoundError(_("a player is named twice"), "shown_by")
    if ending.shows == "none":
        if shown:
            raise RoundError(
                _("nobody shows a hand to end %(ending)s") % {"ending": _(ending.words)},
                "shown_by",
            )
        return
    if not shown:
        raise RoundError(_(ending.say_who_showed), "shown_by")
    if ending.shows == "one" and len(shown) > 1:
        raise RoundError(_(ending.only_one_shows), "shown_by")
    knocker = state.outcome.knocker
    if knocker is not None and knocker in shown:
        raise RoundError(_(ending.knocker_cannot_show) % {"name": knocker}, "shown_by")
    for name in shown:
        ending.check_shown(state, name)


def _check_named(
    state: RoundState, named: tuple[str, ...] | None, part: str, none: str, out: str
) -> None:
    """Players the table named (the lowest, or who won a pot): someone, each still in, once."""
    if named is None:
        return
    if not named:
        raise RoundError(none, part)
    for name in named:
        if name not in state.playing:
            raise RoundError(not_playing(state, name, out), part)
    if len(set(named)) != len(named):
        raise RoundError(_("a player is named twice"), part)


def _check_lowest(state: RoundState) -> None:
    said = _("%(name)s is out, so cannot be lowest")
    _check_named(state, state.outcome.lowest, "lowest", _("name at least one lowest player"), said)


def _check_winners(state: RoundState) -> None:
    if state.rules.played_for_pot:
        said = _("%(name)s is out, so cannot win the pot")
        none = _("name who won the pot")
    else:
        said = _("%(name)s is out, so cannot have the top hand")
        none = _("name who had the top hand")
    _check_named(state, state.outcome.winners, "winners", none, said)
