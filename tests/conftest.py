import pytest


@pytest.fixture(autouse=True)
def _plain_http(settings):
    # The test client and the live server speak plain HTTP: no secure-only cookies, no redirect.
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
