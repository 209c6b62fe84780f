"""Names keep no format characters: the bidi overrides, isolates and marks (U+202E, U+2066,
U+200F) and the zero-width characters (U+200B, U+200D, U+FEFF) that names stored before this
release may hold are taken out, and each name is composed (NFC) with its key made again. A name
that would then read as another player's of the club keeps a number after it ("Ann (2)"), so
that no two players look alike and nothing is lost."""

import unicodedata

from django.db import migrations


def visible(name: str) -> str:
    kept = "".join(char for char in name if unicodedata.category(char) != "Cf")
    return unicodedata.normalize("NFC", " ".join(kept.split())) or "?"


def key(name: str) -> str:
    return " ".join(name.split()).casefold()


def forwards(apps, schema_editor):
    Player, Club = apps.get_model("scorekeeper", "Player"), apps.get_model("scorekeeper", "Club")
    for club in Club.objects.all().iterator():
        name = visible(club.name)
        if name != club.name:
            Club.objects.filter(pk=club.pk).update(name=name)
    players = list(Player.objects.order_by("club_id", "pk"))
    # The names that stay as they are keep their keys; every key in use now is taken, so that
    # no rename meets a key another row still holds.
    taken: dict[object, set[str]] = {}
    for player in players:
        taken.setdefault(player.club_id, set()).add(player.name_key)
    for player in players:
        name = visible(player.name)
        if name == player.name and key(name) == player.name_key:
            continue
        keys = taken[player.club_id]
        candidate, n = name, 1
        while key(candidate) in keys:
            n += 1
            candidate = f"{name} ({n})"
        keys.add(key(candidate))
        player.name, player.name_key = candidate, key(candidate)
        player.save(update_fields=["name", "name_key"])


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0018_news_of_a_game_on_postgresql")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
