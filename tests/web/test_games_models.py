"""Games derive everything from their stored rounds: record, undo, edit, play again."""

import dataclasses

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper.models import CLUB_COLUMNS, Game, Round, RoundInputs, StaleGame, new_key
from scorekeeper.rules.errors import InputError

from ..factory import knock, make_club, make_game, record_knocks, seat_of

pytestmark = pytest.mark.django_db


def lives(game: Game) -> dict[str, tuple[int, str]]:
    """Each player's lives and status, as stored with the game, checked against the rounds."""
    state = game.state
    assert game.steps()[0] == state  # the stored state is the one the rounds give
    return {name: (state.lives[i], state.statuses[i]) for i, name in enumerate(state.names)}


def test_a_new_game_starts_everyone_on_the_rules_lives():
    game = make_game(lives=4)
    assert lives(game) == {"Ann": (4, "in"), "Ben": (4, "in"), "Cat": (4, "in")}
    assert game.state.dealer == 0


def test_recording_rounds_loses_lives_and_moves_the_deal():
    game = record_knocks(make_game(), [("Ann", ["Ben"]), ("Ben", ["Ben"])])
    assert lives(game) == {"Ann": (3, "in"), "Ben": (0, "county"), "Cat": (3, "in")}
    assert game.state.dealer == 2  # Ann dealt, then Ben, now Cat
    assert game.state.pot == 3
    assert game.round_count == 2 and game.version == 2 and not game.finished


def test_undo_takes_back_the_last_round_and_keeps_it_in_the_database():
    game = record_knocks(make_game(), [("Ann", ["Ben"]), ("Ann", ["Cat"])])
    game.undo()
    assert lives(game)["Cat"] == (3, "in")
    assert Round.objects.filter(game=game).count() == 2
    assert Round.objects.get(game=game, number=2).state == Round.UNDONE
    game.undo()
    with pytest.raises(InputError, match="no round to undo"):
        game.undo()


def test_undoing_an_elimination_brings_the_player_back():
    game = record_knocks(make_game(), [("Ann", ["Ben"])] * 4)
    assert lives(game)["Ben"] == (0, "out")
    game.undo()
    assert lives(game)["Ben"] == (0, "county")


def test_editing_an_earlier_round_re_resolves_every_later_one():
    game = make_game(players=("Ann", "Ben", "Cat"))
    record_knocks(game, [("Ann", ["Cat"]), ("Ann", ["Cat"]), ("Ann", ["Cat"]), ("Ann", ["Cat"])])
    assert lives(game)["Cat"] == (0, "out")
    changes = game.edit_round(1, knock(game, "Ann", ["Ben"]))
    assert lives(game)["Cat"] == (0, "county")
    assert lives(game)["Ben"] == (2, "in")
    assert "Cat is no longer out." in changes
    edited = Round.objects.get(game=game, number=1, state=Round.EDITED)
    assert edited.lowest == [seat_of(game, "Cat")]


def test_an_edit_that_makes_a_later_round_impossible_is_refused_and_changes_nothing():
    game = make_game(players=("Ann", "Ben", "Cat"))
    # Cat is on the county after round 3, and knocks in round 5.
    record_knocks(game, [("Ann", ["Cat"])] * 3 + [("Ben", ["Ann"]), ("Cat", ["Ann"])])
    version = Game.objects.get(pk=game.pk).version
    with pytest.raises(InputError, match="round 5: Cat is out, so cannot knock"):
        game.edit_round(4, knock(game, "Ben", ["Cat"]))
    assert Game.objects.get(pk=game.pk).version == version
    assert Round.objects.filter(game=game, state=Round.ACTIVE).count() == 5


def test_the_last_player_in_wins_and_recording_stops_but_undo_still_works():
    game = make_game(players=("Ann", "Ben"))
    record_knocks(game, [("Ann", ["Ben"])] * 4)
    assert game.finished and game.result_text == "Ann won"
    with pytest.raises(InputError, match="the game is over"):
        game.record(knock(game, "Ann", ["Ben"]))
    game.undo()
    game.refresh_from_db()
    assert not game.finished and game.result_text == ""


def test_a_round_the_rules_refuse_saves_nothing():
    game = make_game()
    with pytest.raises(InputError, match="Ben's hand is worth 19, not 31"):
        game.record(RoundInputs(ending="thirty_one", shown_by=(1,), hands={1: ["KS", "9S", "2H"]}))
    with pytest.raises(InputError, match="say who knocked"):
        game.record(RoundInputs(ending="knock", lowest=(1,)))
    assert not Round.objects.exists()
    assert Game.objects.get(pk=game.pk).version == 0


def test_an_open_question_must_be_answered_before_the_round_is_saved():
    game = make_game(preset="kitchen-table")
    inputs = RoundInputs(ending="dealt_thirty_one", shown_by=(0, 1))
    with pytest.raises(InputError, match="the table must choose"):
        game.record(inputs)
    game.record(RoundInputs(ending="dealt_thirty_one", shown_by=(0, 1), choice="replay"))
    assert lives(game) == {"Ann": (3, "in"), "Ben": (3, "in"), "Cat": (3, "in")}


def test_a_stale_phone_is_refused():
    game = make_game()
    game.record(knock(game, "Ann", ["Ben"]), seen_version=0)
    with pytest.raises(StaleGame):
        game.record(knock(game, "Ann", ["Ben"]), seen_version=0)


def test_rules_are_frozen_into_the_game():
    game = make_game(preset="scat", knocker_alone=1)
    stored = Game.objects.get(pk=game.pk)
    assert stored.rules.knocker_alone == 1
    assert stored.rules_data["knocker_alone"] == 1
    assert stored.rules_data["lives"] == 3


