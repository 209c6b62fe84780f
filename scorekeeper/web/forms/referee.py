"""The referee form: a rule set, the players' hands and how the round ended.

Its rows become the rules engine's values (a table, how the round ended), so the page and the
API refuse the same things with the same words; errors come back next to the field they name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ...lib.text import sentence
from ...rules import (
    ENDINGS,
    PRESETS,
    SWITCHES,
    Outcome,
    RuleSet,
    Seat,
    Status,
    Table,
    build_rules,
    check_hand,
    evaluate,
    resolve_round,
)
from ...rules.cards import CardError, Suit, deck, parse_cards
from ...rules.errors import InputError
from ...rules.hands import Hand
from ...rules.numbers import read_whole
from ...rules.resolve import refuse_a_stray_choice
from ...rules.round import RoundResult
from .house_rules import house_rule_field, house_rules_initial

MIN_PLAYERS, MAX_PLAYERS, START_PLAYERS = 2, 17, 4
CARD_CHOICES = [(card.code, str(card)) for card in deck(52)]
# The picker: one row per suit, ace first, as players sort a hand.
GRID = [sorted((c for c in deck(52) if c.suit == suit), key=lambda c: -c.order) for suit in Suit]


class RefereeForm(forms.Form):
    preset = forms.ChoiceField(
        label=gettext_lazy("Rules"),
        choices=lambda: [(p.id, p.title) for p in PRESETS.values()],
        initial="scat",
    )
    ending = forms.ChoiceField(
        label=gettext_lazy("How did the round end?"),
        choices=[(e.id, gettext_lazy(e.words)) for e in ENDINGS.values()],
        initial="knock",
        widget=forms.RadioSelect,
    )
    players = forms.IntegerField(
        min_value=MIN_PLAYERS,
        max_value=MAX_PLAYERS,
        initial=START_PLAYERS,
        widget=forms.HiddenInput,
    )
    knocker = forms.IntegerField(required=False, min_value=0, max_value=MAX_PLAYERS - 1)
    dealer = forms.IntegerField(required=False, min_value=0, max_value=MAX_PLAYERS - 1)
    shown = forms.TypedMultipleChoiceField(
        required=False, coerce=int, choices=[(i, i) for i in range(MAX_PLAYERS)]
    )
    choice = forms.CharField(required=False, max_length=40)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for f in SWITCHES:
            self.fields[f"rule_{f.name}"] = house_rule_field(f)

    def house_rule_fields(self) -> list[forms.BoundField]:
        return [self[f"rule_{f.name}"] for f in SWITCHES]


class PlayerForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100, required=False)
    cards = forms.CharField(label=gettext_lazy("Cards"), max_length=100, required=False)
    pick = forms.MultipleChoiceField(
        label=gettext_lazy("Or pick them"),
        choices=CARD_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def is_blank(self) -> bool:
        data = self.cleaned_data
        return not (data.get("name") or data.get("cards") or data.get("pick"))

    def card_tokens(self) -> list[str]:
        typed = self.cleaned_data.get("cards") or ""
        return [*typed.replace(",", " ").split(), *self.cleaned_data.get("pick", [])]


@dataclass
class Row:
    """One player's line on the referee page."""

    index: int
    form: PlayerForm
    hand: Hand | None = None
    error: str = ""
    knocked: bool = False
    showed: bool = False
    dealt: bool = False


