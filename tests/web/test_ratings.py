"""Club ratings: a skill for every player from the finishing order of every finished game
(OpenSkill's Plackett-Luce), shown on the statistics page and each player's page, worked out
again when a game changes, and worked out once while nothing does."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openskill.models import PlackettLuce

from scorekeeper import play
from scorekeeper.reports.ratings import club_ratings

from ..factory import make_club, make_game, record_knocks

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Ben", "Cat")


def played(club, order: list[str]):
    """A finished game of one life each at the club: ``order[0]`` wins, then the others as
    they come (the last goes out first)."""
    game = make_game(players=NAMES, club=club, preset="friendly", lives=1)
    record_knocks(game, [(order[0], [loser]) for loser in reversed(order[1:])])
    game.refresh_from_db()
    assert game.finished and game.state.winner == order[0]
    return game


def by_hand(games) -> dict[str, tuple[float, float]]:
    """The same games rated by OpenSkill directly, oldest first, each seat ranked by the place
    its game gave it: each name's mu and sigma."""
    model = PlackettLuce()
    skills = {name: model.rating() for name in NAMES}
    for game in games:
        places = list(game.seats.values_list("player__name", "place"))
        teams = model.rate(
            [[skills[name]] for name, _place in places], ranks=[p for _n, p in places]
        )
        for (name, _place), (rated,) in zip(places, teams, strict=True):
            skills[name] = rated
    return {name: (r.mu, r.sigma) for name, r in skills.items()}


def test_the_ratings_are_openskills_over_the_finishing_orders_oldest_first():
    club = make_club()
    orders = [["Ann", "Ben", "Cat"], ["Ann", "Cat", "Ben"], ["Ben", "Ann", "Cat"]]
    games = [played(club, order) for order in orders]
    # A game still being played rates nobody.
    record_knocks(
        make_game(players=NAMES, club=club, preset="friendly", lives=3), [("Cat", ["Ann"])]
    )
    ratings = club_ratings(club)
    expected = by_hand(games)
    assert [r.name for r in ratings] == sorted(
        NAMES, key=lambda n: -(expected[n][0] - 3 * expected[n][1])
    )
    for rating in ratings:
        assert rating.mu == pytest.approx(expected[rating.name][0])
        assert rating.sigma == pytest.approx(expected[rating.name][1])
        assert rating.shown == pytest.approx(rating.mu - 3 * rating.sigma)
        assert rating.games == 3
    assert ratings[0].name == "Ann"


def test_a_game_binned_or_undone_changes_the_ratings_and_nothing_else_works_them_out_again():
    club = make_club()
    first = played(club, ["Cat", "Ben", "Ann"])
    second = played(club, ["Ann", "Ben", "Cat"])
    before = {r.name: r.mu for r in club_ratings(club)}
    with CaptureQueriesContext(connection) as again:
        assert {r.name: r.mu for r in club_ratings(club)} == before
    # Asked again with nothing changed: what they rest on, and nothing more.
    assert len(again.captured_queries) == 1
    play.undo_round(first)
    first.refresh_from_db()
    assert not first.finished
    undone = {r.name: r for r in club_ratings(club)}
    assert {name: r.mu for name, r in undone.items()} == pytest.approx(
        {name: mu for name, (mu, _sigma) in by_hand([second]).items()}
    )
    assert all(r.games == 1 for r in undone.values())


def test_the_stats_page_and_a_players_page_show_the_ratings_and_say_what_they_mean(client):
    club = make_club()
    played(club, ["Ben", "Ann", "Cat"])
    played(club, ["Ben", "Cat", "Ann"])
    page = client.get(reverse("stats", args=[club.key])).content.decode()
    ratings = page.split('id="ratings-heading"', 1)[1].split("</section>", 1)[0]
    assert "Knock is almost sure the player has at least" in ratings
    assert ratings.index("Ben") < ratings.index("Ann") and ratings.index("Ben") < ratings.index(
        "Cat"
    )
    top = club_ratings(club)[0]
    assert f"{top.shown:.1f}" in ratings and f"{top.mu:.1f} ± {top.sigma:.1f}" in ratings
    ben = club.players.get(name="Ben")
    mine = client.get(reverse("player-stats", args=[club.key, ben.pk])).content.decode()
    assert f"skill {top.mu:.1f} ± {top.sigma:.1f}, from 2 games" in mine
    german = client.get(reverse("stats", args=[club.key]), headers={"Accept-Language": "de"})
    assert "Wertungen" in german.content.decode()
