"""Knock's settings: one file, read from environment variables, with safe defaults for development.

Production sets DJANGO_DEBUG=0, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS and, behind HTTPS,
DJANGO_HTTPS=1 (see the README).
"""

import os
import tempfile
import tomllib
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    return os.environ.get(name, "1" if default else "0").strip().lower() in ("1", "true", "yes")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set DJANGO_SECRET_KEY when DJANGO_DEBUG is off.")
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",  # for operators only: see scorekeeper/admin.py
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",  # failed logins to the admin, locked out by user and by address
    "scorekeeper",
]

MIDDLEWARE = [
    "scorekeeper.web.middleware.RequestId",  # first: every line logged after it names the request
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "scorekeeper.web.middleware.AdminSessions",  # the admin's session: in the database
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorekeeper.web.middleware.KeyedPagesStayPrivate",
    # A database that does not answer: 503 with Retry-After, and a few lines in the log.
    "scorekeeper.web.middleware.DatabaseOutage",
    "axes.middleware.AxesMiddleware",  # last: it answers a locked-out login
]

# The admin's login: 5 failures for a username, or from an address, lock it for an hour
# (django-axes). The address is the one Knock counts everywhere (web/access.py).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("KNOCK_ADMIN_FAILURES", "5"))
AXES_COOLOFF_TIME = timedelta(hours=1)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_CLIENT_IP_CALLABLE = "scorekeeper.web.access.client_ip"
AXES_RESET_ON_SUCCESS = True

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "scorekeeper.web.context.script_words",
                "django.contrib.auth.context_processors.auth",
                "django.template.context_processors.csp",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite by default, with what it needs for several phones writing at once; PostgreSQL (or any
# database dj-database-url reads) when DATABASE_URL is set.
if os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.config(conn_max_age=60, conn_health_checks=True),
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("KNOCK_SQLITE_PATH", str(BASE_DIR / "knock.sqlite3")),
            # Keep each thread's connection: opening one runs the PRAGMAs below every time.
            "CONN_MAX_AGE": 600,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Tests use a file too, with these same settings: an in-memory database would share
            # one connection between threads and hide how concurrent taps really behave.
            "TEST": {"NAME": str(BASE_DIR / "test-knock.sqlite3")},
        },
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The default cache holds what every game of the same rules shares (its rules card, drawn once
# per language: templates/scorekeeper/game.html), in each process's memory. Several boxes need
# no shared cache for it: each draws the card once.
CACHES: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "TIMEOUT": 86400,
        "OPTIONS": {"MAX_ENTRIES": 1000},
    },
    # Shared pictures (60–90 KB each) on disk, not in each worker's memory: at most 300 of them,
    # about 27 MB, shared by the box's workers (in memory they took up to 90 MB a worker).
    "pictures": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("KNOCK_PICTURE_CACHE", "")
        or str(Path(tempfile.gettempdir()) / "knock-pictures"),
        "TIMEOUT": 3600,
        "OPTIONS": {"MAX_ENTRIES": 300},
    },
}

LANGUAGE_CODE = "en"
# English first (the default, and the language of the code's message ids), then German. The
# browser's Accept-Language chooses, and the switch on every page overrides it with a cookie;
# links never carry the language, so a club's secret link is the same in both.
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates in each language's own way (config/formats/<language>/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS: list[Path | tuple[str, Path]] = [BASE_DIR / "static"]
# The rules engine on the phone (scorekeeper/web/engine.py): the Python runtime, installed from
# npm (package-lock.json), served under a folder named after its version, so a phone keeps it
# until a release changes it. Without it (a machine with no Node.js) the table plays over the
# server, as before.
# Only the files the worker loads are published (scorekeeper/web/engine.py's RuntimeFinder): the
# package's demo pages, its README and its type files stay off Knock's origin.
KNOCK_PYODIDE_DIR = Path(
    os.environ.get("KNOCK_PYODIDE_DIR", "") or BASE_DIR / "node_modules" / "pyodide"
)
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "scorekeeper.web.engine.RuntimeFinder",
]


def _runtime_kept_for_good(headers: Any, path: str, url: str) -> None:
    """The runtime's files keep the names its loader asks for, so whitenoise sees no hash in
    them: the version in their folder is theirs, and a phone keeps them for good."""
    if url.startswith(f"/{STATIC_URL}pyodide/"):
        headers["Cache-Control"] = "max-age=315360000, public, immutable"


WHITENOISE_ADD_HEADERS_FUNCTION = _runtime_kept_for_good
STATIC_ROOT = os.environ.get("DJANGO_STATIC_ROOT", "") or BASE_DIR / "staticfiles"
# In development whitenoise serves straight from the app's static folders; in production from
# the hashed, compressed files collectstatic writes to STATIC_ROOT.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "scorekeeper.web.storage.StaticFiles"
    },
}

