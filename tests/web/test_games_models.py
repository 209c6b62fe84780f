"""Games derive everything from their stored rounds: record, undo, edit, play again."""

import dataclasses

import pytest
from django.utils import timezone

from scorekeeper import play
from scorekeeper.models import Game, Round, RoundInputs, new_key
from scorekeeper.play import StaleGame
from scorekeeper.rules.errors import InputError

from ..factory import knock, make_club, make_game, record_knocks, reloaded, seat_of

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
    play.undo_round(game)
    assert lives(game)["Cat"] == (3, "in")
    assert Round.objects.filter(game=game).count() == 2
    assert Round.objects.get(game=game, number=2).state == Round.UNDONE
    play.undo_round(game)
    with pytest.raises(InputError, match="no round to undo"):
        play.undo_round(game)


def test_undoing_an_elimination_brings_the_player_back():
    game = record_knocks(make_game(), [("Ann", ["Ben"])] * 4)
    assert lives(game)["Ben"] == (0, "out")
    play.undo_round(game)
    assert lives(game)["Ben"] == (0, "county")


def test_editing_an_earlier_round_re_resolves_every_later_one():
    game = make_game(players=("Ann", "Ben", "Cat"))
    record_knocks(game, [("Ann", ["Cat"]), ("Ann", ["Cat"]), ("Ann", ["Cat"]), ("Ann", ["Cat"])])
    assert lives(game)["Cat"] == (0, "out")
    changes = play.edit_round(game, 1, knock(game, "Ann", ["Ben"]))
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
        play.edit_round(game, 4, knock(game, "Ben", ["Cat"]))
    assert Game.objects.get(pk=game.pk).version == version
    assert Round.objects.filter(game=game, state=Round.ACTIVE).count() == 5


def test_the_last_player_in_wins_and_recording_stops_but_undo_still_works():
    game = make_game(players=("Ann", "Ben"))
    record_knocks(game, [("Ann", ["Ben"])] * 4)
    assert game.finished and game.result_words == "Ann won"
    with pytest.raises(InputError, match="the game is over"):
        play.record_round(game, knock(game, "Ann", ["Ben"]))
    play.undo_round(game)
    game = reloaded(game)
    assert not game.finished and game.result_words == ""


def test_a_round_the_rules_refuse_saves_nothing():
    game = make_game()
    with pytest.raises(InputError, match="Ben's hand is worth 19, not 31"):
        play.record_round(
            game, RoundInputs(ending="thirty_one", shown_by=(1,), hands={1: ["KS", "9S", "2H"]})
        )
    with pytest.raises(InputError, match="say who knocked"):
        play.record_round(game, RoundInputs(ending="knock", lowest=(1,)))
    assert not Round.objects.exists()
    assert Game.objects.get(pk=game.pk).version == 0


def test_an_open_question_must_be_answered_before_the_round_is_saved():
    game = make_game(preset="kitchen-table")
    inputs = RoundInputs(ending="dealt_thirty_one", shown_by=(0, 1))
    with pytest.raises(InputError, match="the table must choose"):
        play.record_round(game, inputs)
    play.record_round(
        game, RoundInputs(ending="dealt_thirty_one", shown_by=(0, 1), choice="replay")
    )
    assert lives(game) == {"Ann": (3, "in"), "Ben": (3, "in"), "Cat": (3, "in")}


def test_a_stale_phone_is_refused():
    game = make_game()
    play.record_round(game, knock(game, "Ann", ["Ben"]), seen_version=0)
    with pytest.raises(StaleGame):
        play.record_round(game, knock(game, "Ann", ["Ben"]), seen_version=0)


def test_rules_are_frozen_into_the_game():
    game = make_game(preset="scat", knocker_alone=1)
    stored = Game.objects.get(pk=game.pk)
    assert stored.rules.knocker_alone == 1
    assert stored.rules_data["knocker_alone"] == 1
    assert stored.rules_data["lives"] == 3


def test_play_again_keeps_players_seats_and_rules_and_moves_the_deal():
    game = make_game(players=("Ann", "Ben", "Cat"), first_dealer=2, preset="friendly", lives=1)
    play.record_round(game, knock(game, "Ann", ["Ben"]))
    play.record_round(game, knock(game, "Ann", ["Cat"]))
    assert game.state.game_over
    again = play.play_again(game)
    assert [s.player.name for s in again.seat_list] == ["Ann", "Ben", "Cat"]
    assert again.first_dealer == 0 and again.preset == "friendly"
    assert again.rules == game.rules


def test_player_names_are_unique_in_a_club_ignoring_case_and_spaces():
    club = make_club()
    play.add_player(club, "Ann")
    with pytest.raises(InputError, match="already in this club"):
        play.add_player(club, "  aNN ")
    ben = play.add_player(club, "Ben")
    with pytest.raises(InputError, match="already in this club"):
        play.rename_player(ben, "ann")
    play.rename_player(ben, "Benjamin")
    assert club.players.named("benjamin") == ben


def test_keys_never_start_with_a_dash_which_a_command_line_would_read_as_an_option():
    assert not any(new_key().startswith("-") for _ in range(2000))


def test_the_stored_state_follows_every_change_and_the_check_finds_none_astray():
    from django.core.management import call_command

    game = record_knocks(make_game(), [("Ann", ["Ben"]), ("Ben", ["Cat"]), ("Cat", ["Ann"])])
    play.undo_round(game)
    play.edit_round(game, 1, knock(game, "Ann", ["Cat"]))
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


def test_each_round_is_stored_as_the_tap_said_it_with_its_tallies():
    game = make_game(mode=Game.Mode.COUNT)
    taps = [
        knock(game, "Ann", ["Ben", "Cat"]),
        RoundInputs(ending="manual", losses={2: 2}, client_id="tap-2"),
        RoundInputs(ending="knock", knocker=1, lowest=(0,), choice="", client_id="tap-3"),
    ]
    for number, tap in enumerate(taps, start=1):
        before = timezone.now()
        play.record_round(game, tap)
        stored = Round.objects.get(game=game, number=number)
        assert stored.version == number and stored.state == Round.ACTIVE
        assert stored.client_id == tap.client_id
        assert before <= stored.created <= timezone.now()
        assert RoundInputs.of(stored) == dataclasses.replace(tap, client_id="")
    assert not play.tallies_differ(game)  # the tallies added per round are those the rounds give
    assert Game.objects.get(pk=game.pk).state == game.state


def test_a_renamed_player_is_named_anew_in_the_stored_state():
    game = record_knocks(make_game(), [("Ann", ["Ben"])])
    ben = game.club.players.named("Ben")
    play.rename_player(ben, "Benjamin")
    stored = Game.objects.get(pk=game.pk)
    assert stored.state.names == ("Ann", "Benjamin", "Cat")
    assert "Benjamin loses 1 life: the lowest hand." in stored.last_story


def test_a_game_is_opened_only_by_its_own_club_s_keys():
    game = make_game()
    play.record_round(game, knock(game, "Ann", ["Ben"]))
    club = game.club
    opened = Game.objects.opened_by(game.pk, club.key)
    assert opened.pk == game.pk and opened.club.key == club.key and opened.state == game.state
    assert Game.objects.opened_by(game.pk, club.view_key, read_only=True).pk == game.pk
    assert Game.objects.opened_by(game.pk, club.view_key) is None
    assert Game.objects.opened_by(game.pk, club.key, read_only=True) is None
    assert Game.objects.opened_by(game.pk, make_club("Other").key) is None
    assert Game.objects.opened_by(make_game().pk, club.key) is None  # another club's
    assert Game.objects.opened_by("null,null", club.key) is None  # not a game's id
