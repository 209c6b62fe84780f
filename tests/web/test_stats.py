"""The club's statistics, from games built for them, through the page and the API."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from scorekeeper import play
from scorekeeper.models import Game, GameSeat, RoundInputs

from ..factory import make_club, make_game

pytestmark = pytest.mark.django_db


def knock(knocker, *lowest):
    return RoundInputs("knock", knocker=knocker, lowest=lowest)


@pytest.fixture
def club():
    """Three finished games (and the tallies each round keeps with the seats):
    1. scat: Ana knocks and is caught (2 lives, out); Ben and Cara are dealt 31; Ben knocks
       twice and Cara goes out: Ben wins.
    2. scat over one round, counted by hand: Dev loses a life, Ana and Ben tie with the most.
    3. schwimmen, counted by hand: Ana swims, then is out: Ben wins.
    Dev retires afterwards."""
    club = make_club()
    one = make_game(players=("Ana", "Ben", "Cara"), club=club, lives=1)
    play.record_round(one, knock(0, 0))
    play.record_round(one, RoundInputs("dealt_thirty_one", shown_by=(1, 2), choice=""))
    play.record_round(one, knock(1, 2))
    play.record_round(one, knock(1, 2))
    assert one.state.winner == "Ben"
    two = make_game(players=("Ana", "Ben", "Dev"), club=club, round_limit=1)
    play.record_round(two, RoundInputs("manual", losses={2: 1}))
    assert two.state.tie == ("Ana", "Ben")
    three = make_game(players=("Ana", "Ben"), club=club, preset="schwimmen", lives=1)
    play.record_round(three, RoundInputs("manual", losses={0: 1}))
    play.record_round(three, RoundInputs("manual", losses={0: 1}))
    assert three.state.winner == "Ben"
    dev = club.players.named("Dev")
    dev.retired = True
    dev.save()
    return club


def api_stats(client, club, query=""):
    response = client.get(
        f"/api/v1/clubs/{club.id}/stats{query}", headers={"Authorization": f"Bearer {club.key}"}
    )
    assert response.status_code == 200, response.content
    return {p["name"]: p for p in response.json()["players"]}, response.json()["games"]


def test_every_field_through_the_api(client, club):
    players, games = api_stats(client, club)
    assert games == 3
    zero = {
        "knocks": 0,
        "knocks_caught": 0,
        "thirty_ones": 0,
        "last_chances": 0,
        "hands_won": 0,
        "coins": 0,
    }
    assert players["Ana"] == {
        "name": "Ana",
        "retired": False,
        "games": 3,
        "finished": 3,
        "wins": 0,
        "ties": 1,
        "rounds_lost": 3,
        "lives_lost": 4,
        "knocks": 1,
        "knocks_caught": 1,
        "thirty_ones": 0,
        "last_chances": 1,
        "hands_won": 0,
        "coins": 0,
        "nemesis": "Ben",
    }
    assert players["Ben"] == {
        "name": "Ben",
        "retired": False,
        "games": 3,
        "finished": 3,
        "wins": 2,
        "ties": 1,
        "rounds_lost": 0,
        "lives_lost": 0,
        "knocks": 2,
        "knocks_caught": 0,
        "thirty_ones": 1,
        "last_chances": 0,
        "hands_won": 0,
        "coins": 0,
        "nemesis": None,
    }
    assert players["Cara"] == {
        "name": "Cara",
        "retired": False,
        "games": 1,
        "finished": 1,
        "wins": 0,
        "ties": 0,
        "rounds_lost": 2,
        "lives_lost": 2,
        "knocks": 0,
        "knocks_caught": 0,
        "thirty_ones": 1,
        "last_chances": 1,
        "hands_won": 0,
        "coins": 0,
        "nemesis": "Ben",
    }
    assert players["Dev"] == {
        "name": "Dev",
        "retired": True,
        "games": 1,
        "finished": 1,
        "wins": 0,
        "ties": 0,
        "rounds_lost": 1,
        "lives_lost": 1,
        **zero,
        "nemesis": None,
    }


def test_the_filters(client, club):
    players, games = api_stats(client, club, "?preset=scat")
    assert games == 2
    assert (players["Ana"]["games"], players["Ana"]["lives_lost"]) == (2, 2)
    assert players["Ben"]["wins"] == 1
    players, games = api_stats(client, club, "?since=2999-01-01")
    assert games == 0 and players["Ana"]["games"] == 0
    for query, field in (("?preset=bridge", "preset"), ("?since=yesterday", "since")):
        response = client.get(
            f"/api/v1/clubs/{club.id}/stats{query}", headers={"Authorization": f"Bearer {club.key}"}
        )
        assert response.status_code == 400 and response.json()["field"] == field
    # A key that opens no club, like every other call: 401.
    wrong = client.get(f"/api/v1/clubs/{club.id}/stats", headers={"Authorization": "Bearer x"})
    assert wrong.status_code == 401


def test_undo_and_edit_keep_the_tallies_true(client, club):
    game = Game.objects.get(club=club, preset="schwimmen")
    game.club = club
    play.undo_round(game)
    assert api_stats(client, club)[0]["Ana"]["lives_lost"] == 3
    play.edit_round(game, 1, RoundInputs("manual", losses={1: 1}))
    players = api_stats(client, club)[0]
    assert (players["Ana"]["lives_lost"], players["Ben"]["lives_lost"]) == (2, 1)
    assert players["Ben"]["wins"] == 1  # the schwimmen game goes on now
    call_command("check_game_states")  # every seat's tallies as its rounds give them


def test_the_check_finds_tallies_that_drifted(club):
    GameSeat.objects.filter(player__name="Ana").update(knocks=7)
    with pytest.raises(Exception, match="differ"):
        call_command("check_game_states")
    call_command("check_game_states", "--fix")
    call_command("check_game_states")


def test_the_page_through_both_links(client, club):
    page = client.get(reverse("stats", args=[club.key])).content.decode()
    board = page[page.index("Leaderboard") : page.index("Head to head")]
    # Ben (2 of 3) first; Ana (0 of 3) and Cara (0 of 1) tie on the rate: more games first.
    assert board.index(">Ben<") < board.index(">Ana<") < board.index(">Cara<")
    assert "2 of 3 <small>(1 tie)</small>" in board
    assert "0 %" in board and "100 %" in board  # Ana caught on her one knock; Ben never
    assert 'Dev</bdi></a> <span class="badge">retired</span>' in board
    h2h = page[page.index("Head to head") :]
    ben = '<span class="h2h-name"><bdi>Ben</bdi></span></th><td>—</td><td>2</td><td>1</td>'
    assert ben in h2h.replace("\n", "")
    view = client.get(reverse("view-stats", args=[club.view_key]))
    assert view.status_code == 200 and "Leaderboard" in view.content.decode()
    filtered = client.get(reverse("stats", args=[club.key]) + "?since=nonsense").content.decode()
    assert "A date is written YYYY-MM-DD." in filtered


def test_the_stats_page_takes_a_fixed_number_of_queries(
    client, club, django_assert_max_num_queries
):
    for _ in range(3):
        play.record_round(make_game(players=("Ana", "Ben"), club=club), knock(0, 1))
    # Eight, and the ratings' three: what they rest on, and (worked out on a first view) the
    # finished games' places and the players.
    with django_assert_max_num_queries(11):
        client.get(reverse("stats", args=[club.key]))
    # Seen again with nothing changed, the ratings cost what they rest on alone.
    with django_assert_max_num_queries(9):
        client.get(reverse("stats", args=[club.key]))


def test_an_abandoned_game_and_a_deleted_one_leave_the_stats_until_taken_back(client, club):
    one = Game.objects.get(club=club, preset="schwimmen")
    headers = {"Authorization": f"Bearer {club.key}"}
    # Like every POST of the API, with a JSON body (empty here).
    answer = client.post(
        f"/api/v1/games/{one.id}/abandon", content_type="application/json", headers=headers
    ).json()
    assert answer["abandoned"] is True and answer["in_bin_until"] is None
    players, games = api_stats(client, club)
    assert games == 2 and players["Ben"]["wins"] == 1 and players["Ana"]["lives_lost"] == 2
    answer = client.post(
        f"/api/v1/games/{one.id}/delete", content_type="application/json", headers=headers
    ).json()
    assert answer["in_bin_until"]
    page = client.get(club.get_absolute_url()).content.decode()
    games_list = page[page.index('id="games-heading"') : page.index('id="bin-heading"')]
    assert str(one.id) not in games_list
    assert "removed for good on" in page[page.index('id="bin-heading"') :]
    answer = client.post(
        f"/api/v1/games/{one.id}/restore", content_type="application/json", headers=headers
    ).json()
    assert answer["abandoned"] is False and answer["in_bin_until"] is None
    assert api_stats(client, club)[1] == 3
    # Through the pages: each is one tap, and each can be taken back.
    game = Game.objects.get(pk=one.pk)
    for action, check in (
        ("abandon", "abandoned"),
        ("resume", "abandoned"),
        ("delete", "deleted"),
        ("restore", "deleted"),
    ):
        response = client.post(reverse("set-aside", args=[club.key, game.id, action]))
        assert response.status_code == 302
        value = getattr(Game.objects.get(pk=game.pk), check)
        assert bool(value) == (action in ("abandon", "delete"))
    assert client.post(f"/v/{club.view_key}/g/{game.id}/abandon").status_code == 404


def test_a_game_in_the_bin_goes_for_good_after_30_days(client, club):
    from datetime import timedelta

    from django.utils import timezone

    game = Game.objects.get(club=club, preset="schwimmen")
    play.set_aside(game, deleted=True)
    Game.objects.filter(pk=game.pk).update(deleted=timezone.now() - timedelta(days=29))
    client.get(club.get_absolute_url())
    assert Game.objects.filter(pk=game.pk).exists()
    Game.objects.filter(pk=game.pk).update(deleted=timezone.now() - timedelta(days=31))
    client.get(club.get_absolute_url())
    assert not Game.objects.filter(pk=game.pk).exists()


def test_an_abandoned_game_records_nothing_until_resumed(client, club):
    game = make_game(club=club)
    play.set_aside(game, abandoned=True)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Abandoned: no winner, and not in the stats." in page and 'id="record"' not in page
    response = client.post(
        f"/api/v1/games/{game.id}/rounds",
        {"ending": "knock", "knocker": "Ann", "lowest": ["Ben"]},
        content_type="application/json",
        headers={"Authorization": f"Bearer {club.key}"},
    )
    assert response.status_code == 400 and "abandoned" in response.json()["error"]


def test_the_home_page_offers_to_continue_the_games_in_progress(client):
    response = client.post("/clubs/new", {"name": "Thursday table"})
    key = response["Location"].split("/")[2]
    from scorekeeper.models import Club

    club = Club.objects.with_key(key)
    going = make_game(club=club)
    done = make_game(club=club, players=("Ann", "Ben"), lives=1)
    play.record_round(done, knock(0, 1))
    play.record_round(done, knock(0, 1))
    elsewhere = make_game()  # another club, which this browser never opened
    page = client.get("/").content.decode()
    section = page[page.index("Games in progress") : page.index("Your clubs")]
    assert f'href="/c/{key}/g/{going.id}/">Continue</a>' in section
    assert str(done.id) not in section and str(elsewhere.id) not in section


def test_a_players_page_and_the_records(client, club):
    ana = club.players.named("Ana")
    page = client.get(reverse("stats", args=[club.key])).content.decode()
    assert f'href="/c/{club.key}/players/{ana.pk}/stats"><bdi>Ana</bdi></a>' in page
    records = page[page.index("Records") :]
    assert "<dt>Longest game</dt><dd>4 rounds" in records
    assert "<dt>Most 31s in one game</dt><dd><bdi>Ben</bdi>, 1" in records
    assert "<dt>Biggest comeback</dt><dd>—" in records  # no winner was ever on the last chance
    assert 'role="img"' in page and "Games won: Ben won 2 of 3" in page
    page = client.get(reverse("player-stats", args=[club.key, ana.pk])).content.decode()
    assert "<dt>Won</dt><dd>0 of 3 finished games, 1 tie" in page
    assert "<dt>Nemesis</dt><dd>Ben" in page
    assert "The last 3 finished games, newest first: lost, tied, lost.</span>" in page
    view = client.get(f"/v/{club.view_key}/players/{ana.pk}/stats").content.decode()
    assert f"/v/{club.view_key}/g/" in view and f"/c/{club.key}" not in view
    ben = client.get(reverse("player-stats", args=[club.key, club.players.named("Ben").pk]))
    assert "<dt>Favourite victim</dt><dd>Ana" in ben.content.decode()


def test_a_comeback_from_the_last_chance_is_a_record(client):
    club = make_club()
    game = make_game(players=("Ana", "Ben"), club=club, lives=1)
    play.record_round(game, RoundInputs("manual", losses={0: 1}))  # Ana on the county
    play.record_round(game, RoundInputs("manual", losses={1: 1}))  # Ben too
    play.record_round(
        game, RoundInputs("manual", losses={1: 1})
    )  # Ben out: Ana wins from the county
    page = client.get(reverse("stats", args=[club.key])).content.decode()
    assert "<dt>Biggest comeback</dt><dd>Ana won after 3 rounds on the last chance" in page


def test_the_operators_command_empties_every_bin(club):
    from datetime import timedelta

    from django.utils import timezone

    old, recent = Game.objects.filter(club=club)[:2]
    Game.objects.filter(pk=old.pk).update(deleted=timezone.now() - timedelta(days=31))
    Game.objects.filter(pk=recent.pk).update(deleted=timezone.now() - timedelta(days=2))
    out = io.StringIO()
    call_command("empty_bins", stdout=out)
    assert out.getvalue() == "Removed 1 games that were in a bin for 30 days.\n"  # games, not rows
    assert not Game.objects.filter(pk=old.pk).exists()
    assert Game.objects.filter(pk=recent.pk).exists()
