"""How a round of 31 ends: who loses how many lives and why, and what the table looks like after.

``resolve_round(rules, table, outcome)`` takes values and returns a value. It never guesses: where
the rules leave the outcome open it returns ``result == "table_decides"`` with the choices, and the
table's pick comes back as ``outcome.choice``. Each way a round ends is an object of its own
(``endings``): the checks and the finish here are what every round shares.
"""

from __future__ import annotations

from dataclasses import replace

from .checks import check_hands, check_outcome, check_table
from .endings import COUNTED, ENDINGS, ROUND_ENDINGS, Ending
from .errors import InputError
from .possible import gives
from .pot import pay_in_and_share, pot_game_over
from .round import (
    Choice,
    Outcome,
    PlayerAfter,
    Result,
    RoundResult,
    RoundState,
    Seat,
    Status,
    Table,
    TableDecides,
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
    check_table(state)
    check_hands(state)
    ending = check_outcome(state)
    # A round counted by hand is kept as counted; where no round of these rules costs those
    # lives (every other ending asked), the table is told, in the ending's words.
    state.unusual = ending.by_hand and not gives(rules, table, outcome.losses or {})
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
    rules, table = state.rules, state.table
    if rules.round_limit is not None and table.rounds_played + 1 >= rules.round_limit:
        # The switch says every hand dealt counts, a replayed one included: the last agreed
        # round ends the game with the lives as they stood.
        story = [*state.story, *said, _("A replayed hand counts as a round, and it was the last.")]
        standing = {seat.name: (seat.lives, seat.status) for seat in table.players}
        winner, tie, _over = _game_over(state, standing, story, revived=False)
        _say_the_end(story, winner, tie)
        # Still a replay (nobody lost anything), and the game is over on it.
        return RoundResult(
            result=Result.REPLAY,
            hands=state.hands,
            losses={},
            players=_unchanged(state),
            pot=table.pot,
            explanation=tuple(story),
            game_over=True,
            winner=winner,
            tie=tie,
        )
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
    rules = state.rules
    if rules.last_chance is not None and (lives == 0 or rules.more_than_left == "last_chance"):
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
    _say_the_end(story, winner, tie)
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


def _say_the_end(story: list[str], winner: str | None, tie: tuple[str, ...]) -> None:
    if winner:
        story.append(_("%(name)s wins the game.") % {"name": winner})
    if tie:
        story.append(_("The game is a tie between %(names)s.") % {"names": _names(tie)})


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
