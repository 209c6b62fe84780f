"""A finished game shared as a picture: the view link's picture and page (never the secret
link), whose text says the game (read back from the pixels by OCR), in the table's language and
theme, each player in the colour of their mark."""

import difflib
import io
import re
import shutil
import subprocess
import unicodedata
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image

from scorekeeper import play
from scorekeeper.lib.marks import PALETTE
from scorekeeper.models import Game

from ..factory import knock, make_club, make_game

pytestmark = pytest.mark.django_db

NAMES = ("Ana", "Bartholomäus", "Cara", "Theo Schwarzenberger")


def finished_game():
    club = make_club("Donnerstagsrunde")
    game = make_game(players=NAMES, club=club, preset="friendly", lives=1)
    for loser in NAMES[1:]:
        play.record_round(game, knock(game, "Ana", [loser]))
    return Game.objects.opened_by(game.pk, club.key)


def picture_url(game, **query):
    url = reverse("view-share-picture", args=[game.club.view_key, game.id])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def pixel_counts(picture) -> Counter:
    return Counter(
        "#" + "".join(f"{c:02x}" for c in pixel) for pixel in picture.get_flattened_data()
    )


def plain(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def read_back(png: bytes, language: str) -> str:
    """The words tesseract reads in the picture."""
    tesseract = shutil.which("tesseract")
    if tesseract is None:
        pytest.fail(
            "tesseract reads the picture back: apt-get install tesseract-ocr tesseract-ocr-deu"
        )
    done = subprocess.run(
        [tesseract, "stdin", "stdout", "-l", language], input=png, capture_output=True, check=True
    )
    return plain(done.stdout.decode())


def appears(words: str, read: str) -> bool:
    """Whether ``words`` is in what was read, a letter or two misread allowed."""
    words = plain(words)
    tokens = read.split()
    size = len(words.split())
    chunks = [" ".join(tokens[i : i + size]) for i in range(len(tokens))]
    return any(difflib.SequenceMatcher(None, words, chunk).ratio() >= 0.8 for chunk in chunks)


def test_the_game_over_page_shares_the_view_links_picture_and_page_never_the_secret_one(client):
    game = finished_game()
    page = client.get(game.get_absolute_url()).content.decode()
    key, view_key = game.club.key, game.club.view_key
    share = re.search(r'<button type="button" class="secondary share"[^>]*>', page).group(0)
    assert f'data-url="http://testserver/v/{view_key}/g/{game.id}/"' in share
    assert (
        f'data-image="http://testserver/v/{view_key}/g/{game.id}/share.png?lang=en&amp;v=' in share
    )
    metas = "\n".join(re.findall(r'<meta (?:property|name)="(?:og|twitter):[^>]*>', page))
    assert (
        f'property="og:image" content="http://testserver/v/{view_key}/g/{game.id}/share.png'
        in metas
    )
    assert 'name="twitter:card" content="summary_large_image"' in metas
    for shared in (share, metas):
        assert key not in shared
    # The view link's page says the same to a chat app, and its picture needs no secret key.
    view_page = client.get(reverse("view-game", args=[view_key, game.id])).content.decode()
    assert f'property="og:image" content="http://testserver/v/{view_key}/g/{game.id}/' in view_page
    answer = client.get(picture_url(game))
    assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(answer.content)).size == (1200, 630)
    # There is no picture under the secret link, nor of a game still being played.
    assert client.get(f"/c/{key}/g/{game.id}/share.png").status_code == 404
    going = make_game(players=("Ana", "Ben"), club=game.club)
    assert client.get(picture_url(going)).status_code == 404


def test_the_picture_says_the_game_in_its_words_and_colours(client):
    game = finished_game()
    png = client.get(picture_url(game)).content
    picture = Image.open(io.BytesIO(png))
    said = picture.text["Title"] + " " + picture.text["Description"]
    for words in ("Ana won", "Donnerstagsrunde", "Friendly Thirty-One", "3 rounds", *NAMES):
        assert words in said
    read = read_back(png, "eng")
    for words in ("Ana won", "Friendly Thirty-One", "3 rounds", *NAMES, "out in round 1"):
        assert appears(words, read), (words, read)
    # Every player's line and mark in the colour they wear, on the light paper.
    colours = {seat.player.mark.colour for seat in game.seat_list}
    pixels = pixel_counts(picture)
    for colour in colours:
        assert pixels[PALETTE[colour].light] > 200, PALETTE[colour].word
    assert picture.getpixel((5, 620)) == (0xFB, 0xFA, 0xF7)


