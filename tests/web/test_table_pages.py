"""Clubs, games and the table page through real HTTP requests to the test client."""

import html
import json
import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.text import capfirst

from scorekeeper import play
from scorekeeper.models import Club, Game, Round, RoundInputs

from ..factory import make_club, make_game, record_knocks, seat_of

pytestmark = pytest.mark.django_db


def text(response):
    return response.content.decode()


def url(name, game, *args):
    return reverse(name, args=[game.club.key, game.id, *args])


def test_anyone_creates_a_club_in_one_step_and_lands_on_its_secret_link(client):
    response = client.post("/clubs/new", {"name": "Thursday table"})
    club = Club.objects.with_key(response["Location"].split("/")[2])
    assert response.status_code == 302 and response["Location"] == f"/c/{club.key}/"
    assert len(club.key) >= 32  # 24 random bytes: 192 bits
    page = text(client.get(response["Location"]))
    assert "Thursday table" in page
    assert f"http://testserver/c/{club.key}/" in page
    assert "<svg" in page  # the QR code, drawn on the server


def test_the_home_page_lists_the_clubs_this_browser_opened(client):
    club = make_club("Fridays")
    assert "Fridays" not in text(client.get("/"))
    client.get(club.get_absolute_url())
    assert "Fridays" in text(client.get("/"))


def test_a_wrong_club_key_is_a_404(client):
    make_club()
    assert client.get("/c/not-the-key/").status_code == 404


def test_a_club_name_is_required(client):
    response = client.post("/clubs/new", {"name": " "})
    assert response.status_code == 400
    assert not Club.objects.exists()


def test_players_are_added_renamed_and_retired(client):
    club = make_club()
    client.post(reverse("add-player", args=[club.key]), {"name": "Ann"})
    page = text(client.post(reverse("add-player", args=[club.key]), {"name": " ann "}, follow=True))
    assert "Ann is already in this club." in page
    ann = club.players.get()
    client.post(reverse("rename-player", args=[club.key, ann.pk]), {"name": "Annie"})
    client.post(reverse("retire-player", args=[club.key, ann.pk]), {"retired": "1"})
    ann.refresh_from_db()
    assert (ann.name, ann.retired) == ("Annie", True)


def test_a_new_game_seats_the_picked_players_with_the_chosen_rules(client):
    club = make_club()
    ann, _ben, cat = (play.add_player(club, n) for n in ("Ann", "Ben", "Cat"))
    response = client.post(
        reverse("new-game", args=[club.key]),
        {
            "preset": "schwimmen",
            "lives": "4",
            f"plays_{ann.pk}": "on",
            f"seat_{ann.pk}": "2",
            f"plays_{cat.pk}": "on",
            f"seat_{cat.pk}": "1",
            "new_players": "Dan, Eve",
            "first_dealer": f"p{ann.pk}",
            "rule_knocker_alone": "2",
        },
    )
    game = Game.objects.get()
    game.club = club  # opened with its key
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert [s.player.name for s in game.seat_list] == ["Cat", "Ann", "Dan", "Eve"]
    assert game.first_dealer == 1
    assert (game.rules.deck, game.rules.lives, game.rules.knocker_alone) == (32, 4, 2)
    assert club.players.count() == 5


def test_a_clubs_first_game_ticks_everyone_it_has_up_to_a_table(client):
    club = make_club()
    players = [play.add_player(club, n) for n in ("Ann", "Ben", "Cat")]
    page = text(client.get(reverse("new-game", args=[club.key])))
    for player in players:
        assert f'name="plays_{player.pk}" id="id_plays_{player.pk}" checked' in page
    # A club of more than a table's players: nobody is ticked, as a club that big chooses.
    for n in range(6):
        play.add_player(club, f"Player {n}")
    page = text(client.get(reverse("new-game", args=[club.key])))
    assert page.count('id="id_plays_') == 9
    assert not re.findall(r'name="plays_\d+" id="id_plays_\d+" checked', page)


