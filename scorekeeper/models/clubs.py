"""Clubs, their links and their players.

A club is reached by its links: the secret link records rounds and changes the club, the view
link only looks. The database keeps digests of the keys, never the keys, so a backup or a dump
of it opens no club. The verbs that change a club live in ``scorekeeper.play``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import unicodedata
import uuid
from typing import Any

from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from ..lib.marks import PALETTE, Mark, initials_of
from ..lib.text import clean_name_text, name_text_is_clean
from ..rules.errors import InputError

KEY_BYTES = 24  # 192 bits of randomness in every secret link


def new_key() -> str:
    """A secret for a link. Never one that starts with "-", which a command line would read as
    an option."""
    while (key := secrets.token_urlsafe(KEY_BYTES)).startswith("-"):
        pass
    return key


def key_digest(key: str) -> str:
    """Clubs are looked up by a digest of the key presented, never by the key itself, so the
    time a lookup takes says nothing about how much of a guessed key was right."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def view_key_for(key: str, generation: int) -> str:
    """The view link's key, derived from the secret key: whoever holds the secret link can
    always show the view link, and a copy of the database, which holds only digests, opens
    neither. Replacing the view link moves to the next generation."""
    mac = hmac.new(key.encode("utf-8", "surrogatepass"), f"view:{generation}".encode(), "sha256")
    return base64.urlsafe_b64encode(mac.digest()[:KEY_BYTES]).decode()


def clean_name(name: str) -> str:
    """A player's name with its spaces tidied, or a refusal saying what is wrong with it."""
    name = clean_name_text(" ".join(name.split()), "name")
    if not name:
        raise InputError(_("a player needs a name"), "name")
    if len(name) > 60:
        raise InputError(_("a name is at most 60 characters"), "name")
    return name


def name_key(name: str) -> str:
    """Names are unique within a club ignoring case, surrounding spaces and how the letters
    are composed (an "é" typed as e and an accent is the "é" of another phone)."""
    return unicodedata.normalize("NFC", " ".join(name.split())).casefold()


class ClubQuerySet(models.QuerySet["Club"]):
    def opened_by(self, key: str, read_only: bool = False) -> Club | None:
        """The club this key opens: its secret key (which may record and change) or, with
        ``read_only``, its view key (which only looks). None for any other key."""
        field = "view_key_hash" if read_only else "key_hash"
        try:  # get(), not first(): ordering the one row cost 0.5 ms of the lookup's 1.3
            club = self.get(**{field: key_digest(key)})
        except Club.DoesNotExist:
            return None
        club.open_with(key, read_only)
        return club

    def with_key(self, key: str) -> Club | None:
        return self.opened_by(key)

    def with_view_key(self, key: str) -> Club | None:
        return self.opened_by(key, read_only=True)


class Club(models.Model):
    """A group that plays together, reached by its links. ``key`` (and so ``view_key``) is
    known on an instance that was opened with the key, or just created."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=100)
    # The secret link records rounds and changes the club; the view link only looks.
    key_hash = models.CharField(max_length=64, unique=True)
    view_key_hash = models.CharField(max_length=64, unique=True)
    view_generation = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(default=timezone.now)
    # The club's own rules, saved from a new game: {"preset", "overrides", "mode"}, as
    # ``build_rules`` reads them. Every new game starts from them.
    our_rules = models.JSONField(null=True, blank=True)
    # A digest of the address that created it, for the rate limit; never the address itself.
    created_by = models.CharField(max_length=64, blank=True, db_index=True)

    objects = ClubQuerySet.as_manager()

    # Known only on an instance opened with its key (or just made): never stored.
    key: str = ""
    _view_key: str = ""
    # Opened by a tournament table's scoring key (``key`` is then that key): it opens the table's
    # game only, so such an instance is never saved and shows no view link.
    by_table: bool = False

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.by_table:
            raise RuntimeError("a club opened by a table's scoring key is never saved")
        if self.key:  # opened with its key: the digests follow it
            self.set_key(self.key)
        elif not self.key_hash:  # a new club gets its key here, shown once to whoever made it
            self.set_key(new_key())
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "key_hash", "view_key_hash"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("club", args=[self.key])

    def get_view_url(self) -> str:
        return reverse("view-club", args=[self.view_key])

    def set_key(self, key: str) -> None:
        """Open the club with ``key``: the digests are the key's, and its links can be shown."""
        self.key = key
        self.key_hash = key_digest(key)
        self.view_key_hash = key_digest(view_key_for(key, self.view_generation))

    def open_with(self, key: str, read_only: bool) -> None:
        """This instance as opened with ``key``: the view key only, or the secret key."""
        if read_only:
            self.view_key = key
        else:
            self.set_key(key)

    def open_by_table(self, key: str) -> None:
        """This instance as a table's scoring key opened it: the key builds the game's links."""
        self.key, self.by_table = key, True

    @property
    def view_key(self) -> str:
        if self.by_table:
            return ""
        return self._view_key or (view_key_for(self.key, self.view_generation) if self.key else "")

    @view_key.setter
    def view_key(self, value: str) -> None:
        self._view_key = value


class RetiredKey(models.Model):
    """A replaced link, kept as a digest only, so that whoever still uses it is told why it no
    longer opens the club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="retired_keys")
    kind = models.CharField(max_length=10, choices=[("secret", "Secret"), ("view", "View")])
    digest = models.CharField(max_length=64, unique=True)
    replaced = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.kind} link of {self.club} replaced {self.replaced:%Y-%m-%d}"

    @classmethod
    def was_replaced(cls, key: str) -> bool:
        return cls.objects.filter(digest=key_digest(key)).exists()


class FaultReport(models.Model):
    """A phone's fault report, counted: who sent it (a keyed digest of the address, never the
    address) and when. Kept a minute, in the database, so that the limit of reports a minute
    holds across every worker of every box (``play.fault_allowed``)."""

    sender = models.CharField(max_length=64)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["sender", "at"])]

    def __str__(self) -> str:
        return f"fault report at {self.at:%H:%M:%S}"


class PlayerQuerySet(models.QuerySet["Player"]):
    def named(self, name: str) -> Player | None:
        """The player of this name (ignoring case and spaces), or None."""
        if not name_text_is_clean(name):
            return None  # no such name can be stored (``clean_name`` says why)
        try:
            return self.get(name_key=name_key(name))
        except Player.DoesNotExist:
            return None


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=60)
    # Casefolding can make a name longer ("ß" is "ss"): room for three times the name.
    name_key = models.CharField(max_length=180)
    retired = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now)
    # The player's mark (lib.marks): a colour of the palette and initials, given when they join
    # (no two of the club's players alike while colours last), changeable. With database
    # defaults, so the release before can add players during an upgrade: ``mark`` then works
    # one out of the row.
    colour = models.PositiveSmallIntegerField(null=True, blank=True, db_default=None)
    initials = models.CharField(max_length=3, blank=True, default="", db_default="")

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name_key"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name_key"], name="player_name_unique_in_club")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def mark(self) -> Mark:
        colour = self.colour if self.colour is not None else (self.pk or 0) % len(PALETTE)
        return Mark(colour, self.initials or initials_of(self.name))


class Season(models.Model):
    """A period a club names ("Winter 2026"), first and last day included, over which its
    standings are counted (``reports.standings``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60)
    starts = models.DateField()
    ends = models.DateField()

    class Meta:
        ordering = ["-starts", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
            models.CheckConstraint(
                condition=models.Q(ends__gte=models.F("starts")), name="season_ends_after_it_starts"
            ),
        ]

    def __str__(self) -> str:
        return self.name
