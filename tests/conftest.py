import pytest


@pytest.fixture(autouse=True)
def _fast_password_free_settings(settings):
    # Tests run over plain HTTP.
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