def test_a_new_game_starts_from_the_last_one_and_asks_length_and_mode_apart(client):
    club = make_club()
    last = make_game(
        players=("Cat", "Ann", "Ben"), club=club, preset="friendly", mode=Game.Mode.COUNT
    )
    play.add_player(club, "Dev")
    page = text(client.get(reverse("new-game", args=[club.key])))
    cat, ann, ben, dev = (club.players.named(n) for n in ("Cat", "Ann", "Ben", "Dev"))
    # The last game's players are ticked, in their seats; the deal moves one seat on.
    for seat, player in enumerate((cat, ann, ben), start=1):
        assert f'name="plays_{player.pk}" id="id_plays_{player.pk}" checked' in page
        assert f'name="seat_{player.pk}" value="{seat}"' in page
    assert f'name="plays_{dev.pk}" id="id_plays_{dev.pk}">' in page
    assert f'value="p{ann.pk}" checked' in page
    assert 'name="preset" value="friendly" checked' in page
    assert 'name="mode" value="count" checked' in page
    # Each preset says what it is; each house rule names what the chosen rules say.
    assert "Pagat" in page
    assert '<option value="" selected>As the rules say: Broken by the highest counted card' in page
    assert "As the rule set says" not in page
    response = client.post(
        reverse("new-game", args=[club.key]),
        {
            "preset": "scat",
            f"plays_{ann.pk}": "on",
            f"plays_{dev.pk}": "on",
            "length": "rounds",
            "rounds": "12",
            "mode": "referee",
        },
    )
    assert response.status_code == 302
    game = Game.objects.exclude(pk=last.pk).get()
    assert game.rules.round_limit == 12 and game.mode == Game.Mode.REFEREE
    page = text(
        client.post(
            reverse("new-game", args=[club.key]),
            {
                "preset": "scat",
                f"plays_{ann.pk}": "on",
                f"plays_{dev.pk}": "on",
                "length": "rounds",
            },
        )
    )
    assert "Say how many rounds." in page


def test_a_club_saves_its_rules_and_every_new_game_starts_from_them(client):
    club = make_club()
    ann, ben = play.add_player(club, "Ann"), play.add_player(club, "Ben")
    client.post(
        reverse("new-game", args=[club.key]),
        {
            "preset": "schwimmen",
            "lives": "5",
            "rule_knocker_alone": "2",
            "length": "rounds",
            "rounds": "20",
            "mode": "count",
            "save_rules": "on",
            f"plays_{ann.pk}": "on",
            f"plays_{ben.pk}": "on",
        },
    )
    club.refresh_from_db()
    assert club.our_rules == {
        "preset": "schwimmen",
        "mode": "count",
        "overrides": {"knocker_alone": 2, "lives": 5, "round_limit": 20},
    }
    page = text(client.get(reverse("new-game", args=[club.key])))
    assert "Starting from our rules" in page
    assert 'name="preset" value="schwimmen" checked' in page
    assert 'name="lives" value="5"' in page and 'name="rounds" value="20"' in page
    assert 'name="length" value="rounds" checked' in page
    assert '<option value="2" selected>' in page  # the knocker loses 2


def test_a_new_game_needs_two_players(client):
    club = make_club()
    ann = play.add_player(club, "Ann")
    page = text(
        client.post(
            reverse("new-game", args=[club.key]),
            {
                "preset": "scat",
                f"plays_{ann.pk}": "on",
            },
        )
    )
    assert "Pick at least two players." in page
    assert not Game.objects.exists()


def test_the_table_page_shows_lives_statuses_the_dealer_and_the_rules(client):
    game = record_knocks(make_game(preset="schwimmen"), [("Ann", ["Ben"])] * 3)
    page = text(client.get(game.get_absolute_url()))
    assert "Round 4" in page
    assert "swimming" in page
    assert "3 lives paid into the pot" in page
    tiles = page[page.index('<div id="table"') :]  # past the tile the phone fills (board.js)
    assert tiles.count('class="token"') == 6 and tiles.count('class="token lost"') == 3
    assert "The rules of this game" in page
    assert "Knocker alone lowest" in page


def test_the_rules_card_of_a_game_shows_our_readings(client):
    game = make_game(preset="friendly")
    assert (
        text(client.get(game.get_absolute_url())).count("(our reading)") == 6
    )  # tie_break, unshown_31, next_dealer, all_out, round_limit and pot_at_end


def test_recording_a_round_previews_then_confirms(client):
    game = make_game()
    data = {
        "ending": "knock",
        "knocker": "0",
        "lowest": ["0", "1"],
        "version": "0",
        "client_id": "tap-1",
    }
    page = text(client.post(url("record", game), {**data, "preview": "1"}))
    assert "What will happen" in page
    assert "Ben loses 1 life: tied for lowest with Ann, the knocker, who is safe in a tie." in page
    assert not Round.objects.exists()
    response = client.post(url("record", game), {**data, "confirm": "1"})
    assert response.status_code == 302
    round = Round.objects.get()
    assert (round.knocker, round.lowest, round.client_id) == (0, [0, 1], "tap-1")


def test_a_chip_tap_gets_the_preview_alone(client, django_assert_num_queries):
    game = make_game()
    data = {"ending": "knock", "knocker": "0", "lowest": ["1"], "version": "0"}
    htmx = {"HX-Request": "true", "HX-Target": "preview"}
    with django_assert_num_queries(2):  # the game row (its state is stored with it), the seats
        response = client.post(url("record", game), data, headers=htmx)
    page = text(response)
    assert page.lstrip().startswith('<section id="preview"') and "What will happen" in page
    assert "Ben loses 1 life: the lowest hand." in page
    assert len(response.content) < 1500  # the table region is about 12 KB
    refused = text(client.post(url("record", game), {**data, "knocker": "7"}, headers=htmx))
    # Mid-tap, what is missing or wrong is said plainly, not as an alarm.
    assert refused.lstrip().startswith('<section id="preview"') and 'class="pending"' in refused
    assert not Round.objects.exists()


