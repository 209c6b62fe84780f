"""The verbs: every change to a club or a game, in one place.

The pages, the API, backups and the management commands all call these. Transactions, the
version a phone saw, the id of a tap, the seats' tallies and the state stored with a game are
handled here and nowhere else, with the ORM.

Two phones may act on one game at once. Each change moves the game's ``version`` on; a phone
sends the version it saw, and a change made on an older one is refused (``StaleGame``) with
nothing saved. Each tap carries an id made by the phone, unique per game: a repeat of a tap
already recorded (a double tap, a retry after a lost answer) is ``AlreadyRecorded``; the same id
with another round, or with a round taken back since, is refused (``TapReused``), never answered
as a success.

May import only ``models``, ``lib`` and ``rules``: the doors (``web``, ``api``), the club file
(``backup``) and the commands call it.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, F, IntegerField, Value, When
from django.db.models.functions import Cast, Coalesce
from django.db.models.lookups import In
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from .lib.marks import PALETTE, clean_initials, free_colour, initials_for
from .models import (
    Club,
    FaultReport,
    Game,
    GameSeat,
    Night,
    Player,
    RetiredKey,
    Round,
    RoundInputs,
    Season,
    Table,
)
from .models.clubs import clean_name, key_digest, name_key, new_key
from .rules import PRESETS, Result, RuleSet
from .rules.errors import InputError
from .rules.game import (
    TALLIES,
    GameState,
    Step,
    advance,
    describe_changes,
    first_dealer_again,
    seat_places,
    seat_results,
    stored_state,
    tallies,
    total_tallies,
)
from .rules.game import play as play_round
from .rules.game import start as start_state
from .rules.resolve import refuse_a_stray_choice
from .rules.ruleset import stored_form
from .rules.view import tapped_words


class AlreadyRecorded(Exception):
    """This tap was recorded before (a double tap, or a retry after a lost answer)."""


class TapReused(InputError):
    """A tap id this game stored before, sent with another round (a client that sends one fixed
    id), or with the round it named taken back since: nothing is saved, and it is said."""

    def __init__(self, taken_back: bool) -> None:
        super().__init__(
            _("this tap's round was recorded and then taken back: nothing was saved")
            if taken_back
            else _(
                "this tap id was already used for another round of this game: nothing was "
                "saved (send a new id with each round)"
            ),
            "client_id",
        )


class StaleGame(Exception):
    """A phone acted on a game that has changed since it looked."""

    def __init__(self, game: Game) -> None:
        super().__init__(_("the game changed since this phone looked"))
        self.game = game


class StaleLink(Exception):
    """Another phone replaced this link a moment ago."""


class Unusual(InputError):
    """A round counted by hand that no round of the game's rules gives: kept only when the
    table confirms it (``RoundInputs.as_counted``). ``step`` is what it would do."""

    def __init__(self, step: Step) -> None:
        super().__init__(
            _(
                "no round of these rules costs these lives: confirm to keep it as the table "
                "counted it"
            ),
            "losses",
        )
        self.step = step


class TableMustChoose(InputError):
    """A round the rules leave to the table, sent without its choice: ``step`` is the round with
    the choices, for the page to show them again."""

    def __init__(self, step: Step) -> None:
        # The choices are named, so that a client without the page can send one.
        choices = "; ".join(f"“{choice.id}” ({choice.words})" for choice in step.result.choices)
        super().__init__(
            _(
                "the rules leave this open: the table must choose, sending “choice” as one of %(choices)s"
            )
            % {"choices": choices},
            "choice",
        )
        self.step = step


def _confirmed(step: Step, inputs: RoundInputs) -> None:
    if step.result.unusual and not inputs.as_counted:
        raise Unusual(step)


_one_writer = threading.Lock()


@contextmanager
def writing() -> Iterator[None]:
    """A transaction that writes.

    SQLite has one writer at a time (its IMMEDIATE transactions take the write lock at BEGIN). A
    thread that finds it busy waits in SQLite's busy handler, which sleeps in steps of up to
    100 ms and leaves the lock idle meanwhile; so the threads of a process take turns on a lock
    of their own first, and each is woken the moment the one before has committed. Inside a
    transaction already open (which may hold SQLite's lock) it only nests."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        with transaction.atomic():
            yield
        return
    with _one_writer, transaction.atomic():
        yield


# ---- clubs and players --------------------------------------------------------------------


def create_club(name: str, created_by: str = "", per_hour: int | None = None) -> Club | None:
    """A new club; None if ``created_by`` (a digest of the client's address) already started
    ``per_hour`` clubs in the last hour. Counting and creating happen under one lock per
    client, so that forty requests at once cannot all count nineteen: SQLite's write
    transaction holds the database, and PostgreSQL takes an advisory lock on the digest."""
    with writing():
        if per_hour is not None:
            _lock_sender(created_by)
            since = timezone.now() - timedelta(hours=1)
            if Club.objects.filter(created_by=created_by, created__gte=since).count() >= per_hour:
                return None
        return Club.objects.create(name=name, created_by=created_by)


def fault_allowed(sender: str, per_minute: int) -> bool:
    """Whether ``sender`` (a digest of the client's address) may have one more fault report
    written: fewer than ``per_minute`` in the last minute, counted in the database under one
    lock per sender, so that every worker counts the same reports."""
    with writing():
        _lock_sender(sender)
        since = timezone.now() - timedelta(minutes=1)
        FaultReport.objects.filter(at__lt=since).delete()
        if FaultReport.objects.filter(sender=sender).count() >= per_minute:
            return False
        FaultReport.objects.create(sender=sender)
        return True


def _lock_sender(digest: str) -> None:
    """One client's counting alone until the transaction ends: SQLite's write transaction
    holds the database; PostgreSQL takes an advisory lock on the digest."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int(digest[:15], 16)])


def name_taken(name: str) -> InputError:
    """The refusal of a name another player of the club has (ignoring case and spaces)."""
    return InputError(_("%(name)s is already in this club") % {"name": name}, "name")


def add_player(club: Club, name: str) -> Player:
    """Add a player, refusing a name already in the club (ignoring case and spaces), also
    when another phone adds the same name at the same moment."""
    name = clean_name(name)
    if club.players.filter(name_key=name_key(name)).exists():
        raise name_taken(name)
    most = settings.KNOCK_MOST_PLAYERS
    try:
        with writing():
            # Counted, and a mark no other player of the club has, under the club's lock (the
            # club's row locked on PostgreSQL, the database's on SQLite): two phones adding
            # players at once can neither pass the limit nor share a colour.
            _lock_club(club.pk)
            others = list(club.players.values_list("colour", "initials", "retired"))
            _refuse_past(len(others), most, _("a club has at most %(most)s players"), "name")
            colour = free_colour(c for c, _i, retired in others if c is not None and not retired)
            initials = initials_for(name, [i for _c, i, _r in others if i])
            return club.players.create(
                name=name, name_key=name_key(name), colour=colour, initials=initials
            )
    except IntegrityError:
        raise name_taken(name) from None


def _refuse_past(count: int, most: int, said: str, field: str) -> None:
    """A club's limit (players, games, seasons), counted under the club's lock: refused at
    ``most``, naming the limit."""
    if count >= most:
        raise InputError(said % {"most": number_format(most, force_grouping=True)}, field)


def _lock_club(pk: Any) -> None:
    """The club's row locked until the transaction ends (SQLite's write lock holds it already)."""
    Club.objects.select_for_update().values_list("pk", flat=True).get(pk=pk)


def player_for(club: Club, name: str) -> Player:
    """The club's player of that name, added if new. Two phones that add the same new player at
    once both get the one player."""
    try:
        return club.players.named(name) or add_player(club, name)
    except InputError:
        found = club.players.named(name)
        if found is None:
            raise
        return found


def rename_player(player: Player, name: str) -> None:
    """A new name for a player: one row. Every page of every game the player sat in reads the
    name from the seat, so each shows the new name."""
    name = clean_name(name)
    if player.club.players.filter(name_key=name_key(name)).exclude(pk=player.pk).exists():
        raise name_taken(name)
    player.name, player.name_key = name, name_key(name)
    try:
        with writing():
            player.save(update_fields=["name", "name_key"])
    except IntegrityError:  # another phone gave another player this name a moment ago
        raise name_taken(name) from None


def mark_player(player: Player, initials: str, colour: int) -> None:
    """A player's colour and initials (``lib.marks``): initials that no other player of the
    club has, and a colour no other player wears while the palette has one nobody wears."""
    try:
        initials = clean_initials(initials)
    except ValueError:
        raise InputError(_("initials are 1 to 3 letters or digits"), "initials") from None
    if not 0 <= colour < len(PALETTE):
        raise InputError(_("pick one of the colours shown"), "colour")
    with writing():
        _lock_club(player.club_id)
        others = [p for p in player.club.players.exclude(pk=player.pk) if not p.retired]
        if same := next(
            (p for p in others if p.mark.initials.casefold() == initials.casefold()), None
        ):
            raise InputError(
                _("%(name)s has the initials %(initials)s")
                % {"name": same.name, "initials": initials},
                "initials",
            )
        worn = {p.mark.colour: p for p in others}
        if colour in worn and len(worn) < len(PALETTE):
            raise InputError(
                _("%(name)s wears %(colour)s: pick a colour nobody wears")
                % {"name": worn[colour].name, "colour": PALETTE[colour].word},
                "colour",
            )
        player.initials, player.colour = initials, colour
        player.save(update_fields=["initials", "colour"])


def add_season(club: Club, name: str, starts: date, ends: date) -> Season:
    """A season of the club's, counted from ``starts`` to ``ends``, both days included; a name
    another of its seasons has is refused, also when two phones name it at once."""
    if ends < starts:
        raise InputError(_("the last day comes on or after the first"), "ends")
    most = settings.KNOCK_MOST_SEASONS
    try:
        with writing():
            _lock_club(club.pk)
            _refuse_past(
                club.seasons.count(),
                most,
                _("a club counts at most %(most)s seasons: stop counting an old one first"),
                "name",
            )
            return club.seasons.create(name=name, starts=starts, ends=ends)
    except IntegrityError:
        raise InputError(_("the club has a season of that name already"), "name") from None


def retire_player(player: Player, retired: bool) -> None:
    """Retire a player (their colour is free for the next new player), or bring them back: in
    a colour nobody wears, if another player took theirs meanwhile and one is free."""
    with writing():
        _lock_club(player.club_id)
        player.retired = retired
        fields = ["retired"]
        if not retired:
            worn = [
                p.mark.colour
                for p in player.club.players.filter(retired=False).exclude(pk=player.pk)
            ]
            if player.mark.colour in worn and len(set(worn)) < len(PALETTE):
                player.colour = free_colour(worn)
                fields.append("colour")
        player.save(update_fields=fields)


def replace_link(club: Club, which: str, generation: int | None = None) -> None:
    """A new secret (or view) link; the old one stops working at once.

    A new secret link brings a new view link too: whoever had the old secret link could open
    the view link as well. ``generation`` is the view link the phone saw: if another phone
    replaced the link first, ``StaleLink`` says so and nothing changes."""
    with writing():
        current = Club.objects.select_for_update().get(pk=club.pk)
        if current.key_hash != key_digest(club.key) or (
            which == "view" and generation is not None and generation != current.view_generation
        ):
            raise StaleLink(which)
        retired = [RetiredKey(club=club, kind="view", digest=current.view_key_hash)]
        if which == "secret":
            retired.append(RetiredKey(club=club, kind="secret", digest=current.key_hash))
            club.set_key(new_key())
            # Each tournament table's scoring key is made from the club's secret key: made
            # again in the same step, so the old keys stop and the new link's cards work.
            tables = list(Table.objects.filter(tournament__club=club))
            for table in tables:
                table.set_key(club.key)
            Table.objects.bulk_update(tables, ["key_hash"])
        else:
            club.view_generation = current.view_generation + 1
            club.set_key(club.key)
        RetiredKey.objects.bulk_create(retired)
        club.save(update_fields=["key_hash", "view_key_hash", "view_generation"])


def save_our_rules(club: Club, preset: str, overrides: dict[str, Any], mode: str) -> None:
    """The club's own rules, which every new game of the club starts from."""
    club.our_rules = {"preset": preset, "overrides": overrides, "mode": mode}
    club.save(update_fields=["our_rules"])


