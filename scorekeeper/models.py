"""What happened at the table: clubs, players, games and the rounds they played.

Rounds store only their inputs (how the round ended, who knocked, who showed, who was lowest, the
cards if entered). Lives, statuses, the dealer, the pot and the winner are derived from the rounds
by the rules engine (``Game.replay``), so no undo or edit can leave stale state. Nothing a tap
records is deleted: an undone or edited round stays, marked as such.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import uuid
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.db import IntegrityError, connection, models, transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone

from .rules import PRESETS, RoundResult, RuleSet, build_rules
from .rules.cards import parse_cards
from .rules.errors import InputError
from .rules.resolve import ENDINGS, Outcome, RoundError, Seat, Table, resolve_round
from .rules.showdown import refuse_a_stray_choice
from .text import clean_text, is_clean

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
        raise InputError("a player needs a name", "name")
    if len(name) > 60:
        raise InputError("a name is at most 60 characters", "name")
    return name


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


class ClubQuerySet(models.QuerySet):
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
    # A digest of the address that created it, for the rate limit; never the address itself.
    created_by = models.CharField(max_length=64, blank=True, db_index=True)

    objects = ClubQuerySet.as_manager()

    def __init__(self, *args: Any, key: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.key = key
        self._view_key = ""
        if key:
            self._set_key(key)

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.key:  # opened with its key: the digests follow it
            self._set_key(self.key)
        elif not self.key_hash:  # a new club gets its key here, shown once to whoever made it
            self._set_key(new_key())
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "key_hash", "view_key_hash"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("club", args=[self.key])

    def get_view_url(self) -> str:
        return reverse("view-club", args=[self.view_key])

    def _set_key(self, key: str) -> None:
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
            raise InputError(f"{name} is already in this club", "name")
        try:
            with transaction.atomic():
                return self.players.create(name=name, name_key=name_key(name))
        except IntegrityError:
            raise InputError(f"{name} is already in this club", "name") from None

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
                self._set_key(new_key())
            else:
                self.view_generation = current.view_generation + 1
                self._set_key(self.key)
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
            raise InputError(f"{name} is already in this club", "name")
        self.name, self.name_key = name, name_key(name)
        self.save(update_fields=["name", "name_key"])


def version_for_key(game_id: uuid.UUID, key_field: str, key: str) -> int | None:
    """The version of a game, if the key (secret or view) opens its club: the poll every open
    page makes every 2 seconds. One indexed query in plain SQL, because building it with the
    ORM cost several times more than running it."""
    game, club = Game._meta, Club._meta
    quote = connection.ops.quote_name
    sql = (
        f"SELECT g.{quote('version')} FROM {quote(game.db_table)} g "
        f"JOIN {quote(club.db_table)} c ON c.{quote('id')} = g.{quote('club_id')} "
        f"WHERE g.{quote('id')} = %s AND c.{quote(key_field)} = %s"
    )
    game_id = game.pk.get_db_prep_value(game_id, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, key_digest(key)])
        row = cursor.fetchone()
    return None if row is None else row[0]


@lru_cache(maxsize=256)
def stored_rules(data: str) -> RuleSet:
    """A game's frozen rules read back from their JSON (every switch is in it)."""
    return PRESETS["scat"].rules.replace(json.loads(data))


class GameQuerySet(models.QuerySet):
    def in_progress(self) -> GameQuerySet:
        return self.filter(finished=False)

    def for_listing(self) -> GameQuerySet:
        return self.prefetch_related(
            models.Prefetch("seats", queryset=GameSeat.objects.select_related("player"))
        ).order_by("-created")


