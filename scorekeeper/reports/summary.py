"""A finished game in a few lines: who won, who went out when, how long it took, the 31s shown
and the knocks that got caught. Shown when the game is over, and shared as text."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Game, Round
from ..rules.words import coins as signed


@dataclass
class Summary:
    result: str
    rounds: int
    went_out: list[tuple[str, int]] = field(default_factory=list)  # (name, round), in order
    duration: timedelta | None = None
    thirty_ones: list[tuple[str, int]] = field(default_factory=list)  # (name, how many)
    caught: list[tuple[str, int]] = field(default_factory=list)  # knockers who lost, how often
    # Each player's coins at the end, a life paid into the middle being a coin: what they paid,
    # and the pot back to the winner where the table plays it so (``pot_at_end``).
    coins: list[tuple[str, int]] = field(default_factory=list)
    pot_left: int = 0  # what stays in the middle

    @property
    def coins_words(self) -> str:
        """ "Ann +5, Ben −2, Cat −3": the most won first."""
        return ", ".join(f"{name} {signed(n)}" for name, n in self.coins)

    @property
    def duration_words(self) -> str:
        if self.duration is None:
            return ""
        minutes = round(self.duration.total_seconds() / 60)
        if minutes < 1:
            return _("under a minute")
        if minutes < 60:
            return _("%(minutes)d min") % {"minutes": minutes}
        return _("%(hours)d h %(minutes)02d min") % {
            "hours": minutes // 60,
            "minutes": minutes % 60,
        }

    def share_text(self, preset_name: str) -> str:
        """The game in a short text, for a message to the group."""
        said = {
            "result": self.result,
            "n": self.rounds,
            "took": self.duration_words,
            "rules": preset_name,
        }
        if self.duration_words:
            lines = [
                ngettext(
                    "%(result)s after %(n)d round, %(took)s (%(rules)s).",
                    "%(result)s after %(n)d rounds, %(took)s (%(rules)s).",
                    self.rounds,
                )
                % said
            ]
        else:
            lines = [
                ngettext(
                    "%(result)s after %(n)d round (%(rules)s).",
                    "%(result)s after %(n)d rounds (%(rules)s).",
                    self.rounds,
                )
                % said
            ]
        if self.went_out:
            out = ", ".join(
                _("%(name)s (round %(n)d)") % {"name": name, "n": n} for name, n in self.went_out
            )
            lines.append(_("Out: %(players)s.") % {"players": out})
        if self.thirty_ones:
            lines.append(_("31s: %(players)s.") % {"players": _counted(self.thirty_ones)})
        if self.caught:
            lines.append(_("Knocked and caught: %(players)s.") % {"players": _counted(self.caught)})
        if self.coins:
            lines.append(_("Coins: %(coins)s.") % {"coins": self.coins_words})
        return " ".join(lines)


def coins_at_the_end(
    names: tuple[str, ...], paid: list[int], winners: tuple[str, ...], to_winner: bool
) -> tuple[list[tuple[str, int]], int]:
    """Each player's coins when the game ends, the most first, and what stays in the middle:
    everyone is down what they paid; where the winner takes the pot, the winner (or those who
    tie, in equal shares) gets it, and what does not divide stays (our reading)."""
    pot = sum(paid)
    share = pot // len(winners) if to_winner and winners else 0
    coins = [
        (name, (share if name in winners else 0) - lost)
        for name, lost in zip(names, paid, strict=True)
    ]
    left = pot - share * len(winners) if to_winner and winners else pot
    return sorted(coins, key=lambda pair: -pair[1]), left


def _counted(pairs: list[tuple[str, int]]) -> str:
    return ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in pairs)


def summarise(game: Game) -> Summary:
    """From what is stored: the state (who went out in which round), the seats' tallies (the
    31s and the knocks caught, as the club's statistics count them) and the first and last
    rounds' times; no round is worked out again, however long the game."""
    state = game.state
    went_out = sorted(
        ((name, n) for name, n in zip(state.names, state.out_in, strict=True) if n is not None),
        key=lambda out: out[1],
    )
    # The seats' tallies, each with the times of the game's first and last rounds: one query.
    rounds = Round.objects.as_of(game.version).filter(game=OuterRef("game"))
    seats = list(
        game.seats.order_by("position")
        .annotate(
            first=Subquery(rounds.order_by("created").values("created")[:1]),
            last=Subquery(rounds.order_by("-created").values("created")[:1]),
        )
        .values_list("thirty_ones", "knocks_caught", "first", "last")
    )
    totals = {
        name: {"thirty_ones": shown, "knocks_caught": caught}
        for name, (shown, caught, _first, _last) in zip(state.names, seats, strict=True)
    }
    first, last = seats[0][2], seats[0][3]
    duration = last - first if state.rounds > 1 and first else None
    if state.coins:  # a game played for a pot: its coins are the score
        coins = sorted(zip(state.names, state.coins, strict=True), key=lambda pair: -pair[1])
        left = state.pot
    else:
        paid = [state.start_lives - lives for lives in state.lives]
        winners = (state.winner,) if state.winner else state.tie
        to_winner = game.rules.pot_at_end == "winner"
        coins, left = coins_at_the_end(state.names, paid, winners, to_winner)
    return Summary(
        result=state.result_words or _("The game is over"),
        rounds=state.rounds,
        went_out=went_out,
        duration=duration,
        thirty_ones=_most_first(totals, "thirty_ones"),
        caught=_most_first(totals, "knocks_caught"),
        coins=coins,
        pot_left=left,
    )


def _most_first(totals: dict[str, dict[str, int]], tally: str) -> list[tuple[str, int]]:
    counts = Counter({name: t[tally] for name, t in totals.items() if t[tally]})
    return counts.most_common()
