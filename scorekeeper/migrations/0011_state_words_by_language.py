"""A game's stored state keeps no words of one language: a status's words come from the rules
when a page is drawn, and the latest round's story is kept per language ("told")."""

from django.db import migrations


def by_language(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    for game in Game.objects.filter(state_data__isnull=False).only("id", "state_data").iterator():
        data = dict(game.state_data)
        if "told" in data:
            continue
        data.pop("labels", None)
        story = data.pop("last_explanation", [])
        data["told"] = {"en": story} if story else {}
        Game.objects.filter(pk=game.pk).update(state_data=data)


def one_language(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    last = {"county": "on the county", "swimming": "swimming", "brink": "on the brink"}
    for game in Game.objects.filter(state_data__isnull=False).only("id", "state_data", "rules_data"):
        data = dict(game.state_data)
        told = data.pop("told", {}) or {}
        data["last_explanation"] = told.get("en") or next(iter(told.values()), [])
        chance = last[game.rules_data.get("last_chance") or "county"]
        data["labels"] = [chance if s == "county" else s for s in data["statuses"]]
        Game.objects.filter(pk=game.pk).update(state_data=data)


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0010_seat_tallies_and_game_names")]

    operations = [migrations.RunPython(by_language, one_language)]