class Game(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="games")
    preset = models.CharField(max_length=20)
    # The whole rule set as it was when the game began: later changes to presets never reach it.
    rules_data = models.JSONField()
    readings = models.JSONField(default=list)
    first_dealer = models.PositiveSmallIntegerField()  # a seat position
    created = models.DateTimeField(default=timezone.now)
    # Bumped by every change, so a phone can say which state it saw.
    version = models.PositiveIntegerField(default=0)
    # Derived from the rounds, kept for lists of games; rewritten with every change.
    finished = models.BooleanField(default=False)
    result_text = models.CharField(max_length=300, blank=True)
    round_count = models.PositiveIntegerField(default=0)

    objects = GameQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["club", "-created"])]

    def __str__(self) -> str:
        return f"{self.preset} game of {self.created:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.club.key, self.id])

    @property
    def rules(self) -> RuleSet:
        if not hasattr(self, "_rules"):
            self._rules = stored_rules(json.dumps(self.rules_data, sort_keys=True))
        return self._rules

    @property
    def preset_name(self) -> str:
        return PRESETS[self.preset].name if self.preset in PRESETS else self.preset

    def rules_card(self) -> list[dict[str, Any]]:
        return self.rules.describe(frozenset(self.readings))

    def seat_list(self) -> list[GameSeat]:
        if not hasattr(self, "_seats"):
            self._seats = list(self.seats.select_related("player").order_by("position"))
        return self._seats

    def active_rounds(self) -> list[Round]:
        if not hasattr(self, "_rounds"):
            self._rounds = list(self.rounds.as_of(self.version).order_by("number"))
        return self._rounds

    def forget_cache(self) -> None:
        """Forget the derived state (the seats stay: they never change)."""
        for name in ("_rounds", "_story"):
            self.__dict__.pop(name, None)

    # ---- deriving the state --------------------------------------------------------------

    def replay(self, rounds: list[Round] | None = None) -> Story:
        """Every round resolved in order by the rules engine, from the start of the game."""
        if rounds is None and hasattr(self, "_story"):
            return self._story
        story = replay(self.rules, self.seat_list(), self.first_dealer,
                       self.active_rounds() if rounds is None else rounds)  # fmt: skip
        if rounds is None:
            self._story = story
        return story

    # ---- verbs ---------------------------------------------------------------------------

    @classmethod
    def start(cls, club: Club, players: list[Player], first_dealer: int, rules: RuleSet,
              preset: str) -> Game:  # fmt: skip
        if len(players) < 2:
            raise InputError("pick at least two players", "players")
        if len(players) > rules.max_players:
            raise InputError(
                f"a game with {rules.deck} cards has at most {rules.max_players} players",
                "players",
            )
        if len({p.pk for p in players}) != len(players):
            raise InputError("a player can sit at the table only once", "players")
        if not 0 <= first_dealer < len(players):
            raise InputError("the first dealer must be one of the players", "first_dealer")
        readings = sorted(PRESETS[preset].readings) if preset in PRESETS else []
        with transaction.atomic():
            game = cls.objects.create(
                club=club, preset=preset, rules_data=rules.as_dict(), readings=readings,
                first_dealer=first_dealer,
            )  # fmt: skip
            GameSeat.objects.bulk_create(
                GameSeat(game=game, player=player, position=i) for i, player in enumerate(players)
            )
        return game

    def play_again(self) -> Game:
        """The same players, seats and rules; the first deal moves one seat to the left."""
        seats = self.seat_list()
        game = Game.start(self.club, [seat.player for seat in seats],
                          (self.first_dealer + 1) % len(seats), self.rules, self.preset)  # fmt: skip
        return game

    def check_round(self, inputs: RoundInputs) -> tuple[Story, Round]:
        """What recording this round would do, without saving it; refuses an impossible round."""
        if self.finished:  # kept up to date with every change, in the same transaction
            raise InputError("the game is over: undo the last round to go on", "ending")
        new = inputs.as_round(self, number=len(self.active_rounds()) + 1)
        after = self.replay([*self.active_rounds(), new])
        refuse_a_stray_choice(inputs.choice, after.last.result)
        return after, new

    def record_round(self, inputs: RoundInputs, seen_version: int | None = None) -> Round:
        """Save a round after checking it against the rules.

        The rules are worked out first, outside any transaction; the write then only goes
        through if the game is still at the version that work was based on (one UPDATE with the
        version in its WHERE, then the INSERT). So the write lock is held for two statements,
        not for the whole replay, and a phone that saw an older game is refused.
        """
        for _attempt in range(3):
            self.check_version(seen_version)
            story, new = self.check_round(inputs)
            if story.last.result.result == "table_decides":
                raise InputError("the rules leave this open: the table must choose", "choice")
            try:
                with transaction.atomic():
                    moved = Game.objects.filter(pk=self.pk, version=self.version).update(
                        version=self.version + 1,
                        round_count=len(story.steps),
                        finished=story.game_over,
                        result_text=story.result_words,
                    )
                    if moved:
                        new.version = self.version + 1
                        new.save()
            except IntegrityError:
                # Only a tap already recorded may collide here; anything else is a fault.
                if self.has_round_from(inputs.client_id):
                    raise AlreadyRecorded from None
                raise
            if moved:
                self.version += 1
                self.round_count, self.finished = len(story.steps), story.game_over
                self.result_text = story.result_words
                self._rounds, self._story = [*self.active_rounds(), new], story
                return new
            # Another phone changed the game between our reading and our writing.
            fresh = Game.objects.get(pk=self.pk)
            fresh.club = self.club  # opened with its key, which the database does not keep
            if seen_version is not None:
                raise StaleGame(fresh)
            self.version, self.finished = fresh.version, fresh.finished
            self.forget_cache()
        raise StaleGame(self)

    def undo(self, seen_version: int | None = None) -> Round | None:
        """Take back the last round. It stays in the database, marked undone."""
        with transaction.atomic():
            game = self.locked()
            game.check_version(seen_version)
            rounds = game.active_rounds()
            if not rounds:
                raise InputError("there is no round to undo", "undo")
            last = rounds[-1]
            last.state, last.changed = Round.UNDONE, timezone.now()
            last.gone_version = game.version + 1
            last.save(update_fields=["state", "changed", "gone_version"])
            game.forget_cache()
            game._rounds = rounds[:-1]
            game.after_change()
        self._take_state_of(game)
        return last

    def edit_round(self, number: int, inputs: RoundInputs, seen_version: int | None = None
                   ) -> list[str]:  # fmt: skip
        """Replace a past round and re-resolve every later one; says what changed in words."""
        with transaction.atomic():
            game = self.locked()
            game.check_version(seen_version)
            rounds = game.active_rounds()
            if not 1 <= number <= len(rounds):
                raise InputError(f"there is no round {number}", "number")
            before = game.replay()
            old = rounds[number - 1]
            new = inputs.as_round(game, number=number)
            changed = [*rounds[: number - 1], new, *rounds[number:]]
            after = game.replay(changed)
            for i, step in enumerate(after.steps):
                if step.result.result == "table_decides":
                    raise InputError(
                        f"after this edit the rules leave round {i + 1} open: edit that round "
                        "and choose",
                        "choice",
                    )
            old.state, old.changed = Round.EDITED, timezone.now()
            old.gone_version = new.version = game.version + 1
            old.save(update_fields=["state", "changed", "gone_version"])
            new.save()
            game.forget_cache()
            game._rounds = changed
            game.after_change()
        self._take_state_of(game)
        return describe_changes(before, after)

    def _take_state_of(self, changed: Game) -> None:
        """This instance as the locked copy left the game: the version and what is derived."""
        for name in ("version", "round_count", "finished", "result_text"):
            setattr(self, name, getattr(changed, name))
        self.forget_cache()

    def reload(self) -> None:
        """Read the game again, forgetting everything derived from what it was. The club stays:
        it was opened with its key, which the database does not keep."""
        club = self.club
        self.refresh_from_db()
        self.club = club
        self.forget_cache()

    def has_round_from(self, client_id: str) -> bool:
        """Whether a tap with this id was already recorded (a double tap, or a retry)."""
        return bool(client_id) and self.rounds.filter(client_id=client_id).exists()

    def latest_change(self) -> str:
        """What the newest change to the game was, in words, for a phone that missed it."""
        round = self.rounds.annotate(when=Coalesce("changed", "created")).order_by("-when").first()
        if round is None:
            return "changed this game"
        verb = {Round.ACTIVE: "recorded", Round.UNDONE: "took back", Round.EDITED: "edited"}
        return f"{verb[round.state]} round {round.number}"

    def locked(self) -> Game:
        """This game read again under a lock on its row (a no-op on SQLite, where the
        IMMEDIATE transaction already holds the write lock). The seats never change: kept."""
        game = Game.objects.select_for_update().get(pk=self.pk)
        game.club = self.club
        for kept in ("_seats", "_rules"):
            if hasattr(self, kept):
                setattr(game, kept, getattr(self, kept))
        return game

    def check_version(self, seen_version: int | None) -> None:
        if seen_version is not None and seen_version != self.version:
            raise StaleGame(self)

    def after_change(self) -> None:
        """Bump the version and rewrite the summary kept for lists of games."""
        story = self.replay()
        self.version += 1
        self.round_count = len(story.steps)
        self.finished = story.game_over
        self.result_text = story.result_words
        self.save(update_fields=["version", "round_count", "finished", "result_text"])


