"""gunicorn settings for a small server: `gunicorn -c config/gunicorn.py`.

Threads suit this app: a request spends its time in the database, not the CPU. Run it behind a
buffering proxy (nginx, Caddy) in a real deployment.
"""

import multiprocessing
import os

from gunicorn.glogging import Logger

from scorekeeper.lib.logs import RepeatsOnce
from scorekeeper.lib.redact import RedactKeys, redact

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
# Each access line: the connection's address, the client's as the proxy appended it, the
# request, status, size, how long it took, and the request's id (as in Django's lines).
access_log_format = (
    '%(h)s client=%({x-forwarded-for}i)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms '
    '"%(f)s" "%(a)s" id=%({x-request-id}o)s'
)


class RedactingLogger(Logger):
    """gunicorn's logs, with every club key taken out: of paths and referrers in the access
    log, and of everything in the error log (a bad request's line, a worker's traceback); a
    line of the error log that repeats is written once, with a count. An access line starts
    with its level, as every other line does."""

    access_fmt = "%(levelname)s %(message)s"

    def setup(self, cfg):
        super().setup(cfg)
        self.error_log.addFilter(RedactKeys())
        self.error_log.addFilter(RepeatsOnce())

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for name in ("r", "U", "f"):
            if isinstance(atoms.get(name), str):
                atoms[name] = redact(atoms[name])
        return atoms


logger_class = RedactingLogger


def own_control_socket(kind: str, env: str):
    """Each server's own control socket (gunicorn's default is one per user, which a second
    server would take over, and stopping either would remove): named by what it serves and the
    addresses it listens on, in gunicorn's own folder for it; ``env`` names another."""

    def on_starting(server):
        if os.environ.get(env):
            server.cfg.set("control_socket", os.environ[env])
            return
        runtime = os.environ.get("XDG_RUNTIME_DIR", "")
        folder = (
            runtime if runtime and os.path.isdir(runtime) else os.path.expanduser("~/.gunicorn")
        )
        where = "".join(char if char.isalnum() else "-" for char in "_".join(server.cfg.bind))
        server.cfg.set("control_socket", os.path.join(folder, f"knock-{kind}-{where}.ctl"))

    return on_starting


on_starting = own_control_socket("app", "KNOCK_CONTROL_SOCKET")
