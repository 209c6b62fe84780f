"""A game of 31 as a fold over its rounds: the seats, the rules and each round's inputs in, one
state out. No Django here.

``start`` gives the state before the first round; ``play`` resolves one more round against a
state; ``advance`` folds that round in. ``replay`` does it for a whole list of rounds, and is
what ``advance`` must always agree with (a property test holds them to it). The state is plain
data (``as_data``/``from_data``), so the web layer can store it with the game and record the next
round from it without reading any earlier round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import CardError, parse_cards
from .endings import COUNTED, ENDINGS, ROUND_ENDINGS
from .errors import InputError
from .resolve import resolve_round
from .round import Outcome, Result, RoundError, RoundResult, Seat, Status, Table
from .ruleset import RuleSet
from .words import _, coins, lives, names

# The endings of a hand played for a pot.
POT_ENDINGS = frozenset(id for id, ending in ENDINGS.items() if ending.form == "pot")


@dataclass(frozen=True)
class RoundInput:
    """What the table said about a round, naming players by seat (0, 1, 2… clockwise), so that
    a renamed player stays the same player."""

    ending: str
    knocker: int | None = None
    shown_by: tuple[int, ...] = ()
    lowest: tuple[int, ...] | None = None
    hands: Mapping[int, Sequence[str]] | None = None  # seat → card codes, when entered
    choice: str | None = None
    losses: Mapping[int, int] | None = None  # seat → lives, in a round counted by hand
    winners: tuple[int, ...] | None = None  # a hand played for a pot: who the table said won

    def as_data(self) -> dict[str, Any]:
        """The round as plain data (JSON: seats as strings where they are keys)."""
        return {
            "ending": self.ending,
            "knocker": self.knocker,
            "shown_by": list(self.shown_by),
            "lowest": None if self.lowest is None else list(self.lowest),
            "hands": None
            if self.hands is None
            else {str(seat): list(cards) for seat, cards in self.hands.items()},
            "choice": self.choice,
            "losses": None
            if self.losses is None
            else {str(seat): lives for seat, lives in self.losses.items()},
            # Only a hand played for a pot names winners: other rounds store what they did.
            **({} if self.winners is None else {"winners": list(self.winners)}),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RoundInput:
        hands, losses = data["hands"], data["losses"]
        return cls(
            ending=data["ending"],
            knocker=data["knocker"],
            shown_by=tuple(data["shown_by"]),
            lowest=None if data["lowest"] is None else tuple(data["lowest"]),
            hands=None if hands is None else {int(seat): cards for seat, cards in hands.items()},
            choice=data["choice"],
            losses=None if losses is None else {int(seat): n for seat, n in losses.items()},
            winners=None if data.get("winners") is None else tuple(data["winners"]),
        )


def asked_round(
    rules: RuleSet,
    ending: str,
    *,
    knocker: int | None = None,
    shown_by: Sequence[int] = (),
    lowest: Sequence[int] = (),
    winners: Sequence[int] = (),
    hands: Mapping[int, str] | None = None,
    losses: Mapping[int, int] | None = None,
    choice: str = "",
) -> RoundInput:
    """A round from what a table's form says (the server's form and the phone's alike): the
    hands as typed, and only the answers the ending asks for (a page hides the others, and what
    stayed ticked there is dropped); counted by hand, the lives each player lost."""
    if ending == COUNTED:
        return RoundInput(ending, losses={seat: n for seat, n in (losses or {}).items() if n} or {})
    typed: dict[int, Sequence[str]] = {}
    for seat, text in (hands or {}).items():
        if text.strip():
            try:
                typed[seat] = [card.code for card in parse_cards(text)]
            except CardError as refusal:
                raise InputError(str(refusal), "cards", seat=seat) from None
    asks = ROUND_ENDINGS[ending].asks(rules) if ending in ROUND_ENDINGS else ()
    return RoundInput(
        ending,
        knocker=knocker if "knocker" in asks else None,
        shown_by=tuple(shown_by) if "shown_by" in asks else (),
        lowest=(tuple(lowest) if "lowest" in asks else ()) or None,
        winners=(tuple(winners) if "winners" in asks else ()) or None,
        hands=typed or None,
        choice=choice or None,
    )


@dataclass(frozen=True)
class Step:
    """One round as resolved: its number, who dealt it, what was said and what it did."""

    number: int
    dealer: int
    round: RoundInput
    result: RoundResult
    playing: tuple[str, ...] = ()  # who was still in before the round

    @property
    def summary(self) -> str:
        """Who lost what, in a line: "Cat −1, Ben −2 (counted by hand)"."""
        result = self.result
        if result.result == Result.TABLE_DECIDES:
            return _("The table decides")
        if result.result == Result.REPLAY and result.game_over:
            return _("Nobody loses: the hand was replayed, and it was the last round")
        if result.result == Result.REPLAY:
            return _("Nobody loses: the cards are dealt again")
        if self.round.ending in POT_ENDINGS:
            return _pot_summary(result)
        losers = [p for p in result.players if p.lost]
        # Seat by seat, each with what it lost; but when everyone still in lost the same but one
        # player (a 31, fire), that player is named instead: it fits a phone's line.
        kept = [p for p in result.players if not p.lost and p.name in self.playing]
        if len(losers) >= 3 and len(kept) == 1 and len({p.lost for p in losers}) == 1:
            lost = _("everyone but %(name)s −%(lost)d") % {
                "name": kept[0].name,
                "lost": losers[0].lost,
            }
        else:
            lost = ", ".join(f"{p.name} −{p.lost}" for p in losers)
        words = lost or _("Nobody loses a life")
        if self.round.ending == COUNTED:
            return _("%(losses)s (counted by hand)") % {"losses": words}
        return words

    @property
    def headline(self) -> str:
        """The summary and what comes next: "Cat −1 · Ben deals next", "Cat −1 · Ann wins"."""
        result = self.result
        said = {"summary": self.summary, "name": result.winner or result.next_dealer}
        if result.winner:
            return _("%(summary)s · %(name)s wins") % said
        if result.tie:
            return _("%(summary)s · a tie") % said
        if result.next_dealer and result.result != Result.TABLE_DECIDES:
            return _("%(summary)s · %(name)s deals next") % said
        return self.summary


def _pot_summary(result: RoundResult) -> str:
    """A hand played for a pot in a line: "Ana takes 4", "Ana and Ben take 3 each"."""
    if not result.winners:
        return _("The table stops")
    taken = max(result.coins[name] for name in result.winners)
    paid = -min(result.coins.values())  # what everyone else paid in
    said = {"names": names(result.winners), "coins": taken + paid}
    if len(result.winners) == 1:
        return _("%(names)s takes %(coins)d") % said
    return _("%(names)s take %(coins)d each") % said


@dataclass(frozen=True)
class GameState:
    """The table after the rounds played so far."""

    names: tuple[str, ...]
    start_lives: int
    lives: tuple[int, ...]
    statuses: tuple[str, ...]  # a status's words are the rules' (``RuleSet.status_label``)
    dealer: int  # the seat that deals next
    pot: int = 0
    rounds: int = 0  # rounds played
    game_over: bool = False
    winner: str | None = None
    tie: tuple[str, ...] = ()
    last_dealer: int | None = None  # who dealt the latest round
    # The round in which each seat first went out (None: never), for the game's summary.
    out_in: tuple[int | None, ...] = ()
    # A game played for a pot: each seat's coins up (or down) since the start; () otherwise.
    coins: tuple[int, ...] = ()
    # What the latest round did, in words, in the language the fold spoke. Words are not part
    # of the stored data (``as_data``): a page may be read in another language.
    last_explanation: tuple[str, ...] = field(default=(), compare=False)

    @property
    def result_words(self) -> str:
        if self.winner:
            return _("%(name)s won") % {"name": self.winner}
        if self.tie:
            return _("A tie between %(names)s") % {"names": names(self.tie)}
        return ""

    @property
    def dealer_name(self) -> str:
        return self.names[self.dealer]

    def as_data(self) -> dict[str, Any]:
        return {
            "names": list(self.names),
            "start_lives": self.start_lives,
            "lives": list(self.lives),
            "statuses": [str(status) for status in self.statuses],
            "dealer": self.dealer,
            "pot": self.pot,
            "rounds": self.rounds,
            "game_over": self.game_over,
            "winner": self.winner,
            "tie": list(self.tie),
            "last_dealer": self.last_dealer,
            "out_in": list(self.out_in),
            # Only a game played for a pot has coins: a game of lives stores what it always did.
            **({"coins": list(self.coins)} if self.coins else {}),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> GameState:
        return cls(
            names=tuple(data["names"]),
            start_lives=data["start_lives"],
            lives=tuple(data["lives"]),
            statuses=tuple(Status(status) for status in data["statuses"]),
            dealer=data["dealer"],
            pot=data["pot"],
            rounds=data["rounds"],
            game_over=data["game_over"],
            winner=data["winner"],
            tie=tuple(data["tie"]),
            last_dealer=data["last_dealer"],
            out_in=tuple(data.get("out_in") or (None,) * len(data["names"])),
            coins=tuple(data.get("coins") or ()),
        )


def stored_state(state: GameState) -> dict[str, Any]:
    """The fold's state as a game stores it: names stay on the seats, so the winner and a tie
    are seat positions."""
    data = state.as_data()
    del data["names"]
    data["winner"] = None if state.winner is None else state.names.index(state.winner)
    data["tie"] = [state.names.index(name) for name in state.tie]
    return data


def read_state(data: Mapping[str, Any], names: Sequence[str]) -> GameState:
    """A stored state with the seats' names put back."""
    winner = data["winner"]
    return GameState.from_data(
        {
            **data,
            "names": list(names),
            "winner": None if winner is None else names[winner],
            "tie": [names[seat] for seat in data["tie"]],
        }
    )


