"""A house-rule switch as a form field, a form that asks a preset and its house rules (a new
game's, a tournament's), and a game's rules as the fields filled in."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from ...rules import PRESETS, SWITCHES, RuleSet
from ...rules.errors import InputError
from ...rules.ruleset import value_words
from ...rules.switches import Switch, json_value


def form_key(value: Any) -> str:
    """How a switch's value travels in a form: none, true, false, 30.5, others as they are."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(json_value(value))


def house_rule_field(switch: Switch) -> forms.Field:
    """A switch as a form field: its choices, or its range; empty is "as the rule set says"."""
    if switch.choices is None:
        return forms.IntegerField(
            label=gettext_lazy(switch.label),
            help_text=gettext_lazy(switch.help),
            required=False,
            min_value=switch.low,
            max_value=switch.high,
        )
    return forms.ChoiceField(
        label=gettext_lazy(switch.label),
        help_text=gettext_lazy(switch.help),
        required=False,
        choices=[("", gettext_lazy("As the rule set says"))]
        + [(form_key(value), gettext_lazy(words)) for value, words in switch.choices.items()],
    )


def house_rules_initial(
    rules: RuleSet, preset: RuleSet, skip: tuple[str, ...] = ()
) -> dict[str, str]:
    """The house-rule fields filled in where ``rules`` differ from the preset's, as a form
    starts from a game's (or a club's) rules."""
    return {
        f"rule_{name}": form_key(getattr(rules, name))
        for name in rules.changed_from(preset)
        if name not in skip
    }


class HouseRulesMixin(forms.Form):
    """A form with a ``preset`` field that also asks every house rule but those asked apart;
    each is "as the rule set says" until changed."""

    # Asked apart from the house rules: how many lives, and how long the game goes on.
    ASKED_APART: tuple[str, ...] = ("lives", "round_limit")

    def add_house_rule_fields(self) -> None:
        for f in SWITCHES:
            if f.name not in self.ASKED_APART:
                self.fields[f"rule_{f.name}"] = house_rule_field(f)

    def house_rule_rows(self) -> list[dict[str, Any]]:
        """Each house rule with what every preset says of it, so "As the rules say" can name
        the value (the chosen preset's here; the page's script follows a change of preset)."""
        chosen = PRESETS.get(str(self["preset"].value()), PRESETS["scat"])
        rows = []
        for f in SWITCHES:
            if f.name in self.ASKED_APART:
                continue
            said = {p.id: value_words(f, getattr(p.rules, f.name)) for p in PRESETS.values()}
            rows.append(
                {
                    "field": self[f"rule_{f.name}"],
                    "said_json": json.dumps(said),
                    "now": said[chosen.id],
                }
            )
        return rows

    def house_rule_overrides(self) -> dict[str, Any]:
        """The house rules changed from the rule set's, as a rules spec's overrides."""
        data = self.cleaned_data
        return {
            f.name: data[f"rule_{f.name}"]
            for f in SWITCHES
            if f.name not in self.ASKED_APART and data.get(f"rule_{f.name}") not in (None, "")
        }

    def refuse_rules(self, refusal: InputError) -> None:
        """Rules that do not go together, said next to the switch at fault."""
        name = refusal.field.removeprefix("rules.overrides.")
        field = "lives" if name == "lives" else f"rule_{name}"
        self.add_error(field if field in self.fields else None, refusal.message)
