"""What every page's template may read."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _

from .contract import NAMES


def script_words(request: HttpRequest) -> dict[str, Any]:
    """The words the page's scripts say, in the page's language (read from a JSON element that
    base.html draws, once per language: the scripts keep no English of their own beyond a
    fallback). A callable, so that they are said only when drawn."""
    return {
        "script_words": _words,
        "release": settings.KNOCK_RELEASE,
        "theme_key": NAMES["storage"]["theme"],
    }


def _words() -> dict[str, str]:
    return {
        "knocked": _("knocked"),
        "lowest": _("lowest"),
        "wins": _("wins"),
        "showed_31": _("showed 31"),
        "not_sent": _("Not saved: no connection. Knock will send it when the connection is back."),
        "retry": _("Retry"),
        # Rounds recorded on this phone that have not reached Knock yet ({n}: how many).
        "waiting_one": _("1 round not sent yet"),
        "waiting_many": _("{n} rounds not sent yet"),
        "waiting_round": _("Round {n}"),
        "send_now": _("Send now"),
        # Rounds waiting behind one that was not saved.
        "waiting_behind": _("Waiting behind it:"),
        # Said under the rounds waiting on a phone whose engine has not come.
        "counted_later": _("Knock counts them when the connection is back."),
        "all_saved": _("Every round is saved."),
        # {why}: the server's words ("Another phone recorded round 5 a moment ago").
        "not_saved_why": _("Not saved: {why}"),
        "yours": _("Yours"),
        "theirs": _("Saved by another phone"),
        "same_hand": _("Same hand: drop mine"),
        "another_hand": _("Another hand: add mine after"),
        "drop_it": _("Drop it"),
        "not_kept": _("This phone could not keep the round: record it again."),
        "offline_ready": _("Ready for offline"),
        "offline_not_ready": _("Not ready for offline yet"),
        # A tile whose round the phone played but the server has not saved yet.
        "unsaved": _("not saved yet"),
        "too_many_waiting": _(
            "At most {n} rounds can wait on a phone: connect to send them first."
        ),
        "undone_waiting": _("Round {n} taken back: it had not been sent."),
        # The card picker of a dispute: whose hand the next tap on a card fills ({name}).
        "picking_for": _("Cards of {name}"),
        "again_not_kept": _(
            "No connection, and this phone has not kept the next game yet: connect once to "
            "play again."
        ),
        "again_not_stored": _(
            "This phone cannot store a new game without a connection: connect to play again."
        ),
        # Storage refused (a private window, a full disk): the rounds live in the page only.
        "page_only": _("This phone cannot store rounds: keep this page open until they are sent."),
        "copied": _("Copied: paste it where the group will see it."),
        # {words} is what the chosen rule set says.
        "as_the_rules_say": _("As the rules say: {words}"),
    }
