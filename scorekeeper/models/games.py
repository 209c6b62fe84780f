"""Games at a table: their seats, their frozen rules and the rounds they played.

Rounds store only their inputs (how the round ended, who knocked, who showed, who was lowest, the
cards if entered), naming players by seat. Lives, statuses, the dealer, the pot and the winner
are worked out by the rules engine (``rules.game``) and stored with the game as the state after
its latest round, also by seat: a player's name is read from the seat when a page is drawn, so a
rename changes one row. Nothing a tap records is deleted: an undone or edited round stays,
marked as such. The verbs that change a game live in ``scorekeeper.play``.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property, lru_cache
from typing import Any

from django.db import connections, models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from ..lib.marks import Mark
from ..rules import PRESETS, ROUND_ENDINGS, RuleSet
from ..rules.game import GameState, RoundInput, Step, read_state
from ..rules.game import play as play_round
from ..rules.game import replay as replay_game
from ..rules.game import start as start_game
from ..rules.ruleset import RULES_VERSION, RulesError
from ..rules.ruleset import stored_rules as read_stored_rules
from .clubs import Club, Player, key_digest

BIN_DAYS = 30  # how long a deleted game can be restored


@lru_cache(maxsize=256)
def stored_rules(data: str, version: int) -> RuleSet:
    """A game's frozen rules read back from their JSON, as the version that stored them had
    them (cached: every request of a game reads them)."""
    return read_stored_rules(json.loads(data), version)


# ---- the state as stored: by seat, with no names -----------------------------------------


class GameQuerySet(models.QuerySet["Game"]):
    def opened_by(self, game_id: Any, key: str, read_only: bool = False) -> Game | None:
        """The game with its club, if ``key`` opens the club: its secret key, or
        with ``read_only`` its view key; None otherwise (no game, another club's, a bad id).
        The one lookup that authorises every page, tap and API call of a game."""
        if not _is_uuid(game_id):
            return None
        field = "club__view_key_hash" if read_only else "club__key_hash"
        try:  # get(), not first(): ordering the one row cost 0.5 ms of the lookup's 1.3
            game = self.select_related("club").get(pk=game_id, **{field: key_digest(key)})
        except Game.DoesNotExist:
            return None
        game.club.open_with(key, read_only)
        if game.made_by_a_newer_knock:
            raise MadeByANewerKnock(game)
        return game

    def opened_by_table(self, game_id: Any, key: str) -> Game | None:
        """The game, if ``key`` is its tournament table's scoring key and the table is open: a
        key that records this one game and opens nothing else of the club (no club page, no
        other game, no change to the club)."""
        if not _is_uuid(game_id):
            return None
        try:
            game = self.select_related("club").get(pk=game_id, **_open_table(key))
        except Game.DoesNotExist:
            return None
        game.club.open_by_table(key)
        if game.made_by_a_newer_knock:
            raise MadeByANewerKnock(game)
        return game

    def table_version(self, game_id: Any, key: str) -> int | None:
        """The game's version, if ``key`` is its open table's scoring key (``opened_by_table``)."""
        if not _is_uuid(game_id):
            return None
        return self.filter(pk=game_id, **_open_table(key)).values_list("version", flat=True).first()

    def version_opened_by(self, game_id: Any, key: str, read_only: bool = False) -> int | None:
        """The game's version, if ``key`` opens its club (as ``opened_by``): the poll every open
        page makes every 2 seconds, in one indexed query.

        The ORM writes the query once per database and link (``_version_query``) and each poll
        runs it with its own values: building it anew took 0.42 ms of a poll's 1.8 ms here, and
        running it 0.04 ms (SQLite, in process), and with it the poll carried 0.38 of what a
        bare view does, against 0.5 wanted (bench/load.py)."""
        if not _is_uuid(game_id):
            return None
        connection = connections[self.db]
        sql = _version_query(self.db, read_only)
        pk = Game._meta.pk.get_db_prep_value(uuid.UUID(str(game_id)), connection)
        with connection.cursor() as cursor:
            cursor.execute(sql, [pk, key_digest(key)])
            row = cursor.fetchone()
        return None if row is None else row[0]

    def with_seats(self) -> GameQuerySet:
        return self.prefetch_related(seats_with_players())

    def in_progress(self) -> GameQuerySet:
        return self.filter(finished=False, abandoned=False, deleted__isnull=True)

    def listed(self) -> GameQuerySet:
        """The games a club lists: not those in the bin."""
        return self.filter(deleted__isnull=True)

    def for_listing(self) -> GameQuerySet:
        return self.with_seats().select_related("night").order_by("-created")


@lru_cache(maxsize=8)
def _version_query(using: str, read_only: bool) -> str:
    """The SQL of ``version_opened_by`` as the ORM writes it, for a game id then a digest."""
    field = "club__view_key_hash" if read_only else "club__key_hash"
    query = (
        Game.objects.using(using)
        .filter(pk=_SENTINEL)
        .filter(**{field: "digest"})
        .values_list("version", flat=True)[:1]
        .query
    )
    sql, params = query.sql_with_params()
    assert params[-1] == "digest" and len(params) == 2, "the game id, then the digest"
    return sql


_SENTINEL = uuid.UUID(int=0)


def _open_table(key: str) -> dict[str, Any]:
    """The lookup of a game by its table's scoring key: the table open, its tournament going on."""
    return {
        "table__key_hash": key_digest(key),
        "table__closed": False,
        "table__tournament__finished__isnull": True,
    }


def seats_with_players() -> models.Prefetch:
    """A game's seats in order, each with its player: one statement for them all."""
    return models.Prefetch("seats", queryset=GameSeat.objects.select_related("player"))


def _is_uuid(value: Any) -> bool:
    if isinstance(value, uuid.UUID):
        return True
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


class MadeByANewerKnock(Exception):
    """A game this code cannot read: made by a newer release of Knock (a rolling upgrade under
    way, the new servers starting beside the old), under rules this code does not know. No
    page shows it and no verb changes it here: it is answered 503 until a newer server does
    (web/outage.py)."""

    def __init__(self, game: Game) -> None:
        super().__init__(f"game {game.pk} has rules version {game.rules_version}")
        self.game = game


class Game(models.Model):
    """A game at a table: its seats, its frozen rules, and its rounds.

    ``state_data`` is the table after the latest round (lives, statuses, dealer, pot, winner, by
    seat) at ``version``, and what it takes to tell that round in words (``last``: the state
    before it and the round), written in the same transaction as the round. Recording a round
    works from it (it reads no earlier round); undo and edit work the rounds out again.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="games")
    preset = models.CharField(max_length=20)
    # The whole rule set as it was when the game began: later changes to presets never reach it,
    # and a switch added later reads as games played before it (``rules.ruleset.stored_rules``).
    rules_data = models.JSONField()
    # Set where a game starts (``play.start_game``): a default here would make every new
    # switch, which moves the version on, a migration.
    rules_version = models.PositiveSmallIntegerField()
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
    round_count = models.PositiveIntegerField(default=0)
    # The game whose "Play again" started this one: a start sent again is recognised as this
    # game only by it (play.play_again).
    again_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The night it was played in: the games a table played back to back (models.nights).
    night = models.ForeignKey(
        "Night", null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )

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

    # ---- what the stored fields say, worked out once per instance ------------------------

    @cached_property
    def rules(self) -> RuleSet:
        return stored_rules(json.dumps(self.rules_data, sort_keys=True), self.rules_version)

    @property
    def made_by_a_newer_knock(self) -> bool:
        """Whether its rules are newer than this code (a switch, or a value of one, that a
        later release added): every such change moves the rules version on."""
        if self.rules_version > RULES_VERSION:
            return True
        try:
            stored_rules(json.dumps(self.rules_data, sort_keys=True), self.rules_version)
        except RulesError:
            return True
        return False

    @property
    def counting(self) -> bool:
        """Whether the table page counts lives by hand: a game played for a pot has none, so
        its page always asks how the hand ended."""
        return self.mode == self.Mode.COUNT and not self.rules.played_for_pot

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
    def seat_list(self) -> list[GameSeat]:
        """The seats in order, with their players (they never change during a game); read
        with the game where it was looked up ``with_seats``, else here."""
        models.prefetch_related_objects([self], seats_with_players())
        return list(self.seats.all())

    @cached_property
    def seated(self) -> tuple[tuple[str, Mark], ...]:
        """Each player's name and mark in seat order, read from the seats, where a rename or a
        new colour changes them: from the seats already read, or else on their own in one
        statement (a page needs no more of them)."""
        if "seat_list" in self.__dict__:
            return tuple((seat.player.name, seat.player.mark) for seat in self.seat_list)
        rows = self.seats.order_by("position").values_list(
            "player_id", "player__name", "player__colour", "player__initials"
        )
        return tuple(
            (name, Player(pk=pk, name=name, colour=colour, initials=initials).mark)
            for pk, name, colour, initials in rows
        )

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in seat order."""
        return tuple(name for name, _mark in self.seated)

    @property
    def marks(self) -> tuple[Mark, ...]:
        """The players' colours and initials in seat order (``lib.marks``)."""
        return tuple(mark for _name, mark in self.seated)

    @cached_property
    def state(self) -> GameState:
        """The table after the latest round, as stored with the game (never worked out)."""
        assert self.state_data is not None, "every game stores its state from its start"
        return read_state(self.state_data, self.names)

    @property
    def last_story(self) -> list[str]:
        """The latest round in words, in the page's language, told from the state before it
        and the round (stored with the game): no round is read."""
        last = (self.state_data or {}).get("last")
        if not last:
            return []
        before = read_state(last["before"], self.names)
        round = RoundInput.from_data(last["round"])
        return list(play_round(self.rules, before, round).result.explanation)

    @property
    def result_words(self) -> str:
        """ "Ann won", in the page's language; "" while the game goes on."""
        return self.state.result_words

    @property
    def removed_for_good(self) -> datetime | None:
        """When a game in the bin goes for good."""
        return self.deleted + timedelta(days=BIN_DAYS) if self.deleted else None

    def moved_to(self, columns: Mapping[str, Any]) -> None:
        """This instance as the game now stands in the database, after a verb wrote
        ``columns`` (as ``save()`` leaves an instance); what was worked out from the old ones
        is worked out again when next asked for."""
        for name, value in columns.items():
            setattr(self, name, value)
        self.__dict__.pop("state", None)

    # ---- working the rounds out again ----------------------------------------------------

    def active_rounds(self) -> list[Round]:
        """The rounds in play at this game's version, in order."""
        return list(self.rounds.as_of(self.version).order_by("number"))

    def state_before(self, number: int, rounds: Mapping[int, Round] | None = None) -> GameState:
        """The table before round ``number``: after the round before it, as that round keeps
        it (found in ``rounds``, by number, when given)."""
        if number <= 1:
            return start_game(self.rules, self.names, self.first_dealer)
        kept = (rounds or {}).get(number - 1) or self.rounds.as_of(self.version).filter(
            number=number - 1
        ).first()
        if kept is None or kept.state_after is None:  # kept by no round: worked out again
            return self.steps(self.active_rounds()[: number - 1])[0]
        return read_state(kept.state_after, self.names)

    def steps(self, rounds: list[Round] | None = None) -> tuple[GameState, tuple[Step, ...]]:
        """Every round in play (or ``rounds``) worked out again from the start: for the round
        log and the API's list of rounds, and for undo and edit."""
        rounds = self.active_rounds() if rounds is None else rounds
        inputs = [round.as_input() for round in rounds]
        return replay_game(self.rules, self.names, self.first_dealer, inputs)


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
    # A game played for a pot: hands won, and coins up (or down). Added with a database default,
    # so that the release before them can still write seats while the next one migrates.
    hands_won = models.PositiveIntegerField(default=0, db_default=0)
    coins = models.IntegerField(default=0, db_default=0)
    result = models.CharField(max_length=5, blank=True)  # won, tied, lost; empty while playing
    # Where the seat finished (rules.game.seat_places): 1 for the winner, then by how long they
    # lasted; empty while playing. A database default, for the release before during an upgrade.
    place = models.PositiveSmallIntegerField(null=True, blank=True, db_default=None)

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
    ending = models.CharField(max_length=20)  # an id of rules.endings.ROUND_ENDINGS
    knocker = models.PositiveSmallIntegerField(null=True, blank=True)  # seat positions, so that
    shown_by = models.JSONField(default=list)  # a renamed player stays the same player
    lowest = models.JSONField(null=True, blank=True)
    hands = models.JSONField(null=True, blank=True)  # {position: ["AS", "KS", "9D"]}
    choice = models.CharField(max_length=40, blank=True)
    losses = models.JSONField(null=True, blank=True)  # counted by hand: {position: lives}
    winners = models.JSONField(null=True, blank=True)  # a hand played for a pot: [position, …]
    client_id = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(default=timezone.now)
    changed = models.DateTimeField(null=True, blank=True)
    # The game's version when the round came into play, and when it was undone or edited.
    version = models.PositiveIntegerField(default=0)
    gone_version = models.PositiveIntegerField(null=True, blank=True)
    # The table after this round, as the game stores its state (``stored_state``), kept while
    # the round is in play: a page of the round log, the chart and an edit start from the state
    # before their first round, so none of them works the whole game out again.
    state_after = models.JSONField(null=True, blank=True)

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

    @property
    def ending_words(self) -> str:
        """How the round ended, in the page's language."""
        ending = ROUND_ENDINGS.get(self.ending)
        return gettext(ending.words) if ending is not None else self.ending

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
    winners: tuple[int, ...] | None = None  # a hand played for a pot: who won, by seat
    # The table confirmed a round counted by hand that no round of its rules gives.
    as_counted: bool = False

    def as_input(self) -> RoundInput:
        return RoundInput(
            self.ending,
            self.knocker,
            self.shown_by,
            self.lowest,
            self.hands,
            self.choice or None,
            self.losses,
            self.winners,
        )

    def stored(self) -> dict[str, Any]:
        """The round's fields as ``Round`` stores them."""
        return {
            "ending": self.ending,
            "knocker": self.knocker,
            "shown_by": list(self.shown_by),
            "lowest": None if self.lowest is None else list(self.lowest),
            "hands": None if self.hands is None else {str(k): v for k, v in self.hands.items()},
            "choice": self.choice,
            "client_id": self.client_id,
            "losses": None if self.losses is None else {str(k): v for k, v in self.losses.items()},
            "winners": None if self.winners is None else list(self.winners),
        }

    @classmethod
    def of_input(
        cls, round: RoundInput, client_id: str = "", as_counted: bool = False
    ) -> RoundInputs:
        """A round the engine read (``rules.game.asked_round``), with the tap that said it."""
        return cls(
            ending=round.ending,
            knocker=round.knocker,
            shown_by=round.shown_by,
            lowest=round.lowest,
            hands=None if round.hands is None else {k: list(v) for k, v in round.hands.items()},
            choice=round.choice or "",
            client_id=client_id,
            losses=None if round.losses is None else dict(round.losses),
            winners=round.winners,
            as_counted=as_counted,
        )

    @classmethod
    def of(cls, round: Round) -> RoundInputs:
        return cls(
            ending=round.ending,
            knocker=round.knocker,
            shown_by=tuple(round.shown_by),
            lowest=None if round.lowest is None else tuple(round.lowest),
            hands=None if round.hands is None else {int(k): v for k, v in round.hands.items()},
            choice=round.choice,
            losses=None if round.losses is None else {int(k): v for k, v in round.losses.items()},
            winners=None if round.winners is None else tuple(round.winners),
        )
