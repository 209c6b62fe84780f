"""Tournaments and nights through the verbs, the real database and real HTTP: tables drawn (mixed
and by standings), each table's game played through its own scoring link and nothing else, the
standings counted by the points of each place, and a night of games played back to back."""

import itertools
import json

import pytest
from django.urls import reverse

from scorekeeper import play, tournaments
from scorekeeper.models import Game, GameSeat, Table, Tournament
from scorekeeper.rules import build_rules
from scorekeeper.rules.errors import InputError

from ..factory import make_club, make_game

pytestmark = pytest.mark.django_db

NAMES = [f"P{n:02d}" for n in range(1, 17)]


def new_tournament(club, names=NAMES, **options):
    rules, _ = build_rules({"preset": "friendly", "overrides": {"lives": 1}})
    return tournaments.start_tournament(club, "Spring cup", rules, "friendly", names, **options)


def finish(game: Game, order: list[str]) -> None:
    """Play ``game`` to its end with one life each: the players of ``order`` go out from the
    last, so ``order[0]`` wins and the others finish in that order."""
    seat = {name: i for i, name in enumerate(game.names)}
    for loser in reversed(order[1:]):
        knocker = seat[order[0]]
        play.record_round(game, _knock(knocker, seat[loser]))
    game.refresh_from_db()
    assert game.finished and game.state.winner == order[0]


def _knock(knocker: int, lowest: int):
    from scorekeeper.models import RoundInputs

    return RoundInputs("knock", knocker=knocker, lowest=(lowest,))


def seated(table: Table) -> list[str]:
    return list(table.game.seats.order_by("position").values_list("player__name", flat=True))


def test_13_players_at_tables_of_4_sit_at_5_4_4_with_no_short_table():
    club = make_club()
    tournament = new_tournament(club, NAMES[:13])
    tables = tournaments.draw_round(tournament, club.key)
    assert sorted(t.size for t in tables) == [4, 4, 5]
    assert sorted(itertools.chain(*(seated(t) for t in tables))) == NAMES[:13]


def test_16_players_mixed_over_3_rounds_never_meet_twice_and_the_standings_add_up():
    club = make_club()
    tournament = new_tournament(club)
    pairs: set[frozenset[str]] = set()
    expected = {name: 0 for name in NAMES}
    wins = {name: 0 for name in NAMES}
    for number in range(1, 4):
        tables = tournaments.draw_round(tournament, club.key, seed=number)
        assert [t.round for t in tables] == [number] * 4
        seen = list(itertools.chain(*(seated(t) for t in tables)))
        assert sorted(seen) == NAMES  # each player sits once a round
        for table in tables:
            names = seated(table)
            for pair in itertools.combinations(names, 2):
                assert frozenset(pair) not in pairs, f"{pair} meet again in round {number}"
                pairs.add(frozenset(pair))
            order = sorted(names)  # the alphabet decides who wins, by hand
            finish(table.game, order)
            for place, name in enumerate(order):
                expected[name] += [3, 2, 1, 0][place]
            wins[order[0]] += 1
    from scorekeeper.reports.tournaments import standings

    board = standings(tournament)
    assert {p.name: p.points for p in board} == expected
    # Ties broken in the documented order: points, games won, lives left, the lot.
    keys = [(-p.points, -p.wins, -p.left, p.lot) for p in board]
    assert keys == sorted(keys) and [p.place for p in board] == list(range(1, 17))
    assert {p.name: p.wins for p in board} == wins


def test_swiss_puts_the_winners_of_round_1_at_one_table_and_the_runners_up_at_another():
    club = make_club()
    tournament = new_tournament(club, method="swiss")
    first = tournaments.draw_round(tournament, club.key, seed=7)
    by_place: dict[int, set[str]] = {1: set(), 2: set(), 3: set(), 4: set()}
    for table in first:
        order = seated(table)
        finish(table.game, order)
        for place, name in enumerate(order, start=1):
            by_place[place].add(name)
    second = tournaments.draw_round(tournament, club.key)
    assert sorted(set(seated(t)) for t in second) == sorted(by_place.values())
    met = {frozenset(p) for t in first for p in itertools.combinations(seated(t), 2)}
    assert not any(
        frozenset(p) in met for t in second for p in itertools.combinations(seated(t), 2)
    )


def test_a_round_is_not_drawn_while_a_table_plays_unless_the_organiser_closes_it():
    club = make_club()
    tournament = new_tournament(club, NAMES[:8])
    one, two = tournaments.draw_round(tournament, club.key)
    finish(one.game, seated(one))
    with pytest.raises(Exception) as refused:
        tournaments.draw_round(tournament, club.key)
    assert "table 2 is still playing" in str(refused.value)
    tournaments.close_table(two)
    assert len(tournaments.draw_round(tournament, club.key)) == 2


