"""Every answer the JSON API gives anywhere in these tests is checked against the schema the
OpenAPI description documents for its path, method and status."""

import json
import re

import pytest
from django.test import Client
from jsonschema import Draft202012Validator

from scorekeeper.api.base import api

SPEC = json.loads(json.dumps(api.get_openapi_schema()))  # as served
OPERATIONS = [
    (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"), operations)
    for template, operations in SPEC["paths"].items()
]


def documented(path: str, method: str, status: int) -> dict | None:
    """The schema documented for this answer; None for a path the API does not have."""
    for pattern, operations in OPERATIONS:
        if pattern.match(path) and method.lower() in operations:
            answers = operations[method.lower()]["responses"]
            assert str(status) in answers, f"{method} {path} answered {status}, not documented"
            return answers[str(status)]["content"]["application/json"]["schema"]
    return None


def check_answer(path: str, method: str, response) -> None:
    if (
        not path.startswith("/api/v1/")
        or path.endswith("openapi.json")
        or response.status_code == 405
    ):
        return
    schema = documented(path, method, response.status_code)
    if schema is None:
        return
    assert response["Content-Type"].startswith("application/json")
    Draft202012Validator({**schema, "components": SPEC["components"]}).validate(
        json.loads(response.content)
    )


@pytest.fixture(autouse=True)
def _answers_match_their_documented_schema(monkeypatch):
    request = Client.request

    def checked(self, **environ):
        response = request(self, **environ)
        check_answer(environ["PATH_INFO"], environ["REQUEST_METHOD"], response)
        return response

    monkeypatch.setattr(Client, "request", checked)


@pytest.fixture
def to_the_latest_migrations_after():
    """For a test that migrates the database back: it is migrated forward to the latest
    migrations afterwards, whatever the test stopped at (later tests on this worker's database
    find every column)."""
    yield
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
