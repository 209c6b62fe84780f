"""A round counted by hand, as on a paper sheet: the table says who lost how many lives, and
the rules apply it (the last chance, out, the pot, the deal, the winner)."""

from __future__ import annotations

from ..round import RoundError, RoundState
from ..words import _, gettext_noop
from ..words import lives as lives_word
from .base import COUNTED, Ending, declared


@declared
class CountedByHand(Ending):
    id = COUNTED
    order = 100
    words = gettext_noop("counted by hand")
    chip = gettext_noop("Counted by hand")
    by_hand = True

    def check(self, state: RoundState) -> None:
        """A round counted by hand names who lost how many lives, and nothing else."""
        rules, outcome = state.rules, state.outcome
        if outcome.knocker is not None or outcome.shown_by or outcome.lowest is not None:
            raise RoundError(
                _(
                    "a round counted by hand names only who lost lives, not who knocked, "
                    "showed or was lowest"
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
                raise RoundError(
                    _("%(name)s is not playing in this game") % {"name": name}, "losses"
                )
            seat = seats[name]
            if name not in state.playing:
                raise RoundError(
                    _("%(name)s is out, so cannot lose a life") % {"name": name},
                    "losses",
                    seat=seat,
                )
            if not 1 <= lives <= rules.most_lost:
                raise RoundError(
                    _(
                        "%(name)s cannot lose %(lives)s in one round: under these rules a "
                        "round costs a player at most %(most)s"
                    )
                    % {
                        "name": name,
                        "lives": lives_word(lives),
                        "most": lives_word(rules.most_lost),
                    },
                    "losses",
                    seat=seat,
                )

    def score(self, state: RoundState) -> None:
        losses = state.outcome.losses or {}
        state.story.append(_("The table counted this round by hand."))
        if state.unusual:  # no round of these rules costs these lives (``resolve`` asked)
            state.story.append(
                _("No round of these rules costs these lives; it is kept as the table counted it.")
            )
        for name in state.playing:
            if losses.get(name):
                state.lose(name, losses[name], _("counted by hand"))
