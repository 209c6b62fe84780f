"""A house-rule switch as a form field, and a game's rules as the fields filled in."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from ...rules import RuleSet
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
