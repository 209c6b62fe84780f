"""Hostile and broken input: the JSON API fuzzed from its own OpenAPI description, the HTML forms
fuzzed with Hypothesis. No input gives a 500 or saves part of a round."""

import json
import unicodedata

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import play
from scorekeeper.api.base import api
from scorekeeper.models import Club, Game, Player, Round
from scorekeeper.rules import PRESETS

from ..factory import make_game, reloaded

pytestmark = pytest.mark.django_db
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))

SPEC = api.get_openapi_schema()  # generated from the schemas that check every body
NAMES = st.sampled_from(["Ann", "Ben", "Cat", "Zed", "", "ann", "<script>", "\u202eBen", "A\x00n"])
CARDS = st.sampled_from(["AS", "KS", "9D", "10h", "A♠", "5S", "ZZ", "", "AS KS QS", "7C 8C 9C"])
# What an attacker sends: numbers as long text, half characters, nonsense numbers.
HOSTILE_VALUES = st.sampled_from(
    [
        "1e50000000",
        "1e4300",
        "1e-5000",
        "\ud800",
        "Ann\udfff",
        "9" * 5000,
        float("inf"),
        10**4000,
        -(10**30),
        "\x1b[31m",
    ]
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats()
    | st.text(max_size=30)
    | NAMES
    | CARDS
    | HOSTILE_VALUES,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=15,
)


def schema_value(schema: dict, depth: int = 0):
    """Values shaped by a schema of the OpenAPI description, mixed with anything at all."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return schema_value(SPEC["components"]["schemas"][name], depth)
    if "oneOf" in schema:
        return st.one_of([schema_value(s, depth) for s in schema["oneOf"]])
    anything = json_values
    if "enum" in schema:
        return st.sampled_from(schema["enum"]) | anything
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "object" in kinds and "properties" in schema and depth < 3:
        props = {k: schema_value(v, depth + 1) for k, v in schema["properties"].items()}
        return st.fixed_dictionaries({}, optional=props) | anything
    if "array" in kinds and "items" in schema and depth < 3:
        return st.lists(schema_value(schema["items"], depth + 1), max_size=6) | anything
    if "string" in kinds:
        return NAMES | CARDS | st.text(max_size=40) | anything
    if "integer" in kinds or "number" in kinds:
        return st.integers(-3, 40) | st.sampled_from([30.5, 31, 1e300]) | anything
    return anything


def request_body(path: str):
    operation = SPEC["paths"][path]["post"]
    schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    return schema_value(schema.get("schema", {}))


@pytest.fixture
def game():
    return make_game(players=("Ann", "Ben", "Cat"))


def invariant(game: Game) -> None:
    """Whatever was sent, the game is whole: its rounds replay under its rules, to the state
    stored with it."""
    game = reloaded(game)
    assert game.steps()[0] == game.state
    assert game.round_count == Round.objects.filter(game=game, state="active").count()


@pytest.mark.parametrize(
    "path", [p for p, ops in SPEC["paths"].items() if "post" in ops and "{" not in p]
)
@FUZZ
@given(data=st.data())
def test_the_open_endpoints_never_fail_on_any_body(path, data):
    body = data.draw(request_body(path) | json_values)
    clubs = Club.objects.count()
    response = Client().post(path, json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 201, 400, 429), response.content
    answer = response.json()
    if response.status_code == 400:
        assert set(answer) == {"error", "field"} and answer["error"] and answer["field"]
    assert Club.objects.count() - clubs == (1 if response.status_code == 201 else 0)


@pytest.mark.parametrize("path", ["/api/v1/games/{game}/rounds", "/api/v1/games/{game}/undo"])
@FUZZ
@given(data=st.data())
def test_the_game_endpoints_never_fail_or_save_half_a_round(game, path, data):
    body = data.draw(request_body(path) | json_values)
    rounds = Round.objects.count()
    headers = {"Authorization": f"Bearer {game.club.key}"}
    url = path.replace("{game}", str(game.id))
    response = Client().post(
        url, json.dumps(body), content_type="application/json", headers=headers
    )
    assert response.status_code in (200, 400, 409), response.content
    change = Round.objects.count() - rounds
    assert change in ((0, 1) if response.status_code == 200 else (0,))
    invariant(game)


@FUZZ
@given(data=st.data())
def test_new_games_from_the_api_are_all_or_nothing(game, data):
    body = data.draw(request_body("/api/v1/clubs/{club}/games") | json_values)
    players, games = Player.objects.count(), Game.objects.count()
    headers = {"Authorization": f"Bearer {game.club.key}"}
    url = f"/api/v1/clubs/{game.club.id}/games"
    response = Client().post(
        url, json.dumps(body), content_type="application/json", headers=headers
    )
    assert response.status_code in (201, 400), response.content
    if response.status_code == 400:
        assert (Player.objects.count(), Game.objects.count()) == (players, games)


form_text = NAMES | CARDS | st.text(max_size=60) | st.sampled_from(["0", "1", "2", "9", "-1", "x"])


@FUZZ
@given(data=st.data())
def test_the_record_form_never_fails_or_saves_half_a_round(game, data):
    fields = [
        "ending",
        "knocker",
        "shown",
        "lowest",
        "choice",
        "version",
        "client_id",
        "cards_0",
        "cards_1",
        "cards_2",
        "confirm",
        "preview",
    ]
    values = {
        "ending": st.sampled_from(
            ["knock", "thirty_one", "dealt_thirty_one", "stock_out", "three_aces", "bust", ""]
        ),
        "shown": st.lists(form_text, max_size=3),
        "lowest": st.lists(form_text, max_size=3),
    }
    post = {
        name: data.draw(values.get(name, form_text)) for name in fields if data.draw(st.booleans())
    }
    rounds = Round.objects.count()
    response = Client().post(reverse("record", args=[game.club.key, game.id]), post)
    assert response.status_code in (200, 302)
    assert Round.objects.count() - rounds in ((0, 1) if response.status_code == 302 else (0,))
    invariant(game)


@FUZZ
@given(data=st.data())
def test_the_referee_form_never_fails(data):
    fields = [
        "preset",
        "ending",
        "players",
        "knocker",
        "dealer",
        "shown",
        "choice",
        "settle",
        "add",
        "rule_lives",
        "rule_three_of_a_kind",
        "rule_min_knock",
        "rule_all_out",
    ]
    fields += [f"p{i}-{part}" for i in range(4) for part in ("name", "cards", "pick")]
    post = {name: data.draw(form_text) for name in fields if data.draw(st.booleans())}
    response = Client().post(
        reverse("referee"), post, headers={"HX-Request": "true"} if data.draw(st.booleans()) else {}
    )
    assert response.status_code == 200


@FUZZ
@given(data=st.data())
def test_the_new_game_form_never_fails(game, data):
    club = game.club
    members = list(club.players.all())
    fields = ["preset", "lives", "new_players", "first_dealer", "rule_deck", "rule_last_chance"]
    fields += [f"plays_{p.pk}" for p in members] + [f"seat_{p.pk}" for p in members]
    post = {name: data.draw(form_text) for name in fields if data.draw(st.booleans())}
    response = Client().post(reverse("new-game", args=[club.key]), post)
    assert response.status_code in (200, 302)


HOSTILE = [
    "<script>alert(1)</script>",
    "\"quoted\" & 'single' <b>",
    "Ben\u202eneB\u200f",  # right-to-left override and mark
    "😀🃏♠️",
    "x" * 10_000,
]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_are_stored_or_refused_cleanly_and_always_shown_escaped(client, name):
    response = client.post("/clubs/new", {"name": name})
    invisible = any(unicodedata.category(char) == "Cf" for char in name)
    if len(name) > 100:
        assert response.status_code == 400 and not Club.objects.exists()
        assert "Ensure this value has at most 100 characters" in response.content.decode()
        club = Club.objects.create(name="Stand-in")
    elif invisible:  # a bidi override or mark makes a name that reads as another
        assert response.status_code == 400 and not Club.objects.exists()
        assert "Invisible characters (right-to-left marks" in response.content.decode()
        club = Club.objects.create(name="Stand-in")
    else:
        assert response.status_code == 302
        club = Club.objects.with_key(response["Location"].split("/")[2])
        assert club.name == name
    page = client.post(reverse("add-player", args=[club.key]), {"name": name}, follow=True)
    text = page.content.decode()
    assert "<script>alert(1)</script>" not in text and "<b>" not in text
    if len(name) > 60 or invisible:
        assert not club.players.exists()
        assert ("Invisible characters" if invisible else "at most 60 characters") in text
        return
    assert club.players.get().name == " ".join(name.split())
    ben = play.add_player(club, "Ben")
    hostile = club.players.exclude(pk=ben.pk).get()
    game = play.start_game(club, [hostile, ben], 0, PRESETS["scat"].rules, "scat")
    for url in (
        game.get_absolute_url(),
        reverse("round-log", args=[club.key, game.id]),
        club.get_absolute_url(),
        "/",
    ):
        text = client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in text and "<b>" not in text
    if "<script>" in name:
        assert "&lt;script&gt;" in client.get(game.get_absolute_url()).content.decode()