class AlreadyRecorded(Exception):
    """This tap was recorded before (a double tap, or a retry after a lost answer)."""


class StaleGame(Exception):
    """A phone acted on a game that has changed since it looked."""

    def __init__(self, game: Game) -> None:
        super().__init__("the game changed since this phone looked")
        self.game = game


class GameSeat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    # A seated player cannot be removed alone; removing the whole club takes its games along.
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField()

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


class RoundQuerySet(models.QuerySet):
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
    ending = models.CharField(max_length=20, choices=list(ENDINGS.items()))
    knocker = models.PositiveSmallIntegerField(null=True, blank=True)  # seat positions, so that
    shown_by = models.JSONField(default=list)  # a renamed player stays the same player
    lowest = models.JSONField(null=True, blank=True)
    hands = models.JSONField(null=True, blank=True)  # {position: ["AS", "KS", "9D"]}
    choice = models.CharField(max_length=40, blank=True)
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


# ---- the rounds as the rules engine sees them -------------------------------------------------


@dataclass(frozen=True)
class RoundInputs:
    """What a table says about a round, by seat position."""

    ending: str
    knocker: int | None = None
    shown_by: tuple[int, ...] = ()
    lowest: tuple[int, ...] | None = None
    hands: dict[int, list[str]] | None = None
    choice: str = ""
    client_id: str = ""

    def as_round(self, game: Game, number: int) -> Round:
        return Round(
            game=game, number=number, ending=self.ending, knocker=self.knocker,
            shown_by=list(self.shown_by),
            lowest=None if self.lowest is None else list(self.lowest),
            hands=None if self.hands is None else {str(k): v for k, v in self.hands.items()},
            choice=self.choice, client_id=self.client_id,
        )  # fmt: skip

    @classmethod
    def of(cls, round: Round) -> RoundInputs:
        return cls(
            ending=round.ending, knocker=round.knocker, shown_by=tuple(round.shown_by),
            lowest=None if round.lowest is None else tuple(round.lowest),
            hands=None if round.hands is None else {int(k): v for k, v in round.hands.items()},
            choice=round.choice,
        )  # fmt: skip