def test_an_edit_that_changes_a_tables_winner_changes_the_standings():
    from scorekeeper.reports.tournaments import standings

    club = make_club()
    tournament = new_tournament(club, NAMES[:4], rounds=1)
    (table,) = tournaments.draw_round(tournament, club.key)
    order = seated(table)
    finish(table.game, order)
    before = {p.name: p.points for p in standings(tournament)}
    assert before[order[0]] == 3 and before[order[1]] == 2
    # The last round said order[1] was lowest; it was order[0] after all.
    game = Game.objects.get(pk=table.game.pk)
    seat = {name: i for i, name in enumerate(game.names)}
    play.edit_round(game, game.round_count, _knock(seat[order[0]], seat[order[0]]))
    after = {p.name: p.points for p in standings(tournament)}
    assert after[order[1]] == 3 and after[order[0]] == 2


def test_refusals_name_why():
    club = make_club()
    with pytest.raises(Exception, match="entered twice"):
        new_tournament(club, ["Ann", "Ben", "ann"])
    tournament = new_tournament(club, ["Ann", "Ben"])
    with pytest.raises(Exception, match="at least three players"):
        tournaments.draw_round(tournament, club.key)
    with pytest.raises(Exception, match="3 to 6"):
        new_tournament(club, table_size=8)
    with pytest.raises(Exception, match="1 to 20 rounds"):
        new_tournament(club, rounds=21)
    with pytest.raises(Exception, match="lower place"):
        new_tournament(club, points={"4": [1, 2, 3, 0]})
    assert Tournament.objects.count() == 1


def test_three_games_played_again_are_one_night_with_its_standings_at_the_third_game_over(client):
    game = make_game(players=("Ann", "Ben", "Cat"), preset="friendly", lives=1)
    key = game.club.key
    games = [game]
    for _ in range(2):
        finish(games[-1], ["Ann", "Ben", "Cat"] if len(games) != 2 else ["Ben", "Ann", "Cat"])
        games.append(play.play_again(games[-1]))
    finish(games[-1], ["Ann", "Cat", "Ben"])
    nights = {Game.objects.get(pk=g.pk).night_id for g in games}
    assert len(nights) == 1 and None not in nights
    page = client.get(reverse("game", args=[key, games[-1].id])).content.decode()
    assert "Tonight: 3 games" in page
    tonight = page[page.index("Tonight: 3 games") :]
    assert tonight.index("Ann") < tonight.index("Ben") < tonight.index("Cat")
    assert "2 wins" in tonight


def test_a_table_is_played_through_its_own_scoring_link_and_nothing_else(client):
    club = make_club()
    other_club = make_club("Another")
    tournament = new_tournament(club, NAMES[:8])
    one, two = tournaments.draw_round(tournament, club.key)
    key = one.key(club.key)
    page = client.get(reverse("game", args=[key, one.game.id]))
    assert page.status_code == 200
    text = page.content.decode()
    assert club.key not in text and club.view_key not in text
    # Its link records its game.
    version = Game.objects.get(pk=one.game.pk).version
    answer = client.post(
        reverse("record", args=[key, one.game.id]),
        {"version": version, "confirm": "1", "ending": "knock", "knocker": "0", "lowest": "1"},
    )
    assert answer.status_code == 302
    assert Game.objects.get(pk=one.game.pk).round_count == 1
    # Not another table's game, nor the club, nor another club.
    assert client.get(reverse("game", args=[key, two.game.id])).status_code == 404
    assert client.get(reverse("club", args=[key])).status_code == 404
    other = make_game(club=other_club)
    assert client.get(reverse("game", args=[key, other.id])).status_code == 404
    # The API takes it as a Bearer key for that game only.
    bearer = {"Authorization": f"Bearer {key}"}
    names = seated(one)
    body = json.dumps({"ending": "knock", "knocker": names[0], "lowest": [names[2]]})
    assert client.get(f"/api/v1/games/{one.game.id}", headers=bearer).status_code == 200
    assert client.get(f"/api/v1/games/{two.game.id}", headers=bearer).status_code in (401, 404)
    assert client.get(f"/api/v1/clubs/{club.id}", headers=bearer).status_code in (401, 404)
    recorded = client.post(
        f"/api/v1/games/{one.game.id}/rounds", body, content_type="application/json", headers=bearer
    )
    assert recorded.status_code == 200, recorded.content
    assert Game.objects.get(pk=one.game.pk).round_count == 2
    assert client.get(reverse("round-log", args=[key, one.game.id])).status_code == 200
    assert client.get(reverse("invite", args=[key, one.game.id])).status_code == 404
    for page in ("play-again", "name-game"):
        assert client.post(reverse(page, args=[key, one.game.id])).status_code == 404, page
    gone = client.post(reverse("set-aside", args=[key, one.game.id, "delete"]))
    assert gone.status_code == 404 and not Game.objects.get(pk=one.game.pk).deleted
    assert client.get(reverse("stats", args=[key])).status_code == 404
    # A closed table's link records no more.
    tournaments.close_table(one)
    assert client.get(reverse("game", args=[key, one.game.id])).status_code == 404
    assert GameSeat.objects.filter(game=one.game).count() == 4


