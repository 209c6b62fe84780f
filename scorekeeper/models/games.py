"""What happened at the table: clubs, players, games and the rounds they played.

Rounds store only their inputs (how the round ended, who knocked, who showed, who was lowest, the
cards if entered). Lives, statuses, the dealer, the pot and the winner are derived from the rounds
by the rules engine (``rules.game``) and stored with the game as the state after its latest round;
undo and edit work it out again from the rounds. Nothing a tap records is deleted: an undone or
edited round stays, marked as such.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property, lru_cache
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, connections, models, transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import plainsql
from ..lib.text import clean_text, is_clean
from ..rules import PRESETS, Result, RuleSet, build_rules
from ..rules.errors import InputError
from ..rules.game import (
    TALLIES,
    GameState,
    RoundInput,
    Step,
    advance,
    describe_changes,
    seat_results,
    tallies,
    total_tallies,
)
from ..rules.game import play as play_round
from ..rules.game import replay as replay_game
from ..rules.game import start as start_game
from ..rules.resolve import ROUND_ENDINGS
from ..rules.ruleset import RULES_VERSION
from ..rules.ruleset import stored_rules as read_stored_rules
from ..rules.showdown import refuse_a_stray_choice

KEY_BYTES = 24  # 192 bits of randomness in every secret link


def new_key() -> str:
    """A secret for a link. Never one that starts with "-", which a command line would read as
    an option (manage.py export_club <key>)."""
    while (key := secrets.token_urlsafe(KEY_BYTES)).startswith("-"):
        pass
    return key


def key_digest(key: str) -> str:
    """Clubs are looked up by a digest of the key presented, never by the key itself, so the
    time a lookup takes says nothing about how much of a guessed key was right."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def clean_name(name: str) -> str:
    """A player's name with its spaces tidied, or a refusal saying what is wrong with it."""
    name = clean_text(" ".join(name.split()), "name")
    if not name:
        raise InputError(_("a player needs a name"), "name")
    if len(name) > 60:
        raise InputError(_("a name is at most 60 characters"), "name")
    return name


def name_taken(name: str) -> InputError:
    """The refusal of a name another player of the club has (ignoring case and spaces)."""
    return InputError(_("%(name)s is already in this club") % {"name": name}, "name")


def name_key(name: str) -> str:
    """Names are unique within a club ignoring case and surrounding spaces."""
    return " ".join(name.split()).casefold()


def view_key_for(key: str, generation: int) -> str:
    """The view link's key, derived from the secret key: whoever holds the secret link can
    always show the view link, and a copy of the database, which holds only digests, opens
    neither. Replacing the view link moves to the next generation."""
    mac = hmac.new(key.encode("utf-8", "surrogatepass"), f"view:{generation}".encode(), "sha256")
    return base64.urlsafe_b64encode(mac.digest()[:KEY_BYTES]).decode()


class StaleLink(Exception):
    """Another phone replaced this link a moment ago."""


class ClubQuerySet(models.QuerySet["Club"]):
    def with_key(self, key: str) -> Club | None:
        """The club whose secret key this is (which may record and change), or None."""
        club = self.filter(key_hash=key_digest(key)).first()
        if club is not None:
            club.key = key
        return club

    def with_view_key(self, key: str) -> Club | None:
        """The club whose view key this is (which only looks), or None."""
        club = self.filter(view_key_hash=key_digest(key)).first()
        if club is not None:
            club.view_key = key
        return club