def start(rules: RuleSet, names: Sequence[str], first_dealer: int) -> GameState:
    """The table before the first round: everyone in with the rules' lives."""
    count = len(names)
    return GameState(
        names=tuple(names),
        start_lives=rules.lives,
        lives=(rules.lives,) * count,
        statuses=(Status.IN,) * count,
        dealer=first_dealer,
        out_in=(None,) * count,
        coins=(0,) * count if rules.played_for_pot else (),
    )


def first_dealer_again(rules: RuleSet, state: GameState, first_dealer: int) -> int:
    """Who deals the first hand when the table plays again (the rules'
    ``first_dealer_again``): the seat on the left of who dealt first, or the game's first
    loser, who went out first (several in one round: the first of them in seat order)."""
    left = (first_dealer + 1) % len(state.names)
    if rules.first_dealer_again != "first_out":
        return left
    went_out = [(round, seat) for seat, round in enumerate(state.out_in) if round is not None]
    return min(went_out)[1] if went_out else left


def _hand(round: RoundInput, seat: int) -> tuple[Any, ...] | None:
    if not round.hands:
        return None
    codes = round.hands.get(seat)
    return tuple(parse_cards(list(codes))) if codes else None


def _name(names: tuple[str, ...], seat: int | None) -> str | None:
    return None if seat is None or not 0 <= seat < len(names) else names[seat]


