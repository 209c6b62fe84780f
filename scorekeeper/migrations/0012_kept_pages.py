"""The table of the "pages" cache (settings.CACHES): table regions kept for every app server."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute("DROP TABLE IF EXISTS knock_kept_pages")


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0011_state_words_by_language")]

    operations = [migrations.RunPython(create_cache_table, drop_cache_table)]
