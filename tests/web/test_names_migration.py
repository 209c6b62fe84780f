"""Names stored before format characters were refused are cleaned by migration 0019: nothing
lost, no look-alikes left, every key made again."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("scorekeeper", "0018_news_of_a_game_on_postgresql")]
AFTER = [("scorekeeper", "0019_names_without_format_characters")]


def test_stored_names_lose_their_format_characters_and_keep_apart(to_the_latest_migrations_after):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    Club, Player = apps.get_model("scorekeeper", "Club"), apps.get_model("scorekeeper", "Player")
    club = Club.objects.create(
        name="Thursday\u202e table", key_hash="a" * 64, view_key_hash="b" * 64
    )
    for name in ("Ann", "\u200bAnn", "Ben\u202eneB\u200f", "Zoé", "Zoe\u0301", "Cat"):
        Player.objects.create(club=club, name=name, name_key=" ".join(name.split()).casefold())
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    Club, Player = apps.get_model("scorekeeper", "Club"), apps.get_model("scorekeeper", "Player")
    assert Club.objects.get().name == "Thursday table"
    names = list(Player.objects.order_by("pk").values_list("name", "name_key"))
    assert names == [
        ("Ann", "ann"),
        ("Ann (2)", "ann (2)"),
        ("BenneB", "benneb"),
        ("Zoé", "zoé"),
        ("Zoé (2)", "zoé (2)"),
        ("Cat", "cat"),
    ]
