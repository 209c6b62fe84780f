"""How a round of 31 ends: who loses how many lives and why, and what the table looks like after.

``resolve_round(rules, table, outcome)`` takes values and returns a value. It never guesses: where
the rules leave the outcome open it returns ``result == "table_decides"`` with the choices, and the
table's pick comes back as ``outcome.choice``. Each way a round ends is an object of its own
(``endings``): the checks and the finish here are what every round shares.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from .cards import Card, CardError, check_hand
from .endings import COUNTED, ENDINGS, ROUND_ENDINGS, Ending
from .errors import InputError
from .hands import evaluate, points, possible_values
from .pot import pay_in_and_share, pot_game_over
from .round import (
    STATUSES,
    Choice,
    Outcome,
    PlayerAfter,
    Result,
    RoundError,
    RoundResult,
    RoundState,
    Seat,
    Status,
    Table,
    TableDecides,
    not_playing,
    pick,
)
from .ruleset import RuleSet
from .words import _
from .words import lives as lives_word
from .words import names as _names

# The endings where exactly one player shows a hand (several may be dealt 31).
SHOWN_BY_ONE = tuple(ending.id for ending in ENDINGS.values() if ending.shows == "one")


def resolve_round(rules: RuleSet, table: Table, outcome: Outcome) -> RoundResult:
    """Resolve one round of 31 under ``rules``; raises ``RoundError`` for an impossible round."""
    state = RoundState(rules, table, outcome)
    _check_table(state)
    _check_hands(state)
    ending = _check_outcome(state)
    try:
        ending.score(state)
        if state.rules.played_for_pot:
            result = _finish_pot(state)
        else:
            result = _replay(state) if state.replayed else _finish(state, ending)
    except TableDecides as open_question:
        result = _table_decides(state, open_question)
    if state.unusual:
        result = replace(result, unusual=True)
    if not state.asked:
        return result
    # The choices stay on the result once picked, so that a page can show the table's pick.
    return replace(result, choice_asked=True, choices=state.asked)


def losses_of(rules: RuleSet, table: Table, outcome: Outcome) -> dict[str, int]:
    """Who a round that ended so costs how many lives, as its ending scores it (before the
    rules for everyone going out at once); ``RoundError`` for a round that cannot have happened,
    ``TableDecides`` for one the rules leave open."""
    state = RoundState(rules, table, outcome)
    _check_table(state)
    _check_hands(state)
    _check_outcome(state).score(state)
    return {} if state.replayed else dict(state.losses)


# ---- checking the inputs --------------------------------------------------------------------


def _check_table(state: RoundState) -> None:
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


def _check_hands(state: RoundState) -> None:
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


def _check_outcome(state: RoundState) -> Ending:
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
    if outcome.winners is not None and not ending.asks_winners:
        raise RoundError(_("only a hand played for a pot has winners to name"), "winners")
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
    (a knock in a game played for a pot is refused with what ends a hand there)."""
    endings = _names([_(ROUND_ENDINGS[e].chip) for e in rules.endings])
    if rules.played_for_pot:
        return _(
            "in a game played for a pot no hand ends so (“%(ending)s”): a hand ends with "
            "%(endings)s"
        ) % {"ending": _(ending.chip), "endings": endings}
    return _(
        "in a game of lives no round ends so (“%(ending)s”): a round ends with %(endings)s"
    ) % {"ending": _(ending.chip), "endings": endings}


def _check_knocker(state: RoundState, ending: Ending) -> None:
    rules, knocker = state.rules, state.outcome.knocker
    if knocker is not None and knocker not in state.playing:
        raise RoundError(
            not_playing(state, knocker, _("%(name)s is out, so cannot knock")), "knocker"
        )
    if ending.knocker == "required" and knocker is None:
        raise RoundError(_("say who knocked"), "knocker")
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
    said = _("%(name)s is out, so cannot win the pot")
    _check_named(state, state.outcome.winners, "winners", _("name who won the pot"), said)


# ---- what follows ---------------------------------------------------------------------------


def _unchanged(state: RoundState) -> tuple[PlayerAfter, ...]:
    return tuple(
        PlayerAfter(seat.name, seat.lives, seat.status, state.rules.status_label(seat.status))
        for seat in state.table.players
    )


