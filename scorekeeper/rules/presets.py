"""The five written rule sets of 31, and the scat page's widow-and-pot game, as presets, each with the switches where the map of the
rules has our reading (``../docs/rules.md``). A preset is its switches' defaults with a few set
otherwise; house rules are a preset plus overrides (``build_rules``)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .ruleset import BY_NAME, HALF, RuleSet
from .switches import RulesError, json_dump
from .words import _, gettext_noop


@dataclass(frozen=True)
class Preset:
    id: str
    name: str  # English message ids: ``title`` and ``summary`` say them in the table's language
    description: str
    rules: RuleSet
    # Switches where the source is silent or contradicts itself and the value is our reading.
    readings: frozenset[str] = frozenset()

    @property
    def title(self) -> str:
        return _(self.name)

    @property
    def summary(self) -> str:
        return _(self.description)


# No source says how a set number of rounds is counted, nor what the pot does at the end:
# those are our readings in every preset.
ALWAYS_OUR_READING = frozenset({"round_limit", "pot_at_end"})


def _preset(id: str, name: str, description: str, readings: set[str], **values: Any) -> Preset:
    rules = RuleSet(**values)
    rules.check()
    return Preset(id, name, description, rules, frozenset(readings) | ALWAYS_OUR_READING)


PRESETS: dict[str, Preset] = {
    preset.id: preset
    for preset in (
        _preset(
            "scat",
            gettext_noop("Scat (31, Pagat's main rules)"),
            gettext_noop(
                "52 cards, 3 lives and the county. A knocker alone at the bottom loses 2, a knocker "
                "who ties is safe, and showing 31 costs everyone else a life."
            ),
            {"all_out"},
            several_dealt_31="without_31_lose_1",
            unshown_31="counts_30",
            stock_out="showdown",
            last_chance="county",
        ),
        _preset(
            "friendly",
            gettext_noop("Friendly Thirty-One"),
            gettext_noop(
                "52 cards, 3 lives and out at zero. Three of a kind is 30, equal totals go to the "
                "highest card, and a 31 ends the hand with the lowest losing."
            ),
            {"tie_break", "unshown_31", "next_dealer", "all_out"},
            three_of_a_kind=Fraction(30),
            tie_break="highest_card",
            thirty_one="showdown",
            thirty_one_dealt="showdown",
        ),
        _preset(
            "schwimmen",
            gettext_noop("Schwimmen (32 cards)"),
            gettext_noop(
                "32 cards and three face-up middle cards. Three of a kind 30.5, three aces 33 (fire). "
                "The lowest loses 1, knocker or not; swimming is the last chance."
            ),
            {"three_aces_fire"},
            deck=32,
            three_of_a_kind=HALF * 61,
            three_aces=33,
            middle="three_face_up",
            knock_timing="instead_of_draw",
            knocker_alone=1,
            knocker_tied="like_others",
            thirty_one="showdown",
            thirty_one_dealt="showdown",
            three_aces_fire=True,
            stock_out="showdown",
            last_chance="swimming",
            all_out="tie",
        ),
        _preset(
            "aces-wild",
            gettext_noop("Aces wild"),
            gettext_noop(
                "Aces join any suit. The lowest loses 1 and deals next; a 31 dealt costs everyone "
                "else a life. Last two on the brink who tie bring everyone back."
            ),
            {
                "aces_wild",
                "thirty_one",
                "thirty_one_dealt",
                "unshown_31",
                "stock_out",
                "next_dealer",
            },
            aces_wild=True,
            knocker_alone=1,
            knocker_tied="like_others",
            thirty_one="none",
            thirty_one_dealt="others_lose_1_redeal",
            last_chance="brink",
            next_dealer="loser",
            all_out="revival",
        ),
        _preset(
            "kitchen-table",
            gettext_noop("Kitchen-table 31"),
            gettext_noop(
                "52 cards, knock after discarding, three of a kind 30.5. A knocker caught lowest "
                "loses 2; out of lives, you sit out."
            ),
            {"knocker_tied", "unshown_31", "all_out"},
            three_of_a_kind=HALF * 61,
            knock_timing="after_discard",
            knocker_tied="like_others",
            knocker_caught=True,
        ),
        _preset(
            "widow",
            gettext_noop("Thirty-One with a widow and a pot"),
            gettext_noop(
                "No lives: everyone pays 1 into the pot each hand, swaps with the three-card "
                "widow, and the highest hand after a knock takes the pot. A 31 wins at once."
            ),
            # Bicycle's widow-and-pot rules: "If there is a tie for the highest score, the
            # player with the highest-ranking card wins. Example: K, Q, 6 (total 26) would beat
            # Q, 9, 7". No source says how much everyone pays in.
            {"ante"},
            form="pot",
            middle="widow",
            tie_break="highest_in_hand",
        ),
    )
}


def build_rules(spec: Any) -> tuple[RuleSet, Preset]:
    """Rules from a preset id, or from ``{"preset": id, "overrides": {switch: value}}``."""
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, dict):
        raise RulesError(_('rules are a preset id or {"preset": id, "overrides": {…}}'))
    unknown = set(spec) - {"preset", "overrides"}
    if unknown:
        raise RulesError(
            _("rules take “preset” and “overrides”, not “%(name)s”") % {"name": sorted(unknown)[0]}
        )
    preset_id = spec.get("preset")
    if not isinstance(preset_id, str) or preset_id not in PRESETS:
        names = ", ".join(PRESETS)
        raise RulesError(
            _("there is no rule set called %(name)s: choose one of %(names)s")
            % {"name": json_dump(preset_id), "names": names},
            "rules.preset",
        )
    preset = PRESETS[preset_id]
    overrides = spec.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise RulesError(_("overrides are an object of switch: value"), "rules.overrides")
    try:
        rules = preset.rules.replace(overrides)
    except RulesError as error:
        error.field = f"rules.overrides.{error.field}"
        raise
    _refuse_the_other_form(rules, preset, overrides)
    return rules, preset


def _refuse_the_other_form(rules: RuleSet, preset: Preset, overrides: dict[str, Any]) -> None:
    """A switch of the other way of playing, set apart from what the preset says, means
    nothing in this game (an ante in a game of lives, a second knock in a game for a pot): it
    is refused, naming both switches, rather than kept and silently ignored."""
    form = BY_NAME["form"]
    for name in overrides:
        switch = BY_NAME.get(name)
        if switch is None or rules.applies(switch) or name == "form":
            continue
        if getattr(rules, name) == getattr(preset.rules, name):
            continue
        raise RulesError(
            _("“%(switch)s” is not a rule of this game: “%(form)s” is “%(value)s”")
            % {"switch": _(switch.label), "form": _(form.label), "value": form.words(rules.form)},
            f"rules.overrides.{name}",
        )
