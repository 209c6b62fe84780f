"""The poll's board (``live.VersionBoard``): each app server process answers the pages' polls from
the versions of the games polled there lately, read by a thread of its own in one statement per
tick, instead of with a query per poll.

The board's thread reads the real database on its own connection, so these tests commit."""

import json
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper import live
from scorekeeper.models import Club, Game

from ..factory import knock, make_club, make_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def board(settings):
    settings.KNOCK_POLL_BOARD = True
    board = live.board()
    board.tick = 0.05
    yield board
    board.stop()  # its thread's connection would keep the test database open
    board.tick = live.BOARD_TICK


def until(condition, within: float = 2.0):
    """Wait for ``condition()`` to be true (a thread of the board's reads meanwhile)."""
    ends = time.monotonic() + within
    while not condition():
        assert time.monotonic() < ends, "not within the time allowed"
        time.sleep(0.01)


def poll(client, link: str, game: Game, seen: int):
    return client.get(f"{link}g/{game.id}/version?v={seen}")


def test_a_game_polled_once_is_answered_without_a_query_and_changes_are_heard(client, board):
    game = make_game()
    secret, view = f"/c/{game.club.key}/", f"/v/{game.club.view_key}/"
    with CaptureQueriesContext(connection) as first:
        assert poll(client, secret, game, 0).status_code == 204
    assert len(first) == 1  # the board did not know the game yet: the database says
    until(lambda: game.id in board.known)
    with CaptureQueriesContext(connection) as queries:
        assert poll(client, secret, game, 0).status_code == 204
        assert poll(client, view, game, 0).status_code == 204  # the view link's key too
    assert len(queries) == 0
    # Another request records a round: the board hears it at its next read.
    game.record(knock(game, "Ann", ["Ben"]))
    until(lambda: poll(client, secret, game, 0).status_code == 200, within=1.0)
    changed = poll(client, view, game, 0)
    assert json.loads(changed["HX-Trigger"]) == {"game-changed": {"version": 1}}
    assert poll(client, view, game, 1).status_code == 204


def test_a_page_that_saw_a_later_version_than_the_board_is_told_nothing_changed(client, board):
    board.tick = 5.0  # one read, and none again during the test
    game = make_game()
    link = f"/c/{game.club.key}/"
    poll(client, link, game, 0)
    until(lambda: game.id in board.known)
    reads = board.queries
    game.record(knock(game, "Ann", ["Ben"]))  # the board still says version 0
    assert poll(client, link, game, 1).status_code == 204  # the phone that recorded it
    assert poll(client, link, game, 0).status_code == 204  # a moment behind, at most a tick
    assert board.queries == reads and board.known[game.id].version == 0


def test_only_the_clubs_keys_open_the_board_and_a_replaced_key_stops_within_a_tick(client, board):
    game = make_game()
    club = game.club
    poll(client, f"/c/{club.key}/", game, 0)
    until(lambda: game.id in board.known)
    other = make_club("Other")
    for wrong in (f"/c/{other.key}/", f"/c/{club.view_key}/", f"/v/{club.key}/", "/c/no-key/"):
        assert poll(client, wrong, game, 0).status_code == 404, wrong
    old = club.key
    club.replace_key("secret")
    assert Club.objects.with_key(old) is None
    until(lambda: poll(client, f"/c/{old}/", game, 0).status_code == 404, within=1.0)
    assert poll(client, f"/c/{club.key}/", game, 0).status_code == 204
    # A game removed for good is gone from the board at its next read.
    Game.objects.filter(pk=game.pk).delete()
    until(lambda: poll(client, f"/c/{club.key}/", game, 0).status_code == 404, within=1.0)


def test_a_game_nobody_polls_is_no_longer_read_and_the_board_sleeps():
    game = make_game()
    board = live.VersionBoard(tick=0.05, idle=0.3)
    try:
        assert board.version(game.id, "key_hash", game.club.key) is None  # not read yet
        until(lambda: board.version(game.id, "key_hash", game.club.key) == 0)
        assert board.version(game.id, "view_key_hash", game.club.view_key) == 0
        assert board.version(game.id, "key_hash", game.club.view_key) is None
        until(lambda: board.known == {})  # nobody asked for 0.3 s
        reads = board.queries
        time.sleep(0.3)
        assert board.queries == reads  # asleep, until a page polls again
        until(lambda: board.version(game.id, "key_hash", game.club.key) == 0)
        assert board.queries > reads
    finally:
        board.stop()
