import logging
import os
import shutil
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from django.utils import translation

from .servers import TEST_RUN


def pytest_configure(config):
    # One name for the whole run, set before pytest-xdist starts its workers (they inherit
    # it): what the run's workers share (the collected static files, tests/servers.py) is
    # kept under it, and removed when the run ends.
    if not hasattr(config, "workerinput"):
        os.environ[TEST_RUN] = uuid.uuid4().hex


def pytest_unconfigure(config):
    if not hasattr(config, "workerinput"):
        run = os.environ.pop(TEST_RUN, "")
        for kept in Path(tempfile.gettempdir()).glob(f"knock-static-{run}*"):
            if kept.is_dir():
                shutil.rmtree(kept, ignore_errors=True)
            else:
                kept.unlink(missing_ok=True)


@pytest.fixture(autouse=True)
def _plain_http(settings):
    # The test client and the live server speak plain HTTP: no secure-only cookies, no redirect.
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False


@pytest.fixture(autouse=True)
def _each_test_starts_in_english():
    # A request in German leaves German active in the thread (LocaleMiddleware activates a
    # language per request and leaves it): the next test must not inherit it.
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _each_test_logs_afresh():
    # A line logged once is not written again for a minute (scorekeeper.lib.logs): a test that
    # reads the log must see its own lines, whatever an earlier test logged.
    from scorekeeper.lib.logs import RepeatsOnce

    for handler in logging.getLogger().handlers + logging.getLogger("django").handlers:
        for kept in handler.filters:
            if isinstance(kept, RepeatsOnce):
                kept.seen.clear()


@pytest.fixture(autouse=True)
def _live_server_settles(request):
    """A test with the live server ends only once the server's requests have let go of the
    database. A browser closed at the end of a test leaves the server finishing what it was
    asked last (Play again starting a game, a round being sent) on its own thread; on
    PostgreSQL the flush that empties the tables between tests (a TRUNCATE of all of them) and
    such a transaction then wait for each other's locks, and the flush is the one PostgreSQL
    cancels ("deadlock detected"). SQLite's one writer only makes the flush wait its turn."""
    if "live_server" not in request.fixturenames:
        yield
        return
    # Asked for here, so it is torn down (the flush) after this fixture's wait.
    request.getfixturevalue("_django_db_helper")
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + 10
    quiet = 0
    while quiet < 3 and time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND state <> 'idle'"
            )
            (busy,) = cursor.fetchone()
        quiet = 0 if busy else quiet + 1
        time.sleep(0.02)