def test_the_organiser_starts_draws_prints_and_ends_a_tournament_over_http(client, tmp_path):
    from .test_printing import read_pdf

    club = make_club()
    for name in NAMES[:5]:
        play.add_player(club, name)
    players = {p.name: p for p in club.players.all()}
    form = {
        "name": "Spring cup",
        "preset": "schwimmen",
        "table_size": "4",
        "rounds": "2",
        "method": "mixed",
        "prizes": "3",
        "new_players": ", ".join(NAMES[5:13]),
        **{f"plays_{p.pk}": "on" for p in players.values()},
        "points_4": "5 3 1 0",
    }
    # House rules that make no sense are refused next to the switch, and nothing is started.
    refused = client.post(
        reverse("new-tournament", args=[club.key]),
        {**form, "rule_all_out": "revival", "rule_last_chance": "none"},
    )
    assert refused.status_code == 200 and not Tournament.objects.exists()
    assert "the revival brings eliminated players back" in refused.content.decode()
    form["rule_lowest_tie"] = "void"  # a house rule every table then plays
    form["tie_breaks"] = "left,games_won"
    started = client.post(reverse("new-tournament", args=[club.key]), form)
    assert started.status_code == 302, started.content.decode()[:3000]
    tournament = Tournament.objects.get()
    assert tournament.entries.count() == 13 and tournament.points["4"] == [5, 3, 1, 0]
    assert tournament.rules.lowest_tie == "void"
    assert tournament.tie_breaks == ["left", "games_won"]
    assert client.get(reverse("tournaments", args=[club.key])).status_code == 200
    page = client.get(started["Location"]).content.decode()
    assert "Draw round 1" in page
    drawn = client.post(reverse("tournament-action", args=[club.key, tournament.pk, "draw"]))
    assert drawn.status_code == 302
    page = client.get(drawn["Location"]).content.decode()
    # 13 at tables of 4: one table of 5 and two of 4, none short.
    assert "Round 1 is drawn: 3 tables." in page and "Table 3" in page
    # Drawing again while every table plays is refused with the tables named.
    again = client.post(
        reverse("tournament-action", args=[club.key, tournament.pk, "draw"]), follow=True
    )
    assert "Tables 1, 2 and 3 are still playing" in again.content.decode()
    assert tournament.tables.count() == 3
    cards = client.get(reverse("table-cards", args=[club.key, tournament.pk]))
    assert cards.status_code == 200 and cards.content.decode().count("<svg") == 3
    pdf = client.get(reverse("table-cards-pdf", args=[club.key, tournament.pk]))
    text, pages = read_pdf(pdf.content, tmp_path, "table-cards")
    assert pages == 1 and all(f"Table {n}" in text for n in range(1, 4))
    results = client.get(reverse("results-pdf", args=[club.key, tournament.pk]))
    text, pages = read_pdf(results.content, tmp_path, "tournament-results")
    assert pages == 1 and "P13" in text
    csv = client.get(reverse("results-csv", args=[club.key, tournament.pk])).content.decode()
    assert csv.splitlines()[0].startswith("place,name,points") and len(csv.splitlines()) == 14
    # Ending asks first: nothing ends until the organiser says yes.
    end = reverse("tournament-action", args=[club.key, tournament.pk, "end"])
    asked = client.post(end).content.decode()
    assert "End the tournament? Every table closes" in asked and 'value="yes"' in asked
    assert Tournament.objects.get().finished is None and tournaments.still_playing(tournament)
    ended = client.post(end, {"confirm": "yes"}, follow=True)
    assert "The tournament is over." in ended.content.decode()
    assert not tournaments.still_playing(Tournament.objects.get())
    # Reopened, it may draw its next round; its tables stay closed.
    reopen = reverse("tournament-action", args=[club.key, tournament.pk, "reopen"])
    opened = client.post(reopen, follow=True).content.decode()
    assert "The tournament is open again" in opened and "Draw round 2" in opened
    assert Tournament.objects.get().finished is None
    assert not tournaments.still_playing(Tournament.objects.get())
    again = client.post(reopen, follow=True).content.decode()
    assert "This tournament is not over" in again


def test_the_leaderboard_answers_204_until_something_changes(client):
    club = make_club()
    tournament = new_tournament(club, NAMES[:8])
    (one, _two) = tournaments.draw_round(tournament, club.key)
    url = reverse("tournament-board", args=[club.view_key, tournament.pk])
    page = client.get(url).content.decode()
    # The tournament's round is named as such, the tables still playing in one line, and how
    # the standings are counted in another.
    assert "Round 1 still playing at tables 1, 2" in page
    assert (
        "Points by place: 3·2·1·0 at tables of 4. Equal points: games won, lives left, the lot."
        in page
    )
    version = page.split("v=", 1)[1].split('"', 1)[0]
    htmx = {"HX-Request": "true"}
    assert client.get(url, {"v": version, "page": 1}, headers=htmx).status_code == 204
    # Another club's view link learns nothing, not even that nothing changed.
    other = reverse("tournament-board", args=[make_club().view_key, tournament.pk])
    assert client.get(other, {"v": version, "page": 1}, headers=htmx).status_code == 404
    finish(one.game, seated(one))
    changed = client.get(url, {"v": version, "page": 1}, headers=htmx)
    assert changed.status_code == 200
    assert "Round 1 still playing at table 2<" in changed.content.decode()
    # The secret link's organiser page is not the view link's.
    assert client.get(reverse("tournament", args=[club.view_key, tournament.pk])).status_code == 404


