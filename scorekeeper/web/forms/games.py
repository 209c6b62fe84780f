"""Forms for games: a new game, its name, and recording rounds at the table."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ... import play
from ...lib.text import sentence
from ...models import Club, Game, GameSeat, Player, RoundInputs
from ...rules import (
    COUNTED,
    ENDINGS,
    PRESETS,
    ROUND_ENDINGS,
    Ending,
    RuleSet,
    build_rules,
)
from ...rules.cards import (
    RANKS,
    Card,
    CardError,
    Suit,
    card_words_of,
    check_hand,
    deck,
    parse_cards,
    rank_letter,
    rank_word,
)
from ...rules.checks import hand_problems
from ...rules.endings import BY_HAND, offered
from ...rules.errors import InputError
from ...rules.game import GameState, asked_round
from ...rules.hands import evaluate
from ...rules.ruleset import json_value
from .clubs import plain_text
from .house_rules import HouseRulesMixin, house_rules_initial


class GameNameField(forms.CharField):
    """A game's name ("Friday at Ana's"): plain text, its spaces as one, or nothing."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            label=gettext_lazy("Name of the game"),
            required=False,
            max_length=100,
            strip=True,
            validators=[plain_text],
            **kwargs,
        )

    def to_python(self, value: Any) -> str:
        return " ".join(str(super().to_python(value)).split())


class GameNameForm(forms.Form):
    name = GameNameField()


class VersionForm(forms.Form):
    """The game version a phone saw, as a tap sends it."""

    version = forms.IntegerField(required=False, min_value=0, max_value=2**31 - 1)


class PlayAgainForm(forms.Form):
    """ "Play again": the new game's id, where the phone made it (it may have started the game
    without a connection); none, and the server makes one."""

    id = forms.UUIDField(required=False)

    def clean_id(self) -> uuid.UUID | None:
        """A phone makes a random id (version 4): any other (the nil id, a made-up one) is
        refused."""
        id = self.cleaned_data["id"]
        if id is not None and id.version != 4:
            raise forms.ValidationError(_("make a random id (a version 4 UUID) for the new game"))
        return id