def test_play_again_keeps_players_seats_and_rules_and_moves_the_deal():
    game = make_game(players=("Ann", "Ben", "Cat"), first_dealer=2, preset="friendly")
    again = game.play_again()
    assert [s.player.name for s in again.seat_list()] == ["Ann", "Ben", "Cat"]
    assert again.first_dealer == 0 and again.preset == "friendly"
    assert again.rules == game.rules


def test_player_names_are_unique_in_a_club_ignoring_case_and_spaces():
    club = make_club()
    club.add_player("Ann")
    with pytest.raises(InputError, match="already in this club"):
        club.add_player("  aNN ")
    ben = club.add_player("Ben")
    with pytest.raises(InputError, match="already in this club"):
        ben.rename("ann")
    ben.rename("Benjamin")
    assert club.player_named("benjamin") == ben


def test_keys_never_start_with_a_dash_which_a_command_line_would_read_as_an_option():
    assert not any(new_key().startswith("-") for _ in range(2000))


def test_the_stored_state_follows_every_change_and_the_check_finds_none_astray():
    from django.core.management import call_command

    game = record_knocks(make_game(), [("Ann", ["Ben"]), ("Ben", ["Cat"]), ("Cat", ["Ann"])])
    game.undo()
    game.edit_round(1, knock(game, "Ann", ["Cat"]))
    assert lives(game) == {"Ann": (3, "in"), "Ben": (3, "in"), "Cat": (1, "in")}
    call_command("check_game_states")  # raises if any stored state differs from its rounds


def test_the_check_reports_a_stored_state_that_differs_from_the_rounds():
    import io

    from django.core.management import CommandError, call_command

    game = record_knocks(make_game(), [("Ann", ["Ben"])])
    Game.objects.filter(pk=game.pk).update(state_data={**game.state_data, "pot": 7})
    with pytest.raises(CommandError, match="1 of 1 games differ"):
        call_command("check_game_states", stdout=io.StringIO())
    out = io.StringIO()
    call_command("check_game_states", "--fix", stdout=out)
    assert f"{game.id}: the stored state or tallies differ" in out.getvalue()
    call_command("check_game_states", stdout=io.StringIO())
    assert Game.objects.get(pk=game.pk).state.pot == 1


def test_a_round_is_stored_in_plain_sql_as_the_orm_would_have_stored_it():
    """Recording writes its rows in plain SQL (``plainsql``): read back through the ORM, each
    round is the one ``save()`` would have written, JSON, defaults and tallies included."""
    game = make_game(mode=Game.Mode.COUNT)
    taps = [
        knock(game, "Ann", ["Ben", "Cat"]),
        RoundInputs(ending="manual", losses={2: 2}, client_id="tap-2"),
        RoundInputs(ending="knock", knocker=1, lowest=(0,), choice="", client_id="tap-3"),
    ]
    for number, tap in enumerate(taps, start=1):
        before = timezone.now()
        with CaptureQueriesContext(connection) as queries:
            game.record(tap)
        writes = [q["sql"] for q in queries if q["sql"].startswith(("UPDATE", "INSERT", "WITH"))]
        if connection.vendor == "postgresql":  # one round trip: the game, its seats, the round
            assert len(writes) == 1 and writes[0].startswith("WITH moved AS (UPDATE")
        else:  # the game, a seat or two, the round, in one transaction
            assert [w.split()[0] for w in writes] == ["UPDATE", *["UPDATE"] * (len(writes) - 2),
                                                      "INSERT"]  # fmt: skip
        stored = Round.objects.get(game=game, number=number)
        expected = tap.as_round(game, number=number)
        for field in Round._meta.concrete_fields:
            if field.name not in ("id", "created", "version"):
                assert getattr(stored, field.attname) == getattr(expected, field.attname), field
        assert stored.version == number and stored.state == Round.ACTIVE
        assert before <= stored.created <= timezone.now()
        assert RoundInputs.of(stored) == dataclasses.replace(tap, client_id="")
    assert not game.tallies_differ()  # the counters added in SQL are those the rounds give
    assert Game.objects.get(pk=game.pk).state == game.state


def test_a_renamed_player_is_named_anew_in_the_stored_state():
    game = record_knocks(make_game(), [("Ann", ["Ben"])])
    ben = game.club.player_named("Ben")
    ben.rename("Benjamin")
    stored = Game.objects.get(pk=game.pk)
    assert stored.state.names == ("Ann", "Benjamin", "Cat")
    assert "Benjamin loses 1 life: the lowest hand." in stored.last_told


def test_the_plain_lookup_of_a_game_reads_it_as_the_orm_does():
    """Every page and tap of a game opens it with one plain query (``opened_by``): each field
    comes out as the ORM reads it, dates and JSON included, and only the club's keys open it."""
    game = make_game()
    game.record(knock(game, "Ann", ["Ben"]))
    game.set_aside(deleted=True)
    Game.objects.filter(pk=game.pk).update(name="Friday", mode=Game.Mode.COUNT)
    club = game.club
    opened = Game.objects.opened_by(game.pk, "key_hash", club.key)
    orm = Game.objects.select_related("club").get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(opened, field.attname) == getattr(orm, field.attname), field.name
    for column in ("id", *CLUB_COLUMNS):
        assert getattr(opened.club, column) == getattr(orm.club, column), column
    assert opened.club.created == orm.club.created  # not read with the game, read when asked
    assert Game.objects.opened_by(game.pk, "view_key_hash", club.view_key).pk == game.pk
    assert Game.objects.opened_by(game.pk, "key_hash", club.view_key) is None
    assert Game.objects.opened_by(game.pk, "key_hash", make_club("Other").key) is None
    assert Game.objects.opened_by(make_game().pk, "key_hash", club.key) is None  # another club's
