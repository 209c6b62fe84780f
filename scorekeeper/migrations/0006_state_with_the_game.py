"""Store each game's state (the table after its latest round) with the game, worked out once
here from the rounds in play, as the rules engine works it out."""

import json

from django.db import migrations, models


def work_out_states(apps, schema_editor):
    from scorekeeper.rules import PRESETS
    from scorekeeper.rules.game import RoundInput, replay

    Game = apps.get_model("scorekeeper", "Game")
    for game in Game.objects.all():
        rules = PRESETS["scat"].rules.replace(json.loads(json.dumps(game.rules_data)))
        names = [seat.player.name for seat in game.seats.select_related("player").order_by("position")]
        rounds = [
            RoundInput(
                r.ending, r.knocker, tuple(r.shown_by),
                None if r.lowest is None else tuple(r.lowest),
                None if r.hands is None else {int(k): v for k, v in r.hands.items()},
                r.choice or None,
            )
            for r in game.rounds.filter(state="active").order_by("number")
        ]
        state, _steps = replay(rules, names, game.first_dealer, rounds)
        game.state_data = state.as_data()
        game.save(update_fields=["state_data"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0005_remove_a_club_whole"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="state_data",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(work_out_states, migrations.RunPython.noop),
    ]
