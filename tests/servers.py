"""Real app servers (gunicorn, as in production) started by a test, on the test's database."""

import atexit
import fcntl
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager, suppress
from functools import cache
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
# The name of this test run, shared by its workers (tests/conftest.py sets it).
TEST_RUN = "KNOCK_TEST_RUN"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@cache
def collected_static() -> str:
    """The hashed, compressed static files production serves, written to a folder of their own
    once per test run, whichever of the run's workers asks first (a clean clone has none, the
    tree's own is not the test's to write, and compressing the engine's runtime takes half a
    minute). ``tests/conftest.py`` names the run and removes the folder when the run ends;
    ``KNOCK_TEST_STATIC`` names a folder kept across runs instead (``.ci/test`` removes it)."""
    root = Path(
        os.environ.get("KNOCK_TEST_STATIC")  # .ci/test: one folder for both databases' runs
        or Path(tempfile.gettempdir(), f"knock-static-{os.environ.get(TEST_RUN, os.getpid())}")
    )
    with open(f"{root}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "staticfiles.json").is_file():
            shutil.rmtree(root, ignore_errors=True)
            subprocess.run(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                cwd=ROOT,
                env={
                    **os.environ,
                    "DJANGO_STATIC_ROOT": str(root),
                    "DJANGO_DEBUG": "0",
                    "DJANGO_SECRET_KEY": "collect-" + "x" * 50,
                },
                check=True,
            )
    if TEST_RUN not in os.environ and "KNOCK_TEST_STATIC" not in os.environ:
        atexit.register(shutil.rmtree, root, ignore_errors=True)
    return str(root)


def server_environment(debug: bool = False) -> dict[str, str]:
    """Production settings (or, with ``debug``, the development ones, whose static files need
    no collectstatic), on the database this test run uses."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_DEBUG": "1" if debug else "0",
        "DJANGO_SECRET_KEY": "servers-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_HTTPS": "0",
        "KNOCK_ACCESS_LOG": "",
        "DJANGO_LOG_LEVEL": "ERROR",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    if not debug:
        env["DJANGO_STATIC_ROOT"] = collected_static()
    env.pop("DATABASE_URL", None)
    if connection.vendor == "postgresql":
        host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
        password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
        env["DATABASE_URL"] = f"postgres://{db['USER']}{password}@{host}:{port}/{db['NAME']}"
    else:
        env["KNOCK_SQLITE_PATH"] = str(db["NAME"])
    return env


class Served(str):
    """A server's address, which knows its process group (to stop or freeze it)."""

    def __new__(cls, url: str, group: int):
        served = super().__new__(cls, url)
        served.group = group
        return served


@contextmanager
def app_server(
    env: dict[str, str],
    config: str = "config/gunicorn.py",
    *options: str,
    files: int | None = None,
    log: Path | None = None,
):
    """A gunicorn on a free port; ``files`` limits the files each of its processes may open,
    ``log`` takes its error log."""
    port = free_port()
    if config == "config/gunicorn.py":
        options = ("--workers", "1", "--threads", "2", *options)

    def limit_files():
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", config, "--bind", f"127.0.0.1:{port}", *options],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb") if log else subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=limit_files,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the app server did not start") from None
                time.sleep(0.2)
        yield Served(f"http://127.0.0.1:{port}", server.pid)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


def call(base: str, method: str, path: str, body=None, key: str | None = None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


class Relay:
    """A TCP relay in front of a server that the test cuts and mends: a database, or the Wi-Fi
    to the app, going away and coming back, as the other side sees it (connections reset, new
    ones refused until mended)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open = True
        self.delay = 0.0  # seconds every answer waits on its way back: a slow Wi-Fi
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open:
                client.close()
                continue
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for a, b, slow in ((client, upstream, False), (upstream, client, True)):
                threading.Thread(target=self._pump, args=(a, b, slow), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket, slow: bool) -> None:
        with suppress(OSError):
            while data := a.recv(65536):
                if slow and self.delay:
                    time.sleep(self.delay)
                b.sendall(data)
        for end in (a, b):
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.open = False
        for end in self.sockets:
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
        self.sockets.clear()

    def mend(self, delay: float = 0.0) -> None:
        self.open = True
        self.delay = delay

    def close(self) -> None:
        self.cut()
        self.listener.close()