# ---- starting a game ------------------------------------------------------------------------


def start_game(
    club: Club,
    seats: Sequence[Player | str],
    first_dealer: int,
    rules: RuleSet,
    preset: str,
    mode: str = Game.Mode.REFEREE,
    name: str = "",
    id: uuid.UUID | None = None,
    again_of: Game | None = None,
) -> Game:
    """A new game, its players in seat order: a player of the club, or a name (the club's
    player of that name, added if new), under ``id`` where one is given; ``again_of``, the
    game whose "Play again" starts it. All of it or nothing."""
    if len(seats) < 2:
        raise InputError(_("pick at least two players"), "players")
    if len(seats) > rules.max_players:
        raise InputError(
            _("a game with %(deck)d cards has at most %(most)d players")
            % {"deck": rules.deck, "most": rules.max_players},
            "players",
        )
    if not 0 <= first_dealer < len(seats):
        raise InputError(_("the first dealer must be one of the players"), "first_dealer")
    most = settings.KNOCK_MOST_GAMES
    with writing():
        # Counted under the club's lock: games started at the same moment cannot pass the limit.
        _lock_club(club.pk)
        _refuse_past(
            club.games.count(),
            most,
            _("a club keeps at most %(most)s games: delete old ones (and empty the bin) first"),
            "players",
        )
        try:
            players = [s if isinstance(s, Player) else player_for(club, s) for s in seats]
        except InputError as refusal:
            raise InputError(refusal.message, "players") from None
        if len({p.pk for p in players}) != len(players):
            raise InputError(_("a player can sit at the table only once"), "players")
        game = _new_game(club, players, first_dealer, rules, preset, mode, id or uuid.uuid4())
        game.name = name
        game.again_of = again_of
        if again_of is not None:
            game.night = _night_of(again_of)
        game.save(force_insert=True)
        GameSeat.objects.bulk_create(game.seat_list)
    return game