def test_only_the_endings_the_rules_have_are_offered(client):
    page = text(client.get(make_game(preset="friendly").get_absolute_url()))
    assert 'value="knock"' in page and 'value="stock_out"' not in page
    assert 'value="three_aces"' in text(
        client.get(make_game(preset="schwimmen").get_absolute_url())
    )


def test_cards_entered_instead_of_the_lowest_are_stored_with_the_round(client):
    game = make_game()
    client.post(
        url("record", game),
        {
            "ending": "knock",
            "knocker": "0",
            "version": "0",
            "confirm": "1",
            "cards_0": "KS 9S 2H",
            "cards_1": "AC 9C 7C",
            "cards_2": "a♦ 8♦ 6♣",
        },
    )
    round = Round.objects.get()
    assert round.hands == {
        "0": ["KS", "9S", "2H"],
        "1": ["AC", "9C", "7C"],
        "2": ["AD", "8D", "6C"],
    }
    page = text(client.get(url("round-log", game)))
    assert "Cat loses 1 life: tied for lowest with Ann, the knocker, who is safe in a tie" in page
    assert "A♦ 8♦ count 19 in diamonds" in page


@pytest.mark.parametrize(
    "data, message",
    [
        ({"ending": "knock", "lowest": ["1"]}, "Say who knocked."),
        (
            {"ending": "knock", "knocker": "0"},
            "Say who was lowest: tap them, or enter everyone&#x27;s cards.",
        ),
        ({"ending": "knock", "knocker": "7", "lowest": ["1"]}, "Select a valid choice"),
        ({"ending": "knock", "knocker": "0", "lowest": ["9"]}, "Select a valid choice"),
        (
            {"ending": "thirty_one", "shown": ["1"], "cards_1": "KS 9S 2H"},
            "Ben&#x27;s hand is worth 19, not 31",
        ),
        ({"ending": "knock", "knocker": "0", "cards_0": "KS 9S ZZ"}, "“ZZ” is not a card"),
        ({"ending": "three_aces", "shown": ["1"]}, "Select a valid choice"),
    ],
)
def test_a_round_the_rules_do_not_allow_is_refused_with_nothing_saved(client, data, message):
    game = make_game()
    page = text(client.post(url("record", game), {**data, "version": "0", "confirm": "1"}))
    # Said once, as a sentence, where the thumb is (the bar with Record in it). (The chips carry
    # what each ending needs in an attribute, for the phone to refuse the tap before the engine
    # has come: not said there.)
    assert re.sub(r"<[^>]*>", "", page).count(message) == 1
    bar = page[page.index('<div class="bar">') :]
    assert message in bar[: bar.index("Record round 1")]
    assert not Round.objects.exists()


def test_a_knock_by_a_player_who_is_out_is_refused(client):
    game = record_knocks(make_game(), [("Ann", ["Cat"])] * 4)
    data = {
        "ending": "knock",
        "knocker": str(seat_of(game, "Cat")),
        "lowest": ["0"],
        "version": str(game.version),
        "confirm": "1",
    }
    page = text(client.post(url("record", game), data))
    assert "Cat is out, so cannot knock" in page
    assert game.rounds.count() == 4


def test_undo_is_one_tap_away(client):
    game = record_knocks(make_game(), [("Ann", ["Ben"])])
    page = text(client.get(game.get_absolute_url()))
    assert 'Undo <span class="visually-hidden">round 1</span>' in page
    response = client.post(url("undo", game), {"version": str(game.version)}, follow=True)
    assert "Round 1 taken back." in text(response)
    assert not game.rounds.filter(state="active").exists()


def test_htmx_gets_the_table_region_after_recording(client):
    game = make_game()
    response = client.post(
        url("record", game),
        {
            "ending": "knock",
            "knocker": "0",
            "lowest": ["1"],
            "version": "0",
            "confirm": "1",
        },
        headers={"HX-Request": "true"},
    )
    page = text(response)
    # The table region, between the marks the service worker finds it by (static/js/service-worker.js).
    assert page.lstrip().startswith('<!--knock:table-->\n<div id="table"')
    assert "<!--/knock:table-->" in page
    assert "Round 2" in page and "<html" not in page
    # With the toast that says what was saved, in the page's live region.
    toast = page[page.index('<div id="toast" hx-swap-oob="innerHTML">') :]
    assert "Ben −1 · Ben deals next · round 1 saved" in toast