def play(rules: RuleSet, state: GameState, round: RoundInput) -> Step:
    """Resolve the next round against ``state``; a round the rules refuse raises ``RoundError``
    ("Cat is out, so cannot knock")."""
    number, names = state.rounds + 1, state.names
    if state.game_over:
        raise RoundError(_("the game was already over"), "ending")
    table = Table(
        tuple(
            Seat(
                names[p],
                state.lives[p],
                state.statuses[p],
                _hand(round, p),
                coins=state.coins[p] if state.coins else 0,
            )
            for p in range(len(names))
        ),
        dealer=names[state.dealer],
        pot=state.pot,
        rounds_played=state.rounds,
    )
    outcome = Outcome(
        round.ending,
        knocker=_name(names, round.knocker),
        shown_by=tuple(names[p] for p in round.shown_by if 0 <= p < len(names)),
        lowest=None
        if round.lowest is None
        else tuple(names[p] for p in round.lowest if 0 <= p < len(names)),
        choice=round.choice or None,
        losses=None
        if round.losses is None
        else {_seat_name(names, p, "losses"): lives for p, lives in round.losses.items()},
        winners=None
        if round.winners is None
        else tuple(_seat_name(names, p, "winners") for p in round.winners),
    )
    playing = tuple(names[p] for p in range(len(names)) if state.statuses[p] != Status.OUT)
    return Step(number, state.dealer, round, resolve_round(rules, table, outcome), playing)


