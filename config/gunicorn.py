"""gunicorn settings for a small server: `gunicorn -c config/gunicorn.py`.

Threads suit this app: a request spends its time in the database, not the CPU. Run it behind a
buffering proxy (nginx, Caddy) in a real deployment.
"""

import multiprocessing
import os

from gunicorn.glogging import Logger

from scorekeeper.lib.redact import redact

wsgi_app = "config.wsgi:application"
bind = os.environ.get("KNOCK_BIND", "127.0.0.1:8000")
worker_class = "gthread"
workers = int(os.environ.get("KNOCK_WORKERS", max(2, multiprocessing.cpu_count() + 1)))
threads = int(os.environ.get("KNOCK_THREADS", 4))
timeout = 30
graceful_timeout = 30
# Workers are replaced after this many requests (0: never), which bounds any slow leak.
max_requests = int(os.environ.get("KNOCK_MAX_REQUESTS", 2000))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("KNOCK_ACCESS_LOG", "-") or None  # empty: no access log


class RedactingLogger(Logger):
    """The access log, with every club key taken out of paths and referrers."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for name in ("r", "U", "f"):
            if isinstance(atoms.get(name), str):
                atoms[name] = redact(atoms[name])
        return atoms


logger_class = RedactingLogger
