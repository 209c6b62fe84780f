"""The static files as production serves them: whitenoise's hashed, compressed files, with the
phone's ES modules' imports rewritten to the hashed names (Django's own option for it), so a
module never loads an old copy of another, and the service worker keeps the very files the
modules ask for.

Knock's own scripts and stylesheets are served without their comments and spaces (rJSmin and
rCSSmin, which change nothing else: no names are shortened, so a phone's fault report still
reads). The table page's first load is 69.4 KB gzipped as written and 49.3 KB served so
(tests/browser/test_phone_app.py holds it to 50 KB). The hash is taken of what is served, so a
change to a comment alone sends no phone a new file."""

import posixpath

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}
OWN_FOLDERS = ("js/", "css/")


def minifier(name: str):
    """How a collected file is made small, or None: only Knock's own scripts and stylesheets
    (a vendored ``.min.`` file and the engine's runtime are served as they come)."""
    stem, extension = posixpath.splitext(name)
    if not name.startswith(OWN_FOLDERS) or stem.endswith(".min"):
        return None
    return MINIFIERS.get(extension)


class _Minified:
    """A source storage whose files open minified (what Django's hashing then reads)."""

    def __init__(self, storage, minify):
        self.storage = storage
        self.minify = minify

    def open(self, path, mode="rb"):
        with self.storage.open(path) as original:
            text = original.read().decode("utf-8")
        return ContentFile(self.minify(text).encode("utf-8"), name=path)


class StaticFiles(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

    def post_process(self, paths, dry_run=False, **options):
        if not dry_run:
            paths = {
                name: (
                    (_Minified(storage, minify), path)
                    if (minify := minifier(name))
                    else (storage, path)
                )
                for name, (storage, path) in paths.items()
            }
        return super().post_process(paths, dry_run, **options)