class Club(models.Model):
    """A group that plays together, reached by its links.

    The database keeps digests of the keys, never the keys: a backup or a dump of it opens no
    club. ``key`` (and so ``view_key``) is known on an instance that was opened with the key,
    or just created.
    """

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

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
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

    @property
    def view_key(self) -> str:
        return self._view_key or (view_key_for(self.key, self.view_generation) if self.key else "")

    @view_key.setter
    def view_key(self, value: str) -> None:
        self._view_key = value

    def add_player(self, name: str) -> Player:
        """Add a player, refusing a name already in the club (ignoring case and spaces), also
        when another phone adds the same name at the same moment."""
        name = clean_name(name)
        if self.players.filter(name_key=name_key(name)).exists():
            raise name_taken(name)
        try:
            with transaction.atomic():
                return self.players.create(name=name, name_key=name_key(name))
        except IntegrityError:
            raise name_taken(name) from None

    def player_for(self, name: str) -> Player:
        """The club's player of that name, added if new. Two phones that add the same new
        player at once both get the one player."""
        try:
            return self.player_named(name) or self.add_player(name)
        except InputError:
            found = self.player_named(name)
            if found is None:
                raise
            return found

    def player_named(self, name: str) -> Player | None:
        if not is_clean(name):
            return None  # no such name can be stored; add_player says why
        return self.players.filter(name_key=name_key(name)).first()

    def replace_key(self, which: str, generation: int | None = None) -> None:
        """A new secret (or view) link; the old one stops working at once.

        A new secret link brings a new view link too: whoever had the old secret link could
        open the view link as well. ``generation`` is the view link the phone saw: if another
        phone replaced the link first, ``StaleLink`` says so and nothing changes.
        """
        with transaction.atomic():
            current = Club.objects.select_for_update().get(pk=self.pk)
            if current.key_hash != key_digest(self.key) or (
                which == "view" and generation is not None and generation != current.view_generation
            ):
                raise StaleLink(which)
            retired = [RetiredKey(club=self, kind="view", digest=current.view_key_hash)]
            if which == "secret":
                retired.append(RetiredKey(club=self, kind="secret", digest=current.key_hash))
                self.set_key(new_key())
            else:
                self.view_generation = current.view_generation + 1
                self.set_key(self.key)
            RetiredKey.objects.bulk_create(retired)
            self.save(update_fields=["key_hash", "view_key_hash", "view_generation"])


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


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=60)
    # Casefolding can make a name longer ("ß" is "ss"): room for three times the name.
    name_key = models.CharField(max_length=180)
    retired = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name_key"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name_key"], name="player_name_unique_in_club")
        ]

    def __str__(self) -> str:
        return self.name

    def rename(self, name: str) -> None:
        name = clean_name(name)
        taken = self.club.players.filter(name_key=name_key(name)).exclude(pk=self.pk).exists()
        if taken:
            raise name_taken(name)
        with transaction.atomic():
            self.name, self.name_key = name, name_key(name)
            self.save(update_fields=["name", "name_key"])
            # The stored states tell the table in words, with names: tell them again.
            for game in Game.objects.filter(seats__player=self):
                game.rederive()


def _opened_by(game_id: Any, key_field: str, key: str) -> tuple[str, list[Any]]:
    """The FROM and WHERE of a game (``g``) and its club (``c``), found only if ``key`` opens
    the club (``key_field``: the secret link's or the view link's digest), and its parameters:
    the one authorising lookup of the plain queries below."""
    quote = connection.ops.quote_name
    where = (
        f"FROM {quote(Game._meta.db_table)} g "
        f"JOIN {quote(Club._meta.db_table)} c ON c.{quote('id')} = g.{quote('club_id')} "
        f"WHERE g.{quote('id')} = %s AND c.{quote(key_field)} = %s"
    )
    return where, [Game._meta.pk.get_db_prep_value(game_id, connection), key_digest(key)]


@dataclass(frozen=True)
class GameStamp:
    """What a game's pages are drawn from, beside its stored state: a page drawn for one stamp
    is right for every request with the same stamp (``version`` moves with every change of
    the rounds, and with abandoning or binning; the names and the mode change no version)."""

    version: int
    mode: str
    name: str
    abandoned: bool
    deleted: bool
    club_name: str

    @classmethod
    def of(cls, game: Game) -> GameStamp:
        return cls(game.version, str(game.mode), game.name, game.abandoned,
                   game.deleted is not None, game.club.name)  # fmt: skip


def stamp_for_key(game_id: uuid.UUID, key_field: str, key: str) -> GameStamp | None:
    """A game's stamp, if the key (secret or view) opens its club: the poll every open page
    makes every 2 seconds, and the lookup of a table page already drawn. One indexed query in
    plain SQL, because building it with the ORM cost several times more than running it."""
    quote = connection.ops.quote_name
    columns = ", ".join(
        f"g.{quote(column)}" for column in ("version", "mode", "name", "abandoned", "deleted")
    )
    where, params = _opened_by(game_id, key_field, key)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns}, c.{quote('name')} {where}", params)
        row = cursor.fetchone()
    if row is None:
        return None
    version, mode, name, abandoned, deleted, club_name = row
    return GameStamp(version, mode, name, bool(abandoned), deleted is not None, club_name)


@lru_cache(maxsize=256)
def stored_rules(data: str, version: int = RULES_VERSION) -> RuleSet:
    """A game's frozen rules read back from their JSON, as the version that stored them had
    them (cached: every request of a game reads them)."""
    return read_stored_rules(json.loads(data), version)