def _new_game(
    club: Club,
    players: Sequence[Player],
    first_dealer: int,
    rules: RuleSet,
    preset: str,
    mode: str,
    id: uuid.UUID,
) -> Game:
    """A game as it starts, not saved, with its seats: its rules stored at the oldest rules
    version that reads them the same (so the servers of the release before read it too during a
    rolling upgrade), and the table before its first round."""
    data, version = stored_form(rules)
    state = start_state(rules, [player.name for player in players], first_dealer)
    game = Game(
        id=id,
        club=club,
        preset=preset,
        rules_data=data,
        rules_version=version,
        readings=sorted(PRESETS[preset].readings) if preset in PRESETS else [],
        first_dealer=first_dealer,
        state_data=stored_state(state),
        mode=mode,
    )
    game.__dict__["seat_list"] = [
        GameSeat(game=game, player=player, position=i) for i, player in enumerate(players)
    ]
    return game


# The next game's id where a phone has not made it yet: one per game played again, so the page
# of that next game is drawn (and kept by the page caches) for this game alone.
NEXT_GAME = uuid.UUID("8c3d3f0e-5e2b-4f7a-9a51-6b0d0e1c4a31")


def next_game_id(game: Game) -> uuid.UUID:
    """The id that stands in for the next game's, in the page of it drawn ahead."""
    return uuid.uuid5(NEXT_GAME, str(game.id))