@dataclass
class Step:
    """One round as resolved: who dealt it, its inputs and what the rules made of it."""

    number: int
    dealer: int
    round: Round
    result: RoundResult


@dataclass
class Story:
    """A game derived from its rounds: every step, and the table as it stands now."""

    names: list[str]
    start_lives: int
    steps: list[Step] = field(default_factory=list)
    lives: list[int] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    dealer: int = 0
    pot: int = 0
    game_over: bool = False
    winner: str | None = None
    tie: tuple[str, ...] = ()

    @property
    def last(self) -> Step:
        return self.steps[-1]

    @property
    def result_words(self) -> str:
        if self.winner:
            return f"{self.winner} won"
        if self.tie:
            return "A tie between " + ", ".join(self.tie)
        return ""

    def history(self) -> list[list[int]]:
        """Each player's lives at the start and after every round resolved."""
        rows = [[self.start_lives] * len(self.names)]
        rows += [
            [player.lives for player in step.result.players]
            for step in self.steps
            if step.result.result != "table_decides"
        ]
        return rows


def replay(rules: RuleSet, seats: list[GameSeat], first_dealer: int,
           rounds: list[Round]) -> Story:  # fmt: skip
    """Resolve the rounds in order. A round the rules refuse raises ``RoundError`` naming it."""
    names = [seat.player.name for seat in seats]
    story = Story(
        names=names, start_lives=rules.lives, lives=[rules.lives] * len(seats), statuses=["in"] * len(seats),
        labels=[rules.status_label("in")] * len(seats), dealer=first_dealer,
    )  # fmt: skip
    for i, round in enumerate(rounds):
        table = Table(
            tuple(
                Seat(names[p], story.lives[p], story.statuses[p], _cards(round, p))
                for p in range(len(names))
            ),
            dealer=names[story.dealer],
            pot=story.pot,
            rounds_played=i,
        )
        outcome = Outcome(
            round.ending,
            knocker=_name(names, round.knocker),
            shown_by=tuple(names[p] for p in round.shown_by if 0 <= p < len(names)),
            lowest=None
            if round.lowest is None
            else tuple(names[p] for p in round.lowest if 0 <= p < len(names)),
            choice=round.choice or None,
        )
        if story.game_over:
            raise RoundError(f"round {i + 1}: the game was already over", "ending")
        try:
            result = resolve_round(rules, table, outcome)
        except RoundError as refusal:
            raise RoundError(f"round {i + 1}: {refusal.message}", refusal.field) from None
        story.steps.append(Step(i + 1, story.dealer, round, result))
        if result.result == "table_decides":
            break
        story.lives = [p.lives for p in result.players]
        story.statuses = [p.status for p in result.players]
        story.labels = [p.status_label for p in result.players]
        story.pot = result.pot
        if result.next_dealer is not None:
            story.dealer = names.index(result.next_dealer)
        story.game_over = result.game_over
        story.winner, story.tie = result.winner, result.tie
    return story


