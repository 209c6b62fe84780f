"""The JSON API, version 1, on django-ninja: the schemas in ``schemas.py`` check every body and
the OpenAPI description at ``/api/v1/openapi.json`` is generated from them.

Every refusal is ``{"error": message, "field": where}``: a 400 for bad input (``field`` is a path
such as ``players[1].cards``), a 404 for a wrong key, a 409 for a stale version, a 413 for a body
over 64 KiB and a 415 for a body that is not JSON. No input answers a 500.
"""

from __future__ import annotations

import json
from functools import wraps
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser

from ..rules.errors import InputError

MAX_BODY = 64 * 1024


class Refusal(Exception):
    """An answer other than 200 that says why: ``{"error", "field"}`` with its status."""

    def __init__(self, status: int, message: str, field: str) -> None:
        super().__init__(message)
        self.status, self.message, self.field = status, message, field


REFUSED = "\u0000refused"  # no schema has a field of this name


class JsonBody(Parser):
    """The body as a small JSON object, or a refusal that says why.

    Read when an endpoint takes a body, so after the key was checked: a request without the
    right key is told "no such club" whatever it sent. A browser on another site can post
    ``text/plain`` to any address without asking: only ``application/json`` is accepted, so no
    page can make its visitors' browsers use the API. An empty body is ``{}``."""

    def parse_body(self, request: HttpRequest) -> Any:
        if getattr(request, "knock_empty", False):
            return {}
        try:
            return _json_object(request)
        except Refusal as refusal:
            # ninja answers whatever a parser raises with a 400 of its own: the refusal waits
            # on the request, and a body no schema takes brings it out (``_invalid``).
            request.knock_refusal = refusal  # type: ignore[attr-defined]
            return {REFUSED: True}


def empty_body(view):
    """A body over 64 KiB is refused before anything is read; ninja reads no body when there is
    none, so an empty body stands for ``{}`` (an undo with no version, an abandon), whatever its
    content type."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if _too_big(request):
            return error(_("the request is larger than 64 KiB"), "body", 413)
        if request.method in ("POST", "DELETE") and _is_empty(request):
            request.knock_empty = True  # type: ignore[attr-defined]
            request._body = b"{}"  # what ninja then reads
        return view(request, *args, **kwargs)

    return wrapper


def _too_big(request: HttpRequest) -> bool:
    try:
        return (
            int(request.META.get("CONTENT_LENGTH") or 0) > MAX_BODY or len(request.body) > MAX_BODY
        )
    except ValueError:
        return False
    except RequestDataTooBig:
        return True


def _is_empty(request: HttpRequest) -> bool:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) == 0 and not request.body
    except (ValueError, RequestDataTooBig):
        return False


def _json_object(request: HttpRequest) -> Any:
    content_type = request.content_type or ""
    if content_type != "application/json":
        raise Refusal(415, _("send the body as application/json"), "body")
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > MAX_BODY:
        raise Refusal(413, _("the request is larger than 64 KiB"), "body")
    try:
        body = request.body
    except RequestDataTooBig:
        raise Refusal(413, _("the request is larger than 64 KiB"), "body") from None
    if len(body) > MAX_BODY:
        raise Refusal(413, _("the request is larger than 64 KiB"), "body")
    if not body:
        return {}
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise Refusal(400, _("the body is not valid JSON"), "body") from None
    except RecursionError:
        raise Refusal(400, _("the body is nested too deeply"), "body") from None
    if not isinstance(data, dict):
        raise Refusal(400, _("send a JSON object"), "body")
    return data


api = NinjaAPI(
    title="Knock",
    version="1",
    description=(
        "Scorekeeper and referee for the card game 31. Answers speak the language of "
        "`Accept-Language` (English, the default, or German: `de`) in what is written for "
        "people (`error`, `explanation`, `status_label`, `summary`, reasons, the choices' and "
        "the rule sets' words); fields for programs (`status`, `result`, `field`, ids, values) "
        "never change with the language."
    ),
    urls_namespace="api",
    docs_url=None,
    parser=JsonBody(),
)
api.add_decorator(empty_body, mode="view")


def error(message: str, field: str, status: int = 400) -> HttpResponse:
    return HttpResponse(
        json.dumps({"error": message, "field": field}, ensure_ascii=False),
        status=status,
        content_type="application/json",
    )


# ---- every refusal in one shape ------------------------------------------------------------

# pydantic's own words for what our value types do not already explain.
_WORDS = {
    "missing": gettext_noop("this is needed"),
    "model_type": gettext_noop("give an object"),
    "model_attributes_type": gettext_noop("give an object"),
    "dict_type": gettext_noop("give an object"),
    "list_type": gettext_noop("give a list"),
    "too_long": gettext_noop("too many items"),
}


def field_path(loc: tuple[Any, ...]) -> str:
    """pydantic's location as the API names fields: ``("players", 1, "cards")`` is
    ``players[1].cards``. A refused key of an object is not repeated (it may be text no answer
    can carry): ``("losses", "B\\ud800", "[key]")`` is ``losses[key]``."""
    if "[key]" in loc:
        return field_path(loc[: loc.index("[key]") - 1]) + "[key]"
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path or "body"


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    refusal = getattr(request, "knock_refusal", None)
    if refusal is not None:  # the body itself was refused (``JsonBody``)
        return error(refusal.message, refusal.field, refusal.status)
    first = exc.errors[0]
    # ninja puts where the value came from first: ("body", "payload", …) with the body's name,
    # ("query", "round") for a query's; the field is what follows.
    where = tuple(first["loc"])
    loc = where[2:] if where[:1] == ("body",) else where[1:] if where[:1] == ("query",) else where
    kind = first.get("type", "")
    if kind == "extra_forbidden":
        message = (
            _("there is no field called “%(name)s”") % {"name": loc[-1]}
            if loc
            else _("there is no such field")
        )
    else:
        message = _(_WORDS[kind]) if kind in _WORDS else first.get("msg") or _("this is not right")
    return error(message, field_path(loc))


@api.exception_handler(InputError)
def _refused(request: HttpRequest, exc: InputError) -> HttpResponse:
    return error(exc.message, exc.field)


@api.exception_handler(Refusal)
def _refusal(request: HttpRequest, exc: Refusal) -> HttpResponse:
    return error(exc.message, exc.field, exc.status)


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Exception) -> HttpResponse:
    # A club's key that does not open what the request names: whether it exists, as another
    # club's or at all, is not revealed.
    return error(_("no such club, game or tournament for this key"), "Authorization", 404)


@api.exception_handler(AuthenticationError)
def _no_key(request: HttpRequest, exc: Exception) -> HttpResponse:
    # No key, or one that opens no club: the answer says nothing of any club, and what to send.
    answer = error(_("send a club's key: Authorization: Bearer <key>"), "Authorization", 401)
    answer["WWW-Authenticate"] = "Bearer"
    return answer


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return error(exc.message, "body", exc.status_code)


def not_found(request: HttpRequest, path: str = "") -> HttpResponse:
    """Every answer under the API's address is JSON: an address it does not have too."""
    return error(_("there is no such address in this API"), "path", 404)


from .games import router as games_router  # noqa: E402
from .rules import router as rules_router  # noqa: E402
from .tournaments import router as tournaments_router  # noqa: E402

api.add_router("", rules_router)
api.add_router("", games_router)
api.add_router("", tournaments_router)

__all__ = ["api", "error", "not_found"]