def next_game(game: Game) -> Game:
    """The game "Play again" starts, as it will start, not saved: the same players, seats,
    rules and way of asking for a round; the first deal one seat to the left. Its id stands in
    for the one a phone makes (``play_again``): the phone draws this game's page without a
    connection from it."""
    players = [seat.player for seat in game.seat_list]
    first = first_dealer_again(game.rules, game.state, game.first_dealer)
    return _new_game(
        game.club, players, first, game.rules, game.preset, game.mode, next_game_id(game)
    )


def play_again(game: Game, id: uuid.UUID | None = None) -> Game:
    """The next game (``next_game``), saved; under ``id`` where the phone made one (it may
    have played the game's first rounds already, without a connection). Sent again, the same
    id is the same game."""
    if id is not None:
        if id == next_game_id(game):
            raise InputError(_("make a new id for the game on the phone"), "id")
        if (kept := _started_before(game, id)) is not None:
            return kept
    if game.deleted is not None:
        raise InputError(_("this game is in the bin: restore it to play again"), "id")
    if game.abandoned:
        raise InputError(_("this game was abandoned: start a new game instead"), "id")
    if not game.state.game_over:
        raise InputError(_("this game is not over yet"), "id")
    new = next_game(game)
    try:
        return start_game(
            game.club,
            [seat.player for seat in new.seat_list],
            new.first_dealer,
            game.rules,
            game.preset,
            game.mode,
            id=id,
            again_of=game,
        )
    except IntegrityError:  # the same id sent twice at once: the first one made it
        if id is None or (kept := _started_before(game, id)) is None:
            raise
        return kept


def _night_of(game: Game) -> Night:
    """The night ``game`` was played in: the one it started, when it is the night's first."""
    if game.night_id is None:
        game.night = Night.objects.create(club=game.club, created=game.created)
        Game.objects.filter(pk=game.pk).update(night=game.night)
    assert game.night is not None
    return game.night


def _started_before(game: Game, id: uuid.UUID) -> Game | None:
    """The game this game's "Play again" started under ``id`` already (a start sent again),
    or None; an id of any other game is refused."""
    kept = Game.objects.filter(pk=id).first()
    if kept is not None and kept.again_of_id != game.pk:
        raise InputError(_("this id is another game's: make a new one"), "id")
    return kept


def name_game(game: Game, name: str) -> None:
    """A game's name ("Friday at Ana's"), or none; it changes no round."""
    Game.objects.filter(pk=game.pk).update(name=name)
    game.name = name


