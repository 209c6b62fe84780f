"""Plain helpers that build clubs and games for tests: a small named cast, ann, ben and cat."""

from __future__ import annotations

from scorekeeper import play
from scorekeeper.models import Club, Game, RoundInputs
from scorekeeper.rules import build_rules


def make_club(name: str = "Thursday table") -> Club:
    return Club.objects.create(name=name)


def make_game(
    players=("Ann", "Ben", "Cat"),
    preset: str = "scat",
    club: Club | None = None,
    first_dealer: int = 0,
    mode: str = Game.Mode.REFEREE,
    **overrides,
) -> Game:
    club = club or make_club()
    rules, _ = build_rules({"preset": preset, "overrides": overrides})
    return play.start_game(club, list(players), first_dealer, rules, preset, mode)


def reloaded(game: Game) -> Game:
    """The game as stored now, opened with its club's key as a page would open it."""
    return Game.objects.opened_by(game.pk, game.club.key)


def seat_of(game: Game, name: str) -> int:
    return next(seat.position for seat in game.seat_list if seat.player.name == name)


def knock(game: Game, knocker: str, lowest: list[str] | tuple[str, ...]) -> RoundInputs:
    return RoundInputs(
        ending="knock",
        knocker=seat_of(game, knocker),
        lowest=tuple(seat_of(game, name) for name in lowest),
    )


def record_knocks(game: Game, rounds: list[tuple[str, list[str]]]) -> Game:
    """Record knock rounds: (knocker, [lowest]) each."""
    for knocker, lowest in rounds:
        play.record_round(game, knock(game, knocker, lowest))
    return game
