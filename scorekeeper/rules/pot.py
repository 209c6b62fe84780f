"""Thirty-One with a widow and a pot (the scat page's house rules): no lives; every hand each
player pays the ante into the pot and the highest hand takes it. Who had the highest hand, by
the table's word or by the cards, and what the pot does."""

from __future__ import annotations

from .hands import points
from .lowest import tie_keys
from .round import RoundError, RoundState
from .words import SAY_POT, _, ngettext
from .words import names as _names

# No source says what equal highest hands do with the pot: they share it, and what does not
# divide stays in the middle for the next hand (our reading, said to the table when it happens).
SPLIT_READING = "tie_break"


def highest_of(state: RoundState) -> list[str]:
    """The players with the highest hand: named by the table, or found from the hands
    entered. When every hand is known, the cards decide, and a table that named others is
    told so."""
    named = state.outcome.winners
    missing = [name for name in state.playing if name not in state.values]
    if named is not None and missing:
        state.story.append(_("The table named %(names)s highest.") % {"names": _names(named)})
        return list(named)
    if missing and not state.values:
        raise RoundError(_(SAY_POT), "winners")
    if missing:
        i = [seat.name for seat in state.table.players].index(missing[0])
        raise RoundError(
            _("enter %(name)s's cards or value, or name who won the pot") % {"name": missing[0]},
            "cards",
            seat=i,
        )
    found = _highest_by_cards(state, [] if named is not None else state.story)
    if named is not None and set(found) != set(named):
        raise RoundError(
            _(
                "the cards entered make %(found)s highest, not %(named)s: correct the cards "
                "or who won"
            )
            % {"found": _names(found), "named": _names(named)},
            "winners",
        )
    if named is not None:
        _highest_by_cards(state, state.story)
    return found


def _highest_by_cards(state: RoundState, story: list[str]) -> list[str]:
    values = {name: state.values[name] for name in state.playing}
    high = max(values.values())
    highest = [name for name in state.playing if values[name] == high]
    said = {"names": _names(highest), "value": points(high)}
    breaks = state.rules.tie_break != "tie"
    if len(highest) > 1 and breaks and all(name in state.hands for name in highest):
        keys = tie_keys(state, highest)
        top = max(keys.values())
        broken = [name for name in highest if keys[name] == top]
        if len(broken) < len(highest):
            story.append(
                _(
                    "%(names)s have %(value)s each; the highest card breaks the tie, "
                    "leaving %(highest)s highest."
                )
                % {**said, "highest": _names(broken)}
            )
            return broken
    if len(highest) == 1:
        story.append(_("%(names)s has the highest hand, %(value)s.") % said)
    else:
        story.append(_("%(names)s tie for the highest hand with %(value)s.") % said)
    return highest


def share(pot: int, winners: int) -> tuple[int, int]:
    """Each winner's share of the pot, and what does not divide (it stays in the middle)."""
    return pot // winners, pot % winners


def pay_in_and_share(state: RoundState, story: list[str]) -> tuple[dict[str, int], int]:
    """Everyone pays the ante into the pot and the winners share it: what the hand did to each
    player's coins, and what stays in the middle (what does not divide)."""
    rules = state.rules
    coins = {seat.name: 0 for seat in state.table.players}
    for name in state.playing:
        coins[name] -= rules.ante
    pot = state.table.pot + rules.ante * len(state.playing)
    story.append(
        ngettext(
            "Everyone paid %(ante)d coin in: the pot holds %(pot)d.",
            "Everyone paid %(ante)d coins in: the pot holds %(pot)d.",
            rules.ante,
        )
        % {"ante": rules.ante, "pot": pot}
    )
    each, left = share(pot, len(state.winners))
    for name in state.winners:
        coins[name] += each
    said = {"names": _names(state.winners), "coins": each}
    if len(state.winners) == 1:
        story.append(_("%(names)s takes the pot: %(coins)d.") % said)
    else:
        story.append(
            _(
                "%(names)s share the pot, %(coins)d each (our reading: no source says what "
                "equal hands do with the pot)."
            )
            % said
        )
    if left:
        story.append(
            ngettext(
                "The pot does not divide evenly: %(n)d coin stays in the middle.",
                "The pot does not divide evenly: %(n)d coins stay in the middle.",
                left,
            )
            % {"n": left}
        )
    return coins, left


def pot_game_over(
    state: RoundState, coins: dict[str, int], left: int, story: list[str]
) -> tuple[str | None, tuple[str, ...], int]:
    """The game ends (the table stopped, or the last hand agreed was played): the most coins
    win, and take what is left in the middle if the rules say so. The winner, or those who
    tie, and what stays in the middle."""
    rules, table = state.rules, state.table
    if not state.stopped:
        story.append(
            _("That was hand %(n)d of %(n)d: the most coins wins.") % {"n": rules.round_limit}
        )
    balances = {seat.name: seat.coins + coins[seat.name] for seat in table.players}
    most = max(balances[name] for name in state.playing)
    leaders = tuple(name for name in state.playing if balances[name] == most)
    if rules.pot_at_end == "winner" and left >= len(leaders):
        each, left = share(left, len(leaders))
        for name in leaders:
            coins[name] += each
        said = {"names": _names(leaders), "coins": each}
        if len(leaders) == 1:
            story.append(_("What is left in the middle goes to %(names)s: %(coins)d.") % said)
        else:
            story.append(_("What is left in the middle goes to %(names)s: %(coins)d each.") % said)
    if len(leaders) == 1:
        story.append(_("%(name)s wins the game.") % {"name": leaders[0]})
        return leaders[0], (), left
    story.append(_("The game is a tie between %(names)s.") % {"names": _names(leaders)})
    return None, leaders, left
