"""Each player gets a mark (scorekeeper.lib.marks): a colour of the palette and initials, no two of
a club's players alike while the colours last, given in the order the players joined."""

from django.db import migrations, models

from scorekeeper.lib.marks import free_colour, initials_for


def forwards(apps, schema_editor):
    Player = apps.get_model("scorekeeper", "Player")
    colours: dict[object, list[int]] = {}
    initials: dict[object, list[str]] = {}
    changed = []
    for player in Player.objects.order_by("club_id", "created", "pk").iterator():
        worn = colours.setdefault(player.club_id, [])
        taken = initials.setdefault(player.club_id, [])
        player.colour = free_colour(worn)
        player.initials = initials_for(player.name, taken)
        worn.append(player.colour)
        taken.append(player.initials)
        changed.append(player)
    Player.objects.bulk_update(changed, ["colour", "initials"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0019_names_without_format_characters"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="colour",
            field=models.PositiveSmallIntegerField(blank=True, db_default=None, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="initials",
            field=models.CharField(blank=True, db_default="", default="", max_length=3),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