def test_the_club_file_keeps_its_nights_and_tournaments(client):
    from scorekeeper.backup import export_club, import_club
    from scorekeeper.models import Club
    from scorekeeper.reports.tournaments import standings

    first = make_game(players=("Ann", "Ben", "Cat"), preset="friendly", lives=1)
    club = first.club
    finish(first, ["Ann", "Ben", "Cat"])
    again = play.play_again(first)
    tournament = new_tournament(club, NAMES[:8])
    one, two = tournaments.draw_round(tournament, club.key, seed=3)
    finish(one.game, seated(one))
    tournaments.close_table(two)
    before = [(p.name, p.points, p.wins, p.left, p.place) for p in standings(tournament)]
    exported = export_club(club)
    text = json.dumps(exported)
    Game.objects.all().delete()
    Club.objects.all().delete()
    restored = import_club(json.loads(text))
    assert export_club(restored) == exported
    back = Tournament.objects.get(pk=tournament.pk)
    assert [(p.name, p.points, p.wins, p.left, p.place) for p in standings(back)] == before
    assert Game.objects.get(pk=again.pk).night_id == Game.objects.get(pk=first.pk).night_id
    # The tables' links are the same links: each key is made from the club's.
    page = client.get(reverse("game", args=[one.key(club.key), one.game.id]))
    assert page.status_code == 200
    # A file whose table names a game it does not hold imports nothing.
    exported["tournaments"][0]["tables"][0]["game"] = str(two.pk)
    Game.objects.all().delete()
    Club.objects.all().delete()
    from scorekeeper.rules.errors import InputError

    with pytest.raises(InputError, match="a table plays one of the club's games, each once"):
        import_club(exported)
    assert not Club.objects.exists() and not Tournament.objects.exists()


def test_a_night_is_named_and_shared_as_a_picture_of_its_standings(client):
    import io

    from PIL import Image

    first = make_game(players=("Ann", "Ben", "Cat"), preset="friendly", lives=1)
    club = first.club
    finish(first, ["Ann", "Ben", "Cat"])
    second = play.play_again(first)
    finish(second, ["Ben", "Ann", "Cat"])
    night = Game.objects.get(pk=second.pk).night
    page = client.get(reverse("game", args=[club.key, second.id])).content.decode()
    assert 'class="secondary share"' in page and "Share the night" in page
    named = client.post(reverse("name-night", args=[club.key, night.pk]), {"name": "Friday"})
    assert named.status_code == 302
    assert named["Location"] == reverse("game", args=[club.key, second.id])
    page = client.get(reverse("game", args=[club.key, second.id])).content.decode()
    assert "<bdi>Friday</bdi>: Tonight: 2 games" in page
    listing = client.get(reverse("club", args=[club.key])).content.decode()
    assert "<bdi>Friday</bdi>" in listing
    # The picture, under the view link only; not by the secret link, nor another club's night.
    picture = client.get(reverse("night-picture", args=[club.view_key, night.pk]))
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(picture.content))
    assert image.size == (1200, 630)
    assert image.text["Title"] == f"Friday · {club.name}"
    said = image.text["Description"]
    assert said.startswith("2 games · ")
    assert said.endswith(
        ". 1. Ann: 1 win · 1 life lost; 2. Ben: 1 win · 1 life lost; 3. Cat: 0 wins · 2 lives lost"
    )
    other = make_club("Another")
    assert client.get(f"/v/{other.view_key}/nights/{night.pk}/share.png").status_code == 404
    # A name too long is refused, and the night keeps its name.
    long = client.post(reverse("name-night", args=[club.key, night.pk]), {"name": "x" * 101})
    assert long.status_code == 302
    assert Game.objects.get(pk=second.pk).night.name == "Friday"


def test_a_finished_tournament_is_shared_as_a_picture_of_its_final_standings(client):
    import io

    from PIL import Image

    club = make_club()
    tournament = new_tournament(club, NAMES[:8], prizes=2)
    url = reverse("tournament-picture", args=[club.view_key, tournament.pk])
    assert client.get(url).status_code == 404  # not before its end
    for table in tournaments.draw_round(tournament, club.key, seed=5):
        finish(table.game, seated(table))
    tournaments.end_tournament(tournament)
    page = client.get(reverse("tournament", args=[club.key, tournament.pk])).content.decode()
    assert "Share the final standings" in page and club.key not in page.split("data-url=")[1][:120]
    picture = client.get(url)
    assert picture.status_code == 200
    image = Image.open(io.BytesIO(picture.content))
    assert image.size == (1200, 630)
    from scorekeeper.reports.tournaments import standings

    board = standings(tournament)
    description = image.text["Description"]
    assert description.startswith("Final standings · ")
    assert description.endswith(
        "; ".join(
            f"{p.place}. {p.name}: {p.points} point{'s' if p.points != 1 else ''} · {p.wins} won"
            for p in board
        )
    )


