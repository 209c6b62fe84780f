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
