"""Whether any round of these rules gives a round counted by hand: a paper sheet allows
anything, so the table may keep what it counted, but it is told first when no knock, 31 or
showdown of its rules costs those lives (say, two players losing 2 under scat).

The engine itself answers: every way a round can end is tried with the players who lost, and
one player who did not (the others who did not lose are alike for this), as the knocker, the
players who showed, and the lowest.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace

from .checks import losses_of
from .endings import ENDINGS
from .endings.base import Ending
from .round import Outcome, RoundError, Table, TableDecides
from .ruleset import RuleSet


def gives(rules: RuleSet, table: Table, losses: Mapping[str, int]) -> bool:
    """Whether some round of these rules, at this table, costs exactly ``losses``."""
    wanted = {name: lives for name, lives in losses.items() if lives}
    playing = [seat.name for seat in table.players if seat.playing]
    if len(wanted) == 1 and set(wanted.values()) == {1} and len(playing) > 1:
        return True  # the lowest hand alone, under every rule set
    losers = [name for name in playing if name in wanted]
    others = [name for name in playing if name not in wanted]
    return any(
        cost == wanted
        for outcome in _outcomes(rules, losers, others)
        for cost in _costs(rules, table, outcome)
    )


def _costs(rules: RuleSet, table: Table, outcome: Outcome) -> Iterator[dict[str, int]]:
    """What the round costs, for each pick of the table's where the rules leave it open."""
    try:
        yield losses_of(rules, table, outcome)
    except RoundError:
        return
    except TableDecides as open_question:
        if outcome.choice is None:
            for choice in open_question.choices:
                yield from _costs(rules, table, replace(outcome, choice=choice.id))


def _outcomes(rules: RuleSet, losers: list[str], others: list[str]) -> Iterator[Outcome]:
    one_other = others[:1]
    for ending in ENDINGS.values():
        if not ending.offered(rules):
            continue
        for knocker in _knockers(ending, losers + one_other):
            for shown in _shown(ending, losers, others):
                for lowest in _lowest(ending, rules, losers, one_other, knocker):
                    yield Outcome(ending.id, knocker, shown, lowest)


def _knockers(ending: Ending, candidates: list[str]) -> list[str | None]:
    if ending.knocker == "required":
        return list(candidates)
    if ending.knocker == "refused":
        return [None]
    return [None, *candidates]


def _shown(ending: Ending, losers: list[str], others: list[str]) -> list[tuple[str, ...]]:
    if ending.shows == "none":
        return [()]
    single: list[tuple[str, ...]] = [(name,) for name in losers + others[:1]]
    if ending.shows == "several" and len(others) > 1:
        return [*single, tuple(others)]
    return single


def _lowest(
    ending: Ending,
    rules: RuleSet,
    losers: list[str],
    one_other: list[str],
    knocker: str | None,
) -> list[tuple[str, ...] | None]:
    if not ending.asks_lowest(rules):
        return [None]
    sets = {tuple(losers)}
    if knocker is not None:
        sets.add(tuple(dict.fromkeys([*losers, knocker])))
        sets.add(tuple(dict.fromkeys([*losers, knocker, *one_other])))
    return [s for s in sets if s]
