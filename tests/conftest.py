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
