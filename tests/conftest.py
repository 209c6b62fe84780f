import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _plain_http(settings):
    # The test client and the live server speak plain HTTP: no secure-only cookies, no redirect.
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False


@pytest.fixture(autouse=True)
def _polls_ask_the_database(settings):
    # The poll's board reads with a thread of its own, which would keep a connection to the test
    # database open; its own tests (tests/web/test_poll_board.py) turn it on, and stop it.
    settings.KNOCK_POLL_BOARD = False


@pytest.fixture(autouse=True)
def _each_test_starts_in_english():
    # A request in German leaves German active in the thread (LocaleMiddleware activates a
    # language per request and leaves it): the next test must not inherit it.
    translation.deactivate()
    yield
    translation.deactivate()