def test_each_line_of_the_picture_ends_in_its_players_mark(client):
    """No one needs the colour to tell the lines apart: each ends in the player's mark (its
    colour round its initials), the winner's at the top level, the three who went out side by
    side at the bottom one."""
    from scorekeeper.reports.picture import CHART, END_MARK

    game = finished_game()
    picture = Image.open(io.BytesIO(client.get(picture_url(game)).content))
    _left, top, right, bottom = CHART
    marks = [seat.player.mark for seat in game.seat_list]

    def mark_at(x, y):
        """The palette colour filling most of the ring just inside a mark's edge at x, y."""
        ring = Counter(
            picture.getpixel((round(x + dx * (END_MARK - 3)), round(y + dy * (END_MARK - 3))))
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, -0.7))
        )
        colour = "#{:02x}{:02x}{:02x}".format(*ring.most_common(1)[0][0])
        return next((i for i, c in enumerate(PALETTE) if c.light == colour), None)

    # Ana won with her one life (the top level); everyone else is out (the bottom level).
    assert mark_at(right, top) == marks[0].colour
    out = {mark_at(right - k * (2 * END_MARK + 4), bottom) for k in range(3)}
    assert out == {mark.colour for mark in marks[1:]}


def test_the_picture_in_german_and_dark(client):
    game = finished_game()
    png = client.get(picture_url(game, lang="de", theme="dark")).content
    picture = Image.open(io.BytesIO(png))
    assert "Ana hat gewonnen" in picture.text["Title"]
    assert "Freundliches Einunddreißig" in picture.text["Description"]
    assert picture.getpixel((5, 620)) == (0x10, 0x13, 0x11)
    read = read_back(png, "deu")
    for words in ("Ana hat gewonnen", "3 Runden", "raus in Runde 1", "Bartholomäus"):
        assert appears(words, read), (words, read)
    colours = {seat.player.mark.colour for seat in game.seat_list}
    pixels = pixel_counts(picture)
    for colour in colours:
        assert pixels[PALETTE[colour].dark] > 200, PALETTE[colour].word


def test_a_picture_asked_for_again_is_not_drawn_again(client):
    game = finished_game()
    first = client.get(picture_url(game))
    again = client.get(picture_url(game), headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and not again.content
    other = client.get(picture_url(game, theme="dark"), headers={"If-None-Match": first["ETag"]})
    assert other.status_code == 200


@pytest.mark.django_db
def test_the_picture_may_be_cached_and_is_drawn_once_per_version_language_and_theme(client):
    """A chat's preview may keep the picture (it shows only what the view link shows), and
    every further preview of the same version, language and theme is the drawn one, kept."""
    game = finished_game()
    first = client.get(picture_url(game, lang="en"))
    assert first["Cache-Control"] == "public, max-age=3600"
    assert first["X-Robots-Tag"] == "noindex, nofollow"
    with CaptureQueriesContext(connection) as queries:
        again = client.get(picture_url(game, lang="en"))
    assert again.content == first.content
    # The game and its link are read; the seats and rounds a drawing reads are not.
    assert not [q for q in queries if "scorekeeper_round" in q["sql"]]
    dark = client.get(picture_url(game, lang="en", theme="dark"))
    assert dark.content != first.content
    # The view link's pages themselves stay uncached.
    page = client.get(f"/v/{game.club.view_key}/g/{game.id}/")
    assert page["Cache-Control"] == "no-store"


def test_a_picture_is_kept_on_disk_not_in_a_workers_memory_and_a_renamed_player_is_a_new_one(
    client, settings, tmp_path
):
    """Pictures are kept in the box's file cache (at most 300 of them), never in each worker's
    memory; and they are kept by what they show: a player renamed is drawn anew at once."""
    settings.CACHES = {
        **settings.CACHES,
        "pictures": {**settings.CACHES["pictures"], "LOCATION": str(tmp_path)},
    }
    game = finished_game()
    first = client.get(picture_url(game, lang="en"))
    kept = list(tmp_path.iterdir())
    assert len(kept) == 1 and kept[0].stat().st_size > 10_000  # the picture, compressed
    assert settings.CACHES["pictures"]["OPTIONS"]["MAX_ENTRIES"] * 90_000 <= 30_000_000
    play.rename_player(game.club.players.get(name="Cara"), "Carola")
    renamed = client.get(picture_url(game, lang="en"), headers={"If-None-Match": first["ETag"]})
    assert renamed.status_code == 200 and renamed["ETag"] != first["ETag"]
    assert renamed.content != first.content and len(list(tmp_path.iterdir())) == 2