_one_writer = threading.Lock()


@contextmanager
def writing() -> Iterator[None]:
    """A transaction that writes a game.

    SQLite has one writer at a time. A thread that finds it busy waits in SQLite's busy handler,
    which sleeps in steps of up to 100 ms and leaves the lock idle meanwhile; so the threads of a
    process take turns on a lock of their own first, and each is woken the moment the one before
    has committed. Inside a transaction already open (which may hold SQLite's lock) it only
    nests, lest it wait for a thread that waits for it."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        with transaction.atomic():
            yield
        return
    with _one_writer, transaction.atomic():
        yield


def write_if_moved(claim: plainsql.Statement, updates: list[plainsql.Statement],
                   insert: tuple[type[models.Model], plainsql.Statement]) -> bool:  # fmt: skip
    """Run the UPDATE ``claim`` (a game moving on from the version a phone saw) and, only if it
    changed the row, ``updates`` and the INSERT ``insert``: all of them or none. Whether it did.

    On PostgreSQL it is one statement (``plainsql.only_if``): each statement there costs a round
    trip, and the transaction around several two more. Elsewhere it is a transaction
    (``writing``)."""
    if connection.vendor == "postgresql":
        statement = plainsql.only_if(claim, updates, insert)
        if connection.in_atomic_block:  # a savepoint, so that a refusal leaves the rest be
            with transaction.atomic():
                return plainsql.run(statement) == 1
        return plainsql.run(statement) == 1
    with writing():
        if not plainsql.run(claim):
            return False
        for update in updates:
            plainsql.run(update)
        plainsql.run(insert[1])
        return True


BIN_DAYS = 30  # how long a deleted game can be restored


# What a game's pages and taps use of its club, read with the game (``opened_by``).
CLUB_COLUMNS = ("name", "key_hash", "view_key_hash", "view_generation")


class GameQuerySet(models.QuerySet["Game"]):
    def opened_by(self, game_id: Any, key_field: str, key: str) -> Game | None:
        """The game with its club, if ``key`` opens the club (``key_field``: "key_hash" for
        the secret link, "view_key_hash" for the view link); None otherwise.

        Every tap at the table and every page of a game passes here, so it is one indexed
        query in plain SQL (``plainsql``). The club comes with the columns its pages use
        (plain text and numbers); the rest of it is deferred, and read only if asked for.
        """
        fields = Game._meta.concrete_fields
        club_fields = tuple(plainsql.field(Club, name) for name in ("id", *CLUB_COLUMNS))
        where, params = _opened_by(game_id, key_field, key)
        with connections[self.db].cursor() as cursor:
            cursor.execute(
                f"SELECT {plainsql.columns('g', fields, self.db)}, "
                f"{plainsql.columns('c', club_fields, self.db)} {where}",
                params,
            )
            row = cursor.fetchone()
        if row is None:
            return None
        game = plainsql.from_row(Game, fields, row[: len(fields)], self.db)
        game.club = plainsql.from_row(Club, club_fields, row[len(fields) :], self.db)
        return game

    def in_progress(self) -> GameQuerySet:
        return self.filter(finished=False, abandoned=False, deleted__isnull=True)

    def listed(self) -> GameQuerySet:
        """The games a club lists: not those in the bin."""
        return self.filter(deleted__isnull=True)

    def for_listing(self) -> GameQuerySet:
        return self.prefetch_related(
            models.Prefetch("seats", queryset=GameSeat.objects.select_related("player"))
        ).order_by("-created")


class Game(models.Model):
    """A game at a table: its seats, its frozen rules, and its rounds.

    ``state_data`` is the table after the latest round (lives, statuses, dealer, pot, winner),
    worked out by the rules engine and written in the same transaction as the round that led
    to it, with the version it belongs to. Recording a round works from it (it reads no earlier
    round), and pages read it with the game row; undo and edit work the rounds out again from
    the start. ``manage.py check_game_states`` re-derives every stored state from the rounds.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="games")
    preset = models.CharField(max_length=20)
    # The whole rule set as it was when the game began: later changes to presets never reach it,
    # and a switch added later reads as it was before (rules.ruleset.ADDED).
    rules_data = models.JSONField()
    rules_version = models.PositiveSmallIntegerField(default=RULES_VERSION)
    readings = models.JSONField(default=list)
    first_dealer = models.PositiveSmallIntegerField()  # a seat position
    created = models.DateTimeField(default=timezone.now)
    # Bumped by every change, so a phone can say which state it saw.
    version = models.PositiveIntegerField(default=0)
    # The table after the latest round, at ``version``: see the class's docstring.
    state_data = models.JSONField(null=True, blank=True)
    name = models.CharField(max_length=100, blank=True)  # "Friday at Ana's"
    # Abandoned: ended with no winner, and out of the statistics. Deleted: in the club's bin
    # since then, restorable for BIN_DAYS, then removed for good. Both can be taken back.
    abandoned = models.BooleanField(default=False)
    deleted = models.DateTimeField(null=True, blank=True)
    # Derived from the rounds, kept for lists of games; rewritten with every change.
    finished = models.BooleanField(default=False)
    result_text = models.CharField(max_length=300, blank=True)
    round_count = models.PositiveIntegerField(default=0)

    class Mode(models.TextChoices):
        """How the table page asks for a round; either way it is a round the engine applies."""

        REFEREE = "referee", gettext_lazy("Referee each round")
        COUNT = "count", gettext_lazy("Just count lives")

    # A setting of the page, not of the rules: switching it changes no round, and no version.
    mode = models.CharField(max_length=10, choices=Mode, default=Mode.REFEREE)

    objects = GameQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["club", "-created"])]

    def __str__(self) -> str:
        return f"{self.preset} game of {self.created:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.club.key, self.id])

    @cached_property
    def rules(self) -> RuleSet:
        return stored_rules(json.dumps(self.rules_data, sort_keys=True), self.rules_version)

    @property
    def preset_name(self) -> str:
        return PRESETS[self.preset].title if self.preset in PRESETS else self.preset

    @cached_property
    def rules_key(self) -> str:
        """Names the rules this game is played under (preset, every switch, the readings
        shown): the games of a club mostly share theirs, and so their rules card."""
        rules = [self.preset, self.rules_data, sorted(self.readings), self.rules_version]
        return hashlib.sha256(json.dumps(rules, sort_keys=True).encode()).hexdigest()

    def rules_card(self) -> list[dict[str, Any]]:
        return self.rules.describe(frozenset(self.readings))

    @cached_property
    def _seats(self) -> list[GameSeat]:
        return list(self.seats.select_related("player").order_by("position"))

    def seat_list(self) -> list[GameSeat]:
        """The seats in order, with their players (they never change during a game)."""
        return self._seats

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.player.name for seat in self._seats)

    @property
    def state(self) -> GameState:
        """The table after the latest round, as stored with the game (never replayed)."""
        assert self.state_data is not None, "every game stores its state from its start"
        return GameState.from_data(self.state_data)

    # ---- working the rounds out again ----------------------------------------------------

    def active_rounds(self) -> list[Round]:
        """The rounds in play at this game's version, in order."""
        return list(self.rounds.as_of(self.version).order_by("number"))

    def steps(self, rounds: list[Round] | None = None) -> tuple[GameState, tuple[Step, ...]]:
        """Every round in play (or ``rounds``) worked out again from the start: for the round
        log and the API's list of rounds, and for undo and edit."""
        rounds = self.active_rounds() if rounds is None else rounds
        return replay_game(self.rules, self.names, self.first_dealer,
                           [round.as_input() for round in rounds])  # fmt: skip

    # ---- verbs ---------------------------------------------------------------------------

    @classmethod
    def start(cls, club: Club, players: list[Player], first_dealer: int, rules: RuleSet,
              preset: str, mode: str = Mode.REFEREE) -> Game:  # fmt: skip
        if len(players) < 2:
            raise InputError(_("pick at least two players"), "players")
        if len(players) > rules.max_players:
            raise InputError(
                _("a game with %(deck)d cards has at most %(most)d players")
                % {"deck": rules.deck, "most": rules.max_players},
                "players",
            )
        if len({p.pk for p in players}) != len(players):
            raise InputError(_("a player can sit at the table only once"), "players")
        if not 0 <= first_dealer < len(players):
            raise InputError(_("the first dealer must be one of the players"), "first_dealer")
        readings = sorted(PRESETS[preset].readings) if preset in PRESETS else []
        state = start_game(rules, [player.name for player in players], first_dealer)
        with transaction.atomic():
            game = cls.objects.create(
                club=club, preset=preset, rules_data=rules.as_dict(), readings=readings,
                first_dealer=first_dealer, state_data=state_record(state, {}), mode=mode,
            )  # fmt: skip
            GameSeat.objects.bulk_create(
                GameSeat(game=game, player=player, position=i) for i, player in enumerate(players)
            )
        return game

    def play_again(self) -> Game:
        """The same players, seats and rules; the first deal moves one seat to the left."""
        seats = self.seat_list()
        game = Game.start(self.club, [seat.player for seat in seats],
                          (self.first_dealer + 1) % len(seats), self.rules, self.preset,
                          self.mode)  # fmt: skip
        return game

    def preview(self, inputs: RoundInputs) -> Step:
        """What recording this round would do, worked out from the stored state, without
        saving it; refuses an impossible round."""
        if self.deleted:
            raise InputError(_("the game is in the bin: restore it to go on"), "ending")
        if self.abandoned:
            raise InputError(_("the game was abandoned: resume it to go on"), "ending")
        if self.finished:  # kept up to date with every change, in the same transaction
            raise InputError(_("the game is over: undo the last round to go on"), "ending")
        step = play_round(self.rules, self.state, inputs.as_input())
        refuse_a_stray_choice(inputs.choice, step.result)
        return step

    def preview_edit(self, number: int, inputs: RoundInputs) -> Step:
        """What round ``number`` would do if it had gone as ``inputs`` say (the rounds before
        it as they are); refuses an impossible round."""
        before, _steps = self.steps(self.active_rounds()[: number - 1])
        step = play_round(self.rules, before, inputs.as_input())
        refuse_a_stray_choice(inputs.choice, step.result)
        return step

    def record(self, inputs: RoundInputs, seen_version: int | None = None) -> Step:
        """Save a round after checking it against the rules; the new state goes with it.

        The rules are worked out first, from the stored state and outside any transaction; the
        write then only goes through if the game is still at the version that work was based
        on (one UPDATE with the version in its WHERE, then the seats' tallies and the INSERT:
        ``write_if_moved``). So the write lock is held for a few statements (one, on
        PostgreSQL), and a phone that saw an older game is refused.
        """
        for _attempt in range(3):
            self.check_version(seen_version)
            step = self.preview(inputs)
            if step.result.result == Result.TABLE_DECIDES:
                raise InputError(_("the rules leave this open: the table must choose"), "choice")
            after = advance(self.state, step)
            story = self.told(self.state, step)
            version = self.version + 1
            new = {"game_id": self.pk, "number": step.number, "version": version,
                   **inputs.stored()}  # fmt: skip
            moved_on = state_columns(version, after, story)
            claim = plainsql.update(Game, where={"id": self.pk, "version": self.version},
                                    values=moved_on)  # fmt: skip
            try:
                moved = write_if_moved(claim, self.tallies_added(step, after),
                                       (Round, plainsql.insert(Round, new)))  # fmt: skip
            except IntegrityError:
                # Only a tap already recorded may collide here; anything else is a fault.
                if self.has_round_from(inputs.client_id):
                    raise AlreadyRecorded from None
                raise
            if moved:
                self.__dict__.update(moved_on)
                return step
            # Another phone changed the game between our reading and our writing.
            fresh = self.fresh()
            if seen_version is not None:
                raise StaleGame(fresh)
            self.version, self.state_data = fresh.version, fresh.state_data
        raise StaleGame(self)

    def undo(self, seen_version: int | None = None) -> Round:
        """Take back the last round. It stays in the database, marked undone."""
        with writing():
            game = self.locked()
            game.check_version(seen_version)
            rounds = game.active_rounds()
            if not rounds:
                raise InputError(_("there is no round to undo"), "undo")
            last = rounds[-1]
            last.state, last.changed = Round.UNDONE, timezone.now()
            last.gone_version = game.version + 1
            last.save(update_fields=["state", "changed", "gone_version"])
            after, steps = game.steps(rounds[:-1])
            game.store(after, steps)
        self.set_state(game.version, after, game.story)
        return last

    def edit_round(self, number: int, inputs: RoundInputs, seen_version: int | None = None
                   ) -> list[str]:  # fmt: skip
        """Replace a past round and work out every later one again; says what changed."""
        with writing():
            game = self.locked()
            game.check_version(seen_version)
            rounds = game.active_rounds()
            if not 1 <= number <= len(rounds):
                raise InputError(_("there is no round %(n)d") % {"n": number}, "number")
            old = rounds[number - 1]
            new = inputs.as_round(game, number=number)
            after, steps = game.steps([*rounds[: number - 1], new, *rounds[number:]])
            for step in steps:
                if step.result.result == Result.TABLE_DECIDES:
                    raise InputError(
                        _(
                            "after this edit the rules leave round %(n)d open: edit that round "
                            "and choose"
                        )
                        % {"n": step.number},
                        "choice",
                    )
            old.state, old.changed = Round.EDITED, timezone.now()
            old.gone_version = new.version = game.version + 1
            old.save(update_fields=["state", "changed", "gone_version"])
            new.save()
            before = game.state
            game.store(after, steps)
        self.set_state(game.version, after, game.story)
        return describe_changes(game.rules, before, after)

    def set_aside(self, abandoned: bool | None = None, deleted: bool | None = None) -> None:
        """Abandon or resume the game, put it in the bin or take it out: one UPDATE, with the
        version moved on so that every open page of it draws itself again."""
        changes: dict[str, Any] = {"version": F("version") + 1}
        if abandoned is not None:
            changes["abandoned"] = self.abandoned = abandoned
        if deleted is not None:
            changes["deleted"] = self.deleted = timezone.now() if deleted else None
        Game.objects.filter(pk=self.pk).update(**changes)
        self.version += 1

    @property
    def removed_for_good(self) -> datetime | None:
        """When a game in the bin goes for good."""
        return self.deleted + timedelta(days=BIN_DAYS) if self.deleted else None

    def rederive(self) -> GameState:
        """Work the state out again from the rounds and store it (after a rename: the names
        are in the stored words)."""
        with writing():
            game = self.locked()
            after, steps = game.steps()
            game.store(after, steps)
        self.set_state(game.version, after, game.story)
        return after

    # ---- helpers of the verbs ------------------------------------------------------------

    def store(self, after: GameState, steps: tuple[Step, ...]) -> None:
        """Bump the version and store ``after``, the summary kept for lists of games, and each
        seat's tallies worked out again from ``steps``."""
        self.set_state(self.version + 1, after, self.told_last(steps))
        self.save(update_fields=["version", "state_data", "round_count", "finished",
                                 "result_text"])  # fmt: skip
        self.rebuild_tallies(after, steps)

    def tallies_added(self, step: Step, after: GameState) -> list[plainsql.Statement]:
        """One more round's tallies: an UPDATE for each seat it touched (one or two, mostly)."""
        results, updates = seat_results(after), []
        for position, counts in enumerate(tallies(step, len(after.names))):
            changed = {name: n for name, n in counts.items() if n}
            result = {"result": results[position]} if after.game_over else {}
            if changed or result:
                updates.append(plainsql.update(
                    GameSeat, where={"game": self.pk, "position": position}, values=result,
                    add=changed,
                ))  # fmt: skip
        return updates

    def rebuild_tallies(self, after: GameState, steps: tuple[Step, ...]) -> None:
        seats = list(GameSeat.objects.filter(game_id=self.pk).order_by("position"))
        totals = total_tallies(steps, len(seats))
        for seat, total, result in zip(seats, totals, seat_results(after), strict=True):
            seat.__dict__.update(total, result=result)
        GameSeat.objects.bulk_update(seats, [*TALLIES, "result"])

    def tallies_differ(self) -> bool:
        """Whether the seats' stored tallies differ from the rounds (for check_game_states)."""
        after, steps = self.steps()
        stored = list(GameSeat.objects.filter(game_id=self.pk).order_by("position")
                      .values_list(*TALLIES, "result"))  # fmt: skip
        worked_out = [(*(t[name] for name in TALLIES), r) for t, r in
                      zip(total_tallies(steps, len(stored)), seat_results(after), strict=True)]  # fmt: skip
        return stored != worked_out

    def set_state(self, version: int, after: GameState, story: dict[str, Any]) -> None:
        """This instance as the game stands at ``version``, with ``after`` as its state and
        ``story`` its latest round's (``told``)."""
        self.__dict__.update(state_columns(version, after, story))

    def told(self, before: GameState, step: Step) -> dict[str, Any]:
        """What ``step`` did, in words, in the language it was worked out in (``told``), and
        what it takes to tell it in another (``last``: the state before it and the round), so
        that the table page shows the latest round in its reader's language without reading
        any round. Another language is told when a page in it is drawn (``last_told``)."""
        return {
            "told": {speaking(): list(step.result.explanation)},
            "last": {"before": before.as_data(), "round": step.round.as_data()},
        }

    def told_last(self, steps: tuple[Step, ...]) -> dict[str, Any]:
        """``told`` for the last of ``steps``, the rounds in play worked out from the start."""
        done = [step for step in steps if step.result.result != Result.TABLE_DECIDES]
        if not done:
            return {}
        before = start_game(self.rules, self.names, self.first_dealer)
        for step in done[:-1]:
            before = advance(before, step)  # no rules are worked out: the steps say it all
        return self.told(before, done[-1])

    @property
    def story(self) -> dict[str, Any]:
        """The latest round's story as stored (``told``)."""
        data = self.state_data or {}
        return {key: data[key] for key in STORY if key in data}

    @property
    def last_told(self) -> list[str]:
        """The latest round's story in the page's language: as stored, or told now from the
        state before it and the round (or, for a game stored before a language was added and
        before ``last`` was kept, in the language it was told in)."""
        data = self.state_data or {}
        told, last = data.get("told") or {}, data.get("last")
        if speaking() in told:
            return told[speaking()]
        if last:
            before = GameState.from_data(last["before"])
            round = RoundInput.from_data(last["round"])
            return list(play_round(self.rules, before, round).result.explanation)
        return next(iter(told.values()), [])

    @property
    def result_words(self) -> str:
        """ "Ann won", in the page's language; "" while the game goes on."""
        return self.state.result_words

    def fresh(self) -> Game:
        """The game as stored now. The club stays: it was opened with its key, which the
        database does not keep; so do the seats, which never change."""
        game = Game.objects.get(pk=self.pk)
        game.club = self.club
        game.__dict__["_seats"] = self._seats
        return game

    def locked(self) -> Game:
        """This game read again under a lock on its row (a no-op on SQLite, where the
        IMMEDIATE transaction already holds the write lock)."""
        game = Game.objects.select_for_update().get(pk=self.pk)
        game.club = self.club
        game.__dict__["_seats"] = self._seats
        return game

    def has_round_from(self, client_id: str) -> bool:
        """Whether a tap with this id was already recorded (a double tap, or a retry)."""
        return bool(client_id) and self.rounds.filter(client_id=client_id).exists()

    def latest_change(self) -> str:
        """What the newest change to the game was, in words, for a phone that missed it."""
        round = self.rounds.annotate(when=Coalesce("changed", "created")).order_by("-when").first()
        if round is None:
            return _("Another phone changed this game a moment ago")
        said = {
            Round.ACTIVE: _("Another phone recorded round %(n)d a moment ago"),
            Round.UNDONE: _("Another phone took back round %(n)d a moment ago"),
            Round.EDITED: _("Another phone edited round %(n)d a moment ago"),
        }
        return said[round.state] % {"n": round.number}

    def check_version(self, seen_version: int | None) -> None:
        if seen_version is not None and seen_version != self.version:
            raise StaleGame(self)


