# How a round ended is checked by the rules engine (rules.endings), so that a new ending needs
# no migration.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeeper', '0014_no_rules_version_default'),
    ]

    operations = [
        migrations.AlterField(
            model_name='round',
            name='ending',
            field=models.CharField(max_length=20),
        ),
    ]
