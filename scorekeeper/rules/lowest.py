"""The showdown: who is lowest, by the table's word or by the cards, and who of them loses how
many lives when the knocker is among them."""

from __future__ import annotations

from fractions import Fraction

from .hands import points
from .round import Choice, RoundError, RoundState, pick
from .words import SAY_LOWEST, SAY_TOP, _, ngettext
from .words import lives as lives_word
from .words import names as _names


def lowest_of(state: RoundState, tops: tuple[str, ...]) -> list[str]:
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
    if missing and not state.values:
        raise RoundError(_(SAY_LOWEST), "lowest")
    if missing:
        i = state.table.players.index(missing[0])
        raise RoundError(
            _("enter %(name)s's cards or value, or name the lowest players")
            % {"name": missing[0].name},
            "cards",
            seat=i,
        )
    return _lowest_by_cards(state, tops, state.story)


def counted(state: RoundState, tops: tuple[str, ...]) -> dict[str, Fraction]:
    """What each player's hand counts for in the showdown: its value, but a 31 nobody showed
    counts as 30 where the rules' ``unshown_31`` says so. Every comparison of hands (who is
    lowest, whether the knocker was beaten) reads these."""
    values = {name: state.values[name] for name in state.playing}
    if state.rules.unshown_31 == "counts_30":
        for name, value in values.items():
            if value == 31 and name not in tops:
                values[name] = Fraction(30)
    return values


def _lowest_by_cards(state: RoundState, tops: tuple[str, ...], story: list[str]) -> list[str]:
    """The lowest players by the hands entered, telling ``story`` how the cards were read."""
    values = counted(state, tops)
    for name in state.playing:
        if values[name] != state.values[name]:
            story.append(
                _("%(name)s's 31 was not shown at once, so it counts as 30.") % {"name": name}
            )
    low = min(values.values())
    lowest = [name for name in state.playing if values[name] == low]
    if len(lowest) > 1 and state.rules.tie_break != "tie":
        broken = _break_the_tie(state, lowest, low, story)
        if len(broken) < len(lowest):
            return broken
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


def tie_keys(state: RoundState, names: list[str]) -> dict[str, tuple[int, ...]]:
    """What breaks a tie between these players' hands under the rules' ``tie_break``: the
    counted cards from the highest, the highest card of the hand alone (as
    github.com/jmisabella/cards: "not break a tie when both hands share the same high card
    rank"), or every card of the hand from the highest (bigger is higher)."""
    tie_break = state.rules.tie_break
    if tie_break == "highest_in_hand":
        return {name: state.hands[name].hand_key[:1] for name in names}
    if tie_break == "highest_in_hand_then_next":
        return {name: state.hands[name].hand_key for name in names}
    return {name: state.hands[name].tie_key for name in names}


def _break_the_tie(
    state: RoundState, lowest: list[str], low: Fraction, story: list[str]
) -> list[str]:
    """Equal totals broken by the highest card (of the counted cards, or of the whole hand,
    then the next or not), when every tied hand is known."""
    said = {"names": _names(lowest), "value": points(low)}
    if not all(name in state.hands for name in lowest):
        story.append(
            _(
                "%(names)s have %(value)s each; without their cards the tie cannot be "
                "broken by the highest card."
            )
            % said
        )
        return lowest
    in_hand = state.rules.tie_break != "highest_card"
    keys = tie_keys(state, lowest)
    bottom = min(keys.values())
    broken = [name for name in lowest if keys[name] == bottom]
    if len(broken) < len(lowest):
        if in_hand:
            told = _(
                "%(names)s have %(value)s each; the highest card in the hand breaks the tie, "
                "leaving %(lowest)s lowest."
            )
        else:
            told = _(
                "%(names)s have %(value)s each; the highest counted card breaks the tie, "
                "leaving %(lowest)s lowest."
            )
        story.append(told % {**said, "lowest": _names(broken)})
    elif state.rules.tie_break == "highest_in_hand":
        story.append(
            _(
                "%(names)s have %(value)s each and the same highest card, so the tie stands: "
                "only the highest card breaks a tie."
            )
            % said
        )
    return broken