def test_a_leaderboard_of_more_than_forty_turns_its_pages_by_itself(client, monkeypatch):
    import time

    club = make_club()
    names = [f"N{n:02d}" for n in range(1, 46)]
    tournament = new_tournament(club, names)
    url = reverse("tournament-board", args=[club.view_key, tournament.pk])

    # A screen with no controls: each page for fifteen seconds, then the next.
    monkeypatch.setattr(time, "time", lambda: 15 * 1000)
    first = client.get(url).content.decode()
    assert "page 1 of 2" in first and "<td>40.</td>" in first and "<td>41.</td>" not in first
    assert 'hx-get="?v=' in first  # not pinned to a page
    version = first.split("v=", 1)[1].split('"', 1)[0]
    htmx = {"HX-Request": "true"}
    assert client.get(url, {"v": version}, headers=htmx).status_code == 204
    monkeypatch.setattr(time, "time", lambda: 15 * 1001)
    turned = client.get(url, {"v": version}, headers=htmx)
    assert turned.status_code == 200
    second = turned.content.decode()
    assert "page 2 of 2" in second and "<td>41.</td>" in second and "<td>45.</td>" in second
    # A screen kept on one page stays there.
    pinned = client.get(url, {"page": "2"}).content.decode()
    assert "page 2 of 2" in pinned and 'hx-get="?page=2&amp;v=' in pinned


@pytest.mark.parametrize(
    ("tie_breaks", "first"), [(["games_won", "left"], "winner"), ([], "runner-up")]
)
def test_equal_points_are_settled_by_the_organisers_tie_breaks(tie_breaks, first):
    from scorekeeper.models import Entry
    from scorekeeper.reports.tournaments import standings

    club = make_club()
    # First and second place earn the same: the tie-breaks, then the lot, settle them.
    tournament = new_tournament(club, NAMES[:4], points={"4": [2, 2, 1, 0]}, tie_breaks=tie_breaks)
    (table,) = tournaments.draw_round(tournament, club.key, seed=1)
    order = seated(table)
    finish(table.game, order)
    winner, runner_up = order[0], order[1]
    Entry.objects.filter(tournament=tournament, player__name=runner_up).update(lot=1)
    Entry.objects.filter(tournament=tournament, player__name=winner).update(lot=2)
    top = [p.name for p in standings(tournament)[:2]]
    assert top == ([winner, runner_up] if first == "winner" else [runner_up, winner])


def test_tie_breaks_are_asked_in_the_form_and_the_api(client):
    from scorekeeper.rules.errors import InputError

    club = make_club()
    with pytest.raises(InputError, match="the tie-breaks after points"):
        new_tournament(club, NAMES[:4], tie_breaks=["lot"])
    body = {
        "name": "Cup",
        "rules": "scat",
        "players": NAMES[:4],
        "tie_breaks": ["left", "games_won"],
    }
    headers = {"Authorization": f"Bearer {club.key}"}
    made = client.post(
        f"/api/v1/clubs/{club.id}/tournaments",
        body,
        content_type="application/json",
        headers=headers,
    )
    assert made.status_code == 201
    assert made.json()["tie_breaks"] == ["points", "left", "games_won", "lot"]
    twice = client.post(
        f"/api/v1/clubs/{club.id}/tournaments",
        {**body, "tie_breaks": ["left", "left"]},
        content_type="application/json",
        headers=headers,
    )
    assert twice.status_code == 400 and twice.json()["field"] == "tie_breaks"
    met = client.post(
        f"/api/v1/clubs/{club.id}/tournaments",
        {**body, "tie_breaks": ["opponents", "games_won"]},
        content_type="application/json",
        headers=headers,
    )
    assert met.json()["tie_breaks"] == ["points", "opponents", "games_won", "lot"]
    # The form offers it too.
    page = client.get(reverse("new-tournament", args=[club.key])).content.decode()
    assert 'value="opponents,games_won"' in page


def test_a_club_file_with_a_table_id_twice_or_too_many_tournaments_imports_nothing_in_one_line(
    settings, tmp_path
):
    from django.core.management import CommandError, call_command

    from scorekeeper.backup import export_club, import_club
    from scorekeeper.models import Club
    from scorekeeper.rules.errors import InputError

    club = make_club()
    tournament = new_tournament(club, NAMES[:8])
    tournaments.draw_round(tournament, club.key, seed=3)
    exported = export_club(club)
    Game.objects.all().delete()
    Club.objects.all().delete()
    twice = json.loads(json.dumps(exported))
    tables = twice["tournaments"][0]["tables"]
    tables[1]["id"] = tables[0]["id"]
    with pytest.raises(InputError, match="a table's id is used once") as refused:
        import_club(twice)
    assert refused.value.field == "tournaments[0].tables"
    settings.KNOCK_MOST_TOURNAMENTS = 0
    with pytest.raises(InputError, match="a club keeps at most 0 tournaments"):
        import_club(exported)
    # From the command line: one line saying where, never a traceback.
    settings.KNOCK_MOST_TOURNAMENTS = 200
    path = tmp_path / "club.json"
    path.write_text(json.dumps(twice))
    with pytest.raises(CommandError) as said:
        call_command("import_club", str(path))
    assert str(said.value) == "Not imported: tournaments[0].tables: a table's id is used once."
    assert not Club.objects.exists() and not Tournament.objects.exists()