class NewGameForm(HouseRulesMixin, forms.Form):
    """Who plays, in which seats, who deals first, and under which rules."""

    preset = forms.ChoiceField(
        label=gettext_lazy("Rules"),
        choices=lambda: [(p.id, p.title) for p in PRESETS.values()],
        initial="scat",
    )
    lives = forms.IntegerField(
        label=gettext_lazy("Lives at the start"),
        min_value=1,
        max_value=10,
        required=False,
        help_text=gettext_lazy("Leave empty for what the rules say (3)."),
    )
    new_players = forms.CharField(
        label=gettext_lazy("New players"),
        required=False,
        max_length=600,
        help_text=gettext_lazy(
            "Names separated by commas, added to the club and seated after the others."
        ),
    )
    first_dealer = forms.CharField(required=False, max_length=80)
    mode = forms.ChoiceField(
        label=gettext_lazy("How the table keeps score"),
        choices=Game.Mode.choices,
        initial=Game.Mode.REFEREE,
        widget=forms.RadioSelect,
        required=False,
    )
    length = forms.ChoiceField(
        label=gettext_lazy("How long"),
        initial="last_one",
        widget=forms.RadioSelect,
        required=False,
        choices=[
            ("last_one", gettext_lazy("Until one player is left")),
            ("rounds", gettext_lazy("A set number of rounds")),
        ],
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds"), required=False, min_value=1, max_value=200
    )
    name = GameNameField(help_text=gettext_lazy("Optional: “Friday at Ana's”."))
    save_rules = forms.BooleanField(
        label=gettext_lazy("Save these rules as our rules"),
        required=False,
        help_text=gettext_lazy("Every new game of the club then starts from them."),
    )

    # A club's first game ticks all its players when there are at most this many.
    FIRST_TABLE = 8

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        self.club = club
        self.members = self._listed(club)
        self.our_rules = self._our_rules()
        kwargs["initial"] = {**self._as_last_time(), **self.our_rules, **kwargs.get("initial", {})}
        super().__init__(*args, **kwargs)
        for player in self.members:
            self.fields[f"plays_{player.pk}"] = forms.BooleanField(required=False)
            self.fields[f"seat_{player.pk}"] = forms.IntegerField(
                required=False, min_value=1, max_value=99
            )
        self.add_house_rule_fields()

    # A club of more players lists those of its latest games first, up to this many; any other
    # player is typed by name under "New players" (a name the club has is that player).
    MOST_LISTED = 60

    @classmethod
    def _listed(cls, club: Club) -> list[Player]:
        active = club.players.filter(retired=False)
        if active.count() <= cls.MOST_LISTED:
            return list(active)
        recent = GameSeat.objects.filter(game__club=club, player__retired=False)
        ids = list(
            dict.fromkeys(
                recent.order_by("-game__created").values_list("player_id", flat=True)[:500]
            )
        )
        listed = {p.pk: p for p in active.filter(pk__in=ids[: cls.MOST_LISTED])}
        rest = active.exclude(pk__in=listed)[: cls.MOST_LISTED - len(listed)]
        return sorted([*listed.values(), *rest], key=lambda p: p.name_key)

    def _as_last_time(self) -> dict[str, Any]:
        """The club's last game as the new one's start: its players ticked in their seats, its
        rules and way of keeping score, and the first deal one seat on."""
        last = self.club.games.order_by("-created").first()
        if last is None:
            # The club's first game: everyone it has plays, when they fit round one table.
            if 2 <= len(self.members) <= self.FIRST_TABLE:
                return {f"plays_{player.pk}": True for player in self.members}
            return {}
        seats = last.seat_list
        initial: dict[str, Any] = {"preset": last.preset, "mode": last.mode}
        for seat in seats:
            initial[f"plays_{seat.player_id}"] = True
            initial[f"seat_{seat.player_id}"] = seat.position + 1
        initial["first_dealer"] = f"p{seats[(last.first_dealer + 1) % len(seats)].player_id}"
        return initial

    def _our_rules(self) -> dict[str, Any]:
        """The club's saved rules as the form's start, when it has some that still read."""
        saved = self.club.our_rules
        if not saved:
            return {}
        try:
            rules, preset = build_rules(
                {"preset": saved["preset"], "overrides": saved["overrides"]}
            )
        except (InputError, KeyError, TypeError):
            return {}  # saved by an older Knock and no longer valid: the preset's rules then
        initial: dict[str, Any] = {
            "preset": preset.id,
            "mode": saved.get("mode", "referee"),
            **house_rules_initial(rules, preset.rules, self.ASKED_APART),
        }
        if rules.lives != preset.rules.lives:
            initial["lives"] = rules.lives
        if rules.round_limit is not None:
            initial["length"], initial["rounds"] = "rounds", rules.round_limit
        return initial

    @property
    def has_our_rules(self) -> bool:
        return bool(self.our_rules)

    def presets(self) -> list[dict[str, Any]]:
        chosen = str(self["preset"].value())
        return [
            {"id": p.id, "name": p.title, "description": p.summary, "checked": p.id == chosen}
            for p in PRESETS.values()
        ]

    def member_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "player": player,
                "plays": self[f"plays_{player.pk}"],
                "seat": self[f"seat_{player.pk}"],
                "deals": self["first_dealer"].value() == f"p{player.pk}",
            }
            for player in self.members
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        overrides = self.house_rule_overrides()
        if data.get("lives"):
            overrides["lives"] = data["lives"]
        if data.get("length") == "rounds":
            if not data.get("rounds"):
                self.add_error("rounds", _("Say how many rounds."))
                return data
            overrides["round_limit"] = data["rounds"]
        data["overrides"] = overrides
        try:
            data["rules"], _preset = build_rules({"preset": data["preset"], "overrides": overrides})
        except InputError as refusal:
            self.refuse_rules(refusal)
            return data
        chosen = [
            (data.get(f"seat_{p.pk}") or 100, i, p)
            for i, p in enumerate(self.members)
            if data.get(f"plays_{p.pk}")
        ]
        data["seated"] = [p for _seat, _i, p in sorted(chosen, key=lambda c: (c[0], c[1]))]
        names = [" ".join(n.split()) for n in (data.get("new_players") or "").split(",")]
        data["new_names"] = [n for n in names if n]
        if len(data["seated"]) + len(data["new_names"]) < 2:
            self.add_error(None, _("Pick at least two players."))
        return data

    def start(self) -> Game:
        """Add the new players and start the game (all or nothing); save the rules as the
        club's own if asked."""
        data = self.cleaned_data
        rules: RuleSet = data["rules"]
        seats: list[Player | str] = [*data["seated"], *data["new_names"]]
        choice = data.get("first_dealer") or ""
        dealer = next(
            (
                i
                for i, seat in enumerate(seats)
                if choice == (f"p{seat.pk}" if isinstance(seat, Player) else f"n{seat}")
            ),
            0,
        )
        mode = data.get("mode") or Game.Mode.REFEREE
        game = play.start_game(
            self.club, seats, dealer, rules, data["preset"], mode, name=data.get("name") or ""
        )
        if data.get("save_rules"):
            overrides = {name: json_value(getattr(rules, name)) for name in data["overrides"]}
            play.save_our_rules(self.club, data["preset"], overrides, mode)
        return game


