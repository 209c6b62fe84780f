"""A tournament as its organiser starts and runs it: its name, rules, players, tables, rounds,
points and draw; a late entry; two players swapped."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ... import tournaments
from ...models import Club, Player, Tournament
from ...models.tournaments import MOST_ROUNDS, ROUND_MINUTES, TABLE_SIZES
from ...rules import PRESETS, build_rules
from ...rules.errors import InputError
from .games import NewGameForm
from .house_rules import HouseRulesMixin

POINT_SIZES = range(3, 8)  # a table of the size asked, one less or one more: 3 to 7


class TournamentForm(HouseRulesMixin, forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    preset = forms.ChoiceField(
        label=gettext_lazy("Rules"),
        choices=lambda: [(p.id, p.title) for p in PRESETS.values()],
        initial="schwimmen",
    )
    lives = forms.IntegerField(
        label=gettext_lazy("Lives at the start"), min_value=1, max_value=10, required=False
    )
    new_players = forms.CharField(
        label=gettext_lazy("New players"),
        required=False,
        max_length=6000,
        help_text=gettext_lazy("Names separated by commas, added to the club."),
    )
    table_size = forms.TypedChoiceField(
        label=gettext_lazy("Players at a table"),
        choices=[(n, str(n)) for n in TABLE_SIZES],
        coerce=int,
        initial=4,
        help_text=gettext_lazy(
            "Where the players do not divide, some tables have one more (25 at tables of 4: one"
            " of 5 and five of 4), or one less where that cannot be."
        ),
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds (a game at every table each)"),
        min_value=1,
        max_value=MOST_ROUNDS,
        initial=3,
    )
    method = forms.ChoiceField(
        label=gettext_lazy("Draw after round 1"),
        choices=[
            (
                "mixed",
                gettext_lazy("Mixed: nobody meets the same player twice while it can be avoided"),
            ),
            (
                "swiss",
                gettext_lazy(
                    "By standings: each table from neighbouring places, nobody more than one"
                    " table from their place, with the fewest repeats"
                ),
            ),
        ],
        initial="mixed",
        widget=forms.RadioSelect,
    )
    tie_breaks = forms.ChoiceField(
        label=gettext_lazy("Equal points are settled by"),
        choices=[
            ("games_won,left", gettext_lazy("games won, then lives (or coins) left")),
            ("left,games_won", gettext_lazy("lives (or coins) left, then games won")),
            ("games_won", gettext_lazy("games won")),
            (
                "opponents,games_won",
                gettext_lazy("the points of the players met, then games won"),
            ),
            (
                "games_won,opponents",
                gettext_lazy("games won, then the points of the players met"),
            ),
            ("left", gettext_lazy("lives (or coins) left")),
            ("", gettext_lazy("the draw alone")),
        ],
        initial="games_won,left",
        required=False,
        help_text=gettext_lazy("Then, where still equal, by a lot drawn at entry."),
    )
    prizes = forms.IntegerField(
        label=gettext_lazy("Prize places"), min_value=0, max_value=200, initial=3
    )
    round_minutes = forms.IntegerField(
        label=gettext_lazy("Minutes a round"),
        min_value=ROUND_MINUTES[0],
        max_value=ROUND_MINUTES[1],
        required=False,
        help_text=gettext_lazy(
            "A clock on the big screen and the organiser's page counts them down from each"
            " draw. Empty: no clock."
        ),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        self.club = club
        self.members = NewGameForm._listed(club)
        super().__init__(*args, **kwargs)
        for player in self.members:
            self.fields[f"plays_{player.pk}"] = forms.BooleanField(required=False)
        self.add_house_rule_fields()
        for size in POINT_SIZES:
            self.fields[f"points_{size}"] = forms.CharField(
                required=False,
                max_length=40,
                label=_("Points at a table of %(n)d") % {"n": size},
                initial=" ".join(str(p) for p in tournaments.default_points(size)),
            )

    def member_rows(self) -> list[dict[str, Any]]:
        return [{"player": p, "plays": self[f"plays_{p.pk}"]} for p in self.members]

    def table_fields(self) -> list[forms.BoundField]:
        return [
            self["table_size"],
            self["rounds"],
            self["round_minutes"],
            self["prizes"],
            self["tie_breaks"],
        ]

    def point_rows(self) -> list[forms.BoundField]:
        return [self[f"points_{size}"] for size in POINT_SIZES]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        overrides = self.house_rule_overrides()
        if data.get("lives"):
            overrides["lives"] = data["lives"]
        try:
            data["rules"], _preset = build_rules({"preset": data["preset"], "overrides": overrides})
        except InputError as refusal:
            self.refuse_rules(refusal)
            return data
        points: dict[str, list[int]] = {}
        for size in POINT_SIZES:
            said = (data.get(f"points_{size}") or "").replace(",", " ").split()
            if not said:
                continue
            if not all(p.isdigit() for p in said):
                self.add_error(f"points_{size}", _("Points are whole numbers, such as 3 2 1 0."))
                continue
            points[str(size)] = [int(p) for p in said]
        data["points"] = points
        seated: list[Player | str] = [p for p in self.members if data.get(f"plays_{p.pk}")]
        names = [" ".join(n.split()) for n in (data.get("new_players") or "").split(",")]
        data["players"] = [*seated, *(n for n in names if n)]
        return data

    def start(self) -> Tournament:
        data = self.cleaned_data
        return tournaments.start_tournament(
            self.club,
            data["name"],
            data["rules"],
            data["preset"],
            data["players"],
            table_size=data["table_size"],
            rounds=data["rounds"],
            points=data["points"],
            method=data["method"],
            prizes=data["prizes"],
            tie_breaks=[b for b in (data.get("tie_breaks") or "").split(",") if b],
            round_minutes=data.get("round_minutes"),
        )

    def refuse(self, refusal: InputError) -> None:
        """A refusal of the verb, next to its field."""
        field = refusal.field if refusal.field in self.fields else None
        if refusal.field == "points":
            field = f"points_{self.cleaned_data['table_size']}"
        if refusal.field == "players":
            field = "new_players"
        self.add_error(field, refusal.message)


class EntryForm(forms.Form):
    """A late entry: a name (the club's player of that name, or a new one)."""

    name = forms.CharField(label=gettext_lazy("Enter a player"), max_length=60)


class SwapForm(forms.Form):
    """Two players of the round just drawn, by the club's player id."""

    first = forms.IntegerField(min_value=1)
    second = forms.IntegerField(min_value=1)
    repeat_ok = forms.BooleanField(required=False)  # "Swap anyway", after the page asked
