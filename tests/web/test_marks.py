"""Each player's mark, a colour and initials: readable in both themes, distinct within a club
while colours last, chosen at first, changeable, and the same wherever the player is shown."""

import re
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from scorekeeper import play
from scorekeeper.backup import export_club, import_club
from scorekeeper.lib.marks import ON_DARK, ON_LIGHT, PALETTE, palette_css
from scorekeeper.models import Club, Player
from scorekeeper.rules.errors import InputError

from ..factory import knock, make_club, make_game

CSS = (Path(__file__).resolve().parents[2] / "static" / "css" / "knock.css").read_text()
# The papers a mark lies on, as knock.css declares them: light paper and surface, dark ones.
LIGHT_PAPERS = {"paper": "#fbfaf7", "surface": "#ffffff", "county tile": "#fffaf0"}
DARK_PAPERS = {"paper": "#101311", "surface": "#1b201d", "county tile": "#2b2414"}


def luminance(colour: str) -> float:
    def channel(c: int) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_colour_reads_in_both_themes():
    assert len({c.light for c in PALETTE}) == len({c.dark for c in PALETTE}) == len(PALETTE) == 10
    for colour in PALETTE:
        # The initials on the mark: 4.5:1, as text must.
        assert contrast(colour.light, ON_LIGHT) >= 4.5, colour.word
        assert contrast(colour.dark, ON_DARK) >= 4.5, colour.word
        # The mark and a chart's line against every paper it lies on: 3:1, as a graphic must.
        for paper in LIGHT_PAPERS.values():
            assert contrast(colour.light, paper) >= 3, (colour.word, paper)
        for paper in DARK_PAPERS.values():
            assert contrast(colour.dark, paper) >= 3, (colour.word, paper)
    for paper in (*LIGHT_PAPERS.values(), *DARK_PAPERS.values()):
        assert paper in CSS


def test_the_stylesheet_holds_the_palette_as_declared_once():
    assert palette_css() in CSS
    assert f"--on-pc: light-dark({ON_LIGHT}, {ON_DARK})" in CSS


@pytest.mark.django_db
def test_new_players_wear_colours_nobody_wears_until_there_are_none_left():
    club = make_club()
    names = ["Ana", "Anton", "Ben", "Bea", "Cara", "Dev", "Eve", "Finn", "Gus", "Hal", "Ida"]
    players = [play.add_player(club, name) for name in names]
    colours = [p.colour for p in players]
    assert colours[:10] == list(range(10))  # each its own while colours last
    assert colours[10] == 0  # the eleventh shares the first of the least worn
    initials = [p.initials for p in players]
    assert initials[:4] == ["An", "Ant", "Be", "Bea"]
    assert len({i.casefold() for i in initials}) == len(initials)
    assert play.add_player(club, "Maximiliane-Josephine").initials == "MJ"


@pytest.mark.django_db
def test_a_retired_players_colour_goes_to_the_next_new_player():
    club = make_club()
    ana, ben = play.add_player(club, "Ana"), play.add_player(club, "Ben")
    play.retire_player(ana, True)
    cara = play.add_player(club, "Cara")
    assert cara.colour == ana.colour
    # Back, Ana wears a colour nobody wears: Cara keeps hers.
    play.retire_player(ana, False)
    ana.refresh_from_db()
    assert ana.colour not in (cara.colour, ben.colour)


@pytest.mark.django_db
def test_a_mark_is_changed_and_what_cannot_be_is_refused_naming_its_field():
    club = make_club()
    ana, ben = play.add_player(club, "Ana"), play.add_player(club, "Ben")
    play.mark_player(ana, "AS", 5)
    ana.refresh_from_db()
    assert (ana.colour, ana.initials) == (5, "AS")
    cases = [
        (("be", 3), "initials", "Ben has the initials be"),
        (("A-S", 3), "initials", "initials are 1 to 3 letters or digits"),
        (("", 3), "initials", "initials are 1 to 3 letters or digits"),
        (("ANNA", 3), "initials", "initials are 1 to 3 letters or digits"),
        (("AS", ben.colour), "colour", "Ben wears orange: pick a colour nobody wears"),
        (("AS", 10), "colour", "pick one of the colours shown"),
    ]
    for (initials, colour), field, said in cases:
        with pytest.raises(InputError) as refused:
            play.mark_player(ana, initials, colour)
        assert (refused.value.field, refused.value.message) == (field, said)
    ana.refresh_from_db()
    assert (ana.colour, ana.initials) == (5, "AS")