@dataclass
class Referee:
    """The referee page's state: the form, each player's row and, when complete, the verdict."""

    form: RefereeForm
    rows: list[Row]
    rules: RuleSet | None = None
    result: RoundResult | None = None
    errors: dict[str, str] = field(default_factory=dict)
    incomplete: str = ""

    grid = GRID

    @property
    def knocker(self) -> Row | None:
        return next((row for row in self.rows if row.knocked), None)

    @property
    def blocked(self) -> str:
        """Why the round cannot be settled, in a sentence, for the verdict box."""
        for row in self.rows:
            if row.error:
                name = (row.form.cleaned_data.get("name") if row.form.is_valid() else "") or ""
                who = name or _("Player %(n)d") % {"n": row.index + 1}
                return sentence(f"{who}: {row.error}")
        return next((sentence(message) for message in self.errors.values()), "")

    @property
    def ranking(self) -> list[dict[str, Any]]:
        """Every hand from the top, with what its holder loses."""
        if self.result is None:
            return []
        lost = {player.name: player for player in self.result.players}
        hands = sorted(self.result.hands.items(), key=lambda item: item[1].value, reverse=True)
        return [{"name": name, "hand": hand, "after": lost[name]} for name, hand in hands]

    @property
    def rules_card(self) -> list[dict[str, Any]]:
        """Every switch of the chosen rules in words, marking where the map has our reading."""
        chosen = str(self.form["preset"].value()) if self.form.is_bound else ""
        preset = PRESETS.get(chosen, PRESETS["scat"])
        rules = self.rules or preset.rules
        return rules.describe(preset.readings)


def blank_referee() -> Referee:
    form = RefereeForm(initial={"players": START_PLAYERS})
    return Referee(form, [Row(i, PlayerForm(prefix=f"p{i}")) for i in range(START_PLAYERS)])


def referee_for_game(rules: RuleSet, preset_id: str, names: list[str], dealer: int) -> Referee:
    """The referee page filled in with a game's rules and the players still in it."""
    preset = PRESETS.get(preset_id, PRESETS["scat"])
    initial: dict[str, Any] = {
        "preset": preset.id,
        "players": len(names),
        "dealer": dealer,
        **house_rules_initial(rules, preset.rules),
    }
    form = RefereeForm(initial=initial)
    rows = [
        Row(i, PlayerForm(prefix=f"p{i}", initial={"name": name})) for i, name in enumerate(names)
    ]
    for row in rows:
        row.dealt = row.index == dealer
    return Referee(form, rows)


def verdict_as_round(referee: Referee, seats: list[str]) -> list[tuple[str, str]] | None:
    """The settled round as the game's record form takes it (seat numbers for names), or
    ``None`` while there is no verdict to record or a name is not one of the game's."""
    result = referee.result
    if result is None or result.result == "table_decides" or not referee.form.is_valid():
        return None
    clean = referee.form.cleaned_data
    named = {row.index: row.form.cleaned_data.get("name") or "" for row in referee.rows}
    if any(name not in seats for row in referee.rows if (name := named[row.index])):
        return None
    fields = [("ending", clean["ending"])]
    if clean.get("knocker") is not None:
        fields.append(("knocker", str(seats.index(named[clean["knocker"]]))))
    fields += [("shown", str(seats.index(named[i]))) for i in clean.get("shown", [])]
    for row in referee.rows:
        if row.hand is not None:
            fields.append(
                (f"cards_{seats.index(named[row.index])}", " ".join(c.code for c in row.hand.cards))
            )
    if clean.get("choice"):
        fields.append(("choice", clean["choice"]))
    return fields


def referee_from_post(data: Any, settle_now: bool, add_player: bool = False) -> Referee:
    """Read the posted page; evaluate each hand; settle the round when it is complete.

    ``settle_now`` is a press of the settle button (every missing piece is an error); otherwise
    this is a live update while cards are typed, which only says what is still missing.
    """
    form = RefereeForm(data)
    count = _player_count(data) + (1 if add_player else 0)
    count = max(MIN_PLAYERS, min(MAX_PLAYERS, count))
    rows = [Row(i, PlayerForm(data, prefix=f"p{i}")) for i in range(count)]
    referee = Referee(form, rows)
    if not form.is_valid():
        referee.errors.update(
            {name: " ".join(map(str, errs)) for name, errs in form.errors.items()}
        )
        return referee
    clean = form.cleaned_data
    for row in rows:
        row.form.is_valid()
        row.knocked = clean.get("knocker") == row.index
        row.showed = row.index in clean.get("shown", [])
        row.dealt = clean.get("dealer") == row.index
    overrides = {
        f.name: clean[f"rule_{f.name}"]
        for f in SWITCHES
        if clean.get(f"rule_{f.name}") not in (None, "")
    }
    try:
        referee.rules, _preset = build_rules({"preset": clean["preset"], "overrides": overrides})
    except InputError as refusal:
        referee.errors[_rules_field(refusal.field)] = refusal.message
        return referee
    _evaluate_rows(referee)
    if add_player or any(row.error for row in rows):
        return referee
    players = [row for row in rows if not row.form.is_blank()]
    missing = _missing(referee, players)
    if missing and not settle_now:
        referee.incomplete = missing
        return referee
    # The page's rows as the engine's values: everyone in, with the rules' lives.
    rules = referee.rules
    table = Table(
        tuple(
            Seat(
                row.form.cleaned_data.get("name") or "",
                rules.lives,
                Status.IN,
                tuple(row.hand.cards) if row.hand else None,
            )
            for row in players
        ),
        dealer=_name_at(rows, clean.get("dealer")),
    )
    outcome = Outcome(
        clean["ending"],
        _name_at(rows, clean.get("knocker")),
        tuple(name for i in clean.get("shown", []) if (name := _name_at(rows, i))),
        choice=clean.get("choice") or None,
    )
    try:
        referee.result = resolve_round(rules, table, outcome)
        refuse_a_stray_choice(outcome.choice, referee.result)
    except InputError as refusal:
        _place_error(referee, players, refusal)
    return referee