class AlreadyRecorded(Exception):
    """This tap was recorded before (a double tap, or a retry after a lost answer)."""


class StaleGame(Exception):
    """A phone acted on a game that has changed since it looked."""

    def __init__(self, game: Game) -> None:
        super().__init__(_("the game changed since this phone looked"))
        self.game = game


class GameSeat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    # A seated player cannot be removed alone; removing the whole club takes its games along.
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    # The seat's tallies for the club's statistics (rules.game.tallies), kept with every round
    # in the same transaction and worked out again on undo and edit; and how the game ended.
    rounds_lost = models.PositiveIntegerField(default=0)
    lives_lost = models.PositiveIntegerField(default=0)
    knocks = models.PositiveIntegerField(default=0)
    knocks_caught = models.PositiveIntegerField(default=0)
    thirty_ones = models.PositiveIntegerField(default=0)
    last_chances = models.PositiveIntegerField(default=0)  # rounds ended on the last chance
    result = models.CharField(max_length=5, blank=True)  # won, tied, lost; empty while playing

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["game", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"seat {self.position + 1}: {self.player.name}"

    @property
    def name(self) -> str:
        return self.player.name


class RoundQuerySet(models.QuerySet["Round"]):
    def as_of(self, version: int) -> RoundQuerySet:
        """The rounds in play when the game was at ``version``. A page reads the game row and
        then its rounds in two statements; another phone may record in between, and this keeps
        the rounds to those of the version the page read, so it never shows version N with
        round N+1."""
        return self.filter(version__lte=version).filter(
            Q(gone_version__isnull=True) | Q(gone_version__gt=version)
        )

    def taken_back_by(self, version: int) -> RoundQuerySet:
        return self.filter(gone_version__lte=version)


class Round(models.Model):
    ACTIVE, UNDONE, EDITED = "active", "undone", "edited"
    STATES = [(ACTIVE, "Active"), (UNDONE, "Undone"), (EDITED, "Replaced by an edit")]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    state = models.CharField(max_length=10, choices=STATES, default=ACTIVE)
    ending = models.CharField(max_length=20, choices=list(ROUND_ENDINGS.items()))
    knocker = models.PositiveSmallIntegerField(null=True, blank=True)  # seat positions, so that
    shown_by = models.JSONField(default=list)  # a renamed player stays the same player
    lowest = models.JSONField(null=True, blank=True)
    hands = models.JSONField(null=True, blank=True)  # {position: ["AS", "KS", "9D"]}
    choice = models.CharField(max_length=40, blank=True)
    losses = models.JSONField(null=True, blank=True)  # counted by hand: {position: lives}
    client_id = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(default=timezone.now)
    changed = models.DateTimeField(null=True, blank=True)
    # The game's version when the round came into play, and when it was undone or edited.
    version = models.PositiveIntegerField(default=0)
    gone_version = models.PositiveIntegerField(null=True, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["number", "created"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"], condition=Q(state="active"), name="one_active_round"
            ),
            models.UniqueConstraint(
                fields=["game", "client_id"], condition=~Q(client_id=""), name="one_round_per_tap"
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.number} ({self.state})"

    def as_input(self) -> RoundInput:
        """The round as the rules engine reads it."""
        return RoundInputs.of(self).as_input()


# ---- a tap, as the forms and the API read it ------------------------------------------------


@dataclass(frozen=True)
class RoundInputs:
    """What a table says about a round, by seat position, and the id of the tap that said it."""

    ending: str
    knocker: int | None = None
    shown_by: tuple[int, ...] = ()
    lowest: tuple[int, ...] | None = None
    hands: dict[int, list[str]] | None = None
    choice: str = ""
    client_id: str = ""
    losses: dict[int, int] | None = None  # a round counted by hand: seat → lives lost

    def as_input(self) -> RoundInput:
        return RoundInput(self.ending, self.knocker, self.shown_by, self.lowest, self.hands,
                          self.choice or None, self.losses)  # fmt: skip

    def as_round(self, game: Game, number: int) -> Round:
        return Round(game=game, number=number, **self.stored())

    def stored(self) -> dict[str, Any]:
        """The round's fields as ``Round`` stores them."""
        return dict(
            ending=self.ending, knocker=self.knocker, shown_by=list(self.shown_by),
            lowest=None if self.lowest is None else list(self.lowest),
            hands=None if self.hands is None else {str(k): v for k, v in self.hands.items()},
            choice=self.choice, client_id=self.client_id,
            losses=None if self.losses is None else {str(k): v for k, v in self.losses.items()},
        )  # fmt: skip

    @classmethod
    def of(cls, round: Round) -> RoundInputs:
        return cls(
            ending=round.ending, knocker=round.knocker, shown_by=tuple(round.shown_by),
            lowest=None if round.lowest is None else tuple(round.lowest),
            hands=None if round.hands is None else {int(k): v for k, v in round.hands.items()},
            choice=round.choice,
            losses=None if round.losses is None else {int(k): v for k, v in round.losses.items()},
        )  # fmt: skip


__all__ = ["AlreadyRecorded", "Club", "Game", "GameSeat", "Player", "Round", "RoundInputs",
           "StaleGame", "build_rules"]  # fmt: skip


# The parts of a stored state that tell the latest round in words (``Game.told``).
STORY = ("told", "last")


def speaking() -> str:
    """The language of the words being said now."""
    return translation.get_language() or settings.LANGUAGE_CODE


def state_record(after: GameState, story: dict[str, Any]) -> dict[str, Any]:
    """What a game stores as its state: the fold's state, and the latest round in words."""
    return {**after.as_data(), "told": {}, **story}


def state_columns(version: int, after: GameState, story: dict[str, Any]) -> dict[str, Any]:
    """The game's columns that follow its state, at ``version`` with ``after`` as its state
    and ``story`` its latest round's (``Game.told``)."""
    return {"version": version, "round_count": after.rounds,
            "state_data": state_record(after, story), "finished": after.game_over,
            "result_text": result_text(after)}  # fmt: skip


def result_text(state: GameState) -> str:
    """The result kept in a column for the operators' admin: in English, whoever recorded it."""
    with translation.override(settings.LANGUAGE_CODE):
        return state.result_words