def test_an_edit_brings_an_eliminated_player_back_and_says_so(client):
    game = record_knocks(make_game(), [("Ann", ["Cat"])] * 4)
    page = text(client.get(url("edit-round", game, 1)))
    assert "Edit round 1" in page
    response = client.post(
        url("edit-round", game, 1),
        {
            "ending": "knock",
            "knocker": "0",
            "lowest": ["1"],
            "version": str(game.version),
        },
        follow=True,
    )
    page = text(response)
    assert "Round 1 edited." in page and "Cat is no longer out." in page


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "without-javascript"])
def test_an_edit_is_previewed_with_what_it_changes_and_nothing_is_saved(client, htmx):
    game = record_knocks(make_game(), [("Ann", ["Cat"])] * 4)
    headers = {"HX-Request": "true", "HX-Target": "edit-preview"} if htmx else {}
    edit = {"ending": "knock", "knocker": "0", "lowest": ["1"], "version": str(game.version)}
    page = text(client.post(url("edit-round", game, 1), {**edit, "preview": "1"}, headers=headers))
    assert "Cat is no longer out." in page and "Ben −1" in page
    assert ("<html" in page) is not htmx  # the preview alone, for htmx
    # Refused: why, in the same place; and nothing was saved either way.
    page = text(
        client.post(
            url("edit-round", game, 1),
            {**edit, "lowest": [], "preview": "1"},
            headers=headers,
        )
    )
    assert "Say who was lowest" in page and "no longer out" not in page
    game = Game.objects.get(pk=game.pk)
    assert game.state.statuses[2] == "out" and game.rounds.filter(state=Round.EDITED).count() == 0


def test_the_end_shows_the_winner_stops_recording_and_offers_play_again(client):
    game = record_knocks(make_game(players=("Ann", "Ben")), [("Ann", ["Ben"])] * 4)
    page = text(client.get(game.get_absolute_url()))
    assert "<strong>Ann</strong> wins!" in page
    assert "Record round" not in page
    assert "Undo round 4" in page
    response = client.post(url("play-again", game))
    again = Game.objects.exclude(pk=game.pk).get()
    again.club = game.club
    assert response["Location"] == again.get_absolute_url()


def test_the_next_game_is_drawn_ahead_under_a_stand_in_id_and_nothing_is_saved(client):
    game = record_knocks(make_game(players=("Ann", "Ben", "Cat")), [("Ann", ["Ben"])])
    table = text(client.get(game.get_absolute_url()))
    stand_in = str(play.next_game_id(game))
    assert f'data-stand-in="{stand_in}"' in table
    page = text(client.get(url("next-game", game)))
    # The next game's table: round 1, the deal one seat on, its links under the stand-in.
    assert "Round 1" in page and "<strong>Ben</strong> deals" in page
    assert f"/g/{stand_in}/record" in page and f"/g/{game.id}/" not in page
    assert Game.objects.count() == 1 and Round.objects.count() == 1
    # The view link has none: it cannot play again.
    assert client.get(reverse("next-game", args=[game.club.view_key, game.id])).status_code == 404


def test_play_again_under_the_phones_id_is_one_game_however_often_it_is_sent(client):
    game = record_knocks(make_game(players=("Ann", "Ben")), [("Ann", ["Ben"])] * 4)
    made = uuid.uuid4()
    htmx = {"HX-Request": "true"}
    first = client.post(url("play-again", game), {"id": str(made)}, headers=htmx)
    again = client.post(url("play-again", game), {"id": str(made)}, headers=htmx)
    new = Game.objects.get(pk=made)
    new.club = game.club  # opened by its link, which the stored club does not keep
    assert first["HX-Redirect"] == again["HX-Redirect"] == new.get_absolute_url()
    assert Game.objects.count() == 2 and new.first_dealer == 1
    assert list(new.state.names) == ["Ann", "Ben"] and new.rules_data == game.rules_data


def finished(players=("Ann", "Ben"), **options):
    return record_knocks(make_game(players=players, **options), [(players[0], [players[1]])] * 4)


