"""Real Chromium through Playwright, against the live test server.

Chromium comes from the system (Debian's package): ``playwright install`` downloads browsers,
which these machines cannot do. KNOCK_CHROMIUM overrides the path.
"""

import os
import re
import shutil

import pytest

from .phones import open_phone

# The sync Playwright API runs an event loop in the test thread; Django's ORM would refuse to
# run there. Only the browser tests need this.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    path = (
        os.environ.get("KNOCK_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )
    if not path:
        pytest.fail("Chromium is needed for the browser tests: apt-get install chromium")
    return path


# The engine on the phone's files (its runtime and its bundle).
ENGINE_FILES = re.compile(r".*/(static/pyodide|engine)/.*")


# What a browser and htmx log when a request fails or is answered with an error on purpose (a
# connection a test cut, a request a newer one replaced, a proxy's 503, a 404 asked for): the
# network's words, not the page's.
NETWORK = re.compile(
    r"Failed to load resource|net::ERR_|htmx:sendError|htmx:sendAbort|htmx:timeout|htmx:afterRequest|"
    r"Response Status Error Code|ERR_INTERNET_DISCONNECTED"
)


class Phones:
    """Chromium, whose phones cannot fetch the engine on the phone unless a test asks for it
    (``new_context(engine=True)``): as a phone whose engine has not come, every other test
    plays over the server, which is what it tests, and none waits for a runtime to start."""

    def __init__(self, browser):
        self._browser = browser
        self.errors: list[str] = []
        self.contexts: list = []

    def new_context(self, engine=False, **options):
        context = self._browser.new_context(**options)
        self.contexts.append(context)
        if not engine:
            context.route(ENGINE_FILES, lambda route: route.abort())
        context.on("page", self._watch)
        return context

    def _watch(self, page):
        """Every page's own faults: a script error, a refusal of the security policy, a
        script's console error; not what a cut connection makes the browser and htmx say (a
        test cuts it on purpose)."""
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))

        def said(message):
            if message.type == "error" and not NETWORK.search(message.text):
                self.errors.append(f"{page.url}: {message.text}")

        page.on("console", said)

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield Phones(browser)
        browser.close()


@pytest.fixture(autouse=True)
def _no_page_faults(request):
    """Every page of every browser test runs under the production security policy with no
    script error and no refusal of the policy (a test that needs none asks for no browser)."""
    if "browser" not in request.fixturenames:
        yield
        return
    phones = request.getfixturevalue("browser")
    phones.errors.clear()
    yield
    # Every phone of the test put away, whether it passed or not: a page left open by a test
    # that failed half-way polls on, and the live server answers it under the next test, which
    # has no database (Django's test client then raises that request's error in the next
    # test's own request: one failure became twenty).
    faults = list(phones.errors)
    for context in phones.contexts:
        context.close()
    phones.contexts.clear()
    phones.errors.clear()
    assert not faults, faults


@pytest.fixture
def phone(browser):
    context, page = open_phone(browser, has_touch=True)
    yield page
    context.close()


@pytest.fixture
def phone_without_javascript(browser):
    context, page = open_phone(browser, java_script_enabled=False)
    yield page
    context.close()


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
