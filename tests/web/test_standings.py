"""A club's standings over a period it chooses: this month, this year, all time, a season it
named; counted in one query whatever its history, and equal to a count made from the rounds."""

import random
import uuid
from collections import Counter, defaultdict
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper import play
from scorekeeper.backup import export_club, import_club
from scorekeeper.models import Club, Game, Season
from scorekeeper.reports.standings import periods, standings
from scorekeeper.rules import Status

from ..factory import knock, make_club, make_game

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Ben", "Cara", "Dev", "Eve")


def finished(club, names, losers, lives=1, preset="friendly"):
    """A game of ``names`` played to its end: round after round the first player still in
    knocks, and the next of ``losers`` still in (the knocker too, caught) is lowest."""
    game = make_game(players=names, club=club, preset=preset, lives=lives)
    turn = 0
    while not game.state.game_over:
        still_in = [n for n, s in zip(names, game.state.statuses, strict=True) if s != Status.OUT]
        loser = losers[turn % len(losers)]
        turn += 1
        if loser in still_in:
            play.record_round(game, knock(game, still_in[0], [loser]))
    return game


def club_of(games: int) -> Club:
    """A club with ``games`` finished games, some abandoned or binned, started since 2024:
    a few games played through the verbs, copied with their seats turned and their dates moved
    through the club's file."""
    club = make_club()
    finished(club, NAMES[:3], ["Ben", "Cara"])
    finished(club, NAMES[:4], ["Ana", "Dev", "Cara", "Ben"], lives=2)
    finished(club, NAMES, ["Eve", "Dev", "Cara", "Ben", "Ana"])
    finished(club, NAMES[1:4], ["Cara", "Dev", "Ben"], lives=3, preset="scat")
    data = export_club(Club.objects.with_key(club.key))
    made = random.Random(31)
    templates, copies = data["games"], []
    start = datetime(2024, 1, 1, 12, tzinfo=UTC)
    days = (timezone.now() - start).days
    for n in range(games):
        game = dict(made.choice(templates))
        seats = list(game["seats"])
        made.shuffle(seats)
        game.update(
            id=str(uuid.UUID(int=n + 1)),
            seats=seats,
            created=(start + timedelta(days=made.randrange(days))).isoformat(),
            abandoned=n % 97 == 0,
            deleted=start.isoformat() if n % 89 == 0 else None,
        )
        copies.append(game)
    data["games"] = copies
    Club.objects.all().delete()
    return import_club(data)


