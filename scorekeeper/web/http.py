"""The request type of the pages: Django's, with what the middleware and the link add."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

if TYPE_CHECKING:
    from .access import Link


class HtmxHttpRequest(HttpRequest):
    """A request that ``HtmxMiddleware`` went through: ``htmx`` says whether htmx sent it (a
    partial is wanted) and which element asked; ``link``, set by the views' decorators, says
    whether the club was opened with its secret link or read-only with its view link."""

    htmx: HtmxDetails
    link: Link