# Security. Scripts come only from our own static files (htmx included), never inline.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

HTTPS = env_flag("DJANGO_HTTPS", not DEBUG)
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS and env_flag("DJANGO_SSL_REDIRECT", True)
# The health check is asked by the box itself (a supervisor, a load balancer), on plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000" if HTTPS else "0"))

# Subdomains are not Knock's to decide, and a preload is hard to undo: each only when asked.
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS and env_flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = HTTPS and env_flag("DJANGO_HSTS_PRELOAD", False)
# LAN mode (DJANGO_HTTPS=0, production otherwise): plain HTTP is the point, so the deploy checks
# that ask for HTTPS cannot apply, and only there are they silenced. Behind HTTPS, the checks
# that ask for includeSubDomains and preload are silenced while the operator has not asked for
# them: leaving them out is the default on purpose.
SILENCED_SYSTEM_CHECKS = (
    ["security.W004", "security.W008", "security.W012", "security.W016"]
    if not HTTPS and not DEBUG
    else [
        *([] if SECURE_HSTS_INCLUDE_SUBDOMAINS else ["security.W005"]),
        *([] if SECURE_HSTS_PRELOAD else ["security.W021"]),
    ]
)

# A club's key is its password: every handler takes keys out of what it writes. Each line
# says when, how bad, where from and which request (the id is in the answer's X-Request-ID
# too); KNOCK_LOG_FORMAT=json writes one JSON object a line instead.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact_keys": {"()": "scorekeeper.lib.redact.RedactKeys"},
        "repeats_once": {"()": "scorekeeper.lib.logs.RepeatsOnce"},
        "request_id": {"()": "scorekeeper.lib.logs.WithRequestId"},
        "said_elsewhere": {"()": "scorekeeper.lib.logs.SaidElsewhere"},
    },
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "scorekeeper.lib.logs.JsonLines"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["said_elsewhere", "redact_keys", "repeats_once", "request_id"],
            "formatter": "json" if os.environ.get("KNOCK_LOG_FORMAT") == "json" else "plain",
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}

# Errors go to an error tracker only when the operator names one (Sentry's DSN, or a
# compatible one's), with every key taken out (scorekeeper/lib/tracking.py).
# The release, as a phone's fault report and the error tracker name it.
KNOCK_RELEASE = (
    "knock@" + tomllib.loads((BASE_DIR / "pyproject.toml").read_text())["project"]["version"]
)
if os.environ.get("SENTRY_DSN"):
    from scorekeeper.lib.tracking import start as track_errors

    track_errors(
        os.environ["SENTRY_DSN"], os.environ.get("SENTRY_ENVIRONMENT", "production"), KNOCK_RELEASE
    )

# Sessions live in a signed cookie (no table): they only remember which clubs this browser opened.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_AGE = 60 * 60 * 24 * 400
MESSAGE_STORAGE = "django.contrib.messages.storage.cookie.CookieStorage"

# Knock's own settings.
# Where the operators' admin lives, and how long its session lasts (it ends at logout too).
KNOCK_ADMIN_PATH = os.environ.get("KNOCK_ADMIN_PATH", "admin/")
KNOCK_ADMIN_SESSION_AGE = int(os.environ.get("KNOCK_ADMIN_SESSION_AGE", str(8 * 60 * 60)))
# Sizes no real group reaches, so that no request does work that grows without bound: refused
# beyond them with a message that names the limit.
KNOCK_MOST_ROUNDS = int(os.environ.get("KNOCK_MOST_ROUNDS", "2000"))  # rounds in a game
KNOCK_MOST_PLAYERS = int(os.environ.get("KNOCK_MOST_PLAYERS", "2000"))  # players in a club
KNOCK_MOST_GAMES = int(os.environ.get("KNOCK_MOST_GAMES", "10000"))  # games a club keeps
KNOCK_MOST_SEASONS = int(os.environ.get("KNOCK_MOST_SEASONS", "50"))  # seasons a club counts
KNOCK_MOST_TOURNAMENTS = int(os.environ.get("KNOCK_MOST_TOURNAMENTS", "200"))  # a club keeps
# How many clubs one client address may create in an hour.
KNOCK_CLUBS_PER_HOUR = int(os.environ.get("KNOCK_CLUBS_PER_HOUR", "20"))
# How many proxies in front of Knock append the address they saw to KNOCK_CLIENT_IP_HEADER (the
# shipped nginx and Caddy configurations: one). 0: count the connection's own address.
KNOCK_CLIENT_IP_HEADER = os.environ.get("KNOCK_CLIENT_IP_HEADER", "") or "X-Forwarded-For"
KNOCK_TRUSTED_PROXIES = int(
    os.environ.get(
        "KNOCK_TRUSTED_PROXIES", "1" if os.environ.get("KNOCK_CLIENT_IP_HEADER") else "0"
    )
)
