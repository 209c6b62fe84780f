"""On PostgreSQL the poll's query is planned once per connection and kept (a prepared
statement): it runs every 2 seconds for every open page."""

import pytest
from django.db import connection

from ..factory import make_game

pytestmark = pytest.mark.django_db


def test_the_poll_runs_as_a_prepared_statement_on_postgresql(client):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no prepared statements to keep")
    game = make_game()
    poll = game.get_absolute_url() + f"version?v={game.version}"
    for _ in range(3):
        assert client.get(poll).status_code == 204
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        kept = [row[0] for row in cursor.fetchall()]
    assert any('"version"' in statement and "key_hash" in statement for statement in kept), kept
