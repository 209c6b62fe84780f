"""A night: the games a table played back to back. Named under the club's secret link, shared
as a picture of its standings under the view link, as a finished game is."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Count, Sum
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from ... import play
from ...models import Club, Night
from ...reports.picture import Standing, standings_picture
from ...reports.tournaments import night_line_words, night_standings, night_title
from ..access import club_link
from ..forms.games import GameNameForm
from ..http import HtmxHttpRequest
from .games import picture_answer


def _night(club: Club, night_id: Any) -> Night:
    try:
        return club.nights.get(pk=night_id)
    except (Night.DoesNotExist, ValueError):
        raise Http404(_("No such night")) from None


@require_POST
@club_link()
def name_night(request: HtmxHttpRequest, club: Club, night_id: Any) -> HttpResponse:
    """Name a night ("Friday at Ana's"), or take its name away; back to the game it was named
    from."""
    night = _night(club, night_id)
    form = GameNameForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["name"]
        play.name_night(night, name)
        messages.success(
            request,
            _("The night is called %(name)s now.") % {"name": name}
            if name
            else _("The night has no name now."),
        )
    else:
        messages.error(request, " ".join(str(e) for e in form.errors["name"]))
    last = night.games.order_by("-created").first()
    return redirect(request.link.url("game", last.id) if last else request.link.url("club"))


@require_GET
@club_link(read_only_ok=True)
def night_picture(request: HtmxHttpRequest, club: Club, night_id: Any) -> HttpResponse:
    """A night's standings as a picture to share, under the view link: most wins first."""
    night = _night(club, night_id)
    moved = night.games.aggregate(versions=Sum("version"), games=Count("pk"))
    drawn = f"night-{night.pk}-{moved['versions']}-{moved['games']}-{night.name}"

    def draw(theme: str) -> bytes:
        count, lines = night_standings(night)
        first = night.games.order_by("created").first()
        pot = bool(first and first.rules.played_for_pot)
        games = ngettext("%(n)d game", "%(n)d games", count) % {"n": count}
        day = date_format(night.created, "DATE_FORMAT")
        standings = [
            Standing(i, line.mark, line.name, night_line_words(line, pot))
            for i, line in enumerate(lines, start=1)
        ]
        return standings_picture(
            club.name, night_title(night), f"{games} · {day}", standings, theme
        )

    return picture_answer(request, club, drawn, draw)