def tap_hint(rules: RuleSet, ending: Ending) -> str:
    """What to tap for an ending, in the order the taps answer it, in one short line."""
    if ending.by_hand:
        return _("Tap a player to take a life, twice for 2.")
    what = {"knocker": _("the knocker"), "lowest": _("the lowest"), "winners": _("the winner")}
    if ending.shown_question:
        what["shown_by"] = _(ending.shown_question)
    order = ending.tap_order(rules)
    if not order:
        return _("Nothing to tap: record it.")
    optional = ending.knocker == "asked"
    taps = _(", then ").join(what[q] for q in order if not (optional and q == "knocker"))
    if optional:
        return _("Tap %(taps)s (then the knocker, if any).") % {"taps": taps}
    return _("Tap %(taps)s.") % {"taps": taps}


class RecordForm(forms.Form):
    """How a round ended and who was involved, by seat position; or, counted by hand, the lives
    each player lost."""

    ending = forms.ChoiceField(
        choices=[(e.id, gettext_lazy(e.words)) for e in ROUND_ENDINGS.values()],
        widget=forms.RadioSelect,
    )
    knocker = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, widget=forms.RadioSelect
    )
    shown = forms.TypedMultipleChoiceField(
        required=False, coerce=int, widget=forms.CheckboxSelectMultiple
    )
    lowest = forms.TypedMultipleChoiceField(
        required=False, coerce=int, widget=forms.CheckboxSelectMultiple
    )
    winners = forms.TypedMultipleChoiceField(
        required=False, coerce=int, widget=forms.CheckboxSelectMultiple
    )
    choice = forms.CharField(required=False, max_length=40)
    version = forms.IntegerField(
        required=False, min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput
    )
    client_id = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    # Sent once the page has shown that no round of the rules costs these lives (preview).
    as_counted = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(
        self, *args: Any, game: Game, before: GameState | None = None, **kwargs: Any
    ) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("version", game.version)
        kwargs["initial"].setdefault("client_id", uuid.uuid4().hex)
        # The round a table records most: a knock (for a pot too). Counting by hand, the only one.
        kwargs["initial"].setdefault("ending", COUNTED if game.counting else offered(game.rules)[0])
        super().__init__(*args, **kwargs)
        self.game = game
        # The table the round is played from: now, or before the round an edit is about.
        self.before = before
        # The names come with the stored state: the page reads no seat.
        self.seats = seats = list(enumerate(game.state.names))
        endings = offered(game.rules)
        # A game played for a pot counts no lives, so no round of it is counted by hand.
        by_hand = [] if game.rules.played_for_pot else [(COUNTED, _(BY_HAND.chip))]
        self._choose("ending", [(e, _(ENDINGS[e].words)) for e in endings] + by_hand)
        self._choose("knocker", [("", _("Nobody")), *seats])
        self._choose("shown", seats)
        self._choose("lowest", seats)
        self._choose("winners", seats)
        most = game.rules.most_lost
        for position, name in seats:
            self.fields[f"cards_{position}"] = forms.CharField(
                label=_("%(name)s's cards") % {"name": name}, required=False, max_length=60
            )
            self.fields[f"lost_{position}"] = forms.TypedChoiceField(
                label=name,
                required=False,
                coerce=int,
                empty_value=None,
                choices=[(n, str(n)) for n in range(most + 1)],
            )

    def _choose(self, name: str, choices: list[tuple[Any, str]]) -> None:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices

    def chips(self, name: str) -> list[dict[str, Any]]:
        """The choices of a field as big tap targets: value, words, and whether it is ticked.

        Drawn by hand in the template: Django renders each radio of a widget through a template
        of its own, which made the table page several times slower.
        """
        value = self[name].value()
        values = value if isinstance(value, (list, tuple)) else [value]
        chosen = {"" if v is None else str(v) for v in values}
        # A player who was out when the round was played is not offered (still accepted, so
        # that a phone that missed their going out is told the table changed).
        statuses = (self.before or self.game.state).statuses
        return [
            {"value": key, "label": label, "checked": str(key) in chosen}
            for key, label in getattr(self.fields[name], "choices", ())
            if name == "ending" or key == "" or statuses[int(key)] != "out"
        ]

    def ending_chips(self) -> list[dict[str, Any]]:
        """The endings of these rules, each with what taps on the players answer for it."""
        rules = self.game.rules
        return [
            {
                **chip,
                "short": _(ending.chip),
                "order": " ".join(ending.tap_order(rules)),
                "asks": " ".join(ending.asks(rules)),
                # What the round cannot be recorded without, in the server's words: the phone
                # refuses an incomplete round at the tap with them (static/js/record.js).
                "needs": json.dumps(dict(ending.unanswered(rules))),
                "hint": tap_hint(rules, ending),
                "shown_word": _(ending.shown_word) if ending.shown_word else "",
            }
            for chip in self.chips("ending")
            if not (ending := ROUND_ENDINGS[chip["value"]]).by_hand
        ]

    def error_sentences(self) -> list[str]:
        """Every error of the form once, in the order of its fields: the page shows them in
        one place, where the thumb is."""
        said: list[str] = []
        for errors in self.errors.values():
            said += [str(error) for error in errors if str(error) not in said]
        return said

    @property
    def counting(self) -> bool:
        return self.game.counting

    def tiles(self) -> list[dict[str, Any]]:
        """Each player as the page's tap target, with what this form says about them (as the
        table was when the round was played, for an edit)."""
        state = self.before or self.game.state
        knocker, shown, lowest, winners = (
            self[name].value() for name in ("knocker", "shown", "lowest", "winners")
        )
        shown = {str(v) for v in shown or ()}
        lowest = {str(v) for v in lowest or ()}
        winners = {str(v) for v in winners or ()}
        return [
            {
                "seat": position,
                "out": state.statuses[position] == "out",
                "knocker": str(knocker) == str(position),
                "shown": str(position) in shown,
                "lowest": str(position) in lowest,
                "wins": str(position) in winners,
                "lost": self[f"lost_{position}"].value() or 0,
                "lost_field": self[f"lost_{position}"],
            }
            for position, _name in self.seats
        ]

    def knocker_chips(self) -> list[dict[str, Any]]:
        return self.chips("knocker")

    def shown_chips(self) -> list[dict[str, Any]]:
        return self.chips("shown")

    def lowest_chips(self) -> list[dict[str, Any]]:
        return self.chips("lowest")

    def winners_chips(self) -> list[dict[str, Any]]:
        return self.chips("winners")

    @property
    def cards_entered(self) -> bool:
        """Whether any hand was typed (or refused): the cards section then stays open."""
        return any(field.value() or field.errors for field in self.card_fields())

    def card_fields(self) -> list[forms.BoundField]:
        """A field for each player still in: a player who is out holds no cards."""
        statuses = (self.before or self.game.state).statuses
        return [
            self[f"cards_{position}"]
            for position, _name in self.seats
            if statuses[position] != "out"
        ]

    def picker_deck(self) -> str:
        """The deck of the game's rules for the card picker, which draws it (static/js/cards.js):
        its ranks, highest first, and its suits, red and black in turn, in the table's words."""
        ranks = sorted({card.rank for card in deck(self.game.rules.deck)}, key=RANKS.index)
        suits = (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)
        return json.dumps(
            {
                "ranks": [[rank, rank_letter(rank), rank_word(rank)] for rank in reversed(ranks)],
                "suits": [
                    [suit.value, suit.symbol, suit.word, suit in (Suit.HEARTS, Suit.DIAMONDS)]
                    for suit in suits
                ],
                "name": card_words_of("{rank}", "{suit}"),
            },
            ensure_ascii=False,
        )

    def card_rows(self) -> list[dict[str, Any]]:
        """Each card field with the hand typed in it, counted under the game's rules, once it
        is three cards of this deck (as the referee page counts them while they are typed)."""
        rows = []
        for field in self.card_fields():
            hand = None
            typed = field.value() or ""
            if typed.strip():
                try:
                    cards = parse_cards(typed)
                    check_hand(cards, self.game.rules.deck)
                    hand = evaluate(cards, self.game.rules)
                except CardError:
                    pass
            name = self.seats[int(field.name.removeprefix("cards_"))][1]
            rows.append({"field": field, "hand": hand, "name": name})
        return rows

    def clean(self) -> dict[str, Any]:
        """Every hand typed that cannot be read is said at once, next to its field (a typo in
        one hand does not hide a typo in another)."""
        data = super().clean() or self.cleaned_data
        read: list[tuple[str, list[Card] | None]] = []
        for position, name in self.seats:
            typed = data.get(f"cards_{position}") or ""
            cards = None
            if typed.strip():
                try:
                    cards = parse_cards(typed)
                except CardError as refusal:
                    self.add_error(f"cards_{position}", sentence(str(refusal)))
            read.append((name, cards))
        if len(read) != sum(cards is None for _name, cards in read):
            # The hands that were read, as the rules check them (a card in two hands, a hand of
            # two cards), said beside the typos rather than after them.
            for i, why in hand_problems(read, self.game.rules.deck):
                self.add_error(f"cards_{self.seats[i][0]}", sentence(why))
        return data

    def inputs(self) -> RoundInputs:
        """The round as the models store it, read as the phone's engine reads it
        (``rules.game.asked_round``); refuses malformed cards naming the field."""
        data = self.cleaned_data
        seats = [position for position, _name in self.seats]
        round = asked_round(
            self.game.rules,
            data["ending"],
            knocker=data.get("knocker"),
            shown_by=data.get("shown") or (),
            lowest=data.get("lowest") or (),
            winners=data.get("winners") or (),
            hands={p: data.get(f"cards_{p}") or "" for p in seats},
            losses={p: data.get(f"lost_{p}") or 0 for p in seats},
            choice=data.get("choice") or "",
        )
        return RoundInputs.of_input(
            round,
            client_id=data.get("client_id") or "",
            as_counted=bool(data.get("as_counted")) and round.ending == COUNTED,
        )

    def place_error(self, refusal: InputError) -> None:
        """Put a refusal from the rules next to the field it is about (and each refused with
        it, next to its own)."""
        for other in refusal.also:
            self.place_error(other)
        message = sentence(refusal.message)
        if refusal.seat is not None and refusal.part == "losses":
            self.add_error(f"lost_{refusal.seat}", message)
            return
        if refusal.seat is not None and f"cards_{refusal.seat}" in self.fields:
            self.add_error(f"cards_{refusal.seat}", message)
            return
        target = {
            "knocker": "knocker",
            "shown_by": "shown",
            "lowest": "lowest",
            "winners": "winners",
            "choice": "choice",
            "ending": "ending",
        }.get(refusal.part)
        self.add_error(target, message)

    @classmethod
    def for_round(
        cls, game: Game, inputs: RoundInputs, before: GameState | None = None
    ) -> RecordForm:
        """A form filled in with a stored round, to edit it."""
        initial: dict[str, Any] = {
            "ending": inputs.ending,
            "knocker": inputs.knocker,
            "shown": list(inputs.shown_by),
            "lowest": list(inputs.lowest or ()),
            "winners": list(inputs.winners or ()),
            "choice": inputs.choice,
        }
        for position, codes in (inputs.hands or {}).items():
            initial[f"cards_{position}"] = " ".join(codes)
        for position, lost in (inputs.losses or {}).items():
            initial[f"lost_{position}"] = lost
        return cls(game=game, before=before, initial=initial)


__all__ = ["GameNameForm", "NewGameForm", "RecordForm", "VersionForm"]
