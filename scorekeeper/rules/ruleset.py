"""A rule set of 31: every switch a table can set, each declared once (``switch``) with its
default, its words and the rules version it came in; and what the switches together imply.

A rule set is an immutable value. House rules are a preset (``presets``) plus overrides; a
combination that makes no sense is refused with the reason (``RulesError``).
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .switches import RulesError, Switch, json_dump, json_value, switch, switches_of
from .words import _, gettext_noop, pgettext

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class RuleSet:
    # The way the game is played
    form: str = switch(
        gettext_noop("What the game is played for"),
        gettext_noop(
            "Lives, lost one by one until one player is left; or a pot: every hand each "
            "player pays in, and the highest hand takes it."
        ),
        {
            "lives": gettext_noop("Lives"),
            "pot": gettext_noop("A pot: an ante each hand, the highest hand wins it"),
        },
        default="lives",
        since=4,
    )
    ante: int = switch(
        gettext_noop("The ante"),
        gettext_noop("Coins each player pays into the pot every hand (a game played for a pot)."),
        None,
        low=1,
        high=100,
        default=1,
        since=4,
        form="pot",
    )
    # Hand value
    deck: int = switch(
        gettext_noop("Deck"),
        gettext_noop("How many cards the deck holds."),
        {52: gettext_noop("52 cards"), 32: gettext_noop("32 cards (7 to ace)")},
        default=52,
    )
    aces_wild: bool = switch(
        gettext_noop("Aces join any suit"),
        gettext_noop(
            "An ace counts 11 in every suit, so A♠ A♣ 9♦ is 31 and A♠ A♣ K♦ is 32 (the sum is not capped)."
        ),
        {False: gettext_noop("No"), True: gettext_noop("Yes")},
        default=False,
    )
    three_of_a_kind: Fraction | None = switch(
        gettext_noop("Three of a kind"),
        gettext_noop("What three cards of one rank are worth."),
        {
            None: gettext_noop("No special value (worth one card)"),
            30: gettext_noop("30"),
            Fraction(61, 2): gettext_noop("30.5"),
        },
        default=None,
    )
    three_aces: int | None = switch(
        gettext_noop("Three aces"),
        gettext_noop("What three aces are worth."),
        {
            None: gettext_noop("As any three of a kind"),
            32: gettext_noop("32"),
            33: gettext_noop("33 (fire)"),
        },
        default=None,
    )
    tie_break: str = switch(
        gettext_noop("Equal totals"),
        gettext_noop("What happens when two hands have the same total."),
        {
            "tie": gettext_noop("A tie"),
            "highest_card": gettext_noop(
                "Broken by the highest counted card, then the next "
                "(A K Q J 10 … 2 from the top); still equal is a tie"
            ),
            "highest_in_hand": gettext_noop(
                "Broken by the highest card of the whole hand, counted or not; the same "
                "highest rank is a tie"
            ),
            "highest_in_hand_then_next": gettext_noop(
                "Broken by the highest card of the whole hand, counted or not, then the next; "
                "still equal is a tie"
            ),
        },
        default="tie",
    )
    same_rank: str = switch(
        gettext_noop("Cards of one rank"),
        gettext_noop("Whether cards of the same rank add up across suits."),
        {
            "apart": gettext_noop("They count only with their own suit"),
            "adds": gettext_noop(
                "They add up like a suit: 7 7 7 is 21, a pair of tens with a 9 of either suit is 20"
            ),
        },
        default="apart",
        since=5,
    )
    # How a round ends
    middle: str = switch(
        gettext_noop("The middle"),
        gettext_noop("What lies face up between the players."),
        {
            "discard_pile": gettext_noop("A stock and a discard pile"),
            "three_face_up": gettext_noop(
                "Three face-up cards to swap with; when every player passes they are "
                "replaced from the stock (never after a knock)"
            ),
            "widow": gettext_noop(
                "The widow: three face-up cards to swap with, and no stock (the cards not "
                "dealt stay out of play)"
            ),
        },
        default="discard_pile",
    )
    knock_timing: str = switch(
        gettext_noop("When you knock"),
        gettext_noop("When in a turn a player may knock."),
        {
            "instead_of_draw": gettext_noop("At the start of a turn, instead of drawing"),
            "after_discard": gettext_noop("After discarding"),
        },
        default="instead_of_draw",
    )
    knock_out_of_gate: bool = switch(
        gettext_noop("Knocking out of the gate"),
        gettext_noop(
            "A knock on the very first turn of a hand shows the hands at once, with no more turns."
        ),
        {
            False: gettext_noop("No: the others still get one last turn"),
            True: gettext_noop("Yes: hands are shown at once"),
        },
        default=False,
    )
    min_knock: int | None = switch(
        gettext_noop("Lowest hand to knock"),
        gettext_noop("A player may knock only with at least this much."),
        None,
        low=1,
        high=31,
        optional=True,
        none_label=gettext_noop("None"),
        default=None,
    )
    knocker_alone: int = switch(
        gettext_noop("Knocker alone lowest"),
        gettext_noop("Lives a knocker loses when alone at the bottom of the showdown."),
        {2: gettext_noop("Loses 2"), 1: gettext_noop("Loses 1")},
        default=2,
        form="lives",
    )
    knocker_tied: str = switch(
        gettext_noop("Knocker tied for lowest"),
        gettext_noop("Who loses when the knocker ties for the lowest hand."),
        {
            "safe": gettext_noop("The knocker is safe; the others tied lose 1"),
            "like_others": gettext_noop("The knocker loses 1 like the others tied"),
            "knocker_2_others_1": gettext_noop("The knocker loses 2, the others tied lose 1"),
            "only_knocker": gettext_noop(
                "Only the knocker loses, as much as when alone at the bottom"
            ),
        },
        default="safe",
        form="lives",
    )
    knocker_beaten: int | str = switch(
        gettext_noop("A knocker without the top hand"),
        gettext_noop("What a knocker whose hand someone beat at the showdown loses."),
        {
            0: gettext_noop("Nothing more: a knocker loses only as the lowest hand"),
            1: gettext_noop(
                "1 life more, lowest or not: a knocker must have the top hand (tied for top "
                "is the top hand)"
            ),
            "in_all": gettext_noop(
                "1 life in all, lowest or not: a beaten knocker pays 1, never 1 more than the "
                "showdown cost"
            ),
        },
        default=0,
        since=3,
        form="lives",
    )
    second_knock: bool = switch(
        gettext_noop("A second knock"),
        gettext_noop(
            "After a knock, another player may knock too: the hand ends at once, and a tie "
            "for lowest goes against the first knocker, then the second."
        ),
        {False: gettext_noop("No"), True: gettext_noop("Yes")},
        default=False,
        since=3,
        form="lives",
    )
    showdown_loses: str = switch(
        gettext_noop("Who loses at a showdown"),
        gettext_noop("Who loses a life when the hands are shown."),
        {
            "lowest": gettext_noop("The lowest hand"),
            "all_but_top": gettext_noop(
                "Everyone but the top hand, 1 life each (tied for top is the top hand)"
            ),
        },
        default="lowest",
        since=7,
        form="lives",
    )
    lowest_tie: str = switch(
        gettext_noop("A tie for the lowest hand"),
        gettext_noop(
            "What happens when several players tie for the lowest hand at a showdown (after "
            "the tie break, where the rules have one)."
        ),
        {
            "all_lose": gettext_noop("Everyone tied for lowest loses"),
            "void": gettext_noop("Nobody loses: the hand is void"),
        },
        default="all_lose",
        since=6,
        form="lives",
    )
    thirty_one: str = switch(
        gettext_noop("A 31 shown in play"),
        gettext_noop("What a player showing 31 during play does."),
        {
            "others_lose_1": gettext_noop("The hand ends and every other player loses 1"),
            "showdown": gettext_noop(
                "The hand ends at once and the lowest hand loses as at a showdown"
            ),
            "last_turn": gettext_noop(
                "Everyone else gets one last turn, then the lowest hand loses as at a showdown "
                "(the 31 is the top hand)"
            ),
            "none": gettext_noop("Nothing special: play goes on"),
        },
        default="others_lose_1",
        form="lives",
    )
    thirty_one_after_knock: str = switch(
        gettext_noop("A 31 after a knock"),
        gettext_noop("What a 31 made on a last turn after a knock does."),
        {
            "counts": gettext_noop("It counts like any 31, the knocker losing 1 with the others"),
            "top_hand": gettext_noop(
                "It only ranks top at the showdown (31 counts only before a knock)"
            ),
            "knocker_loses_2": gettext_noop("It counts, and the knocker loses 2"),
        },
        default="counts",
        form="lives",
    )
    thirty_one_dealt: str = switch(
        gettext_noop("A 31 dealt"),
        gettext_noop("What a hand worth 31 straight from the deal does."),
        {
            "others_lose_1": gettext_noop("Shown before play; every other player loses 1"),
            "showdown": gettext_noop("The round ends at once and the lowest hand loses"),
            "others_lose_1_redeal": gettext_noop(
                "Every other player loses 1, then the cards are dealt again "
                "(a dealt hand worth 31 or more)"
            ),
        },
        default="others_lose_1",
        form="lives",
    )
    several_dealt_31: str = switch(
        gettext_noop("Several players dealt 31"),
        gettext_noop("When two or more players are dealt 31 and the others lose 1."),
        {
            "without_31_lose_1": gettext_noop("Every player without 31 loses 1"),
            "table_decides": gettext_noop("Not written down: the table decides"),
        },
        default="table_decides",
        form="lives",
    )
    unshown_31: str = switch(
        gettext_noop("A 31 not shown at once"),
        gettext_noop("A 31 kept quiet until the showdown."),
        {
            "counts_30": gettext_noop("Counts as 30 and cannot be claimed later"),
            "counts_31": gettext_noop("Counts 31"),
        },
        default="counts_31",
        form="lives",
    )
    three_aces_fire: bool = switch(
        gettext_noop("Three aces end the round"),
        gettext_noop("Fire: three aces end the round at once and every other player loses 1."),
        {False: gettext_noop("No"), True: gettext_noop("Yes")},
        default=False,
        form="lives",
    )
    dealt_three_fire: bool = switch(
        gettext_noop("A three of a kind dealt ends the round"),
        gettext_noop(
            "Fire: any three of a kind in a hand as dealt is shown before play, ends the round "
            "at once, and every other player loses 1."
        ),
        {False: gettext_noop("No"), True: gettext_noop("Yes")},
        default=False,
        since=7,
        form="lives",
    )
    stock_out: str = switch(
        gettext_noop("The stock runs out"),
        gettext_noop("What happens when nothing is left to draw."),
        {
            "showdown": gettext_noop(
                "Hands are shown and the lowest loses; with no knocker every tied player loses"
            ),
            "draw": gettext_noop("The hand is a draw: nobody loses a life"),
            "reshuffle": gettext_noop(
                "The discard pile, less its top card, becomes a new stock; play goes on"
            ),
        },
        default="reshuffle",
        form="lives",
    )
    knocker_caught: bool = switch(
        gettext_noop("A knocker alone at the bottom is “caught”"),
        gettext_noop("The table's word for a knocker whose hand alone is the lowest."),
        {False: gettext_noop("No"), True: gettext_noop("Yes")},
        default=False,
        since=3,
        form="lives",
    )
    # Lives and the end of the game
    lives: int = switch(
        gettext_noop("Lives at the start"),
        gettext_noop("Lives each player starts with."),
        None,
        low=1,
        high=10,
        default=3,
        form="lives",
    )
    last_chance: str | None = switch(
        gettext_noop("No lives left"),
        gettext_noop("What happens to a player who has lost their last life."),
        {
            "county": gettext_noop("On the county: plays on, the next loss puts them out"),
            "swimming": gettext_noop("Swimming: plays on, the next loss puts them out"),
            "brink": gettext_noop("On the brink: plays on, the next loss puts them out"),
            "trousers_down": gettext_noop(
                "Trousers down (“Hosen runter”): plays on, the next loss puts them out"
            ),
            "hosa_aba": gettext_noop(
                "Hosa aba (Swiss, “trousers down”): plays on, the next loss puts them out"
            ),
            "kuhreiter": gettext_noop(
                "Kuhreiter (Bavarian, “cow rider”): plays on, the next loss puts them out"
            ),
            None: gettext_noop("Out"),
        },
        default=None,
        form="lives",
    )
    going_out: str = switch(
        gettext_noop("The word for going out"),
        gettext_noop("What the table says of a player who is out of the game."),
        {
            "out": gettext_noop("Out"),
            "under": gettext_noop("Gone under (“geht unter”): the swimmer sinks"),
        },
        default="out",
        since=7,
        form="lives",
    )
    more_than_left: str = switch(
        gettext_noop("Losing more lives than are left"),
        gettext_noop(
            "What happens to a player with lives left who loses more than they have (2 with 1 "
            "left, say), where the rules have a last chance."
        ),
        {
            "out": gettext_noop("Out at once"),
            "last_chance": gettext_noop("The fall stops at the last chance"),
        },
        default="out",
        since=6,
        form="lives",
    )
    next_dealer: str = switch(
        gettext_noop("Next dealer"),
        gettext_noop("Who deals the next round."),
        {
            "left": gettext_noop("The player on the dealer's left"),
            "loser": gettext_noop(
                "The player who lost the round (when several lose, the first of them to "
                "the dealer's left who is still in; when the only loser goes out, the player on "
                "their left)"
            ),
        },
        default="left",
        form="lives",
    )
    first_dealer_again: str = switch(
        gettext_noop("First dealer of the next game"),
        gettext_noop("Who deals the first hand when the table plays again."),
        {
            "left": gettext_noop("The player on the left of who dealt first this game"),
            "first_out": gettext_noop(
                "The game's first loser: who went out first (several in one round: the first "
                "of them in seat order)"
            ),
        },
        default="left",
        since=6,
        form="lives",
    )
    all_out: str = switch(
        gettext_noop("Everyone would go out at once"),
        gettext_noop("When every player still in would go out in the same round."),
        {
            "replay": gettext_noop("Nobody loses and the hand is replayed"),
            "tie": gettext_noop("The game is a tie among them"),
            "revival": gettext_noop(
                "If the final two are both on the last chance and tie, both go out, every "
                "eliminated player returns on the last chance, and play goes on"
            ),
        },
        default="replay",
        form="lives",
    )
    round_limit: int | None = switch(
        gettext_noop("A set number of rounds"),
        gettext_noop(
            "Agreed up front: after this many rounds the most lives wins. Every hand dealt counts, "
            "a replayed hand and a drawn one included."
        ),
        None,
        low=1,
        high=200,
        optional=True,
        none_label=gettext_noop("No: the last player in wins"),
        default=None,
    )
    pot_at_end: str = switch(
        gettext_noop("The pot when the game ends"),
        gettext_noop(
            "What the lives paid into the middle do at the end, for a group that plays for "
            "coins: no source decides, so agree on it."
        ),
        {
            "stays": gettext_noop("It stays in the middle for the next game"),
            "winner": gettext_noop(
                "The winner takes it (a tie splits it; what does not divide stays)"
            ),
        },
        default="stays",
        since=3,
    )

    # Played at the table, kept by nobody: printed on the rules card so that a group's card
    # is complete; the engine never reads them.
    no_knock_first_round: bool = switch(
        gettext_noop("No knock in the first go-around"),
        gettext_noop("Nobody may knock before every player has had a turn."),
        {False: gettext_noop("No"), True: gettext_noop("Yes")},
        default=False,
        since=3,
        play_only=True,
    )
    new_middle_789: bool = switch(
        gettext_noop("A new middle for 7, 8 and 9"),
        gettext_noop("When the middle holds 7, 8 and 9, it is replaced from the stock."),
        {False: gettext_noop("No"), True: gettext_noop("Yes")},
        default=False,
        since=3,
        play_only=True,
    )
    pass_once: bool = switch(
        gettext_noop("Pass only once a round"),
        gettext_noop("A player may pass at most once in a round."),
        {False: gettext_noop("No"), True: gettext_noop("Yes")},
        default=False,
        since=3,
        play_only=True,
    )
    dealer_two_hands: bool = switch(
        gettext_noop("The dealer takes two hands"),
        gettext_noop(
            "The dealer deals an extra hand, looks at one and keeps it, or takes the other "
            "unseen; the one left becomes the middle."
        ),
        {False: gettext_noop("No"), True: gettext_noop("Yes")},
        default=False,
        since=3,
        play_only=True,
    )
    widow_swap: str = switch(
        gettext_noop("Swapping with the widow"),
        gettext_noop("How many cards a player swaps with the widow on a turn."),
        {
            "one": gettext_noop("One card"),
            "several": gettext_noop("One, two or all three cards"),
        },
        default="one",
        since=4,
        play_only=True,
        form="pot",
    )

    # ---- derived facts -------------------------------------------------------------------

    @property
    def best_hand(self) -> Fraction:
        """The best value any hand can reach under these rules."""
        best = Fraction(31)
        if self.aces_wild:
            best = max(best, Fraction(33))
        for special in (self.three_of_a_kind, self.three_aces):
            if special is not None:
                best = max(best, Fraction(special))
        return best

    @property
    def three_aces_worth(self) -> Fraction | None:
        """What three aces are worth as a hand of their own: their value, 33 where aces join
        any suit, or three of a kind's; None where they count as one card."""
        if self.three_aces is not None:
            return Fraction(self.three_aces)
        if self.aces_wild:
            return Fraction(33)
        return None if self.three_of_a_kind is None else Fraction(self.three_of_a_kind)

    @property
    def middle_cards(self) -> int:
        """Cards face up in the middle after the deal: the discard pile's first, or three."""
        return 1 if self.middle == "discard_pile" else 3

    @property
    def max_players(self) -> int:
        """Three cards each and the middle must come out of the deck: 17 or 16 players from 52
        cards, 10 or 9 from 32."""
        return (self.deck - self.middle_cards) // 3

    @property
    def most_lost(self) -> int:
        """The most lives one player can lose in one round under these rules."""
        two = (
            self.knocker_alone == 2
            or self.knocker_tied == "knocker_2_others_1"
            or self.thirty_one_after_knock == "knocker_loses_2"
        )
        # The most falls to a knocker, who may lose a life more for not having the top hand.
        return (2 if two else 1) + (1 if self.knocker_beaten == 1 else 0)

    def _by_last_chance(
        self, county: str, swimming: str, brink: str, trousers: str, hosa: str, cow: str
    ) -> str:
        """Of six words (one per last chance), this rule set's."""
        words = {
            "swimming": swimming,
            "brink": brink,
            "trousers_down": trousers,
            "hosa_aba": hosa,
            "kuhreiter": cow,
        }
        return words.get(self.last_chance or "county", county)

    def status_label(self, status: str) -> str:
        """The rule set's own word for a status: in, on the county, swimming, on the brink,
        trousers down, out, gone under."""
        if status == "county":
            return self._by_last_chance(
                pgettext("status", "on the county"),
                pgettext("status", "swimming"),
                pgettext("status", "on the brink"),
                pgettext("status", "trousers down"),
                pgettext("status", "Hosa aba"),
                pgettext("status", "Kuhreiter"),
            )
        if status == "out":
            if self.going_out == "under":
                return pgettext("status", "gone under")
            return pgettext("status", "out")
        return pgettext("status", "in")

    def now_sentence(self, status: str) -> str:
        """ "%(name)s is now swimming.": a whole sentence per status, as languages say each
        differently ("Ben schwimmt jetzt", "Ben ist jetzt raus")."""
        if status == "county":
            return self._by_last_chance(
                _("%(name)s is now on the county."),
                _("%(name)s is now swimming."),
                _("%(name)s is now on the brink."),
                _("%(name)s now has their trousers down."),
                _("%(name)s is now Hosa aba."),
                _("%(name)s is now the Kuhreiter."),
            )
        if status == "out":
            if self.going_out == "under":
                return _("%(name)s has gone under.")
            return _("%(name)s is now out.")
        return _("%(name)s is now in.")

    def returning_words(self) -> str:
        """How eliminated players come back in a revival: "on the county", "swimming"."""
        return self._by_last_chance(
            pgettext("returns", "on the county"),
            pgettext("returns", "swimming"),
            pgettext("returns", "on the brink"),
            pgettext("returns", "with their trousers down"),
            pgettext("returns", "Hosa aba"),
            pgettext("returns", "as Kuhreiter"),
        )

    # ---- building ------------------------------------------------------------------------

    def replace(self, overrides: dict[str, Any]) -> RuleSet:
        """These rules with some switches changed; refuses unknown switches, bad values and
        combinations that make no sense."""
        values = {}
        for name, raw in overrides.items():
            if name not in BY_NAME:
                raise RulesError(
                    _("there is no house rule called “%(name)s”") % {"name": name}, name
                )
            values[name] = BY_NAME[name].read(raw)
        rules = dataclasses.replace(self, **values)
        rules.check()
        return rules

    def check(self) -> None:
        """Refuse combinations that make no sense, saying why."""
        if self.all_out == "revival" and self.last_chance is None:
            raise RulesError(
                _(
                    "the revival brings eliminated players back on the last chance, so it needs "
                    "a last chance (county, swimming or brink)"
                ),
                "all_out",
            )
        if self.thirty_one_after_knock != "counts" and self.thirty_one != "others_lose_1":
            raise RulesError(
                _(
                    "a 31 after a knock can only be special when a 31 shown in play costs every "
                    "other player a life"
                ),
                "thirty_one_after_knock",
            )
        if self.unshown_31 == "counts_30" and self.thirty_one == "none":
            raise RulesError(
                _("a 31 cannot lose its value for not being shown when showing 31 does nothing"),
                "unshown_31",
            )
        if self.three_aces_fire and self.three_aces_worth is None:
            raise RulesError(
                _(
                    "three aces can only end the round as fire when they have a value of their "
                    "own (32 or 33) or count as three of a kind (30 or 30.5)"
                ),
                "three_aces_fire",
            )
        if self.aces_wild and self.three_aces is not None:
            raise RulesError(
                _(
                    "when aces join any suit three aces already count 33, so a value of their "
                    "own would change nothing"
                ),
                "three_aces",
            )
        if self.min_knock is not None and self.min_knock > self.best_hand:
            raise RulesError(_("nobody could ever knock with that minimum"), "min_knock")
        if self.min_knock is not None and self.min_knock >= 31 and self.thirty_one != "none":
            raise RulesError(
                _(
                    "a 31 is shown, not knocked with, so nobody could ever knock with a minimum "
                    "of %(min)d"
                )
                % {"min": self.min_knock},
                "min_knock",
            )

    def as_dict(self) -> dict[str, Any]:
        return {s.name: json_value(getattr(self, s.name)) for s in SWITCHES}

    def changed_from(self, other: RuleSet) -> tuple[str, ...]:
        """The switches set otherwise than in ``other`` (a game's house rules, from its preset)."""
        return tuple(s.name for s in SWITCHES if getattr(self, s.name) != getattr(other, s.name))

    def applies(self, switch: Switch) -> bool:
        """Whether a switch is read in the way this game is played (lives, or a pot)."""
        return switch.form is None or switch.form == self.form

    @property
    def played_for_pot(self) -> bool:
        return self.form == "pot"

    def value_readings(self) -> dict[str, str]:
        """Cases that these switches together leave open and that the engine decides, by the
        switch whose card row says so: our readings, in the table's language."""
        said: dict[str, str] = {}
        if self.same_rank == "adds" and self.three_aces is None:
            # Board Game Arena, whose option this is, gives "A A A is 30", which adding up
            # contradicts; its text could not settle it.
            said["same_rank"] = _(
                "three aces add up to 33, more than 31, where “%(aces)s” gives them no value "
                "of their own"
            ) % {"aces": _(BY_NAME["three_aces"].label)}
        if self.form == "pot":
            # No source says what equal highest hands that the tie break leaves equal do.
            said["tie_break"] = _(
                "highest hands still equal share the pot; what does not divide stays in the middle"
            )
            return said
        if self.thirty_one == "last_turn" and self.unshown_31 == "counts_30":
            said["unshown_31"] = _(
                "a second 31 made on the last turn after a 31 was shown counts as 30: it was "
                "not shown at once"
            )
        if self.lowest_tie == "void":
            # The family rule on hobbylark's "Stop the Bus" says only that a tie costs nobody.
            said["lowest_tie"] = _(
                "a void hand costs nobody anything, the knocker included (a knocker tied for "
                "lowest or beaten loses nothing), at every showdown: after a knock, a second "
                "knock, a 31 or the stock running out; the deal then moves on, as after any "
                "hand, even when everyone still in tied (a hand is dealt again by the same dealer "
                "only where everyone would go out at once, which a void tie never does)"
            )
        if self.more_than_left == "last_chance" and self.last_chance is None:
            said["more_than_left"] = _(
                "these rules have no last chance, so a player who loses more than they have is out"
            )
        said.update(self._variant_readings())
        return said

    def _top_reading(self) -> str:
        """``all_but_top``: gamepoint's page says only that every player below the best hand
        loses a life. The tie break's sources use it to find the lowest hand, where it settles
        who loses; at the top, everyone at the highest total keeps their life."""
        if self.tie_break == "tie":
            return _(
                "the knocker below the top hand loses 1 like everyone else (the switches for "
                "a knocker at the bottom and for a tie for lowest do not apply); a 31 shown is "
                "the top hand; after a knock the table names the top hand, not the lowest"
            )
        return _(
            "the knocker below the top hand loses 1 like everyone else (the switches for "
            "a knocker at the bottom and for a tie for lowest do not apply); a 31 shown is "
            "the top hand; after a knock the table names the top hand, not the lowest; "
            "hands tied for the top total all keep their lives: the tie break settles "
            "ties for lowest, not for the top"
        )

    def _variant_readings(self) -> dict[str, str]:
        """``value_readings`` of the variants outside engines and other tables play."""
        said: dict[str, str] = {}
        if self.first_dealer_again == "first_out":
            said["first_dealer_again"] = _(
                "a game that ends with nobody out (after a set number of rounds) passes the "
                "first deal to the left"
            )
        if self.three_aces_fire and self.three_aces is None and not self.aces_wild:
            # github.com/spossner's engine plays it: three aces at 30.5 that end the round.
            said["three_aces_fire"] = _(
                "three aces are fire at the value of three of a kind: shown, they end the round "
                "at once, though a 31 would beat them at a showdown"
            )
        if self.showdown_loses == "all_but_top":
            said["showdown_loses"] = self._top_reading()
        if self.knocker_beaten == "in_all":
            # github.com/paigedotgay's engine: "pays one life whether or not also lowest".
            said["knocker_beaten"] = _(
                "a beaten knocker who is also lowest loses what the showdown costs (alone at the "
                "bottom, as “%(alone)s” says), and nothing more"
            ) % {"alone": _(BY_NAME["knocker_alone"].label)}
        if self.dealt_three_fire:
            # gamexpla.in says only that a dealt three of a kind ends the round as fire.
            said["dealt_three_fire"] = _(
                "a dealt three of a kind is fire before any dealt 31: the table records the three "
                "of a kind; two such hands dealt: the first from the dealer's left shows"
            )
        # The words of Austrian and Swiss tables; no written source gives them as rules.
        if self.last_chance in ("trousers_down", "hosa_aba", "kuhreiter"):
            said["last_chance"] = _(
                "only the word changes: a player with their trousers down (or Hosa aba, or the "
                "Kuhreiter) plays and scores as one on the county"
            )
        if self.going_out == "under":
            said["going_out"] = _(
                "only the word changes: a player who has gone under is out, as anywhere else"
            )
        if self.second_knock:
            said["second_knock"] = _(
                "only the first knocker is the knocker: a second knocker alone at the bottom "
                "loses 1, like any lowest hand; a single knock (nobody knocked second) is a "
                "plain knock, and a knocker tied for lowest fares as “%(tied)s” says"
            ) % {"tied": _(BY_NAME["knocker_tied"].label)}
        return said

    def describe(self, readings: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
        """Every switch of the way this game is played, in words, for a rules card: label,
        value, words, help, our reading (and, where the engine decides a case these switches
        together leave open, what it decides)."""
        decided = self.value_readings()
        return [
            {
                "name": s.name,
                "label": _(s.label),
                "value": json_value(getattr(self, s.name)),
                "words": s.words(getattr(self, s.name)),
                "help": _(s.help),
                "our_reading": s.name in readings or s.name in decided,
                "reading": decided.get(s.name, ""),
                "play_only": s.play_only,
            }
            for s in SWITCHES
            if self.applies(s)
        ]


SWITCHES: tuple[Switch, ...] = switches_of(RuleSet)
BY_NAME = {s.name: s for s in SWITCHES}


def value_words(switch: Switch, value: Any) -> str:
    """A switch's value in words, in the table's language."""
    return switch.words(value)


# The switches ``RuleSet.most_lost`` reads: every combination of their values gives the most
# any rules can cost, the bound the API publishes for a round counted by hand.
MOST_LOST_READS = ("knocker_alone", "knocker_tied", "thirty_one_after_knock", "knocker_beaten")


def most_lost_under_any_rules() -> int:
    """The most lives one player can lose in one round under any rules Knock plays."""
    choices = [list(BY_NAME[name].choices or ()) for name in MOST_LOST_READS]
    return max(
        RuleSet(**dict(zip(MOST_LOST_READS, values, strict=True))).most_lost
        for values in itertools.product(*choices)
    )


# The version of the switches a game stores beside its rules: the newest switch's. Version 2
# added no switch; games began storing the version with it (1: games stored before).
RULES_VERSION = max(2, *(s.since for s in SWITCHES))


# A value whose meaning changed: a game stored before the version plays the value that now
# means what it meant. Version 5 made ``highest_in_hand`` read as its source does (the highest
# card only); the games stored before it go on to the next card, as they did.
READ_AGAIN: tuple[tuple[int, str, Any, Any], ...] = (
    (5, "tie_break", "highest_in_hand", "highest_in_hand_then_next"),
)


def stored_rules(
    values: dict[str, Any], version: int, switches: tuple[Switch, ...] = SWITCHES
) -> RuleSet:
    """A game's rules read back from what it stored at ``version``: every switch it had, and
    for each switch that came later, what games played before it existed. A switch missing
    from both is refused, never filled in from a preset."""
    values = dict(values)
    for before, name, old, new in READ_AGAIN:
        if version < before and values.get(name) == old:
            values[name] = new
    for later in switches:
        if later.since > version:
            values.setdefault(later.name, json_value(later.played_before))
    missing = [s.name for s in switches if s.name not in values]
    if missing:
        raise RulesError(
            _("the stored rules have no value for “%(name)s”") % {"name": missing[0]}, missing[0]
        )
    return RuleSet().replace(values)  # every switch given: no default is used


def stored_form(rules: RuleSet) -> tuple[dict[str, Any], int]:
    """What a game stores of its rules, and the rules version it stores them at: the oldest
    version that reads them back the same (``stored_rules``), with only the switches that
    version had. A server of the release before (a rolling upgrade under way) then reads every
    game that uses nothing newer than it knows; one that does is stored as new as it needs."""
    values = rules.as_dict()
    for version in range(min(s.since for s in SWITCHES), RULES_VERSION):
        kept = {name: value for name, value in values.items() if BY_NAME[name].since <= version}
        try:
            if stored_rules(kept, version) == rules:
                return kept, version
        except RulesError:
            continue
    return values, RULES_VERSION


__all__ = [
    "BY_NAME",
    "HALF",
    "RULES_VERSION",
    "SWITCHES",
    "RuleSet",
    "RulesError",
    "json_dump",
    "json_value",
    "stored_form",
    "stored_rules",
    "value_words",
]