@pytest.mark.django_db
def test_a_colour_may_be_shared_once_every_colour_is_worn():
    club = make_club()
    players = [play.add_player(club, f"Player {n}") for n in range(len(PALETTE) + 1)]
    last = players[-1]  # the eleventh, who shares the first colour: the others wear them all
    play.mark_player(last, "P10", players[1].colour)
    last.refresh_from_db()
    assert last.colour == players[1].colour


@pytest.mark.django_db
def test_a_mark_is_picked_on_its_page_and_a_refusal_is_said_beside_its_field(client):
    club = make_club()
    ana, ben = play.add_player(club, "Ana"), play.add_player(club, "Ben")
    url = reverse("mark-player", args=[club.key, ana.pk])
    assert url in client.get(club.get_absolute_url()).content.decode()
    page = client.get(url).content.decode()
    # Ten colours by name, the one Ben wears said as his, Ana's own checked.
    assert page.count('name="colour"') == len(PALETTE)
    assert "orange, worn by Ben" in page
    assert 'value="0" checked' in page
    answer = client.post(url, {"initials": "ANA", "colour": "4"}, follow=True)
    assert answer.redirect_chain[-1][0].endswith("#players")
    assert "Ana is ANA in red now." in answer.content.decode()
    for sent, field, said in [
        ({"initials": "Be", "colour": "4"}, "initials", "Ben has the initials Be."),
        ({"initials": "A<b", "colour": "4"}, "initials", "Initials are 1 to 3 letters or digits."),
        ({"initials": "ANNA", "colour": "4"}, "initials", "Initials are 1 to 3 letters or digits."),
        ({"colour": "2"}, "initials", "Initials are 1 to 3 letters or digits."),
        ({"initials": "AN", "colour": "blue"}, "colour", "Pick one of the colours shown."),
        ({"initials": "AN", "colour": "10"}, "colour", "Pick one of the colours shown."),
        ({"initials": "AN"}, "colour", "Pick one of the colours shown."),
        (
            {"initials": "AN", "colour": str(ben.colour)},
            "colour",
            "Ben wears orange: pick a colour",
        ),
    ]:
        answer = client.post(url, sent)
        assert answer.status_code == 200, sent
        assert said in " ".join(answer.context["form"].errors[field]), sent
        body = answer.content.decode()
        error_at = 'id="colour-error"' if field == "colour" else 'id="id_initials_error"'
        assert error_at in body, sent
    ana.refresh_from_db()
    assert (ana.initials, ana.colour) == ("ANA", 4)
    # Through the view link nothing changes.
    view = reverse("mark-player", args=[club.view_key, ana.pk])
    assert client.post(view, {"initials": "X", "colour": "1"}).status_code == 404
    ana.refresh_from_db()
    assert ana.initials == "ANA"


@pytest.mark.django_db
def test_a_player_wears_the_same_mark_on_every_page(client):
    club = make_club()
    game = make_game(players=("Ana", "Ben", "Cara"), club=club, preset="friendly", lives=1)
    play.record_round(game, knock(game, "Ana", ["Ben"]))
    play.record_round(game, knock(game, "Ana", ["Cara"]))  # Ana wins: the stats count the game
    ana = club.players.named("Ana")
    play.mark_player(ana, "Zz", 6)
    drawn = re.compile(r'<span class="mark pc-6" aria-hidden="true">Zz</span>')
    pages = {
        "table": game.get_absolute_url(),
        "round log": reverse("round-log", args=[club.key, game.id]),
        "score sheet": reverse("game-sheet", args=[club.key, game.id]),
        "stats": reverse("stats", args=[club.key]),
        "club": club.get_absolute_url(),
    }
    for page, url in pages.items():
        assert drawn.search(client.get(url).content.decode()), page
    # The chart draws Ana's line in her colour.
    log = client.get(pages["round log"]).content.decode()
    assert re.search(r'<polyline [^>]*class="line pc-6"', log)