def counted_from_rounds(club: Club, since: date | None, until: date | None) -> dict:
    """Each player's games, wins, places, lives lost and knocks caught, counted from the rounds
    of the period's finished games: each game's rounds played again from the start."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for game in Game.objects.filter(club=club, finished=True, abandoned=False, deleted=None):
        day = timezone.localdate(game.created)
        if (since and day < since) or (until and day > until):
            continue
        game = Game.objects.opened_by(game.pk, club.key)
        after, steps = game.steps()
        names = after.names
        out_in = {}
        for step in steps:
            for seat, player in enumerate(step.result.players):
                counts[names[seat]]["lives"] += player.lost
                if player.status == Status.OUT and seat not in out_in:
                    out_in[seat] = step.number
            knocker = step.round.knocker
            if knocker is not None:
                counts[names[knocker]]["knocks"] += 1
                counts[names[knocker]]["caught"] += bool(step.result.players[knocker].lost)
        lasted = [out_in.get(seat, 10**6) for seat in range(len(names))]
        for seat, name in enumerate(names):
            counts[name]["games"] += 1
            counts[name]["wins"] += name == after.winner
            counts[name]["places"] += 1 + sum(other > lasted[seat] for other in lasted)
    return counts


def test_standings_equal_a_count_from_the_rounds_in_one_query_for_a_thousand_games(client):
    small = club_of(10)
    url = reverse("standings", args=[small.key]) + "?period=all"
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    few = len(queries)
    Club.objects.all().delete()
    club = club_of(1000)
    assert club.games.count() == 1000
    # The page asks as many queries of a thousand games as of ten.
    url = reverse("standings", args=[club.key]) + "?period=all"
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url).content.decode()
    assert len(queries) == few and "Average place" in page
    today = timezone.localdate()
    season = Season.objects.create(
        club=club, name="Summer 2025", starts=date(2025, 6, 1), ends=date(2025, 8, 31)
    )
    for period in periods(club, today):
        with CaptureQueriesContext(connection) as queries:
            table = standings(club, period)
        assert len(queries) == 1, period.key
        expected = counted_from_rounds(club, period.since, period.until)
        got = {
            s.name: (s.games, s.wins, s.lives_lost, s.knocks, s.knocks_caught, s.average_place)
            for s in table
        }
        assert got == {
            name: (
                c["games"],
                c["wins"],
                c["lives"],
                c["knocks"],
                c["caught"],
                pytest.approx(c["places"] / c["games"]),
            )
            for name, c in expected.items()
        }, period.key
        assert [s.place for s in table] == sorted(s.place for s in table)
        if period.season == season:
            assert sum(s.games for s in table) > 0


def test_each_period_counts_the_games_started_in_it():
    club = make_club()
    old = finished(club, ("Ana", "Ben"), ["Ben"])
    Game.objects.filter(pk=old.pk).update(created=datetime(2025, 3, 1, 12, tzinfo=UTC))
    finished(club, ("Ana", "Ben"), ["Ana"])  # today
    today = timezone.localdate()
    by_key = {p.key: p for p in periods(club, today)}
    wins = {
        key: {s.name: s.wins for s in standings(club, by_key[key])}
        for key in ("month", "year", "all")
    }
    assert wins["all"] == {"Ana": 1, "Ben": 1}
    assert wins["month"] == wins["year"] == {"Ana": 0, "Ben": 1}
    # An abandoned game counts in no period.
    abandoned = finished(club, ("Ana", "Ben"), ["Ben"])
    Game.objects.filter(pk=abandoned.pk).update(abandoned=True)
    assert {s.name: s.wins for s in standings(club, by_key["all"])} == {"Ana": 1, "Ben": 1}


def test_a_season_is_named_counted_and_removed_and_a_bad_one_is_refused_beside_its_field(client):
    club = make_club()
    finished(club, ("Ana", "Ben"), ["Ben"])
    add = reverse("add-season", args=[club.key])
    today = timezone.localdate()
    answer = client.post(
        add, {"name": "Winter", "starts": str(today - timedelta(days=3)), "ends": str(today)}
    )
    season = Season.objects.get()
    assert answer.status_code == 302 and answer["Location"].endswith(f"?period=season-{season.pk}")
    page = client.get(answer["Location"]).content.decode()
    assert "Winter" in page and "The season Winter is counted." in page
    # The club's page leads with the season under way, and who leads it.
    club_page = client.get(club.get_absolute_url()).content.decode()
    assert "Leading, Winter:" in club_page and "1 win in 1" in club_page
    for sent, field, said in [
        (
            {"name": "winter", "starts": "2026-01-01", "ends": "2026-02-01"},
            "name",
            "a season of that name already",
        ),
        (
            {"name": "Spring", "starts": "2026-05-01", "ends": "2026-04-01"},
            "ends",
            "The last day comes on or after the first.",
        ),
        (
            {"name": "", "starts": "2026-05-01", "ends": "2026-06-01"},
            "name",
            "This field is required.",
        ),
        (
            {"name": "Spring", "starts": "2026-13-01", "ends": "2026-06-01"},
            "starts",
            "Enter a valid date.",
        ),
        (
            {"name": "Spr\u202eing", "starts": "2026-05-01", "ends": "2026-06-01"},
            "name",
            "Invisible characters",
        ),
    ]:
        answer = client.post(add, sent)
        assert answer.status_code == 200
        errors = answer.context["form"].errors
        assert said in " ".join(errors[field]), (sent, errors)
        assert f'id="id_{field}_error"' in answer.content.decode()
    assert Season.objects.count() == 1
    client.post(reverse("delete-season", args=[club.key, season.pk]))
    assert not Season.objects.exists()


def test_the_view_link_sees_the_standings_and_names_no_season(client):
    club = make_club()
    finished(club, ("Ana", "Ben"), ["Ben"])
    page = client.get(reverse("view-standings", args=[club.view_key]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ana" in text and "add-season" not in text and "seasons/new" not in text
    refused = client.post(
        reverse("add-season", args=[club.view_key]),
        {"name": "X", "starts": "2026-01-01", "ends": "2026-02-01"},
    )
    assert refused.status_code == 404 and not Season.objects.exists()


def test_a_club_counts_a_limited_number_of_seasons_saying_so_beside_the_name(client, settings):
    settings.KNOCK_MOST_SEASONS = 3
    club = make_club()
    add = reverse("add-season", args=[club.key])
    for n in range(3):
        answer = client.post(add, {"name": f"S{n}", "starts": "2026-01-01", "ends": "2026-02-01"})
        assert answer.status_code == 302
    answer = client.post(add, {"name": "One more", "starts": "2026-01-01", "ends": "2026-02-01"})
    assert answer.status_code == 200
    assert answer.context["form"].errors["name"] == [
        "A club counts at most 3 seasons: stop counting an old one first."
    ]
    assert 'id="id_name_error"' in answer.content.decode()
    assert club.seasons.count() == 3


def test_the_standings_list_a_page_of_players_at_a_time(client):
    """2,000 players on one page once drew 980 KB; a page of 40 keeps the same bytes and
    queries whatever the club's size."""
    from .test_bounded_work import a_club_that_played, measure

    small, big = a_club_that_played(10), a_club_that_played(600)
    url = "/c/{club.key}/standings?period=all"
    (few, small_size), (many, big_size) = (
        measure(client, url.format(club=club)) for club in (small, big)
    )
    assert many <= few and big_size <= 2.5 * small_size, (many, few, big_size, small_size)
    page = client.get(url.format(club=big)).content.decode()
    assert page.count('<span class="rank">') == 40 and "Page 1 of 15" in page
    assert page.count('class="leader"') == 1
    last = client.get(url.format(club=big) + "&players=15").content.decode()
    assert "Page 15 of 15" in last and 'class="leader"' not in last
