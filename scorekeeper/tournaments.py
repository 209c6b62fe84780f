"""The verbs of a tournament: start it, enter and withdraw players, draw the next round, close a
table, end it. Each table of a round is an ordinary game (``play.start_game``), played as any
other; a tournament only draws them and counts their places (``reports.tournaments``).

May import only ``models``, ``lib``, ``rules`` and ``play``, as ``play`` itself."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .lib import draw
from .models import Club, Entry, GameSeat, Player, Table, Tournament
from .models.tournaments import (
    DEFAULT_TIE_BREAKS,
    MOST_ENTRIES,
    MOST_ROUNDS,
    ROUND_MINUTES,
    TABLE_SIZES,
    TIE_BREAKS,
    new_rules_fields,
)
from .play import _lock_club, _refuse_past, player_for, start_game, writing
from .rules import RuleSet
from .rules.errors import InputError
from .rules.words import names as _names

_rng = random.SystemRandom()


def default_points(size: int) -> list[int]:
    """The points of each place at a table of ``size``: 3, 2, 1, 0 at four; one less a place."""
    return list(range(size - 1, -1, -1))


def read_points(raw: Mapping[str, Any] | None, table_size: int) -> dict[str, list[int]]:
    """The organiser's points by table size, checked: whole numbers from 0 to 99, one per place,
    never more for a lower place. A size not given earns the default row."""
    points = {str(n): default_points(n) for n in (table_size - 1, table_size, table_size + 1)}
    points = {k: v for k, v in points.items() if int(k) >= draw.SMALLEST}
    for size, row in (raw or {}).items():
        if not str(size).isdigit() or int(size) not in range(draw.SMALLEST, 8):
            raise InputError(_("points are given for tables of 3 to 7 players"), "points")
        if not isinstance(row, list | tuple) or len(row) != int(size):
            raise InputError(
                _("a table of %(n)s has %(n)s places: give %(n)s points") % {"n": size}, "points"
            )
        if not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 99 for p in row):
            raise InputError(_("points are whole numbers from 0 to 99"), "points")
        if any(a < b for a, b in itertools.pairwise(row)):
            raise InputError(_("a lower place cannot earn more points"), "points")
        points[str(int(size))] = [int(p) for p in row]
    return points


def start_tournament(
    club: Club,
    name: str,
    rules: RuleSet,
    preset: str,
    players: Sequence[Player | str],
    *,
    table_size: int = 4,
    rounds: int = 3,
    points: Mapping[str, Any] | None = None,
    method: str = Tournament.Method.MIXED,
    prizes: int = 3,
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    round_minutes: int | None = None,
) -> Tournament:
    """A tournament of the club and its players (the club's, or new names), nothing drawn yet."""
    name = " ".join(name.split())
    if not name:
        raise InputError(_("a tournament needs a name"), "name")
    if table_size not in TABLE_SIZES:
        raise InputError(_("tables are of 3 to 6 players"), "table_size")
    if table_size + 1 > rules.max_players:
        raise InputError(
            _("a game with %(deck)d cards has at most %(most)d players")
            % {"deck": rules.deck, "most": rules.max_players},
            "table_size",
        )
    if not 1 <= rounds <= MOST_ROUNDS:
        raise InputError(
            _("a tournament has 1 to %(most)d rounds") % {"most": MOST_ROUNDS}, "rounds"
        )
    if method not in Tournament.Method.values:
        raise InputError(_("the draw is “mixed” or “swiss”"), "method")
    if not 0 <= prizes <= MOST_ENTRIES:
        raise InputError(_("prize places are from 0 to 200"), "prizes")
    if len(set(tie_breaks)) != len(tie_breaks) or not set(tie_breaks) <= set(TIE_BREAKS):
        raise InputError(
            _(
                "the tie-breaks after points are “games_won”, “left” and “opponents”, each once at most, in order"
            ),
            "tie_breaks",
        )
    if round_minutes is not None and not ROUND_MINUTES[0] <= round_minutes <= ROUND_MINUTES[1]:
        raise InputError(
            _("a round's clock runs %(least)d to %(most)d minutes")
            % {"least": ROUND_MINUTES[0], "most": ROUND_MINUTES[1]},
            "round_minutes",
        )
    checked = read_points(points, table_size)
    with writing():
        # Counted under the club's lock: tournaments made at the same moment cannot pass it.
        _lock_club(club.pk)
        _refuse_past(
            club.tournaments.count(),
            settings.KNOCK_MOST_TOURNAMENTS,
            _("a club keeps at most %(most)s tournaments"),
            "name",
        )
        tournament = Tournament.objects.create(
            club=club,
            name=name[:100],
            preset=preset,
            **new_rules_fields(rules),
            table_size=table_size,
            rounds=rounds,
            points=checked,
            method=method,
            prizes=prizes,
            tie_breaks=list(tie_breaks),
            round_minutes=round_minutes,
        )
        enter(tournament, players)
    return tournament


def enter(tournament: Tournament, players: Sequence[Player | str]) -> list[Entry]:
    """Players entered (late entries too, before the next round is drawn); each once."""
    if tournament.finished:
        raise InputError(_("this tournament is over"), "players")
    with writing():
        try:
            found = [
                p if isinstance(p, Player) else player_for(tournament.club, p) for p in players
            ]
        except InputError as refusal:
            raise InputError(refusal.message, "players") from None
        already = set(tournament.entries.values_list("player_id", flat=True))
        seen: set[int] = set()
        for player in found:
            if player.pk in already or player.pk in seen:
                raise InputError(
                    _("%(name)s is entered twice: a player plays in one place")
                    % {"name": player.name},
                    "players",
                )
            seen.add(player.pk)
        if len(already) + len(found) > MOST_ENTRIES:
            raise InputError(
                _("a tournament has at most %(most)d players") % {"most": MOST_ENTRIES},
                "players",
            )
        lots = _rng.sample(range(1, 10**9), len(found))
        return Entry.objects.bulk_create(
            Entry(tournament=tournament, player=p, lot=lot)
            for p, lot in zip(found, lots, strict=True)
        )


def withdraw(entry: Entry) -> None:
    """A player who leaves: not drawn again, keeping their points."""
    Entry.objects.filter(pk=entry.pk).update(left=True)


def reinstate(entry: Entry) -> None:
    """A withdrawn player back in (withdrawn by mistake, or back from a break): drawn again
    from the next round, with the points they kept. Refused once the tournament is over."""
    if entry.tournament.finished:
        raise InputError(_("this tournament is over"), "player")
    if not entry.left:
        raise InputError(_("%(name)s was not withdrawn") % {"name": entry.player.name}, "player")
    Entry.objects.filter(pk=entry.pk).update(left=False)


def check_in(entry: Entry, here: bool = True) -> None:
    """A player says they are here (or the organiser takes it back), before round 1 is drawn:
    once anyone is checked in, round 1 seats only those who are."""
    tournament = entry.tournament
    if tournament.finished:
        raise InputError(_("this tournament is over"), "player")
    if tournament.drawn_rounds:
        raise InputError(
            _("round 1 is drawn: check-in is over (enter, withdraw or take back players)"),
            "player",
        )
    Entry.objects.filter(pk=entry.pk).update(here=here)


def still_playing(tournament: Tournament) -> list[Table]:
    """The tables of the tournament whose game goes on and that nobody closed."""
    return list(
        tournament.tables.filter(
            closed=False,
            game__finished=False,
            game__abandoned=False,
            game__deleted__isnull=True,
        ).select_related("game")
    )


def draw_round(tournament: Tournament, club_key: str, seed: int | None = None) -> list[Table]:
    """The next round drawn: a game at every table, seats in a drawn order and the first deal at
    a drawn seat. Refused while a table of an earlier round still plays (naming it), after the
    last round, with fewer than three players left."""
    rng = random.Random(seed) if seed is not None else _rng
    with writing():
        _lock_club(tournament.club_id)
        tournament.refresh_from_db()
        if tournament.finished:
            raise InputError(_("this tournament is over"), "round")
        number = tournament.drawn_rounds + 1
        if number > tournament.rounds:
            raise InputError(
                _("all %(n)d rounds are drawn: end the tournament") % {"n": tournament.rounds},
                "round",
            )
        playing = still_playing(tournament)
        if playing:
            raise InputError(
                ngettext(
                    "table %(tables)s is still playing: wait for its game to end, or close it",
                    "tables %(tables)s are still playing: wait for their games to end, or close them",
                    len(playing),
                )
                % {"tables": _names([str(t.number) for t in playing])},
                "round",
            )
        entries = list(tournament.entries.filter(left=False).select_related("player"))
        if number == 1 and any(e.here for e in entries):
            # Check-in: who is here plays; who is not is withdrawn (and taken back in if they
            # come later, from the next round).
            absent = [e.pk for e in entries if not e.here]
            if sum(e.here for e in entries) < draw.SMALLEST:
                raise InputError(
                    _("check in at least three players, or nobody to seat everyone"), "players"
                )
            Entry.objects.filter(pk__in=absent).update(left=True)
            entries = [e for e in entries if e.here]
        if len(entries) < draw.SMALLEST:
            raise InputError(_("a round needs at least three players"), "players")
        seated = _seating(tournament, entries, number, rng)
        # The earlier rounds' tables are over: their scoring keys change their games no more
        # (an undo through one would take a table's points out of standings already drawn on).
        tournament.tables.filter(closed=False).update(closed=True)
        return _start_tables(tournament, club_key, number, seated, rng)


def _seating(
    tournament: Tournament, entries: list[Entry], number: int, rng: random.Random
) -> list[list[Player]]:
    by_pk = {e.player_id: e.player for e in entries}
    met = met_before(tournament)
    if number == 1 or tournament.method == Tournament.Method.MIXED:
        tables = draw.mixed(list(by_pk), tournament.table_size, met, rng)
    else:
        from .reports.tournaments import standings

        order = [s.player_id for s in standings(tournament) if s.player_id in by_pk]
        tables = draw.by_standings(order, tournament.table_size, met)
    return [[by_pk[pk] for pk in table] for table in tables]


def met_before(tournament: Tournament) -> dict[int, set[int]]:
    """Who sat at a table with whom in the rounds drawn so far (one query)."""
    at: dict[Any, list[int]] = {}
    seats = GameSeat.objects.filter(game__table__tournament=tournament)
    for game_id, player_id in seats.values_list("game_id", "player_id"):
        at.setdefault(game_id, []).append(player_id)
    met: dict[int, set[int]] = {}
    for players in at.values():
        for p in players:
            met.setdefault(p, set()).update(q for q in players if q != p)
    return met


def _start_tables(
    tournament: Tournament,
    club_key: str,
    number: int,
    seated: list[list[Player]],
    rng: random.Random,
) -> list[Table]:
    rules, club = tournament.rules, tournament.club
    tables = []
    for i, players in enumerate(seated, start=1):
        players = list(players)
        rng.shuffle(players)
        # In no one's language (a German table's phone showed "round 2 · table 5" when the
        # organiser's was English): R and T are Round and Table, and Runde and Tisch.
        name = f"{tournament.name} · R{number} · T{i}"
        game = start_game(
            club, players, rng.randrange(len(players)), rules, tournament.preset, name=name
        )
        table = Table(tournament=tournament, round=number, number=i, size=len(players), game=game)
        table.set_key(club_key)
        tables.append(table)
    return Table.objects.bulk_create(tables)


def close_table(table: Table) -> None:
    """The organiser closes a table by hand: its scoring link records no more, and the next
    round may be drawn. The game keeps what it recorded."""
    Table.objects.filter(pk=table.pk).update(closed=True)


class WouldMeetAgain(InputError):
    """A swap that seats a player with someone they met in an earlier round: made only when the
    organiser asks again (``repeat_ok``). It names the two players, so a page can ask."""

    def __init__(self, message: str, first: Player, second: Player) -> None:
        super().__init__(message, "repeat_ok")
        self.first, self.second = first, second


def swap_players(
    tournament: Tournament, first: Player, second: Player, *, repeat_ok: bool = False
) -> None:
    """The organiser swaps two players of the round just drawn, before either table records a
    round: each takes the other's seat. A swap that seats someone with a player they met before
    is refused, naming who, unless ``repeat_ok``."""
    with writing():
        number = tournament.drawn_rounds
        seats = list(
            GameSeat.objects.select_for_update()
            .filter(game__table__tournament=tournament, game__table__round=number)
            .filter(Q(player=first) | Q(player=second))
            .select_related("game", "player")
        )
        if len(seats) != 2 or seats[0].game_id == seats[1].game_id:
            raise InputError(_("swap two players at two tables of the round just drawn"), "swap")
        if any(seat.game.round_count for seat in seats):
            raise InputError(_("a table of theirs has recorded a round: too late to swap"), "swap")
        a, b = seats
        if not repeat_ok:
            again = _met_again(tournament, a, b)
            if again:
                raise WouldMeetAgain(
                    _("%(who)s: swap them anyway, or pick another swap")
                    % {"who": "; ".join(again)},
                    first,
                    second,
                )
        GameSeat.objects.filter(pk=a.pk).update(player=b.player_id)
        GameSeat.objects.filter(pk=b.pk).update(player=a.player_id)


def _met_again(tournament: Tournament, a: GameSeat, b: GameSeat) -> list[str]:
    """What a swap of the players of seats ``a`` and ``b`` would repeat, in words: "Ana would
    meet Ben and Cat again". Everyone at the other's table now was met, if at all, in an
    earlier round."""
    met = met_before(tournament)
    said = []
    for mover, there in ((a, b), (b, a)):
        others = (
            GameSeat.objects.filter(game_id=there.game_id)
            .exclude(pk=there.pk)
            .order_by("position")
            .select_related("player")
        )
        again = [s.player.name for s in others if s.player_id in met.get(mover.player_id, ())]
        if again:
            said.append(
                _("%(name)s would meet %(others)s again")
                % {"name": mover.player.name, "others": _names(again)}
            )
    return said


def reopen(tournament: Tournament) -> None:
    """An ended tournament open again (ended by mistake, or a round more after all): its
    tables stay closed, and the next round may be drawn while rounds remain."""
    with writing():
        _lock_club(tournament.club_id)
        tournament.refresh_from_db()
        if tournament.finished is None:
            raise InputError(_("this tournament is not over"), "finished")
        Tournament.objects.filter(pk=tournament.pk).update(finished=None)
    tournament.refresh_from_db()


def end_tournament(tournament: Tournament) -> None:
    """The tournament ends: every table closes, and the standings are final."""
    with writing():
        Tournament.objects.filter(pk=tournament.pk).update(finished=timezone.now())
        tournament.tables.update(closed=True)
    tournament.refresh_from_db()