def test_a_club_keeps_at_most_its_limit_of_tournaments(settings):
    from scorekeeper.rules.errors import InputError

    club = make_club()
    settings.KNOCK_MOST_TOURNAMENTS = 1
    new_tournament(club, NAMES[:8])
    with pytest.raises(InputError, match="a club keeps at most 1 tournaments") as refused:
        new_tournament(club, NAMES[:8])
    assert refused.value.field == "name" and Tournament.objects.count() == 1


def test_the_results_csv_shows_a_name_that_looks_like_a_formula_as_text(client):
    club = make_club()
    names = ["=1+2", "+SUM(A1)", "@cmd", "-3", "Ann", "Ben"]
    tournament = new_tournament(club, names)
    csv = client.get(reverse("results-csv", args=[club.key, tournament.pk])).content.decode()
    written = {line.split(",")[1] for line in csv.splitlines()[1:]}
    assert written == {"'=1+2", "'+SUM(A1)", "'@cmd", "'-3", "Ann", "Ben"}


def test_an_abandoned_tables_link_offers_nothing_it_cannot_do(client):
    club = make_club()
    tournament = new_tournament(club, NAMES[:8])
    one, _two = tournaments.draw_round(tournament, club.key)
    play.set_aside(one.game, abandoned=True)
    page = client.get(reverse("game", args=[one.key(club.key), one.game.id])).content.decode()
    assert "Abandoned" in page and "Resume the game" not in page
    # The organiser, under the club's secret link, may resume it.
    organiser = client.get(reverse("game", args=[club.key, one.game.id])).content.decode()
    assert "Resume the game" in organiser


def test_prize_places_go_to_players_still_in_once_a_game_has_counted(client):
    club = make_club()
    tournament = new_tournament(club, NAMES[:8], prizes=2)
    from scorekeeper.reports.tournaments import standings

    assert not any(p.prize for p in standings(tournament))  # nobody has scored yet
    one, two = tournaments.draw_round(tournament, club.key, seed=3)
    finish(one.game, seated(one))
    finish(two.game, seated(two))
    first = standings(tournament)
    winner = first[0]
    tournaments.withdraw(tournament.entries.get(player_id=winner.player_id))
    after = standings(tournament)
    assert after[0].player_id == winner.player_id and after[0].withdrew and not after[0].prize
    assert [p.prize for p in after] == [False, True, True] + [False] * 5
    csv = client.get(reverse("results-csv", args=[club.key, tournament.pk])).content.decode()
    assert csv.splitlines()[0].endswith(",prize,withdrew") and csv.splitlines()[1].endswith(",0,1")


def _second_round_drawn(club):
    """16 players, round 1 played to its end, round 2 drawn mixed (nobody meets again): the
    tournament, round 1's tables and round 2's, each as names."""
    tournament = new_tournament(club)
    first = tournaments.draw_round(tournament, club.key, seed=5)
    for table in first:
        finish(table.game, seated(table))
    second = tournaments.draw_round(tournament, club.key, seed=6)
    return tournament, [seated(t) for t in first], [seated(t) for t in second]


def test_a_swap_that_would_repeat_a_meeting_is_made_only_when_asked_again():
    club = make_club()
    tournament, first, second = _second_round_drawn(club)
    table_of = {name: i for i, names in enumerate(first) for name in names}
    x = second[0][0]
    # Beside someone from x's own table of round 1: nobody new meets. Anyone else: x would
    # meet again the player of x's round-1 table who sits at that table now.
    clean = next(n for n in second[1] if table_of[n] == table_of[x])
    repeat = next(n for n in second[1] if table_of[n] != table_of[x])
    met = next(n for n in second[1] if n != repeat and table_of[n] == table_of[x])
    player = {p.name: p for p in club.players.all()}
    with pytest.raises(tournaments.WouldMeetAgain) as asked:
        tournaments.swap_players(tournament, player[x], player[repeat])
    assert f"{x} would meet {met} again" in asked.value.message
    assert asked.value.field == "repeat_ok"
    assert [seated(t) for t in tournament.tables.filter(round=2).order_by("number")] == second
    tournaments.swap_players(tournament, player[x], player[repeat], repeat_ok=True)
    now = [seated(t) for t in tournament.tables.filter(round=2).order_by("number")]
    assert repeat in now[0] and x in now[1]
    # Swapped back: the two are where they were, and a swap that repeats nothing is not asked.
    tournaments.swap_players(tournament, player[repeat], player[x], repeat_ok=True)
    tournaments.swap_players(tournament, player[x], player[clean])
    now = [seated(t) for t in tournament.tables.filter(round=2).order_by("number")]
    assert clean in now[0] and x in now[1]