def name_night(night: Night, name: str) -> None:
    """A night's name ("Friday at Ana's"), or none: its games and standings stay as they are."""
    Night.objects.filter(pk=night.pk).update(name=name)
    night.name = name


def set_mode(game: Game, mode: str) -> None:
    """How the table page asks for a round: a setting of the page, so no version moves."""
    Game.objects.filter(pk=game.pk).update(mode=mode)
    game.mode = mode


# ---- rounds ---------------------------------------------------------------------------------


def preview_round(game: Game, inputs: RoundInputs) -> Step:
    """What recording this round would do, worked out from the stored state, without saving
    it; refuses an impossible round."""
    if game.deleted:
        raise InputError(_("the game is in the bin: restore it to go on"), "ending")
    if game.abandoned:
        raise InputError(_("the game was abandoned: resume it to go on"), "ending")
    if game.finished:  # kept up to date with every change, in the same transaction
        raise InputError(_("the game is over: undo the last round to go on"), "ending")
    most = settings.KNOCK_MOST_ROUNDS
    if game.round_count >= most:
        raise InputError(
            _("a game has at most %(most)s rounds: start a new game to go on")
            % {"most": number_format(most, force_grouping=True)},
            "ending",
        )
    step = play_round(game.rules, game.state, inputs.as_input())
    refuse_a_stray_choice(inputs.choice, step.result)
    return step


def preview_edit(game: Game, number: int, inputs: RoundInputs) -> Step:
    """What round ``number`` would do if it had gone as ``inputs`` say (the rounds before it as
    they are); refuses an impossible round."""
    step = play_round(game.rules, game.state_before(number), inputs.as_input())
    refuse_a_stray_choice(inputs.choice, step.result)
    return step


def record_round(game: Game, inputs: RoundInputs, seen_version: int | None = None) -> Step:
    """Save a round after checking it against the rules; the new state goes with it.

    The rules are worked out first, from the stored state and outside any transaction; the
    write then only goes through if the game is still at the version that work was based on
    (an UPDATE with the version in its WHERE, the seats' tallies, the round). So the write lock
    is held for three statements, and a phone that saw an older game is refused. Without a
    version (an API client that sends none: "on the game as it is") it works the round out
    again on the newer state, and its last try does so under the game's row lock, so that no
    other write comes between and the round is always applied.
    """
    try:
        for attempt in range(3):
            locked = seen_version is None and attempt == 2
            step = _try_record(game, inputs, seen_version, locked)
            if step is not None:
                return step
            # Another phone changed the game between our reading and our writing.
            reload(game)
            if seen_version is not None:
                raise StaleGame(game)
        raise StaleGame(game)  # not reached: the locked try holds the row, so it writes
    except StaleGame:
        # The tap's id is read only when the table moved (a tap repeated after its round was
        # saved moved it itself: "already", not stale); a new tap's write is its check (the
        # one-round-per-tap constraint), which saves a Record a statement.
        _check_tap(game, inputs)
        raise


def _try_record(
    game: Game, inputs: RoundInputs, seen_version: int | None, locked: bool
) -> Step | None:
    """One try at recording: the step written, or None when the game moved meanwhile."""
    with writing() if locked else contextlib.nullcontext():
        if locked:
            reload(game, lock=True)
        _check_version(game, seen_version)
        step = preview_round(game, inputs)
        if step.result.result == Result.TABLE_DECIDES:
            raise TableMustChoose(step)
        _confirmed(step, inputs)
        before, after = game.state, advance(game.state, step)
        columns = _state_columns(game.version + 1, after, (before, step))
        try:
            with writing():
                moved = Game.objects.filter(pk=game.pk, version=game.version).update(**columns)
                if moved:
                    _add_tallies(game, step, after)
                    Round.objects.create(
                        game=game,
                        number=step.number,
                        version=columns["version"],
                        state_after=stored_state(after),
                        **inputs.stored(),
                    )
        except IntegrityError:
            # Only a tap already recorded may collide here; anything else is a fault.
            if _has_round_from(game, inputs.client_id):
                _check_tap(game, inputs)
                raise AlreadyRecorded from None
            raise
    if not moved:
        return None
    game.moved_to(columns)
    return step


def undo_round(game: Game, seen_version: int | None = None) -> Round:
    """Take back the last round. It stays in the database, marked undone."""
    with writing():
        reload(game, lock=True)
        _check_version(game, seen_version)
        rounds = game.active_rounds()
        if not rounds:
            raise InputError(_("there is no round to undo"), "undo")
        last = rounds[-1]
        last.state, last.changed = Round.UNDONE, timezone.now()
        last.gone_version = game.version + 1
        last.save(update_fields=["state", "changed", "gone_version"])
        after, steps = game.steps(rounds[:-1])
        store(game, after, steps)
    return last