def _player_count(data: Any) -> int:
    """How many player rows the page had; anything but a plain count keeps the default."""
    try:
        return read_whole(data.get("players"), "players", _("players"), MIN_PLAYERS, MAX_PLAYERS)
    except InputError:
        return START_PLAYERS


def _rules_field(field_name: str) -> str:
    if field_name.startswith("rules.overrides."):
        return "rule_" + field_name.removeprefix("rules.overrides.")
    return "preset"


def _name_at(rows: list[Row], index: int | None) -> str | None:
    if index is None or index >= len(rows):
        return None
    return rows[index].form.cleaned_data.get("name") or None


def _evaluate_rows(referee: Referee) -> None:
    """Each hand's value as soon as it has three cards, and every card error next to its row."""
    assert referee.rules is not None
    seen: dict[str, str] = {}
    for row in referee.rows:
        tokens = row.form.card_tokens() if row.form.is_valid() else []
        if not tokens:
            continue
        try:
            cards = parse_cards(tokens)
            if len(cards) < 3:
                more = 3 - len(cards)
                row.error = ngettext("%(n)d more card to go", "%(n)d more cards to go", more) % {
                    "n": more
                }
                continue
            check_hand(cards, referee.rules.deck)
        except CardError as refusal:
            row.error = str(refusal)
            continue
        name = row.form.cleaned_data.get("name") or _("Player %(n)d") % {"n": row.index + 1}
        twice = [card for card in cards if str(card) in seen]
        if twice:
            row.error = _("%(card)s is already in %(name)s's hand: a deck has one") % {
                "card": twice[0],
                "name": seen[str(twice[0])],
            }
            continue
        seen.update({str(card): name for card in cards})
        row.hand = evaluate(cards, referee.rules)


def _missing(referee: Referee, players: list[Row]) -> str:
    if len(players) < MIN_PLAYERS:
        return _("Enter at least two players.")
    for row in players:
        if not row.form.cleaned_data.get("name"):
            return _("Name player %(n)d.") % {"n": row.index + 1}
        if row.hand is None:
            return _("Enter %(name)s's three cards.") % {"name": row.form.cleaned_data["name"]}
    return ""


def _place_error(referee: Referee, players: list[Row], refusal: InputError) -> None:
    """Put the engine's refusal next to the field it names."""
    where = refusal.field
    if refusal.seat is not None and refusal.seat < len(players):
        players[refusal.seat].error = refusal.message
        return
    if where in ("knocker", "shown_by", "dealer"):
        flag = {"knocker": "knocked", "shown_by": "showed", "dealer": "dealt"}[where]
        for row in players:
            if getattr(row, flag):
                row.error = refusal.message
                return
    if where.startswith("rules"):
        referee.errors[_rules_field(where)] = refusal.message
        return
    referee.errors["ending"] = refusal.message


__all__ = [
    "Referee",
    "RefereeForm",
    "blank_referee",
    "referee_for_game",
    "referee_from_post",
    "verdict_as_round",
]
