"""What makes Knock a phone app: its manifest, its service worker and the page it shows offline."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from pathlib import Path

from django.conf import settings
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_POST

from ... import play
from ...lib.redact import redact
from ...lib.tracking import report as track
from .. import contract, engine
from ..access import client_digest

# The files a second visit never fetches again: the stylesheet, every script of the phone
# (each module under static/js/, listed from the folder itself, so none can be left out) and
# the icons.
SCRIPTS = Path(settings.BASE_DIR) / "static" / "js"
PRECACHED = [
    "css/knock.css",
    *sorted(f"js/{path.name}" for path in SCRIPTS.glob("*.js")),
    "django_htmx/htmx-2.min.js",
    "django_htmx/django-htmx.js",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/favicon.ico",
]
THEME, PAPER = "#0f5132", "#fbfaf7"
STARTED = str(time.time())


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    response = JsonResponse(
        {
            "name": _("Knock: the scorekeeper for 31"),
            "short_name": "Knock",
            "description": _("Lives, rules and referee for the card game 31 (Scat, Schwimmen)."),
            "start_url": reverse("home"),
            "scope": "/",
            "display": "standalone",
            "background_color": PAPER,
            "theme_color": THEME,
            "icons": icons,
        }
    )
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The worker, naming the static files' real (hashed, in production) URLs; its version
    changes with them, so a new release replaces what the phones keep."""
    precache = [static(path) for path in PRECACHED]
    # The engine on the phone is kept as the table first fetches it (it is large, and only the
    # table needs it), under the names of this release's runtime and bundle.
    urls = engine_urls()
    engine_files = (
        [
            *(
                static(f"pyodide/{engine.runtime_version()}/{name}")
                for name in engine.RUNTIME_FILES
            ),
            urls["stdlib"],
            urls["bundle"],
        ]
        if urls
        else []
    )
    # In production the URLs carry the files' hashes; in development they do not, so a server
    # started again (after an edit) gives the phones a new version too.
    salt = "" if not settings.DEBUG else STARTED
    version = hashlib.sha256("\n".join([*precache, *engine_files, salt]).encode()).hexdigest()[:12]
    config = {
        "version": version,
        "names": contract.NAMES,
        "precache": precache,
        "engineFiles": engine_files,
        "offline": reverse("offline"),
        "staticUrl": settings.STATIC_URL,
        "enginePrefixes": [
            f"{settings.STATIC_URL}pyodide/",
            reverse("engine-bundle", args=["x"])[: -len("x.json")],
        ],
    }
    return render(
        request,
        "sw.js",
        {"config": json.dumps(config), "script": static("js/service-worker.js")},
        content_type="text/javascript",
    )


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "scorekeeper/offline.html")


@require_GET
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico by themselves: whitenoise serves it from the icons."""
    return HttpResponsePermanentRedirect(static("icons/favicon.ico"))


# The engine's files are named by their version: a phone keeps them until a release changes it.
KEPT_FOR_GOOD = {"max_age": 10 * 365 * 24 * 3600, "public": True, "immutable": True}


def engine_urls() -> dict[str, str] | None:
    """Where a table page finds the engine, or None where no runtime is installed (the table
    then plays over the server)."""
    version = engine.runtime_version()
    if not version:
        return None
    return {
        "runtime": static(f"pyodide/{version}/pyodide.mjs"),
        "stdlib": reverse("engine-stdlib", args=[version]),
        "bundle": reverse("engine-bundle", args=[engine.bundle()[0]]),
        "version": engine.bundle()[0],
        "worker": static("js/engine-worker.js"),
    }


@require_GET
@gzip_page
@cache_control(**KEPT_FOR_GOOD)
def engine_bundle(request: HttpRequest, version: str) -> HttpResponse:
    """The rules engine this server runs, with its catalogues (``web/engine.py``)."""
    current, body = engine.bundle()
    if version != current:
        raise Http404(_("This engine is not the server's: load the table again."))
    return HttpResponse(body, content_type="application/json")


@require_GET
@cache_control(**KEPT_FOR_GOOD)
def engine_stdlib(request: HttpRequest, version: str) -> HttpResponse:
    """The runtime's standard library, cut to what the engine imports."""
    if version != engine.runtime_version():
        raise Http404(_("This engine is not the server's: load the table again."))
    return HttpResponse(engine.stdlib(), content_type="application/zip")


log = logging.getLogger("scorekeeper.phone")
FAULT_KINDS = ("error", "rejection", "outbox", "engine", "csp")
FAULTS_A_MINUTE = 20  # from one address; more are not logged
LONGEST_FAULT = 2000  # bytes of a report


def _one_line(text: str) -> str:
    """What a phone said, as one line of the log: every character that is not printable (a line
    break, a carriage return, an escape that colours a terminal, a NUL) written as its escape, so
    a report can never start a line of its own that passes for the server's."""
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


def _fault_refused(field: str, why: str) -> JsonResponse:
    return JsonResponse({"error": why, "field": field}, status=400)


@require_POST
def phone_fault(request: HttpRequest) -> HttpResponse:
    """A fault on a phone (static/js/faults.js), written to the server's log with the release
    (and to the error tracker where one is configured). Bounded: a small body, a few a minute
    from one address, and any club key taken out of what it says."""
    if len(request.body) > LONGEST_FAULT:
        return _fault_refused("body", "a fault report is at most 2000 bytes")
    try:
        said = json.loads(request.body)
    except ValueError:
        return _fault_refused("body", "a fault report is a JSON object")
    if not isinstance(said, dict):
        return _fault_refused("body", "a fault report is a JSON object")
    for field in ("kind", "message", "where", "release"):
        if not isinstance(said.get(field), str):
            return _fault_refused(field, f"{field} is a string")
    if said["kind"] not in FAULT_KINDS:
        return _fault_refused("kind", f"kind is one of {', '.join(FAULT_KINDS)}")
    if not play.fault_allowed(client_digest(request), FAULTS_A_MINUTE):
        return HttpResponse(status=429)
    fault = {
        field: _one_line(redact(said[field])[:300])
        for field in ("kind", "message", "where", "release")
    }
    log.warning(
        "phone fault: %s in %s: %s (release %s)",
        fault["kind"],
        fault["where"] or "?",
        fault["message"],
        fault["release"],
        extra={"fault": fault},
    )
    track(f"phone fault: {fault['kind']}: {fault['message']}", fault)
    return HttpResponse(status=204)