def edit_round(
    game: Game, number: int, inputs: RoundInputs, seen_version: int | None = None
) -> list[str]:
    """Replace a past round and work out every later one again; says what changed.

    The replay (every later round: 2,000 in a long game, about 0.8 s) is worked out outside
    the write lock, from the game as read; the write then goes through only if the game is
    still at that version. So one club's edit never holds SQLite's one write lock while it
    thinks, and another club's taps do not wait for it."""
    for _attempt in range(3):
        _check_version(game, seen_version)
        seen = game.version
        old, new, rounds, after, steps = _replayed(game, number, inputs)
        kept = _prepared_tables(_tables_kept(game, steps, rounds))
        before = game.state
        with writing():
            reload(game, lock=True)
            saved = game.version == seen
            if saved:
                old.state, old.changed = Round.EDITED, timezone.now()
                old.gone_version = new.version = game.version + 1
                old.save(update_fields=["state", "changed", "gone_version"])
                new.save()
                _write_tables(kept)
                store(game, after, steps)
        if saved:
            return describe_changes(game.rules, before, after)
        # Another phone changed the game while the edit was worked out: work it out again
        # (three times at most: then the phone is told the game changed, and nothing is saved).
        if seen_version is not None:
            raise StaleGame(game)
    raise StaleGame(game)


def edit_changes(game: Game, number: int, inputs: RoundInputs) -> list[str]:
    """What editing round ``number`` to ``inputs`` would change, in the words ``edit_round``
    says once it is saved (shown before the table saves it); refuses as it would."""
    _old, _new, _rounds, after, _steps = _replayed(game, number, inputs)
    return describe_changes(game.rules, game.state, after)


def _replayed(
    game: Game, number: int, inputs: RoundInputs
) -> tuple[Round, Round, list[Round], GameState, tuple[Step, ...]]:
    """Round ``number`` replaced by ``inputs`` and every round worked out again: the old round,
    the new one (unsaved), the rounds as they would be, the state after them, their steps."""
    rounds = game.active_rounds()
    if not 1 <= number <= len(rounds):
        raise InputError(_("there is no round %(n)d") % {"n": number}, "number")
    old = rounds[number - 1]
    # An edit is not a tap: the tap id a form carries names the round as first recorded, and
    # stored again it would collide with it (one round per tap).
    new = Round(game=game, number=number, **{**inputs.stored(), "client_id": ""})
    replaced = [*rounds[: number - 1], new, *rounds[number:]]
    after, steps = game.steps(replaced)
    _confirmed(next(step for step in steps if step.number == number), inputs)
    for step in steps:
        if step.result.result == Result.TABLE_DECIDES:
            raise InputError(
                _("after this edit the rules leave round %(n)d open: edit that round and choose")
                % {"n": step.number},
                "choice",
            )
    return old, new, replaced, after, steps


def set_aside(game: Game, abandoned: bool | None = None, deleted: bool | None = None) -> None:
    """Abandon or resume the game, put it in the bin or take it out: one UPDATE, with the
    version moved on so that every open page of it draws itself again."""
    changes: dict[str, Any] = {}
    if abandoned is not None:
        changes["abandoned"] = abandoned
    if deleted is not None:
        changes["deleted"] = timezone.now() if deleted else None
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1, **changes)
    game.moved_to({**changes, "version": game.version + 1})


def rederive(game: Game) -> GameState:
    """Work the state and the tallies out again from the rounds and store them (for
    ``check_game_states --fix``)."""
    with writing():
        reload(game, lock=True)
        rounds = game.active_rounds()
        after, steps = game.steps(rounds)
        store(game, after, steps, rounds=rounds)
    return after


# ---- a phone that saw an older game ---------------------------------------------------------


@dataclass(frozen=True)
class StaleAnswer:
    """What to tell a phone whose tap met a game that had changed: ``recorded`` if that very tap
    was stored before (a retry), else ``said``, what the other phone did."""

    game: Game
    recorded: bool
    said: str


def stale_answer(game: Game, client_id: str = "") -> StaleAnswer:
    """The game as it is now, and what to say to the phone that saw it older."""
    reload(game)
    if _has_round_from(game, client_id):
        return StaleAnswer(game, True, _("That round was already recorded."))
    return StaleAnswer(game, False, latest_change(game))