@pytest.mark.django_db
def test_a_club_file_keeps_its_players_marks():
    club = make_club()
    ana = play.add_player(club, "Ana")
    play.mark_player(ana, "Q", 7)
    data = export_club(Club.objects.with_key(club.key))
    assert data["players"][0] | {"created": None} == {
        "name": "Ana",
        "retired": False,
        "created": None,
        "colour": 7,
        "initials": "Q",
    }
    Club.objects.all().delete()
    copy = import_club(data)
    assert [(p.name, p.colour, p.initials) for p in copy.players.all()] == [("Ana", 7, "Q")]


def models_at_0019():
    """The database migrated back to 0019 (before marks); its Club and Player models."""
    before = [("scorekeeper", "0019_names_without_format_characters")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    return apps.get_model("scorekeeper", "Club"), apps.get_model("scorekeeper", "Player")


def to_0020():
    executor = MigrationExecutor(connection)
    executor.migrate([("scorekeeper", "0020_player_marks")])
    executor.loader.build_graph()


@pytest.mark.django_db(transaction=True)
def test_players_stored_before_marks_get_distinct_ones(to_the_latest_migrations_after):
    OldClub, OldPlayer = models_at_0019()
    for n in range(2):
        club = OldClub.objects.create(
            name=f"Club {n}", key_hash=f"{n}" * 64, view_key_hash=f"v{n}" * 32
        )
        for name in ("Ann", "Anna", "Ben", "Theo Schwarz"):
            OldPlayer.objects.create(club=club, name=name, name_key=name.casefold())
    to_0020()
    for club in Club.objects.all():
        marks = list(
            Player.objects.filter(club=club).order_by("pk").values_list("colour", "initials")
        )
        assert marks == [(0, "An"), (1, "Ann"), (2, "Be"), (3, "TS")]


@pytest.mark.django_db
@pytest.mark.parametrize("pattern", ["Player {n:03}", "Guest {n}", "Tisch {n}"])
def test_160_players_of_one_name_pattern_are_all_added_with_distinct_initials(client, pattern):
    """Past the name's own initials, its letters and a number from 2 to 99, initials are its
    first letter and any two letters or digits: a club of "Guest 1"…"Guest 160" is no 500."""
    club = make_club()
    names = [pattern.format(n=n) for n in range(1, 161)]
    for start in range(0, len(names), 40):
        answer = client.post(
            f"/c/{club.key}/players/add", {"names": ", ".join(names[start : start + 40])}
        )
        assert answer.status_code in (200, 302)
    initials = list(club.players.values_list("initials", flat=True))
    assert len(initials) == 160
    assert len({i.casefold() for i in initials}) == 160
    assert all(1 <= len(i) <= 3 and i.isalnum() for i in initials)


@pytest.mark.django_db
def test_a_club_file_of_such_names_imports():
    club = make_club()
    for n in range(130):
        play.add_player(club, f"Guest {n}")
    data = export_club(club)
    Club.objects.all().delete()
    copy = import_club(data)
    assert copy.players.count() == 130


@pytest.mark.django_db(transaction=True)
def test_migration_0020_marks_120_players_of_one_name(to_the_latest_migrations_after):
    """An instance stopped at 0019 with 120 players named "Guest 1"…"Guest 120" upgrades."""
    OldClub, OldPlayer = models_at_0019()
    club = OldClub.objects.create(name="Guests", key_hash="g" * 64, view_key_hash="w" * 64)
    for n in range(1, 121):
        OldPlayer.objects.create(club=club, name=f"Guest {n}", name_key=f"guest {n}")
    to_0020()
    initials = list(Player.objects.values_list("initials", flat=True))
    assert len(initials) == 120 and len({i.casefold() for i in initials}) == 120
