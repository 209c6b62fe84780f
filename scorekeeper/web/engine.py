"""The rules engine on the phone: what a phone downloads to run ``scorekeeper/rules`` itself.

Two parts, each at a URL that names its version, so a phone keeps it until a release changes it:

- **The runtime**: Pyodide (CPython compiled to WebAssembly), the npm package pinned in
  ``package-lock.json``. Only the files the worker loads (``RUNTIME_FILES``) are published, by
  ``RuntimeFinder``, under ``static/pyodide/<version>/``; the package's demo pages, README and
  type files never reach Knock's origin. It comes with a standard library cut to what the
  engine imports (``stdlib``): 1.2 MB instead of 2.5 MB of a zip that barely compresses.
- **The bundle**: the very files of ``scorekeeper/rules`` this server runs, and the compiled
  catalogues of the languages it speaks, as one JSON document whose version is the hash of its
  contents (``bundle``). A phone whose bundle is not the server's says so and plays over the
  server until it has the new one (static/js/engine-client.js).

A machine without Node.js has no runtime: the table then works over the server, as before.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.finders import BaseFinder
from django.core.checks import CheckMessage
from django.core.files.storage import FileSystemStorage

RULES = Path(__file__).resolve().parents[1] / "rules"

# The standard library's top-level modules and packages that Pyodide loads as it starts, and
# that the engine imports after it (json, gettext, fractions, numbers and what they import);
# the rest of the zip is left out. Measured by listing sys.modules in the worker after
# ``import scorekeeper.rules``; tests/browser/test_engine.py proves the engine imports with it.
STDLIB = frozenset(
    [
        "__future__",
        "_collections_abc",
        "_colorize",
        "_opcode_metadata",
        "_py_warnings",
        "_pyodide",
        "_sitebuiltins",
        "_ssl",
        "_sysconfigdata__emscripten_wasm32-emscripten",
        "_weakrefset",
        "abc",
        "annotationlib",
        "ast",
        "asyncio",
        "base64",
        "bisect",
        "bz2",
        "codecs",
        "codeop",
        "collections",
        "compression",
        "concurrent",
        "contextlib",
        "contextvars",
        "copy",
        "copyreg",
        "dataclasses",
        "dis",
        "encodings",
        "enum",
        "fnmatch",
        "fractions",
        "functools",
        "genericpath",
        "gettext",
        "glob",
        "heapq",
        "importlib",
        "inspect",
        "io",
        "json",
        "keyword",
        "linecache",
        "locale",
        "logging",
        "lzma",
        "ntpath",
        "numbers",
        "opcode",
        "operator",
        "os",
        "pathlib",
        "posixpath",
        "pyodide",
        "random",
        "re",
        "reprlib",
        "selectors",
        "shutil",
        "signal",
        "site",
        "socket",
        "ssl",
        "stat",
        "string",
        "struct",
        "subprocess",
        "tempfile",
        "textwrap",
        "threading",
        "token",
        "tokenize",
        "traceback",
        "types",
        "typing",
        "warnings",
        "weakref",
        "zipfile",
        "zipimport",
    ]
)
# Of the codecs, the ones text in a browser meets; the others (cp1252, mac_roman, …) stay out.
ENCODINGS = frozenset(
    [
        "__init__",
        "aliases",
        "ascii",
        "charmap",
        "latin_1",
        "raw_unicode_escape",
        "unicode_escape",
        "utf_8",
        "utf_8_sig",
        "utf_16",
        "utf_16_le",
        "utf_16_be",
        "utf_32",
        "utf_32_le",
        "utf_32_be",
    ]
)


def runtime_dir() -> Path | None:
    """Where the runtime is installed (``npm ci``), or None on a machine without it."""
    folder = Path(settings.KNOCK_PYODIDE_DIR)
    return folder if (folder / "pyodide.asm.wasm").is_file() else None


@cache
def runtime_version() -> str:
    folder = runtime_dir()
    if folder is None:
        return ""
    return str(json.loads((folder / "package.json").read_text())["version"])


def _kept(name: str) -> bool:
    top, _, rest = name.partition("/")
    top = top.removesuffix(".py")
    if top == "encodings":
        return not rest or rest.removesuffix(".py") in ENCODINGS
    return top in STDLIB


@cache
def stdlib() -> bytes:
    """Pyodide's standard library zip with only what the engine needs (``stdLibURL``)."""
    folder = runtime_dir()
    assert folder is not None, "no runtime installed"
    out = io.BytesIO()
    with (
        zipfile.ZipFile(folder / "python_stdlib.zip") as full,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as cut,
    ):
        for entry in full.infolist():
            if _kept(entry.filename):
                cut.writestr(entry, full.read(entry), compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


@cache
def bundle() -> tuple[str, bytes]:
    """The engine as the phone loads it: its version and the JSON document, made once per
    process from the files this server runs (so the two cannot drift)."""
    files = {
        f"scorekeeper/rules/{path.relative_to(RULES).as_posix()}": path.read_text()
        for path in sorted(RULES.rglob("*.py"))
    }
    files["scorekeeper/__init__.py"] = ""
    catalogues = {
        code: base64.b64encode(mo.read_bytes()).decode()
        for code, _name in settings.LANGUAGES
        if (mo := Path(settings.LOCALE_PATHS[0]) / code / "LC_MESSAGES" / "django.mo").is_file()
    }
    content: dict[str, Any] = {"files": files, "catalogues": catalogues}
    version = hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:16]
    return version, json.dumps({"version": version, **content}, sort_keys=True).encode()


# What the worker loads of the runtime (static/js/engine-worker.js): the loader, the compiled
# interpreter and the lock file its loader reads. The standard library comes cut (``stdlib``).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")


class RuntimeFinder(BaseFinder):
    """The runtime's files as static files under ``pyodide/<version>/``, and nothing else of
    the npm package (a folder in STATICFILES_DIRS would publish all of it, demo pages too)."""

    def _storage(self) -> FileSystemStorage | None:
        folder = runtime_dir()
        if folder is None:
            return None
        storage = FileSystemStorage(location=folder)
        storage.prefix = f"pyodide/{runtime_version()}"  # type: ignore[attr-defined]
        return storage

    def check(self, **kwargs: Any) -> list[CheckMessage]:
        return []

    # Not found is [] either way, as Django's own finders answer (its ``find`` keeps any other
    # answer, None too, as a match); the stubs say None.
    def find(self, path: str, find_all: bool = False) -> str | list[str]:  # type: ignore[override]
        storage = self._storage()
        prefix, _, name = path.rpartition("/")
        found = (
            storage is not None
            and prefix == storage.prefix  # type: ignore[attr-defined]
            and name in RUNTIME_FILES
        )
        if not found:
            return []
        assert storage is not None
        return [storage.path(name)] if find_all else storage.path(name)

    def list(self, ignore_patterns: Any) -> Any:
        storage = self._storage()
        if storage is None:
            return
        for name in RUNTIME_FILES:
            yield name, storage