def rounds_since(game: Game, seen: int, most: int = 5) -> list[dict[str, Any]]:
    """The rounds another phone recorded after the game was at version ``seen`` (at most
    ``most``): each as its tiles said it and what it did, for a phone whose round came too late
    to tell whether it is the same hand (``web/contract.py``'s TheirRound)."""
    rounds = list(
        game.rounds.as_of(game.version).filter(version__gt=seen).order_by("number")[:most]
    )
    told = []
    for round in rounds:
        before = game.state_before(round.number)
        step = play_round(game.rules, before, round.as_input())
        told.append(
            {
                "number": round.number,
                # The tap that made it: a phone whose own earlier send it was is never told
                # another phone recorded it (static/js/sender.js).
                "tap": round.client_id,
                "tapped": tapped_words(game.rules, game.names, step.round),
                "headline": step.headline,
            }
        )
    return told


def latest_change(game: Game) -> str:
    """What the newest change to the game was, in words, for a phone that missed it."""
    round = game.rounds.annotate(when=Coalesce("changed", "created")).order_by("-when").first()
    if round is None:
        return _("Another phone changed this game a moment ago")
    said = {
        Round.ACTIVE: _("Another phone recorded round %(n)d a moment ago"),
        Round.UNDONE: _("Another phone took back round %(n)d a moment ago"),
        Round.EDITED: _("Another phone edited round %(n)d a moment ago"),
    }
    return said[round.state] % {"n": round.number}


# ---- helpers of the verbs -------------------------------------------------------------------

# The game's columns that follow its rounds.
STATE_FIELDS = ("version", "state_data", "round_count", "finished", "abandoned", "deleted")


def reload(game: Game, lock: bool = False) -> None:
    """The game's changing columns read again (under a lock on its row with ``lock``: a no-op
    on SQLite, where the write transaction already holds the database). Its club and seats
    stay: they never change during a game."""
    rows = Game.objects.select_for_update() if lock else Game.objects.all()
    game.moved_to(rows.filter(pk=game.pk).values(*STATE_FIELDS).get())


def _check_version(game: Game, seen_version: int | None) -> None:
    if seen_version is not None and seen_version != game.version:
        raise StaleGame(game)


def _check_tap(game: Game, inputs: RoundInputs) -> None:
    """The tap's id as an idempotency key with its request: stored before with this very round
    (still in play), it is ``AlreadyRecorded``; with another round, or with one taken back
    since, it is refused (``TapReused``)."""
    if not inputs.client_id:
        return
    stored = game.rounds.filter(client_id=inputs.client_id).first()
    if stored is None:
        return
    if stored.state != Round.ACTIVE:
        raise TapReused(taken_back=True)
    if RoundInputs.of(stored).stored() != {**inputs.stored(), "client_id": ""}:
        raise TapReused(taken_back=False)
    raise AlreadyRecorded


def _has_round_from(game: Game, client_id: str) -> bool:
    """Whether a tap with this id was already recorded (a double tap, or a retry)."""
    return bool(client_id) and game.rounds.filter(client_id=client_id).exists()


def _state_columns(
    version: int, after: GameState, last: tuple[GameState, Step] | None
) -> dict[str, Any]:
    """The game's columns at ``version`` with ``after`` as its state; ``last``, the state before
    the latest round and its step, is what the round's story is told from."""
    state_data = stored_state(after)
    if last is not None:
        before, step = last
        state_data["last"] = {"before": stored_state(before), "round": step.round.as_data()}
    return {
        "version": version,
        "state_data": state_data,
        "round_count": after.rounds,
        "finished": after.game_over,
    }


def _last(game: Game, steps: tuple[Step, ...]) -> tuple[GameState, Step] | None:
    """The state before the last of ``steps`` (the rounds in play), and that step."""
    done = [step for step in steps if step.result.result != Result.TABLE_DECIDES]
    if not done:
        return None
    before = start_state(game.rules, game.names, game.first_dealer)
    for step in done[:-1]:
        before = advance(before, step)  # no rules are worked out: the steps say it all
    return before, done[-1]


def store(
    game: Game,
    after: GameState,
    steps: tuple[Step, ...],
    version: int | None = None,
    rounds: list[Round] | None = None,
) -> None:
    """Store ``after``, the state ``steps`` (the rounds in play) lead to, with each seat's
    tallies worked out again; the version moves on, or is ``version`` (a game imported).
    ``rounds``, the rounds of ``steps``: each keeps the table after it, where that changed."""
    version = game.version + 1 if version is None else version
    if rounds is not None:
        _keep_each_table(game, steps, rounds)
    columns = _state_columns(version, after, _last(game, steps))
    Game.objects.filter(pk=game.pk).update(**columns)
    game.moved_to(columns)
    seats = list(GameSeat.objects.filter(game_id=game.pk).order_by("position"))
    totals = total_tallies(steps, len(seats))
    ended = zip(seat_results(after), seat_places(after), strict=True)
    for seat, total, (result, place) in zip(seats, totals, ended, strict=True):
        for name, count in total.items():
            setattr(seat, name, count)
        seat.result, seat.place = result, place
    GameSeat.objects.bulk_update(seats, [*TALLIES, "result", "place"])