def _seat_name(names: tuple[str, ...], seat: int, part: str) -> str:
    if not 0 <= seat < len(names):
        raise RoundError(_("seat %(seat)d is not at this table") % {"seat": seat}, part)
    return names[seat]


def advance(state: GameState, step: Step) -> GameState:
    """The state after ``step``. A round left to the table is not played yet: nothing moves."""
    result = step.result
    if result.result == Result.TABLE_DECIDES:
        return state
    dealer = state.dealer
    if result.next_dealer is not None:
        dealer = state.names.index(result.next_dealer)
    out_in = tuple(
        step.number if first is None and player.status == Status.OUT else first
        for first, player in zip(
            state.out_in or (None,) * len(state.names), result.players, strict=True
        )
    )
    return replace(
        state,
        out_in=out_in,
        lives=tuple(player.lives for player in result.players),
        statuses=tuple(Status(player.status) for player in result.players),
        dealer=dealer,
        pot=result.pot,
        rounds=step.number,
        game_over=result.game_over,
        winner=result.winner,
        tie=tuple(result.tie),
        last_dealer=step.dealer,
        last_explanation=tuple(result.explanation),
        coins=tuple(player.coins for player in result.players) if state.coins else (),
    )


def replay(
    rules: RuleSet, names: Sequence[str], first_dealer: int, rounds: Sequence[RoundInput]
) -> tuple[GameState, tuple[Step, ...]]:
    """Every round folded in order, from the start; the state and each round's step.

    A round left to the table ends the fold: it is the last step, and the state is the one
    before it.
    """
    state = start(rules, names, first_dealer)
    steps = []
    for round in rounds:
        try:
            step = play(rules, state, round)
        except RoundError as refusal:
            # Replayed (after an edit, or from a file), a refusal says which round it is about.
            number = state.rounds + 1
            raise RoundError(
                _("round %(number)d: %(refusal)s") % {"number": number, "refusal": refusal.message},
                refusal.part,
                refusal.seat,
            ) from None
        steps.append(step)
        if step.result.result == Result.TABLE_DECIDES:
            break
        state = advance(state, step)
    return state, tuple(steps)


# What a round adds to each seat's tallies, for the club's statistics.
TALLIES = (
    "rounds_lost",
    "lives_lost",
    "knocks",
    "knocks_caught",
    "thirty_ones",
    "last_chances",
    "hands_won",
    "coins",
)


