"""Each seat of a finished game keeps where it finished (``rules.game.seat_places``), worked out
from the table the game stored after its last round, so the standings of a season are counted
in one query."""

from django.db import migrations, models

from scorekeeper.rules.game import read_state, seat_places


def forwards(apps, schema_editor):
    Game, GameSeat = apps.get_model("scorekeeper", "Game"), apps.get_model("scorekeeper", "GameSeat")
    changed = []
    for game in Game.objects.filter(finished=True).iterator():
        seats = list(GameSeat.objects.filter(game=game).order_by("position"))
        # The names matter only to tell the winner: the seats' numbers stand in for them.
        state = read_state(game.state_data, [str(seat.position) for seat in seats])
        for seat, place in zip(seats, seat_places(state), strict=True):
            seat.place = place
            changed.append(seat)
    GameSeat.objects.bulk_update(changed, ["place"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0020_player_marks"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameseat",
            name="place",
            field=models.PositiveSmallIntegerField(blank=True, db_default=None, null=True),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
