"""The engine's runtime as Knock publishes it: the files its worker loads, and nothing else of
the npm package (its demo consoles load scripts from a CDN, and would run on Knock's origin,
whose storage holds the clubs' secret links)."""

import re
import subprocess
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from scorekeeper.web import engine

from ..servers import ROOT, collected_static

# What the package holds beside the runtime: none of it is Knock's to serve.
NOT_PUBLISHED = ("console.html", "console-v2.html", "README.md", "package.json", "pyodide.d.ts")

needs_runtime = pytest.mark.skipif(
    engine.runtime_dir() is None, reason="no runtime installed (npm ci)"
)


def test_node_modules_is_not_in_git():
    """`npm ci` is the only way the runtime arrives: a clone without Node.js has none, and
    plays over the server."""
    tracked = subprocess.run(
        ["git", "ls-files", "node_modules"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert tracked.stdout == ""


@needs_runtime
def test_only_the_files_the_worker_loads_are_found():
    folder = f"pyodide/{engine.runtime_version()}"
    for name in engine.RUNTIME_FILES:
        assert finders.find(f"{folder}/{name}") == str(engine.runtime_dir() / name)
    for name in NOT_PUBLISHED:
        assert (engine.runtime_dir() / name).is_file()  # in the package, so the test means it
        assert finders.find(f"{folder}/{name}") is None


@needs_runtime
def test_the_demo_pages_are_not_served_in_development_or_production(client, settings):
    folder = f"/static/pyodide/{engine.runtime_version()}"
    assert client.get(f"{folder}/pyodide.mjs").status_code == 200
    for name in NOT_PUBLISHED:
        assert client.get(f"{folder}/{name}").status_code == 404, name
    # What collectstatic writes for production: the runtime's files (hashed, compressed), no more.
    collected = Path(collected_static(), "pyodide", engine.runtime_version())
    written = {path.name for path in collected.iterdir()}
    for name in NOT_PUBLISHED:
        stem, _, suffix = name.partition(".")
        shape = rf"{re.escape(stem)}(\.[0-9a-f]{{12}})?\.{re.escape(suffix)}(\.gz|\.br)?"
        assert not [kept for kept in written if re.fullmatch(shape, kept)], name
    assert set(engine.RUNTIME_FILES) <= written
