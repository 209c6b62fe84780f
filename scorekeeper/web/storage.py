"""The static files as production serves them: whitenoise's hashed, compressed files, with the
phone's ES modules' imports rewritten to the hashed names (Django's own option for it), so a
module never loads an old copy of another, and the service worker keeps the very files the
modules ask for."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFiles(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