def test_the_organisers_page_asks_before_a_swap_that_repeats_a_meeting(client):
    club = make_club()
    tournament, first, second = _second_round_drawn(club)
    table_of = {name: i for i, names in enumerate(first) for name in names}
    x = second[0][0]
    repeat = next(n for n in second[1] if table_of[n] != table_of[x])
    player = {p.name: p.pk for p in club.players.all()}
    url = reverse("tournament-action", args=[club.key, tournament.pk, "swap"])
    asked = client.post(url, {"first": player[x], "second": player[repeat]})
    page = asked.content.decode()
    assert asked.status_code == 200 and f"{x} would meet" in page
    assert f"Swap {x} and {repeat} anyway" in page and 'name="repeat_ok"' in page
    assert [seated(t) for t in tournament.tables.filter(round=2).order_by("number")] == second
    swapped = client.post(url, {"first": player[x], "second": player[repeat], "repeat_ok": "on"})
    assert swapped.status_code == 302
    assert "The two players are swapped." in client.get(swapped["Location"]).content.decode()
    assert repeat in seated(tournament.tables.get(round=2, number=1))


def test_a_withdrawn_player_is_reinstated_and_drawn_again(client):
    club = make_club()
    tournament = new_tournament(club, NAMES[:9])
    ben = club.players.get(name="P02")
    url = reverse("tournament-action", args=[club.key, tournament.pk, "withdraw"])
    client.post(url, {"player": ben.pk})
    page = client.get(reverse("tournament", args=[club.key, tournament.pk])).content.decode()
    assert 'id="reinstate"' in page and f'<option value="{ben.pk}">P02</option>' in page
    back = reverse("tournament-action", args=[club.key, tournament.pk, "reinstate"])
    said = client.post(back, {"player": ben.pk}, follow=True).content.decode()
    assert "P02 is back in from the next round." in said and 'id="reinstate"' not in said
    tables = tournaments.draw_round(tournament, club.key)
    assert "P02" in itertools.chain(*(seated(t) for t in tables))
    # Reinstating a player who is in is refused, and says why.
    again = client.post(back, {"player": ben.pk}, follow=True).content.decode()
    assert "P02 was not withdrawn" in again
    from scorekeeper.rules.errors import InputError

    tournaments.end_tournament(tournament)
    tournaments.withdraw(tournament.entries.get(player=ben))
    with pytest.raises(InputError, match="this tournament is over"):
        tournaments.reinstate(tournament.entries.select_related("tournament").get(player=ben))


def test_a_tables_game_is_named_alike_in_every_language():
    from django.utils import translation

    club = make_club()
    tournament = new_tournament(club, NAMES[:8])
    with translation.override("de"):
        tables = tournaments.draw_round(tournament, club.key)
    assert [t.game.name for t in tables] == ["Spring cup · R1 · T1", "Spring cup · R1 · T2"]


def test_each_rounds_tables_export_as_a_row_a_seat_with_the_points_a_finished_game_earned(client):
    club = make_club()
    names = [*NAMES[:7], "=1+2"]  # a name a spreadsheet would run
    tournament = new_tournament(club, names)
    one, two = tournaments.draw_round(tournament, club.key)
    order = seated(one)
    finish(one.game, order)
    url = reverse("rounds-csv", args=[club.key, tournament.pk])
    answer = client.get(url, {"round": 1})
    assert answer["Content-Type"] == "text/csv"
    assert 'filename="round-1.csv"' in answer["Content-Disposition"]
    rows = [line.split(",") for line in answer.content.decode().splitlines()]
    assert rows[0] == ["round", "table", "seat", "name", "place", "points", "game"]
    assert len(rows) == 1 + 8
    first = [row for row in rows[1:] if row[1] == str(one.number)]
    # The finished table: each seat's place and the points it earned (3, 2, 1, 0 at four).
    earned = {row[3]: (row[4], row[5], row[6]) for row in first}
    for place, name in enumerate(order, start=1):
        shown = "'" + name if name.startswith("=") else name  # as the sheet shows it
        assert earned[shown] == (str(place), str(4 - place), "over")
    # The table still playing: no place and no points yet.
    assert all(row[4:] == ["", "", "playing"] for row in rows[1:] if row[1] == str(two.number))
    assert "'=1+2" in answer.content.decode()
    # Every round at once; a round not drawn is not found.
    assert len(client.get(url).content.decode().splitlines()) == 9
    assert client.get(url, {"round": 2}).status_code == 404
    assert client.get(url, {"round": "x"}).status_code == 404
    # The view link has no export.
    assert client.get(reverse("rounds-csv", args=[club.view_key, tournament.pk])).status_code == 404


def test_check_in_on_the_organisers_page_seats_who_is_here_and_withdraws_the_rest(client):
    club = make_club()
    tournament = new_tournament(club, NAMES[:6])
    here = reverse("tournament-action", args=[club.key, tournament.pk, "here"])
    ids = dict(tournament.entries.values_list("player__name", "player_id"))
    page = client.get(reverse("tournament", args=[club.key, tournament.pk])).content.decode()
    assert "Check-in" in page and "0 of 6 checked in" in page
    for name in NAMES[:4]:
        said = client.post(here, {"player": ids[name]}, follow=True).content.decode()
        assert f"{name} is here." in said
    said = client.post(here, {"player": ids["P04"], "here": "no"}, follow=True).content.decode()
    assert "P04 is not checked in." in said and "3 of 6 checked in" in said
    (table,) = tournaments.draw_round(tournament, club.key)
    assert sorted(seated(table)) == NAMES[:3]
    assert set(
        Tournament.objects.get().entries.filter(left=True).values_list("player__name", flat=True)
    ) == set(NAMES[3:6])
    # Round 1 is drawn: check-in is over, and the page no longer offers it.
    refused = client.post(here, {"player": ids["P05"]}, follow=True).content.decode()
    assert "Round 1 is drawn: check-in is over" in refused
    assert "Check-in" not in refused


