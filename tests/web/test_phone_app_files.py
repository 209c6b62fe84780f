"""The files that make Knock a phone app, through the test client."""

import json
import re
from pathlib import Path

from django.templatetags.static import static

from ..servers import ROOT, collected_static


def test_the_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["short_name"] == "Knock" and data["display"] == "standalone"
    assert [icon["src"] for icon in data["icons"]] == [
        static("icons/icon-192.png"),
        static("icons/icon-512.png"),
        static("icons/icon-maskable-512.png"),
    ]


def test_the_worker_precaches_the_static_files_and_is_never_cached_long(client):
    response = client.get("/sw.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    for path in ("css/knock.css", "js/page.js", "js/table.js", "django_htmx/htmx-2.min.js"):
        assert f'"{static(path)}"' in body
    assert '"offline": "/offline"' in body
    # The worker itself is a static file of its own, type-checked and linted with the others.
    assert f'importScripts("{static("js/service-worker.js")}")' in body
    # Its version follows the files it names, so a release with new files replaces the old.
    assert body == client.get("/sw.js").content.decode()


def test_the_worker_is_served_with_the_hashed_files_production_serves(client, settings):
    """Production serves the static files under hashed names, from what collectstatic wrote:
    the worker names those (it once asked the manifest for the static folder itself, and
    answered 500)."""
    settings.STATIC_ROOT = collected_static()
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "scorekeeper.web.storage.StaticFiles"},
    }
    response = client.get("/sw.js")
    assert response.status_code == 200
    body = response.content.decode()
    assert '"staticUrl": "/static/"' in body
    assert re.search(r'"/static/js/page\.[0-9a-f]{12}\.js"', body)


def test_the_offline_page_and_the_favicon(client):
    assert "No connection" in client.get("/offline").content.decode()
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == static("icons/favicon.ico")


def test_every_page_links_the_manifest_and_loads_its_scripts_from_static(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert f'<script type="module" src="{static("js/page.js")}"></script>' in page
    assert 'data-worker="/sw.js"' in page
    assert "<script>" not in page  # no inline script, still


def test_every_script_of_the_phone_is_precached(client):
    """The card picker and the printed pages' script were missing from a list kept by hand:
    the worker now lists every file under static/js/, and this holds it to it."""
    body = client.get("/sw.js").content.decode()
    scripts = sorted(path.name for path in (ROOT / "static" / "js").glob("*.js"))
    assert "cards.js" in scripts and "print.js" in scripts
    for name in scripts:
        assert f'"{static(f"js/{name}")}"' in body, name


def test_production_rewrites_the_modules_imports_to_the_hashed_files(settings):
    """A module asks for another by its hashed name in production, so the service worker's
    copy (which it keeps under the hashed name) is the one a page offline gets."""
    root = Path(collected_static())
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]

    def hashed(name):
        return manifest[f"js/{name}"].rsplit("/", 1)[-1]

    table = (root / manifest["js/table.js"]).read_text()
    for imported in ("record.js", "taps.js", "settings.js"):
        assert f'from "./{hashed(imported)}"' in table, imported
    record = (root / manifest["js/record.js"]).read_text()
    for imported in ("outbox.js", "sender.js", "recorder.js", "engine-client.js"):
        assert f'from "./{hashed(imported)}"' in record, imported
    assert f'import("./{hashed("board.js")}")' in record
