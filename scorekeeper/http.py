"""The request type of the pages: Django's, with what django-htmx's middleware adds."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that ``HtmxMiddleware`` went through: ``request.htmx`` says whether htmx sent
    it (a partial is wanted) and which element asked."""

    htmx: HtmxDetails
