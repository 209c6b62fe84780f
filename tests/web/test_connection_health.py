"""A kept PostgreSQL connection is checked before each request's first query without a round
trip while the server has said nothing, and replaced when the server has dropped it
(``scorekeeper.backends.postgresql``)."""

import time

import psycopg
import pytest
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def other():
    """A second connection to the same server, to watch and to end the app's."""
    if connection.vendor != "postgresql":
        pytest.skip("only PostgreSQL's connections are checked this way")
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as conn:
        yield conn


def last_statement(other, pid: int) -> str:
    return other.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()[0]


def new_request() -> None:
    """What Django does to its connections when a request starts."""
    connection.close_if_unusable_or_obsolete()


def test_a_quiet_connection_is_kept_without_asking_the_server(other):
    assert connection.health_check_enabled
    with connection.cursor() as cursor:
        cursor.execute("SELECT 'the last thing asked'")
    pid = connection.connection.info.backend_pid
    new_request()
    with connection.cursor() as cursor:  # the health check runs here, before the query
        assert last_statement(other, pid) == "SELECT 'the last thing asked'"
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] == pid


def test_a_connection_the_server_dropped_is_replaced_before_the_request_uses_it(other):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    other.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    while other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
        assert time.monotonic() < deadline, "the server did not end the connection"
        time.sleep(0.02)
    new_request()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid
