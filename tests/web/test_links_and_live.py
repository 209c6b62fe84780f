"""View links, replaced links, keys kept secret, live updates and stale taps."""

import io
import logging

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import play
from scorekeeper.models import Club, Round

from ..factory import knock, make_game, record_knocks

pytestmark = pytest.mark.django_db


def text(response):
    return response.content.decode()


def recording_urls(club, game, key):
    return [
        ("post", reverse("record", args=[key, game.id])),
        ("post", reverse("undo", args=[key, game.id])),
        ("post", reverse("edit-round", args=[key, game.id, 1])),
        ("get", reverse("edit-round", args=[key, game.id, 1])),
        ("post", reverse("play-again", args=[key, game.id])),
        ("get", reverse("new-game", args=[key])),
        ("post", reverse("add-player", args=[key])),
        ("post", reverse("replace-link", args=[key])),
        ("get", reverse("club", args=[key])),
        ("get", reverse("game", args=[key, game.id])),
        ("get", reverse("export-club", args=[key])),
        ("get", reverse("game-version", args=[key, game.id]) + "?v=0"),
    ]


def test_the_view_link_shows_the_games_live_and_no_controls(client):
    game = record_knocks(make_game(), [("Ann", ["Ben"])])
    club = game.club
    page = text(client.get(f"/v/{club.view_key}/"))
    assert "view link" in page and "New game" not in page and club.key not in page
    page = text(client.get(f"/v/{club.view_key}/g/{game.id}/"))
    assert "Ben" in page and "Record round" not in page and "Undo" not in page
    assert f"/v/{club.view_key}/g/{game.id}/version?v={game.version}" in page
    assert club.key not in page
    log = text(client.get(f"/v/{club.view_key}/g/{game.id}/log"))
    assert "Ben loses 1 life" in log and "Edit round" not in log


def test_a_view_key_opens_no_recording_url_partial_or_api_call(client):
    game = record_knocks(make_game(), [("Ann", ["Ben"])])
    club = game.club
    for method, url in recording_urls(club, game, club.view_key):
        response = getattr(client, method)(url, {"ending": "knock"}, headers={"HX-Request": "true"})
        assert response.status_code == 404, url
    headers = {"Authorization": f"Bearer {club.view_key}"}
    # To the API a view key is no club's key.
    assert client.get(f"/api/v1/games/{game.id}", headers=headers).status_code == 401
    response = client.post(
        f"/api/v1/games/{game.id}/undo", "{}", content_type="application/json", headers=headers
    )
    assert response.status_code == 401
    assert Round.objects.filter(state="active").count() == 1


def test_a_replaced_link_stops_working_at_once_with_a_clear_page(client):
    game = make_game()
    club = game.club
    old_key, old_view = club.key, club.view_key
    response = client.post(reverse("replace-link", args=[old_key]), {"which": "secret"})
    club = Club.objects.with_key(response["Location"].split("/")[2])
    assert club.key != old_key
    assert response["Location"] == f"/c/{club.key}/"
    gone = client.get(f"/c/{old_key}/")
    assert gone.status_code == 410 and "This link was replaced" in text(gone)
    assert client.post(reverse("record", args=[old_key, game.id]), {}).status_code == 410
    assert client.get(f"/c/{club.key}/").status_code == 200
    # Whoever had the old secret link could open the view link: it was replaced with it.
    assert client.get(f"/v/{old_view}/").status_code == 410
    second_view = club.view_key
    assert client.get(f"/v/{second_view}/").status_code == 200
    client.post(reverse("replace-link", args=[club.key]), {"which": "view", "generation": "0"})
    assert client.get(f"/v/{second_view}/").status_code == 410
    club = Club.objects.with_key(club.key)
    assert club.view_generation == 1
    assert client.get(f"/v/{club.view_key}/").status_code == 200
    assert client.get(f"/c/{club.key}/").status_code == 200  # the secret link did not change
    assert client.get("/c/never-a-key/").status_code == 404


# Django decodes a path before routing it: /%63/KEY/ opens the club as /c/KEY/ does.
@pytest.mark.parametrize("link", ["/c/{key}/", "/%63/{key}/", "/c%2F{key}/"])
def test_keys_are_never_logged(client, link):
    game = make_game()
    handler = logging.getLogger("django").handlers[0]  # the console handler of the settings
    stream = io.StringIO()
    old = handler.setStream(stream)
    try:
        client.get(link.format(key=game.club.key) + "g/00000000-0000-0000-0000-000000000000/")
    finally:
        handler.setStream(old)
    logged = stream.getvalue()
    assert "Not Found: /c/…/g/00000000-0000-0000-0000-000000000000/" in logged
    assert game.club.key not in logged


def test_links_are_not_sent_as_a_referrer_to_other_sites(client):
    game = make_game()
    response = client.get(game.get_absolute_url())
    assert response["Referrer-Policy"] == "same-origin"


def test_the_poll_says_unchanged_cheaply_and_changed_with_an_event(
    client, django_assert_num_queries
):
    game = make_game()
    url = reverse("game-version", args=[game.club.key, game.id])
    with django_assert_num_queries(1):
        response = client.get(url, {"v": "0"})
    assert response.status_code == 204 and response.content == b""
    record_knocks(game, [("Ann", ["Ben"])])
    with django_assert_num_queries(1):
        response = client.get(url, {"v": "0"})
    assert response.status_code == 200
    assert '"game-changed"' in response["HX-Trigger"]
    view_url = reverse("view-game-version", args=[game.club.view_key, game.id])
    assert client.get(view_url, {"v": "1"}).status_code == 204
    assert (
        client.get(reverse("game-version", args=["wrong", game.id]), {"v": "1"}).status_code == 404
    )


def test_every_page_of_a_game_polls_and_refreshes(client):
    game = make_game()
    for url in (game.get_absolute_url(), reverse("round-log", args=[game.club.key, game.id])):
        page = text(client.get(url))
        assert 'hx-trigger="every 2s"' in page and 'data-events="' in page
        assert 'hx-trigger="game-changed from:body"' in page


def test_a_tap_on_a_game_that_changed_is_refused_with_the_table_now(client):
    game = make_game()
    play.record_round(game, knock(game, "Ann", ["Ben"]))
    data = {
        "ending": "knock",
        "knocker": "0",
        "lowest": ["2"],
        "version": "0",
        "confirm": "1",
        "client_id": "phone-2",
    }
    page = text(client.post(reverse("record", args=[game.club.key, game.id]), data, follow=True))
    assert "Another phone recorded round 1 a moment ago. Nothing was saved from this tap." in page
    assert Round.objects.count() == 1


def test_a_repeated_tap_is_recognised_and_applied_once(client):
    game = make_game()
    data = {
        "ending": "knock",
        "knocker": "0",
        "lowest": ["2"],
        "version": "0",
        "confirm": "1",
        "client_id": "tap-7",
    }
    url = reverse("record", args=[game.club.key, game.id])
    client.post(url, data)
    page = text(client.post(url, data, follow=True))
    assert "That round was already recorded." in page
    assert Round.objects.count() == 1


def test_recording_needs_the_csrf_token_which_htmx_sends_in_a_header():
    game = make_game()
    client = Client(enforce_csrf_checks=True)
    url = reverse("record", args=[game.club.key, game.id])
    data = {"ending": "knock", "knocker": "0", "lowest": ["1"], "version": "0", "confirm": "1"}
    assert client.post(url, data, headers={"HX-Request": "true"}).status_code == 403
    page = text(client.get(game.get_absolute_url()))
    token = client.cookies["csrftoken"].value
    assert 'hx-headers=\'{"x-csrftoken": "' in page
    response = client.post(url, data, headers={"HX-Request": "true", "X-CSRFToken": token})
    assert response.status_code == 200 and Round.objects.count() == 1


def test_creating_clubs_is_rate_limited_per_address(client, settings):
    settings.KNOCK_CLUBS_PER_HOUR = 2
    for name in ("One", "Two"):
        assert client.post("/clubs/new", {"name": name}).status_code == 302
    response = client.post("/clubs/new", {"name": "Three"})
    assert response.status_code == 429 and "Too many clubs" in text(response)
    api = client.post("/api/v1/clubs", '{"name": "Four"}', content_type="application/json")
    assert api.status_code == 429 and api.json()["field"] == "name"
    other = Client(REMOTE_ADDR="10.1.2.3")
    assert other.post("/clubs/new", {"name": "Elsewhere"}).status_code == 302
    assert Club.objects.count() == 3
    assert "10.1.2.3" not in str(list(Club.objects.values_list("created_by", flat=True)))
