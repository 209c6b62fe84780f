"""Every page on every phone: at 320×568, 360×640, 390×844, 412×915 and a tablet both ways up,
in both themes and both languages, with 2 to 8 players, nothing scrolls sideways, no text is
cut, no word is broken inside itself, nothing is drawn over anything else and every control
can be reached (measured on the boxes the browser laid out: ``fit.js``). The table keeps its
tiles where they were from one round to the next.
"""

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scorekeeper import play
from scorekeeper.models import Game

from ..factory import knock, make_club, make_game

pytestmark = pytest.mark.django_db(transaction=True)

FIT = (Path(__file__).parent / "fit.js").read_text()
SIZES = [(320, 568), (360, 640), (390, 844), (412, 915), (1024, 768), (768, 1024)]
LOCALES = ["en-GB", "de-DE"]
# Eight players, with the names a table has: short ones, a double name, long parts.
NAMES = (
    "Ana",
    "Maximiliane-Josephine",
    "Bartholomäus",
    "Jo",
    "Theo Schwarzenberger",
    "Eve",
    "Friederike",
    "Cara",
)
COUNTS = range(2, 9)


def games_of(club, count):
    """For ``count`` players: a game under way (someone on their last chance, someone out where
    three or more play), a game over, a game played for a pot, and one whose lives are counted
    by tapping the players."""
    names = NAMES[:count]
    going = make_game(players=names, club=club, preset="scat")
    play.record_round(going, knock(going, names[0], [names[1]]))
    if count >= 3:
        for _ in range(3):
            play.record_round(going, knock(going, names[0], [names[2]]))
    over = make_game(players=names, club=club, preset="friendly", lives=1)
    for loser in names[1:]:
        play.record_round(over, knock(over, names[0], [loser]))
    assert Game.objects.get(pk=over.pk).finished
    pot = make_game(players=names, club=club, preset="widow")
    counting = make_game(players=names, club=club, preset="schwimmen", mode=Game.Mode.COUNT)
    play.record_round(counting, knock(counting, names[-1], [names[0]]))
    return going, over, pot, counting


def pages(live, club, count, going, over, pot, counting):
    """Each page of a club's game for ``count`` players: those whose layout follows the number
    of players for every number, the others for 2, 5 and 8 (a row of tiles, one and a half, and
    the most)."""
    key = club.key
    yield f"table, {count} players", live + going.get_absolute_url()
    yield f"game over, {count} players", live + over.get_absolute_url()
    yield f"counting lives, {count} players", live + counting.get_absolute_url()
    yield f"round log, {count} players", live + reverse("round-log", args=[key, over.id])
    if count in (2, 5, 8):
        yield f"pot game, {count} players", live + pot.get_absolute_url()
        yield f"edit round, {count} players", live + reverse("edit-round", args=[key, going.id, 1])
        yield f"score sheet, {count} players", live + reverse("game-sheet", args=[key, over.id])


def club_pages(live, club, game):
    key = club.key
    player = game.seat_list[1].player
    yield "home", live + reverse("home")
    yield "club", live + club.get_absolute_url()
    yield "new game", live + reverse("new-game", args=[key])
    yield "stats", live + reverse("stats", args=[key])
    yield "standings", live + reverse("standings", args=[key]) + "?period=all"
    yield "player", live + reverse("player-stats", args=[key, player.pk])
    yield "player's mark", live + reverse("mark-player", args=[key, player.pk])
    yield "referee", live + reverse("referee")
    yield "game's referee", live + reverse("game-referee", args=[key, game.id])
    yield "rules card", live + reverse("game-rules", args=[key, game.id])
    yield "invite", live + reverse("invite", args=[key, game.id])
    yield "blank sheet", live + reverse("blank-sheet")
    yield "view link", live + club.get_view_url()
    yield from tournament_pages(live, club)


def tournament_pages(live, club):
    """A tournament of the club's players, its first round drawn and one table finished."""
    from scorekeeper import tournaments
    from scorekeeper.rules import build_rules

    rules, _ = build_rules({"preset": "schwimmen", "overrides": {}})
    players = list(club.players.all()[:9])
    tournament = tournaments.start_tournament(
        club, "Kirmes-Turnier 2026", rules, "schwimmen", players
    )
    tournaments.draw_round(tournament, club.key, seed=2)
    key, view = club.key, club.view_key
    yield "tournaments", live + reverse("tournaments", args=[key])
    yield "new tournament", live + reverse("new-tournament", args=[key])
    yield "tournament", live + reverse("tournament", args=[key, tournament.pk])
    yield "table cards", live + reverse("table-cards", args=[key, tournament.pk])
    yield "leaderboard", live + reverse("tournament-board", args=[view, tournament.pk])


def problems_of(page):
    """What does not fit, in either theme."""
    found = []
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        found += [f"{theme}: {problem}" for problem in page.evaluate(FIT)]
    return found


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("locale", LOCALES)
def test_every_page_fits_every_phone(browser, live_server, size, locale):
    club = make_club("Donnerstagsrunde im Café")
    games = {count: games_of(club, count) for count in COUNTS}
    wanted = [
        page for count in COUNTS for page in pages(live_server.url, club, count, *games[count])
    ]
    wanted += club_pages(live_server.url, club, games[8][0])
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=width < 768, locale=locale
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    found = []
    for name, url in wanted:
        page.goto(url)
        page.evaluate("document.fonts.ready")
        found += [f"{name}: {problem}" for problem in problems_of(page)]
    context.close()
    assert not found, "\n".join(found)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_tiles_stay_where_they_are_from_round_to_round(browser, live_server, size):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    for count in (2, 5, 8):
        names = NAMES[:count]
        game = make_game(players=names, preset="scat")
        page.goto(live_server.url + game.get_absolute_url())
        where = [t.bounding_box() for t in page.locator("#record .tile").all()]
        # Each other player loses a life, then the second one a life more.
        for loser in [*names[1:], names[1]]:
            play.record_round(game, knock(game, names[0], [loser]))
            page.reload()
            expect(page.locator("#table h1")).to_contain_text(str(game.round_count + 1))
            assert [t.bounding_box() for t in page.locator("#record .tile").all()] == where
    context.close()
