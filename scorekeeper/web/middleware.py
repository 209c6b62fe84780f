"""What every answer of Knock's own addresses carries."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as StoredSession
from django.core.signals import request_finished
from django.db import connection
from django.dispatch import receiver
from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _

from ..lib.logs import new_request_id, request_id
from ..models import MadeByANewerKnock
from .outage import OUTAGE, UNREACHABLE, newer_answer, outage_answer

# A club's secret link, its view link and the API: what they answer is for one club's phones.
_KEYED = ("/c/", "/v/", "/api/")


class _BothWays:
    """A middleware that works under the app server (sync) and the events server (async, so
    that its streams pass through without a thread of their own): ``before`` the view sees the
    request, ``after`` it has the answer."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self):
            return self._acall(request)
        self.before(request)
        return self.after(request, self.get_response(request))

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        self.before(request)
        response: Awaitable[HttpResponseBase] = self.get_response(request)
        return self.after(request, await response)

    def before(self, request: HttpRequest) -> None:
        pass

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        return response


class RequestId(_BothWays):
    """Each request's id: the proxy's ``X-Request-ID`` when it is a sane one, else one made
    here; on every line logged while the request is answered (Django's own line for a 4xx or
    5xx comes after the middleware, so the id is let go only when the request is finished),
    and in the answer."""

    def before(self, request: HttpRequest) -> None:
        request_id.set(new_request_id(request.headers.get("X-Request-ID")))

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        response["X-Request-ID"] = request_id.get()
        return response


@receiver(request_finished)
def _request_done(**kwargs: Any) -> None:
    request_id.set("-")


class KeyedPagesStayPrivate(_BothWays):
    """A page reached by a club's link carries the link (the page's own address and its
    links): no cache keeps it, and no search engine lists it. The phone keeps the table for
    itself in its service worker, which these headers do not reach. An answer its view marks
    ``shareable`` (the shared picture of a finished game, which shows only what the view link
    shows and carries no link) keeps its own Cache-Control."""

    def after(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        return _private(request, response)


def _private(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    if request.path.startswith(_KEYED):
        if not getattr(response, "shareable", False):
            response["Cache-Control"] = "no-store"
        response["X-Robots-Tag"] = "noindex, nofollow"
    if request.path.startswith("/api/") and response.status_code == 405:
        response = _method_not_allowed(response)
    return response


def _method_not_allowed(response: HttpResponseBase) -> HttpResponseBase:
    """Every answer under the API's address is JSON, a method an address does not take too
    (django-ninja answers it in plain text)."""
    allowed = response.get("Allow", "")
    answer = JsonResponse(
        {"error": _("this address takes %(methods)s") % {"methods": allowed}, "field": "method"},
        status=405,
    )
    answer["Allow"] = allowed
    answer["Cache-Control"] = "no-store"
    answer["X-Robots-Tag"] = "noindex, nofollow"
    return answer


class AdminSessions:
    """The admin's own session, kept in the database, in a cookie of its own for its own path:
    logging out deletes it, so a copied cookie opens nothing afterwards, and it lasts
    ``KNOCK_ADMIN_SESSION_AGE`` (8 hours). The players' session stays a signed cookie: it holds
    the keys of the clubs a browser opened, which the database never does.

    Sync only (Django runs it in a thread under the events server): it reads and writes the
    database."""

    COOKIE = "knock_admin"

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.path = "/" + settings.KNOCK_ADMIN_PATH.strip("/") + "/"

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not request.path.startswith(self.path):
            return self.get_response(request)
        players = request.session
        admin = StoredSession(request.COOKIES.get(self.COOKIE))
        request.session = admin
        try:
            response = self.get_response(request)
        finally:
            request.session = players  # the signed cookie goes on as it was
        self._keep(request, admin, response)
        return response

    def _keep(self, request: HttpRequest, admin: StoredSession, response: HttpResponseBase) -> None:
        if self.COOKIE in request.COOKIES and admin.is_empty():
            response.delete_cookie(self.COOKIE, path=self.path, samesite="Lax")
            return
        if not admin.modified or admin.is_empty():
            return
        if "_session_expiry" not in admin:
            admin.set_expiry(settings.KNOCK_ADMIN_SESSION_AGE)
        admin.save()
        response.set_cookie(
            self.COOKIE,
            admin.session_key or "",
            max_age=admin.get_expiry_age(),
            path=self.path,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )


class DatabaseOutage(_BothWays):
    """Answers a request whose view met a database that does not answer (``UNREACHABLE``),
    or a game a newer Knock made (``MadeByANewerKnock``), with a 503 and Retry-After
    (web/outage.py); while an outage lasts, the first request of
    the app server that reads the database again ends it (the events server's views read it
    in threads of their own)."""

    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self) or OUTAGE.since is None:
            return super().__call__(request)
        read: list[bool] = []

        def reading(execute: Any, sql: Any, params: Any, many: Any, context: Any) -> Any:
            result = execute(sql, params, many, context)
            read.append(True)
            return result

        with connection.execute_wrapper(reading):
            response = self.get_response(request)
        if read and response.status_code != 503:
            OUTAGE.answered()
        return response

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponseBase | None:
        if isinstance(exception, MadeByANewerKnock):
            return newer_answer(request, exception)
        return outage_answer(request, exception) if isinstance(exception, UNREACHABLE) else None
