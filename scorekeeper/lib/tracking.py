"""Errors sent to an error tracker (Sentry, or anything that speaks its protocol, such as
GlitchTip) when the operator sets ``SENTRY_DSN``; nothing is sent otherwise.

A club's key is its password, and it is in every club page's address: every string of an event
goes through the same redaction as the logs before it leaves, and no cookie, body or address
of a player is sent (``send_default_pii`` off, request bodies never).
"""

from __future__ import annotations

from typing import Any

from .redact import redact


def scrubbed(value: Any) -> Any:
    """``value`` with the keys taken out of every string in it, however deep."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: scrubbed(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrubbed(item) for item in value]
    return value


def _before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    return scrubbed(event)


def start(dsn: str, environment: str, release: str) -> None:
    import sentry_sdk

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release,
        send_default_pii=False,
        max_request_body_size="never",
        include_local_variables=False,  # a frame's locals may hold a key
        traces_sample_rate=0,
        before_send=_before_send,  # type: ignore[arg-type]
        before_breadcrumb=lambda crumb, hint: scrubbed(crumb),
    )


def report(message: str, extra: dict[str, Any]) -> None:
    """A fault seen elsewhere (a phone's), sent to the error tracker where one is running."""
    import sentry_sdk

    if not sentry_sdk.is_initialized():
        return
    with sentry_sdk.new_scope() as scope:
        scope.set_context("fault", scrubbed(extra))
        sentry_sdk.capture_message(redact(message), level="warning")