def _table_decides(state: RoundState, open_question: TableDecides) -> RoundResult:
    said = _("The table decides: %(why)s.") % {"why": open_question.why}
    return RoundResult(
        result=Result.TABLE_DECIDES,
        hands=state.hands,
        losses={},
        players=_unchanged(state),
        pot=state.table.pot,
        explanation=(*state.story, said),
        choices=open_question.choices,
    )


def _replay(state: RoundState, sentence: str | None = None) -> RoundResult:
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


Standing = dict[str, tuple[int, str]]  # each player's lives and status after the round


def _after(state: RoundState, seat: Seat) -> tuple[int, str]:
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


def _finish(state: RoundState, ending: Ending) -> RoundResult:
    """The table after the losses: who is where, the pot, the end of the game, the deal."""
    rules, table = state.rules, state.table
    after = {seat.name: _after(state, seat) for seat in table.players}
    revived = False
    if state.losses and not _still_in(state, after):
        everyone = _all_out(state)
        if everyone == "replay":
            return _replay(state, _all_out_replayed(state))
        if everyone == "revival":
            revived = True
            after = {seat.name: (0, Status.COUNTY) for seat in table.players}
    players = [
        PlayerAfter(
            seat.name,
            *after[seat.name],
            rules.status_label(after[seat.name][1]),
            state.losses.get(seat.name, 0),
            state.reasons.get(seat.name, ""),
        )
        for seat in table.players
    ]
    story = _who_lost(state, players, revived)
    winner, tie, over = _game_over(state, after, story, revived)
    if not over:
        story.extend(ending.then(rules))
    if winner:
        story.append(_("%(name)s wins the game.") % {"name": winner})
    if tie:
        story.append(_("The game is a tie between %(names)s.") % {"names": _names(tie)})
    next_dealer = None if over else _next_dealer(state, after)
    if next_dealer:
        story.append(_deals(next_dealer))
    paid = sum(seat.lives - after[seat.name][0] for seat in table.players)
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


def _finish_pot(state: RoundState) -> RoundResult:
    """A hand played for a pot: everyone pays the ante in, the winners share the pot (what
    does not divide stays), and the deal moves left; or the table stops, and the most coins
    win the game (``pot``)."""
    rules, table = state.rules, state.table
    story = list(state.story)
    coins, left = (
        ({seat.name: 0 for seat in table.players}, table.pot)
        if state.stopped
        else pay_in_and_share(state, story)
    )
    over = state.stopped or (
        rules.round_limit is not None and table.rounds_played + 1 >= rules.round_limit
    )
    winner: str | None = None
    tie: tuple[str, ...] = ()
    if over:
        winner, tie, left = pot_game_over(state, coins, left, story)
    next_dealer = None if over or table.dealer is None else _left_of(state, table.dealer)
    if next_dealer:
        story.append(_deals(next_dealer))
    players = tuple(
        PlayerAfter(
            seat.name,
            seat.lives,
            seat.status,
            rules.status_label(seat.status),
            coins=seat.coins + coins[seat.name],
        )
        for seat in table.players
    )
    return RoundResult(
        result=Result.SCORED,
        hands=state.hands,
        losses={},
        players=players,
        pot=left,
        explanation=tuple(story),
        game_over=over,
        winner=winner,
        tie=tie,
        next_dealer=next_dealer,
        winners=tuple(state.winners),
        coins=coins,
    )


def _left_of(state: RoundState, name: str) -> str:
    seats = state.playing
    return seats[(seats.index(name) + 1) % len(seats)]


def _still_in(state: RoundState, after: Standing) -> list[str]:
    return [name for name in state.playing if after[name][1] != Status.OUT]