def test_check_in_of_too_few_to_seat_is_refused_and_draws_nothing():
    club = make_club()
    tournament = new_tournament(club, NAMES[:6])
    for entry in tournament.entries.all()[:2]:
        tournaments.check_in(entry)
    with pytest.raises(InputError, match="check in at least three players"):
        tournaments.draw_round(tournament, club.key)
    assert not tournament.tables.exists() and not tournament.entries.filter(left=True).exists()


def test_a_rounds_clock_counts_down_from_its_draw_on_the_board_and_the_organisers_page(client):
    from datetime import timedelta

    from django.db.models import F

    club = make_club()
    tournament = new_tournament(club, NAMES[:8], round_minutes=30)
    board = reverse("tournament-board", args=[club.view_key, tournament.pk])
    organiser = reverse("tournament", args=[club.key, tournament.pk])
    assert 'role="timer"' not in client.get(board).content.decode()  # nothing drawn yet
    tournaments.draw_round(tournament, club.key)
    drawn = Game.objects.filter(table__tournament=tournament).earliest("created").created
    for url in (board, organiser):
        page = client.get(url).content.decode()
        assert 'role="timer"' in page and "30 min left" in page, url
        assert f'data-ends="{(drawn + timedelta(minutes=30)).isoformat()}"' in page
        assert 'data-many="{n} min left"' in page and "js/clock" in page
    Game.objects.filter(table__tournament=tournament).update(
        created=F("created") - timedelta(minutes=31)
    )
    assert "Time is up" in client.get(board).content.decode()
    german = client.get(organiser, headers={"Accept-Language": "de"}).content.decode()
    assert "Zeit ist um" in german
    # Over, the clock stops; a tournament without one shows none.
    tournaments.end_tournament(Tournament.objects.get())
    assert 'role="timer"' not in client.get(board).content.decode()
    other = new_tournament(club, NAMES[:8])
    tournaments.draw_round(other, club.key)
    assert (
        'role="timer"'
        not in client.get(
            reverse("tournament-board", args=[club.view_key, other.pk])
        ).content.decode()
    )


@pytest.mark.parametrize("minutes", [4, 241])
def test_a_clock_out_of_its_range_is_refused_naming_the_field(minutes):
    with pytest.raises(InputError) as refused:
        new_tournament(make_club(), NAMES[:8], round_minutes=minutes)
    assert refused.value.field == "round_minutes"
    assert "5 to 240 minutes" in refused.value.message


def test_the_organisers_page_follows_its_tables_asking_in_one_statement(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    club = make_club()
    tournament = new_tournament(club, NAMES[:8])
    one, _two = tournaments.draw_round(tournament, club.key)
    url = reverse("tournament", args=[club.key, tournament.pk])
    page = client.get(url).content.decode()
    version = page.split('id="live" hx-get="?v=', 1)[1].split('"', 1)[0]
    htmx = {"HX-Request": "true"}
    with CaptureQueriesContext(connection) as asked:
        assert client.get(url, {"v": version}, headers=htmx).status_code == 204
    assert len(asked.captured_queries) == 1
    finish(one.game, seated(one))
    moved = client.get(url, {"v": version}, headers=htmx)
    assert moved.status_code == 200 and 'id="live"' in moved.content.decode()
    assert one.game.result_words in moved.content.decode()
    # Another club's secret link learns nothing.
    other = reverse("tournament", args=[make_club().key, tournament.pk])
    assert client.get(other, {"v": version}, headers=htmx).status_code == 404


def test_equal_points_settled_by_the_points_of_the_players_met():
    """Two rounds of 8 players: after them, the players level on points are ordered by the
    points their opponents made (every game they sat at, summed), counted here by hand from
    the seats and the standings' own points; the scheme line says so."""
    from scorekeeper.reports.tournaments import scheme, standings

    club = make_club()
    tournament = new_tournament(club, NAMES[:8], tie_breaks=["opponents"], rounds=2)
    sat = []
    for _round in range(2):
        for table in tournaments.draw_round(tournament, club.key):
            order = seated(table)
            finish(table.game, order)
            sat.append(order)
    placings = standings(tournament)
    points = {p.name: p.points for p in placings}
    met = {
        name: sum(points[o] for t in sat if name in t for o in t if o != name) for name in points
    }
    assert {p.name: p.opponents for p in placings} == met
    for above, below in itertools.pairwise(placings):
        assert (above.points, above.opponents) >= (below.points, below.opponents)
    assert "Equal points: opponents' points, the lot." in scheme(tournament, {4})
    # Not asked for, it is not counted (nor its query made).
    plain = new_tournament(club, NAMES[8:16])
    tournaments.draw_round(plain, club.key)
    assert all(p.opponents == 0 for p in standings(plain))
