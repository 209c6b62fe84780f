"""gunicorn settings for a small server: `gunicorn -c config/gunicorn.py`.

Threads suit this app: a request spends its time in the database, not the CPU. Run it behind a
buffering proxy (nginx, Caddy) in a real deployment.
"""

import multiprocessing
import os

wsgi_app = "config.wsgi:application"
bind = os.environ.get("KNOCK_BIND", "127.0.0.1:8000")
worker_class = "gthread"
workers = int(os.environ.get("KNOCK_WORKERS", max(2, multiprocessing.cpu_count() + 1)))
threads = int(os.environ.get("KNOCK_THREADS", 4))
timeout = 30
graceful_timeout = 30
max_requests = 2000
max_requests_jitter = 200
accesslog = "-"