def _all_out(state: RoundState) -> str:
    """Everyone still in would go out at once: the hand is replayed (``replay``), everyone
    eliminated comes back (``revival``), or the game is a tie (``tie``), as the rules say or,
    where they leave it open, the table chooses."""
    rules = state.rules
    if rules.all_out != "revival":
        return rules.all_out
    returns = {"status": rules.returning_words()}
    final_two = len(state.playing) == 2 and all(
        state.seats[name].status == Status.COUNTY for name in state.playing
    )
    if not final_two:
        choices = (
            Choice(
                "revival",
                _("Everyone goes out, and every eliminated player returns %(status)s") % returns,
            ),
            Choice("replay", _("Nobody loses and the hand is replayed")),
        )
        why = _("the revival is written for the final two; here more players would go out together")
        if pick(state, choices, why) == "replay":
            state.replayed = True  # "The table chose: nobody loses …" says it all
            return "replay"
    both = len(state.playing) == 2
    said = (
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
    state.story.append(said % {"names": _names(state.playing), **returns})
    return "revival"


def _all_out_replayed(state: RoundState) -> str | None:
    """Why nobody loses when everyone would go out at once (unless the table chose it)."""
    if state.replayed:
        return None
    both = len(state.playing) == 2
    said = (
        _("%(names)s would both go out at once, so nobody loses and the hand is replayed.")
        if both
        else _("%(names)s would all go out at once, so nobody loses and the hand is replayed.")
    )
    return said % {"names": _names(state.playing)}


def _said_losses(state: RoundState) -> list[str]:
    """Each loss with its reason; said once when everyone still in but one lost the same for
    the same reason (a 31, fire): "Everyone but Ana loses 1 life: Ana showed 31, …"."""
    losers = [name for name in state.playing if name in state.reasons]
    kept = [name for name in state.playing if name not in state.reasons]
    alike = {(state.losses[name], state.why[name]) for name in losers}
    if len(losers) >= 3 and len(kept) == 1 and len(alike) == 1:
        lost, why = alike.pop()
        said = {"name": kept[0], "lives": lives_word(lost), "reason": why}
        return [_("Everyone but %(name)s loses %(lives)s: %(reason)s.") % said]
    return [state.reasons[name] + "." for name in losers]


def _who_lost(state: RoundState, players: list[PlayerAfter], revived: bool) -> list[str]:
    """What was said, each loss and its reason, and who is now on the last chance or out."""
    story = [*state.story, *_said_losses(state)]
    if not state.losses:
        story.append(_("Nobody loses a life."))
    for player, seat in zip(players, state.table.players, strict=True):
        if player.status != seat.status and not revived:
            story.append(state.rules.now_sentence(player.status) % {"name": player.name})
    return story


def _game_over(
    state: RoundState, after: Standing, story: list[str], revived: bool
) -> tuple[str | None, tuple[str, ...], bool]:
    """Whether the game is over, and who won it or tied: the last player in, everyone going
    out together (a tie), or the most lives after a set number of rounds."""
    rules = state.rules
    still_in = list(after) if revived else _still_in(state, after)
    if len(still_in) == 1:
        return still_in[0], (), True
    if not still_in:
        return None, tuple(state.playing), True
    if rules.round_limit is None or state.table.rounds_played + 1 < rules.round_limit:
        return None, (), False
    most = max(after[name][0] for name in still_in)
    leaders = [name for name in still_in if after[name][0] == most]
    story.append(
        _("That was round %(n)d of %(n)d: the most lives wins.") % {"n": rules.round_limit}
    )
    if len(leaders) == 1:
        return leaders[0], (), True
    return None, tuple(leaders), True


def _next_dealer(state: RoundState, after: Standing) -> str | None:
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
    if state.rules.next_dealer != "loser" or not losers:
        return None if dealer is None else left_of(dealer)
    standing = [name for name in losers if name in active]
    if dealer is None:
        # Without a dealer there is no "first to the dealer's left" among several losers.
        if len(standing) == 1:
            return standing[0]
        return left_of(losers[0]) if len(losers) == 1 else None
    i = seats.index(dealer)
    in_order = [seats[(i + step) % len(seats)] for step in range(1, len(seats) + 1)]
    # The first loser to the dealer's left who is still in deals; when every loser went out,
    # the deal passes to the left of the first of them (our reading).
    for candidate in in_order:
        if candidate in standing:
            return candidate
    first = next(candidate for candidate in in_order if candidate in losers)
    return left_of(first)


def refuse_a_stray_choice(choice: str | None, result: RoundResult) -> None:
    """A choice sent for a round that leaves nothing to the table is a mistake, not noise."""
    if choice and not result.choice_asked:
        raise InputError(
            _("the rules leave nothing in this round to the table: send no choice"), "choice"
        )


__all__ = [
    "COUNTED",
    "ENDINGS",
    "ROUND_ENDINGS",
    "SHOWN_BY_ONE",
    "refuse_a_stray_choice",
    "resolve_round",
]
