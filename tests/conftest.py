import logging

import pytest
from django.utils import translation


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
