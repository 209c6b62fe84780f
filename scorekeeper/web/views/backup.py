"""Backups of a club: the whole club as JSON, its games as CSV."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from ...backup import export_club as club_data
from ...backup import games_csv
from ...models import Club
from ..access import club_link


def _download(body: str, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response


@require_GET
@club_link()
def export_club(request: HttpRequest, club: Club) -> HttpResponse:
    body = json.dumps(club_data(club), indent=1, ensure_ascii=False)
    name = f"knock-{slugify(club.name) or 'club'}.json"
    return _download(body, "application/json; charset=utf-8", name)


@require_GET
@club_link()
def export_games_csv(request: HttpRequest, club: Club) -> HttpResponse:
    name = f"knock-{slugify(club.name) or 'club'}-games.csv"
    return _download(games_csv(club), "text/csv; charset=utf-8", name)