def tallies(step: Step, seats: int) -> list[dict[str, int]]:
    """Each seat's share of one round: a round lost and the lives it cost, a knock and whether
    it was caught (the knocker lost lives), a 31 shown in play or dealt, a round ended on the
    last chance; in a game played for a pot, a hand won and the coins it won or cost (a knock
    is "caught" there when the knocker did not win). A round counted by hand carries lives
    only."""
    counts = [dict.fromkeys(TALLIES, 0) for _seat in range(seats)]
    result, round = step.result, step.round
    if result.result == Result.TABLE_DECIDES:
        return counts
    for seat, player in enumerate(result.players):
        if player.lost:
            counts[seat]["rounds_lost"], counts[seat]["lives_lost"] = 1, player.lost
        if player.status == Status.COUNTY:
            counts[seat]["last_chances"] = 1
    names = [player.name for player in result.players]
    for seat, name in enumerate(names):
        counts[seat]["coins"] = result.coins.get(name, 0)
        counts[seat]["hands_won"] = int(name in result.winners)
    if round.ending != COUNTED and round.knocker is not None:
        counts[round.knocker]["knocks"] = 1
        caught = (
            names[round.knocker] not in result.winners
            if round.ending in POT_ENDINGS
            else bool(result.players[round.knocker].lost)
        )
        counts[round.knocker]["knocks_caught"] = int(caught)
    ending = ROUND_ENDINGS.get(round.ending)
    if ending is not None and ending.counts_as_31:
        for seat in round.shown_by:
            counts[seat]["thirty_ones"] = 1
    return counts


def total_tallies(steps: Sequence[Step], seats: int) -> list[dict[str, int]]:
    """Each seat's tallies summed over ``steps``."""
    totals = [dict.fromkeys(TALLIES, 0) for _seat in range(seats)]
    for step in steps:
        for total, counts in zip(totals, tallies(step, seats), strict=True):
            for name, n in counts.items():
                total[name] += n
    return totals


def seat_results(state: GameState) -> list[str]:
    """How the game ended for each seat: won (alone), tied, lost; nothing while it goes on."""
    if not state.game_over:
        return [""] * len(state.names)
    return [
        "won" if name == state.winner else "tied" if name in state.tie else "lost"
        for name in state.names
    ]


def seat_places(state: GameState) -> list[int | None]:
    """Where each seat finished: the winner first (each of a tie first), then by how long they
    lasted, who went out later above who went out sooner, and among those never out, more lives
    above fewer; in a game played for a pot, by coins. Seats that did as well share a place and
    the places after them move on (1, 2, 2, 4). Nothing while the game goes on."""
    if not state.game_over:
        return [None] * len(state.names)
    first = {state.winner, *state.tie} - {None}
    never_out = len(state.names) * 10**6  # later than any round

    def standing(seat: int) -> tuple[int, int]:
        won = int(state.names[seat] in first)
        if state.coins:
            return won, state.coins[seat]
        out = state.out_in[seat] if state.out_in else None
        return won, (never_out + state.lives[seat] if out is None else out)

    standings = [standing(seat) for seat in range(len(state.names))]
    return [1 + sum(other > mine for other in standings) for mine in standings]


def describe_changes(rules: RuleSet, before: GameState, after: GameState) -> list[str]:
    """What an edit changed for the table now, in words: "Cat is no longer out"."""
    lines = []
    for i, name in enumerate(after.names):
        was, now = before.statuses[i], after.statuses[i]
        if was != now:
            if was == Status.OUT:
                lines.append(_("%(name)s is no longer out.") % {"name": name})
            else:
                lines.append(
                    _("%(name)s: %(now)s now (was %(was)s).")
                    % {
                        "name": name,
                        "now": rules.status_label(now),
                        "was": rules.status_label(was),
                    }
                )
        if before.coins and before.coins[i] != after.coins[i]:
            lines.append(
                _("%(name)s is at %(coins)s now (was %(was)s).")
                % {"name": name, "coins": coins(after.coins[i]), "was": coins(before.coins[i])}
            )
        if before.lives[i] != after.lives[i]:
            lines.append(
                _("%(name)s has %(lives)s now (was %(was)d).")
                % {"name": name, "lives": lives(after.lives[i]), "was": before.lives[i]}
            )
    if before.result_words != after.result_words:
        lines.append(
            f"{after.result_words}." if after.result_words else _("The game is no longer over.")
        )
    if before.dealer != after.dealer and not after.game_over:
        lines.append(_("%(name)s deals next.") % {"name": after.names[after.dealer]})
    return lines or [_("Nothing changes for the table now.")]
