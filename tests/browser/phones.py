"""Phones for the browser tests: each its own browser context, so its own cookies."""

PHONE = {"width": 390, "height": 844}


def open_phone(browser, **options):
    """A phone: a fresh browser context (its own cookies) with a 390×844 screen."""
    context = browser.new_context(viewport=PHONE, **options)
    context.set_default_timeout(10_000)
    return context, context.new_page()
