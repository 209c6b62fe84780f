"""gunicorn settings for the server of live news (server-sent events):
`gunicorn -c config/gunicorn_events.py`.

Run it beside the app server (config/gunicorn.py) and send every path ending in `/events` to it
from the proxy. Its worker is gunicorn's asgi worker: one process holds thousands of quiet streams,
where the app server's threads would each hold one. Without it, pages poll every 2 seconds.
"""

import os

from config import gunicorn as app_server
from config.gunicorn import RedactingLogger, own_control_socket

wsgi_app = "config.asgi:application"
bind = os.environ.get("KNOCK_EVENTS_BIND", "127.0.0.1:8001")
worker_class = "config.events_worker.EventsWorker"
# Each process has one watcher, which asks the database about its streams' games four times a
# second; one process holds thousands of streams.
workers = int(os.environ.get("KNOCK_EVENTS_WORKERS", 1))
timeout = 30
graceful_timeout = 10  # streams are cut at a restart; pages poll until they open them again
keepalive = 5
accesslog = os.environ.get("KNOCK_ACCESS_LOG", "-") or None
access_log_format = app_server.access_log_format  # one grep reads both servers' lines
logger_class = RedactingLogger
on_starting = own_control_socket("events", "KNOCK_EVENTS_CONTROL_SOCKET")
