"""Store the version of the rule set's switches with each game. Games stored before have
version 1; new games get the version of the code that starts them."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0006_state_with_the_game"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rules_version",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AlterField(
            model_name="game",
            name="rules_version",
            field=models.PositiveSmallIntegerField(default=2),
        ),
    ]