@pytest.mark.parametrize(
    "sent, said",
    [
        ("not-an-id", "id: Enter a valid UUID."),
        ("stand-in", "id: make a random id (a version 4 UUID) for the new game"),
        ("nil", "id: make a random id (a version 4 UUID) for the new game"),
        ("another club's", "id: this id is another game"),
        ("an older game of the club", "id: this id is another game"),
    ],
)
def test_play_again_refuses_an_id_it_cannot_take_and_saves_nothing(client, sent, said):
    game = finished()
    other = finished(players=("Dan", "Eve"))
    older = finished(club=game.club)
    ids = {
        "stand-in": str(play.next_game_id(game)),
        "nil": str(uuid.UUID(int=0)),
        "another club's": str(other.id),
        "an older game of the club": str(older.id),
    }
    response = client.post(
        url("play-again", game), {"id": ids.get(sent, sent)}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400 and response.content.decode().startswith(said)
    assert Game.objects.count() == 3
    # The page's own form (no script) is told beside the game.
    page = client.post(url("play-again", game), {"id": ids.get(sent, sent)}, follow=True)
    assert capfirst(said.split(": ", 1)[1]) in html.unescape(text(page))
    assert Game.objects.count() == 3


@pytest.mark.parametrize(
    "how, said",
    [
        ("being played", "id: this game is not over yet"),
        ("abandoned", "id: this game was abandoned: start a new game instead"),
        ("in the bin", "id: this game is in the bin: restore it to play again"),
    ],
)
def test_only_a_finished_game_is_played_again(client, how, said):
    game = finished() if how == "in the bin" else make_game(players=("Ann", "Ben"))
    if how == "abandoned":
        play.set_aside(game, abandoned=True)
    elif how == "in the bin":
        play.set_aside(game, deleted=True)
    response = client.post(
        url("play-again", game), {"id": str(uuid.uuid4())}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400 and response.content.decode() == said
    assert Game.objects.count() == 1


def test_a_start_sent_again_is_recognised_only_as_the_game_it_started(client):
    """The id of the game a "Play again" started is that game; sent again from another
    finished game of the club, it is refused (the waiting round would land in that table)."""
    game = finished()
    other = finished(club=game.club)
    made = str(uuid.uuid4())
    htmx = {"HX-Request": "true"}
    assert client.post(url("play-again", game), {"id": made}, headers=htmx).status_code == 200
    assert client.post(url("play-again", game), {"id": made}, headers=htmx).status_code == 200
    refused = client.post(url("play-again", other), {"id": made}, headers=htmx)
    assert refused.status_code == 400
    assert refused.content.decode() == "id: this id is another game's: make a new one"
    assert Game.objects.get(pk=made).again_of_id == game.id
    assert Game.objects.count() == 3


def test_the_round_log_and_its_chart(client):
    game = record_knocks(make_game(), [("Ann", ["Ben"]), ("Ben", ["Cat", "Ann"])])
    play.undo_round(game)
    page = text(client.get(url("round-log", game)))
    assert page.count('class="panel round-entry"') == 1
    assert "Ann dealt" in page
    assert "Ben loses 1 life: the lowest hand" in page
    assert "<polyline" in page and page.count("<polyline") == 3
    assert 'role="img"' in page and "Lives over 1 round; now: Ann 3, Ben 2, Cat 3." in page
    assert "Taken back" in page and "undone" in page


def test_the_club_lists_its_games_newest_first_paginated(client):
    club = make_club()
    games = [make_game(club=club) for _ in range(12)]
    page = text(client.get(club.get_absolute_url()))
    assert page.count('class="badge live"') == 10
    assert "Page 1 of 2" in page
    assert games[-1].get_absolute_url() in page and games[0].get_absolute_url() not in page
    assert games[0].get_absolute_url() in text(client.get(club.get_absolute_url() + "?page=2"))


def test_names_are_always_shown_escaped(client):
    # (A name with a bidi override is refused now: tests/web/test_trust_round_4.py.)
    game = make_game(players=("<script>x</script>", "Ben ע", "😀" * 20))
    page = text(client.get(game.get_absolute_url()))
    assert "<script>x</script>" not in page
    assert "&lt;script&gt;x&lt;/script&gt;" in page


def test_the_game_of_another_club_is_not_found(client):
    game = make_game()
    other = make_club("Other")
    assert client.get(reverse("game", args=[other.key, game.id])).status_code == 404


def long_game(rounds: int) -> Game:
    """A game of ``rounds`` rounds: each a 31 dealt to two players, which the table replays."""
    game = make_game(players=("Ann", "Ben", "Cat", "Dan"), preset="kitchen-table")
    Round.objects.bulk_create(
        Round(game=game, number=n, ending="dealt_thirty_one", shown_by=[0, 1], choice="replay")
        for n in range(1, rounds + 1)
    )
    play.rederive(game)  # the stored state, as recording those rounds would have left it
    return game


def queries_for(request) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = request()
    assert response.status_code in (200, 302)
    return len(captured.captured_queries)


@pytest.mark.parametrize("page", ["game", "round-log"])
def test_pages_run_a_fixed_number_of_queries_at_200_rounds(client, page):
    short, long = long_game(2), long_game(200)
    assert long.round_count == 200
    few = queries_for(lambda: client.get(url(page, short)))
    many = queries_for(lambda: client.get(url(page, long)))
    # The table page reads the game row (its state is stored with it) and its seats; the log
    # reads a page of rounds, the chart's points and the rounds taken back too.
    assert many == few == {"game": 2, "round-log": 5}[page]


def test_recording_runs_a_fixed_number_of_queries_at_200_rounds(client):
    def record(game):
        data = {"ending": "knock", "knocker": "0", "lowest": ["1"], "confirm": "1"}
        return lambda: client.post(url("record", game), data)

    few = queries_for(record(long_game(1)))
    many = queries_for(record(long_game(200)))
    assert many == few


def test_the_table_decides_and_its_pick_stays_chosen_until_recorded(client):
    game = make_game(preset="kitchen-table")  # several dealt 31: the rules do not say
    data = {"ending": "dealt_thirty_one", "shown": ["0", "1"], "version": "0"}
    htmx = {"HX-Request": "true", "HX-Target": "preview"}
    asked = text(client.post(url("record", game), data, headers=htmx))
    assert "The table decides" in asked and 'value="without_31_lose_1"' in asked
    picked = text(
        client.post(url("record", game), {**data, "choice": "without_31_lose_1"}, headers=htmx)
    )
    assert 'value="without_31_lose_1" checked' in picked  # the pick stays on the page
    assert "Cat loses 1 life" in picked
    response = client.post(
        url("record", game), {**data, "choice": "without_31_lose_1", "confirm": "1"}
    )
    assert response.status_code == 302
    assert Round.objects.get().choice == "without_31_lose_1"
    log = text(client.get(url("round-log", game)))
    assert "the table chose: Every player without 31 loses 1 life" in log


def test_the_cards_section_opens_once_when_cards_were_typed(client):
    game = make_game()
    data = {
        "ending": "knock",
        "knocker": "0",
        "cards_0": "KS 9S 2H",
        "cards_1": "AC 9C 7C",
        "cards_2": "A♦ 8♦ 6♣",
        "preview": "1",
    }
    page = text(client.post(url("record", game), data))
    assert '<details class="part part-cards" open>' in page
    assert "openopen" not in page
    assert '<details class="part part-cards">' in text(client.get(url("game", game)))


def test_the_round_log_has_a_score_sheet_and_tells_the_last_chance_from_out(client):
    game = make_game(players=("Ann", "Ben"), lives=1)
    play.record_round(game, RoundInputs("manual", losses={1: 1}))  # Ben on the county
    page = text(client.get(url("round-log", game)))
    # A round counted by hand, in a line.
    assert '<p class="losses">Ben −1 (counted by hand)</p>' in page
    # The score sheet: a column per player, a row per round, the lives and what they cost.
    sheet = page[page.index('class="after score-sheet"') :]
    # Each column headed by the player's mark, the name for a screen reader.
    assert re.search(
        r'<th scope="col"><span class="mark pc-\d" aria-hidden="true">An</span>\s*'
        r'<span class="visually-hidden">Ann</span></th><th scope="col"><span class="mark pc-\d"'
        r' aria-hidden="true">Be</span>\s*<span class="visually-hidden">Ben</span></th>',
        sheet,
    )
    # Each round's number opens it for an edit; where it left a player is its cell's colour,
    # said in words to a screen reader.
    edit = reverse("edit-round", args=[game.club.key, game.id, 1])
    assert re.search(
        rf'<th scope="row"><a href="{edit}" aria-label="Edit round 1">1</a></th>'
        r'<td class="in">1</td><td class="county">0<span class="lost-mark">−1</span>'
        r'<span class="visually-hidden">, on the county</span></td>',
        sheet,
    )
    assert '<span class="key county">0</span> on the county' in page
    # The chart's levels: the county above out.
    assert ">on the county</text>" in page and ">out</text>" in page
    play.record_round(game, RoundInputs("manual", losses={1: 1}))
    page = text(client.get(url("round-log", game)))
    assert "now: Ann 1, Ben out. Round 1: Ben on the county. Round 2: Ben out." in page


def test_several_players_are_added_at_once(client):
    club = make_club()
    play.add_player(club, "Ben")
    url = reverse("add-player", args=[club.key])
    response = client.post(url, {"names": "Ana, ben\n  Cara  Lee ,\n\nAna"})
    assert response["Location"].endswith("#players")
    page = text(client.get(response["Location"]))
    assert "Ana and Cara Lee joined the club." in page
    assert "ben is already in this club." in page
    assert sorted(club.players.values_list("name", flat=True)) == ["Ana", "Ben", "Cara Lee"]
    # One name that cannot be a name refuses them all.
    page = text(client.post(url, {"names": "Dev, Eve\x07"}, follow=True))
    assert "Control characters and broken characters are not allowed here." in page
    assert not club.players.filter(name="Dev").exists()


def test_game_over_sums_the_game_up_and_offers_it_to_share(client):
    game = make_game(players=("Ann", "Ben", "Cat"), lives=1)
    play.record_round(
        game, RoundInputs("knock", knocker=0, lowest=(0,))
    )  # Ann caught: 2 lives, out
    play.record_round(game, RoundInputs("thirty_one", shown_by=(1,)))  # Ben's 31: Cat on the county
    play.record_round(game, RoundInputs("knock", knocker=1, lowest=(2,)))
    assert game.state.winner == "Ben"
    page = text(client.get(game.get_absolute_url()))
    assert "<strong>Ben</strong> wins!" in page
    assert "<li>Ann <small>in round 1</small></li><li>Cat <small>in round 3</small></li>" in page
    assert "<dt>31s, shown or dealt</dt><dd>Ben</dd>" in page
    assert "<dt>Knocked and caught</dt><dd>Ann</dd>" in page
    # A life paid is a coin: the pot stays in the middle unless the table plays it otherwise.
    assert "<dt>Coins</dt><dd>Ben 0, Ann −1, Cat −1 · 2 stay in the middle</dd>" in page
    assert (
        'data-share="Ben won after 3 rounds, under a minute (Scat (31, Pagat&#x27;s main rules)). '
        "Out: Ann (round 1), Cat (round 3). 31s: Ben. Knocked and caught: Ann. "
        'Coins: Ben 0, Ann −1, Cat −1."'
    ) in page
    assert "Play again" in page


def test_where_the_winner_takes_the_pot_the_summary_says_who_is_up_and_down(client):
    """A lives game played for coins (pot_at_end: winner): each life paid is a coin in the
    middle, and at the end the winner takes them all."""
    game = make_game(players=("Ann", "Ben", "Cat"), lives=1, pot_at_end="winner")
    play.record_round(game, RoundInputs("knock", knocker=0, lowest=(0,)))
    play.record_round(game, RoundInputs("thirty_one", shown_by=(1,)))
    play.record_round(game, RoundInputs("knock", knocker=1, lowest=(2,)))
    page = text(client.get(game.get_absolute_url()))
    assert "<dt>Coins</dt><dd>Ben +2, Ann −1, Cat −1</dd>" in page


def test_a_tie_splits_the_pot_and_what_does_not_divide_stays(client):
    game = make_game(
        players=("Ann", "Ben", "Cat"), preset="schwimmen", lives=1, pot_at_end="winner"
    )
    for lowest in [(0,), (0,), (1, 2), (1, 2)]:  # Ann swims, then out; Ben and Cat together
        play.record_round(game, RoundInputs("knock", knocker=1, lowest=lowest))
    assert game.state.tie == ("Ben", "Cat")
    page = text(client.get(game.get_absolute_url()))
    assert "<dt>Coins</dt><dd>Ben 0, Cat 0, Ann −1 · 1 stays in the middle</dd>" in page


def test_invite_a_phone_shows_the_view_link_first_and_the_secret_one_behind_a_warning(client):
    game = make_game()
    page = text(client.get(game.get_absolute_url()))
    invite = reverse("invite", args=[game.club.key, game.id])
    assert f'href="{invite}">Invite a phone</a>' in page
    page = text(client.get(invite))
    view_link = f"http://testserver/v/{game.club.view_key}/g/{game.id}/"
    secret_link = f"http://testserver{game.get_absolute_url()}"
    assert page.index(view_link) < page.index("To keep score too") < page.index(secret_link)
    assert page.count("<svg") >= 2 and "Give it only to whoever keeps score" in page
    # The view link cannot open the invitation (it would show the secret link).
    viewer = f"/v/{game.club.view_key}/g/{game.id}/invite"
    assert client.get(viewer).status_code == 404
    # The club page, too, shows the view link before the secret one.
    club_page = text(client.get(game.club.get_absolute_url()))
    assert club_page.index('id="view-link"') < club_page.index('id="club-link"')


def test_a_game_is_named_at_the_start_and_renamed_from_its_log(client):
    club = make_club()
    ann, ben = play.add_player(club, "Ann"), play.add_player(club, "Ben")
    client.post(
        reverse("new-game", args=[club.key]),
        {
            "preset": "scat",
            "name": "  Friday   at Ann's ",
            f"plays_{ann.pk}": "on",
            f"plays_{ben.pk}": "on",
        },
    )
    game = Game.objects.get()
    assert game.name == "Friday at Ann's"
    assert "Friday at Ann&#x27;s</bdi></a>" in text(client.get(club.get_absolute_url()))
    page = text(
        client.post(
            reverse("name-game", args=[club.key, game.id]), {"name": "Saturday"}, follow=True
        )
    )
    assert "The game is called Saturday now." in page and "Round log: <bdi>Saturday</bdi>" in page
    page = text(
        client.post(
            reverse("name-game", args=[club.key, game.id]), {"name": "Bell\x07"}, follow=True
        )
    )
    assert "Control characters" in page
    assert Game.objects.get().name == "Saturday"
    assert client.post(f"/v/{club.view_key}/g/{game.id}/name", {"name": "x"}).status_code == 404


def test_the_table_switches_between_refereeing_and_counting_lives(client):
    game = make_game()
    url = reverse("game-mode", args=[game.club.key, game.id])
    page = text(client.post(url, {"mode": "count"}, follow=True))
    assert Game.objects.get(pk=game.pk).mode == Game.Mode.COUNT
    assert '<input type="hidden" name="ending" value="manual">' in page and "Has 31" in page
    assert "Referee each round instead" in page
    page = text(client.post(url, {"mode": "referee"}, follow=True))
    assert Game.objects.get(pk=game.pk).mode == Game.Mode.REFEREE and "Has 31" not in page
    page = text(client.post(url, {"mode": "poker"}, follow=True))
    assert "Choose “Referee each round” or “Just count lives”." in page
    assert Game.objects.get(pk=game.pk).mode == Game.Mode.REFEREE
    # The view link cannot switch it.
    assert (
        client.post(f"/v/{game.club.view_key}/g/{game.id}/mode", {"mode": "count"}).status_code
        == 404
    )


def test_a_count_no_round_gives_is_saved_only_once_the_table_confirms(client):
    game = make_game(mode=Game.Mode.COUNT)  # scat: only a knocker loses 2, and alone
    data = {"ending": "manual", "lost_0": "2", "lost_1": "2", "version": "0", "client_id": "t-1"}
    page = text(client.post(url("record", game), {**data, "confirm": "1"}))
    assert "No round of these rules costs these lives. Save it anyway" in page
    assert '<input type="hidden" name="as_counted" value="1">' in page
    assert not Round.objects.exists()
    response = client.post(url("record", game), {**data, "confirm": "1", "as_counted": "1"})
    assert response.status_code == 302
    assert Round.objects.get().losses == {"0": 2, "1": 2}
    # A count a round can give is saved at once, as on the paper sheet.
    usual = {"ending": "manual", "lost_2": "1", "version": "1", "client_id": "t-2"}
    assert client.post(url("record", game), {**usual, "confirm": "1"}).status_code == 302
    assert Round.objects.count() == 2


def test_the_rules_card_prints_the_play_only_rules_as_played_at_the_table(client):
    game = make_game(pass_once=True)
    page = text(client.get(game.get_absolute_url()))
    assert page.count("(played at the table; Knock counts nothing for it)") == 4
    assert "Pass only once a round" in page


def test_recording_a_round_left_to_the_table_before_it_chose_keeps_the_choices(client):
    """Aces wild, two players dealt 31: the rules leave it to the table. A Record before a
    choice keeps the choices on the screen (it used to replace them with a refusal, leaving
    nothing to choose), and saves nothing; with a choice it is saved."""
    game = make_game(preset="aces-wild")
    data = {"ending": "dealt_thirty_one", "shown": ["0", "1"], "version": "0", "confirm": "1"}
    htmx = {"HX-Request": "true"}
    page = text(client.post(url("record", game), data, headers=htmx))
    choices = re.findall(r'<input type="radio" name="choice" value="([\w-]+)"', page)
    assert len(choices) >= 2
    assert Round.objects.filter(game=game).count() == 0
    answer = client.post(url("record", game), {**data, "choice": choices[0]}, headers=htmx)
    assert answer.status_code == 200 and Round.objects.filter(game=game).count() == 1


def test_every_hand_that_cannot_be_read_is_said_at_once_and_nobody_out_gets_a_field(client):
    game = make_game(players=("Ann", "Ben", "Cat", "Dev"))
    play.record_round(game, RoundInputs("knock", knocker=0, lowest=(3,)))
    play.record_round(game, RoundInputs("manual", losses={3: 2}))
    play.record_round(game, RoundInputs("manual", losses={3: 1}))  # Dev is out
    page = text(client.get(url("game", game)))
    assert 'name="cards_0"' in page and 'name="cards_3"' not in page
    # Round 1, edited, is played from the table as it was then: Dev was still in.
    edit = text(client.get(url("edit-round", game, 1)))
    assert 'name="cards_3"' in edit
    data = {
        "ending": "knock",
        "knocker": "0",
        "cards_0": "AS KS QX",  # a typo
        "cards_1": "7H 8H",  # two cards
        "cards_2": "ZZ 2C 3C",  # another typo
        "version": str(game.version),
        "confirm": "1",
    }
    page = text(client.post(url("record", game), data, headers={"HX-Request": "true"}))
    preview = page[page.index('id="preview"') :]
    assert "“QX” is not a card" in preview and "“ZZ” is not a card" in preview
    assert page.count('aria-invalid="true"') >= 2
    assert Round.objects.filter(game=game, state="active").count() == 3


def test_the_card_picker_is_the_deck_of_the_games_rules_in_the_tables_words(client):
    game = make_game(players=("Ann", "Ben"), preset="schwimmen")  # 32 cards
    client.cookies["django_language"] = "de"
    page = text(client.get(game.get_absolute_url(), headers={"Accept-Language": "de"}))
    found = re.search(r'data-deck="([^"]+)"', page)
    deck = json.loads(html.unescape(found.group(1)))
    assert [rank for rank, _letter, _word in deck["ranks"]] == [
        "A",
        "K",
        "Q",
        "J",
        "10",
        "9",
        "8",
        "7",
    ]
    assert [letter for _rank, letter, _word in deck["ranks"]][:4] == ["A", "K", "D", "B"]
    assert [code for code, *_ in deck["suits"]] == ["H", "S", "D", "C"]
    assert deck["name"] == "{suit} {rank}" and deck["suits"][0][2] == "Herz"
