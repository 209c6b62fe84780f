"""On PostgreSQL, every change of a game's version is announced on the channel knock_games
(its id as the payload), delivered when the change commits: the events servers' watchers
LISTEN and wake at once (scorekeeper/live.py). A trigger, so that every writer announces it,
whatever code path (and whichever release, in a rolling upgrade) made the change. Nothing on
SQLite, whose watchers look every 250 ms."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION knock_game_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('knock_games', NEW.id::text);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER knock_game_changed AFTER UPDATE OF version ON scorekeeper_game
    FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version)
    EXECUTE FUNCTION knock_game_changed();
"""
DROP = """
DROP TRIGGER IF EXISTS knock_game_changed ON scorekeeper_game;
DROP FUNCTION IF EXISTS knock_game_changed();
"""


def on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0017_pot_games")]

    operations = [migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP), elidable=False)]