def _name(names: list[str], position: int | None) -> str | None:
    return None if position is None or not 0 <= position < len(names) else names[position]


def _cards(round: Round, position: int):
    if not round.hands:
        return None
    codes = round.hands.get(str(position))
    return tuple(parse_cards(codes)) if codes else None


def describe_changes(before: Story, after: Story) -> list[str]:
    """What an edit changed for the table now, in words: "Cat is no longer out"."""
    lines = []
    for i, name in enumerate(after.names):
        was, now = before.statuses[i], after.statuses[i]
        if was != now:
            if was == "out":
                lines.append(f"{name} is no longer out.")
            else:
                lines.append(f"{name} is now {after.labels[i]} (was {before.labels[i]}).")
        if before.lives[i] != after.lives[i]:
            lines.append(f"{name} has {after.lives[i]} lives now (was {before.lives[i]}).")
    if before.result_words != after.result_words:
        if after.result_words:
            lines.append(f"{after.result_words}.")
        else:
            lines.append("The game is no longer over.")
    if before.dealer != after.dealer and not after.game_over:
        lines.append(f"{after.names[after.dealer]} deals next.")
    return lines or ["Nothing changes for the table now."]


__all__ = ["AlreadyRecorded", "Club", "Game", "GameSeat", "Player", "Round", "RoundInputs", "StaleGame", "Story",
           "build_rules", "replay"]  # fmt: skip