def showdown(state: RoundState, knocker: str | None, tops: tuple[str, ...] = ()) -> None:
    """The hands are shown: the lowest lose, as the rules say when the knocker is among them.
    ``tops`` showed the top hand (a 31, or dealt 31s) and are never lowest."""
    if tops and set(state.playing) <= set(tops):
        # Our reading: every player still in showed the top hand, so no hand is lower.
        state.story.append(_("Everyone still in showed 31, so no hand is lower."))
        return
    if state.rules.showdown_loses == "all_but_top":
        all_but_top(state, tops)
        return
    lowest = lowest_of(state, tops)
    if void_tie(state, lowest):
        return
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
        knocker_alone_lowest(state, knocker)
        return
    _knocker_tied(state, knocker, others)


def all_but_top(state: RoundState, tops: tuple[str, ...]) -> None:
    """Everyone below the top hand loses a life (gamepoint's showdown), the knocker too: ``tops``
    showed it (a 31), or the table names it, or the cards find it."""
    top = list(tops) if tops else top_of(state)
    for name in state.playing:
        if name not in top:
            state.lose(name, 1, _("everyone but the top hand loses"))


def top_of(state: RoundState) -> list[str]:
    """The players with the top hand: named by the table, or found from the hands entered
    (tied for top is the top hand). When every hand is known, the cards decide, and a table
    that named others is told so."""
    named = state.outcome.winners
    missing = [
        seat for seat in state.table.players if seat.playing and seat.name not in state.values
    ]
    if named is not None and missing:
        state.story.append(_("The table named %(names)s the top hand.") % {"names": _names(named)})
        return list(named)
    if missing and not state.values:
        raise RoundError(_(SAY_TOP), "winners")
    if missing:
        i = state.table.players.index(missing[0])
        raise RoundError(
            _("enter %(name)s's cards or value, or name who had the top hand")
            % {"name": missing[0].name},
            "cards",
            seat=i,
        )
    values = counted(state, ())
    for name in state.playing:
        if values[name] != state.values[name]:
            state.story.append(
                _("%(name)s's 31 was not shown at once, so it counts as 30.") % {"name": name}
            )
    high = max(values.values())
    top = [name for name in state.playing if values[name] == high]
    if named is not None and set(top) != set(named):
        raise RoundError(
            _(
                "the cards entered make %(found)s the top hand, not %(named)s: correct the cards "
                "or the top hand"
            )
            % {"found": _names(top), "named": _names(named)},
            "winners",
        )
    said = {"names": _names(top), "value": points(high)}
    if len(top) == 1:
        state.story.append(_("%(names)s has the top hand, %(value)s.") % said)
    else:
        state.story.append(_("%(names)s tie for the top hand with %(value)s.") % said)
    return top


def void_tie(state: RoundState, lowest: list[str]) -> bool:
    """Whether a tie for lowest voids the hand (the rules' ``lowest_tie``): then nobody loses,
    the knocker included, and the story says so."""
    if len(lowest) < 2 or state.rules.lowest_tie != "void":
        return False
    state.void = True
    state.story.append(_("A tie for lowest voids the hand: nobody loses."))
    return True


# What the rules do to a knocker lives here alone: every ending that has a knocker (a knock, a
# second knock) calls these, so a switch about the knocker acts in each of them.


def knocker_alone_lowest(state: RoundState, knocker: str) -> None:
    """The knocker alone at the bottom: loses the rules' ``knocker_alone``, "caught" where the
    table says so."""
    alone = _("knocked and alone has the lowest hand")
    if state.rules.knocker_caught:
        # The kitchen-table text: "If the knocker is lowest, the knocker loses two (caught)."
        alone = _("caught: %(reason)s") % {"reason": alone}
    state.lose(knocker, state.rules.knocker_alone, alone)