def _keep_each_table(game: Game, steps: tuple[Step, ...], rounds: list[Round]) -> None:
    """Each round in play keeps the table after it (``Round.state_after``)."""
    _write_tables(_prepared_tables(_tables_kept(game, steps, rounds)))


def _prepared_tables(rounds: list[Round]) -> list[tuple[Any, int]]:
    """The stored rounds' tables as the database takes them, ready for ``_write_tables``:
    encoded before the write lock is taken."""
    field = Round._meta.get_field("state_after")
    return [(field.get_db_prep_save(r.state_after, connection), r.pk) for r in rounds if r.pk]


def _write_tables(prepared: list[tuple[Any, int]]) -> None:
    """Each round's table after it, in one statement run for every row.

    Not ``bulk_update``: it builds a CASE of a branch per row in Python while the write lock is
    held, 0.67 s of the 0.73 s an edit of round 1 of a 2,000-round game held SQLite's one
    write lock (bench/edit_lock.py), while every other club's taps waited."""
    if not prepared:
        return
    table, quote = Round._meta.db_table, connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {quote(table)} SET {quote('state_after')} = %s WHERE {quote('id')} = %s",
            prepared,
        )


def _tables_kept(game: Game, steps: tuple[Step, ...], rounds: list[Round]) -> list[Round]:
    """The rounds whose table after them (``Round.state_after``) ``steps`` change, changed
    (not saved)."""
    state = start_state(game.rules, game.names, game.first_dealer)
    changed = []
    for step, round in zip(steps, rounds, strict=False):
        if step.result.result == Result.TABLE_DECIDES:
            break
        state = advance(state, step)
        after = stored_state(state)
        if round.state_after != after:
            round.state_after = after
            changed.append(round)
    return changed


def _add_tallies(game: Game, step: Step, after: GameState) -> None:
    """One more round's tallies, and at game over each seat's result, in one UPDATE of the
    seats it touched: each tally adds, in the database, what the round gave each seat
    (``lives_lost + 1 * (position IN (1, 3))``)."""
    counts = tallies(step, len(after.names))
    changes: dict[str, Any] = {}
    for name in TALLIES:
        seats_by_count: dict[int, list[int]] = {}
        for position, count in enumerate(counts):
            if count[name]:
                seats_by_count.setdefault(count[name], []).append(position)
        if seats_by_count:
            changes[name] = F(name) + sum(
                (
                    Value(n) * Cast(In(F("position"), seats), IntegerField())
                    for n, seats in seats_by_count.items()
                ),
                start=Value(0),
            )
    touched = {p for p, count in enumerate(counts) if any(count.values())}
    if after.game_over:
        results = seat_results(after)
        changes["result"] = Case(*(When(position=p, then=Value(r)) for p, r in enumerate(results)))
        changes["place"] = Case(
            *(When(position=p, then=Value(n)) for p, n in enumerate(seat_places(after)))
        )
        touched = set(range(len(results)))
    if changes:
        GameSeat.objects.filter(game_id=game.pk, position__in=touched).update(**changes)


def tallies_differ(game: Game) -> bool:
    """Whether the seats' stored tallies differ from the rounds (for check_game_states)."""
    after, steps = game.steps()
    stored = list(
        GameSeat.objects.filter(game_id=game.pk)
        .order_by("position")
        .values_list(*TALLIES, "result", "place")
    )
    totals = total_tallies(steps, len(stored))
    worked_out = [
        (*(t[name] for name in TALLIES), r, p)
        for t, r, p in zip(totals, seat_results(after), seat_places(after), strict=True)
    ]
    return stored != worked_out


def state_differs(game: Game) -> bool:
    """Whether the stored state, what the latest round is told from, or the table a round keeps
    after it, differs from the rounds worked out again (for check_game_states)."""
    rounds = game.active_rounds()
    after, steps = game.steps(rounds)
    worked_out = _state_columns(game.version, after, _last(game, steps))
    if game.state_data != worked_out["state_data"]:
        return True
    state = start_state(game.rules, game.names, game.first_dealer)
    for step, round in zip(steps, rounds, strict=False):
        state = advance(state, step)
        if round.state_after != stored_state(state):
            return True
    return False
