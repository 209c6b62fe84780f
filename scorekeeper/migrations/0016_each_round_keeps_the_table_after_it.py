"""Each round in play keeps the table after it, so that a page of the round log, the chart and
an edit start from the state before their first round; and a game's state says in which round
each seat first went out (the game's summary reads it instead of working every round out)."""

from django.db import migrations, models


def keep_the_table_after_each_round(apps, schema_editor):
    from scorekeeper.rules.game import RoundInput, advance, play, start
    from scorekeeper.rules.ruleset import stored_rules

    Game = apps.get_model("scorekeeper", "Game")
    Round = apps.get_model("scorekeeper", "Round")
    for game in Game.objects.filter(state_data__isnull=False).iterator(chunk_size=100):
        rules = stored_rules(game.rules_data, game.rules_version)
        names = [s.player.name for s in game.seats.select_related("player").order_by("position")]
        state = start(rules, names, game.first_dealer)
        rounds = list(game.rounds.filter(state="active").order_by("number"))
        for r in rounds:
            step = play(
                rules,
                state,
                RoundInput(
                    r.ending,
                    r.knocker,
                    tuple(r.shown_by),
                    None if r.lowest is None else tuple(r.lowest),
                    None if r.hands is None else {int(k): v for k, v in r.hands.items()},
                    r.choice or None,
                    None if r.losses is None else {int(k): v for k, v in r.losses.items()},
                ),
            )
            if step.result.result == "table_decides":
                break
            state = advance(state, step)
            r.state_after = _by_seat(state.as_data(), names)
        Round.objects.bulk_update(rounds, ["state_after"], batch_size=500)
        data = dict(game.state_data)
        data["out_in"] = list(state.out_in)
        Game.objects.filter(pk=game.pk).update(state_data=data)


def _by_seat(data, names):
    data = dict(data)
    del data["names"]
    data["winner"] = None if data["winner"] is None else names.index(data["winner"])
    data["tie"] = [names.index(name) for name in data["tie"]]
    return data


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0015_round_endings_in_the_engine")]

    operations = [
        migrations.AddField(
            model_name="round",
            name="state_after",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(keep_the_table_after_each_round, migrations.RunPython.noop),
    ]
