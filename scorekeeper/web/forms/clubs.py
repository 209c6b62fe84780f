"""Forms for clubs and their players."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ...lib.marks import PALETTE
from ...lib.text import clean_name_text, sentence
from ...rules.errors import InputError


def plain_text(value: str) -> None:
    """Refuse what the API refuses: control characters (ESC, BEL, NUL), broken characters and
    the invisible ones that turn or disguise a name (U+202E, U+200B)."""
    try:
        clean_name_text(value, "name")
    except InputError as refusal:
        raise forms.ValidationError(sentence(refusal.message)) from None


class ClubForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Club name"), max_length=100, strip=True, validators=[plain_text]
    )


class PlayerNameForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"), max_length=60, strip=True, validators=[plain_text]
    )


class PlayerMarkForm(forms.Form):
    """A player's colour (an index into the palette, ``lib.marks``) and initials; the verb
    (``play.mark_player``) says what it refuses."""

    initials = forms.CharField(
        label=gettext_lazy("Initials"),
        max_length=3,
        strip=True,
        error_messages={
            "required": gettext_lazy("Initials are 1 to 3 letters or digits."),
            "max_length": gettext_lazy("Initials are 1 to 3 letters or digits."),
        },
    )
    colour = forms.TypedChoiceField(
        label=gettext_lazy("Colour"),
        choices=[(str(i), str(i)) for i in range(len(PALETTE))],
        coerce=int,
        error_messages={
            "required": gettext_lazy("Pick one of the colours shown."),
            "invalid_choice": gettext_lazy("Pick one of the colours shown."),
        },
    )


class SeasonForm(forms.Form):
    """A season of the club's: a name of its own and its first and last days."""

    name = forms.CharField(
        label=gettext_lazy("Season"), max_length=60, strip=True, validators=[plain_text]
    )
    starts = forms.DateField(
        label=gettext_lazy("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends = forms.DateField(
        label=gettext_lazy("Last day"), widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, club: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if self.club.seasons.filter(name__iexact=name).exists():
            raise forms.ValidationError(_("The club has a season of that name already."))
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        starts, ends = data.get("starts"), data.get("ends")
        if starts and ends and ends < starts:
            self.add_error("ends", _("The last day comes on or after the first."))
        return data


class PlayerNamesForm(forms.Form):
    """Several new players at once: "Ana, Ben, Cara", or one a line."""

    names = forms.CharField(
        label=gettext_lazy("Add players"),
        max_length=600,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def clean_names(self) -> list[str]:
        parts = [" ".join(part.split()) for part in re.split(r"[,\n]", self.cleaned_data["names"])]
        names = [part for part in parts if part]
        if not names:
            raise forms.ValidationError(_("Type at least one name."))
        for name in names:
            if len(name) > 60:
                raise forms.ValidationError(
                    _("“%(name)s…” is longer than 60 characters.") % {"name": name[:20]}
                )
            plain_text(name)
        return list(dict.fromkeys(names))


class ReplaceLinkForm(forms.Form):
    which = forms.ChoiceField(
        choices=[("secret", gettext_lazy("Secret")), ("view", gettext_lazy("View"))]
    )
    # The view link's generation the page showed: a second phone's press is then not a second
    # replacement.
    generation = forms.IntegerField(required=False, min_value=0, max_value=2**31 - 1)
