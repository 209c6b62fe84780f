"""Phones for the browser tests: each its own browser context, so its own cookies."""

PHONE = {"width": 390, "height": 844}


def open_phone(browser, **options):
    """A phone: a fresh browser context (its own cookies) with a 390×844 screen."""
    context = browser.new_context(viewport=PHONE, **options)
    context.set_default_timeout(10_000)
    return context, context.new_page()


def player_tile(page, name: str):
    """A player's tile on the table page: the button a tap on the player goes to."""
    import re

    return page.locator(
        "#record .tile", has=page.locator(".name", has_text=re.compile(f"^{re.escape(name)}$"))
    )


def tap_knock(page, knocker: str, lowest: list[str]):
    """A knock round by taps on the players: the knocker first, then each lowest player (the
    knocker a second time when lowest too)."""
    page.locator("#record .endings").get_by_text("Knock", exact=True).click()
    player_tile(page, knocker).click()
    for name in lowest:
        player_tile(page, name).click()


SEND_NOW = "() => document.querySelector('#waiting .retry')?.click()"


def send_now(page):
    """Send now, where the phone still shows it. Any answer from Knock (a poll, once the Wi-Fi
    is back) sends what waits on its own and takes the button away, so the tap is made in the
    page in one step: a click that first waits for the button would race that send."""
    page.evaluate(SEND_NOW)


def all_saved(page, timeout: int = 10_000):
    """Every round the phone recorded has reached Knock: the waiting box says so, and lists no
    round still waiting."""
    from playwright.sync_api import expect

    expect(page.locator("#waiting .count")).to_have_count(0, timeout=timeout)
    expect(page.locator("#waiting .all-saved")).to_be_visible(timeout=timeout)


OUTBOX_EMPTY = """async (url) => {
    const { openOutbox } = await import(url);
    const outbox = await openOutbox({ indexedDB });
    return (await outbox.games()).length === 0;
}"""


def outbox_empty(page, timeout: int = 10_000):
    """Nothing of any game waits on the phone any more (static/js/outbox.js), its own page's or
    another's (a game before a Play again)."""
    from django.templatetags.static import static

    page.wait_for_function(OUTBOX_EMPTY, arg=static("js/outbox.js"), timeout=timeout)