def knocker_beaten(state: RoundState, knocker: str) -> None:
    """After the showdown, a knocker whose hand someone beat loses the rules' ``knocker_beaten``
    more, lowest or not; or, ``in_all``, 1 in all (github.com/paigedotgay's engine): nothing
    more when the showdown already cost them a life."""
    beaten = state.rules.knocker_beaten
    before = state.losses.get(knocker, 0)
    # In all: a knocker the showdown already cost a life loses nothing more, beaten or not, so
    # the table is not asked.
    if not beaten or state.void or (beaten == "in_all" and before):
        return
    if not _beaten(state, knocker):
        return
    if beaten == "in_all":
        why = _("knocked and someone had a better hand: a beaten knocker pays 1 in all")
        state.lose(knocker, 1, why)
        return
    more = int(beaten)
    if before:
        why = _("%(reason)s, and %(more)s more: a knocker must have the top hand") % {
            "reason": state.why[knocker],
            "more": lives_word(more),
        }
    else:
        why = _("knocked and someone had a better hand: a knocker must have the top hand")
    state.lose(knocker, before + more, why)


def _beaten(state: RoundState, knocker: str) -> bool:
    """Whether a hand beat the knocker's: by the cards, when everyone's were entered, or by
    the table's word (tied for the top is the top hand). A knocker's showdown has no shown
    31, so a 31 counts as the rules' ``unshown_31`` says (as 30, it only ties a 30)."""
    if all(name in state.values for name in state.playing):
        values = counted(state, ())
        return any(values[name] > values[knocker] for name in state.playing)
    # What the table already said answers it: the top hand named (tied for the top is the top
    # hand), or the knocker named lowest with a player above them. Only what the rules leave
    # open is asked.
    if state.outcome.winners is not None:
        return knocker not in state.outcome.winners
    lowest = state.outcome.lowest
    if lowest is not None and knocker in lowest:
        return any(name not in lowest for name in state.playing)
    choices = (
        Choice("top", _("%(name)s had the top hand") % {"name": knocker}),
        Choice("beaten", _("Someone beat %(name)s's hand") % {"name": knocker}),
    )
    why = _(
        "under these rules a knocker without the top hand loses a life more, and not every "
        "hand was entered"
    )
    return pick(state, choices, why) == "beaten"


def _knocker_tied(state: RoundState, knocker: str, others: list[str]) -> None:
    """The knocker tied for lowest with ``others``: who loses is the rules' ``knocker_tied``."""
    rules = state.rules
    tied = _("tied for lowest with %(knocker)s, the knocker") % {"knocker": knocker}
    said = {"names": _names(others)}
    if rules.knocker_tied == "safe":
        state.story.append(
            _("The knocker is safe in a tie, so %(knocker)s loses nothing.") % {"knocker": knocker}
        )
        safe = _("tied for lowest with %(knocker)s, the knocker, who is safe in a tie")
        for name in others:
            state.lose(name, 1, safe % {"knocker": knocker})
    elif rules.knocker_tied == "like_others":
        for name in others:
            state.lose(name, 1, tied)
        alike = _("knocked and tied for lowest with %(names)s; the knocker loses like the others")
        state.lose(knocker, 1, alike % said)
    elif rules.knocker_tied == "knocker_2_others_1":
        for name in others:
            state.lose(name, 1, tied)
        two = _("knocked and tied for lowest with %(names)s; a knocker in a tie loses 2")
        state.lose(knocker, 2, two % said)
    else:  # only_knocker
        state.story.append(
            ngettext(
                "Only the knocker loses in a tie, so %(names)s loses nothing.",
                "Only the knocker loses in a tie, so %(names)s lose nothing.",
                len(others),
            )
            % said
        )
        only = _("knocked and tied for lowest with %(names)s; only the knocker loses in a tie")
        state.lose(knocker, rules.knocker_alone, only % said)
