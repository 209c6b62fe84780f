"""schemathesis, a client Knock did not write, run against a real app server from the API's own
OpenAPI description, with every check on: no failure."""

import json
import os
import subprocess
import sys

import pytest

from ..servers import ROOT, app_server, call, server_environment

pytestmark = pytest.mark.django_db(transaction=True)


def test_schemathesis_finds_nothing_with_every_check_on(tmp_path):
    env = server_environment() | {"KNOCK_CLUBS_PER_HOUR": "100000"}
    with app_server(env, "config/gunicorn.py", "--threads", "4") as base:
        status, _, body = call(base, "POST", "/api/v1/clubs", {"name": "Fuzzed"})
        assert status == 201
        run = subprocess.run(
            [
                os.path.join(os.path.dirname(sys.executable), "schemathesis"),
                "--config-file",
                str(ROOT / "tests/schemathesis.toml"),
                "run",
                f"{base}/api/v1/openapi.json",
                "--checks",
                "all",
                "--no-color",
                "--seed",
                "31",
            ],
            cwd=tmp_path,
            env={
                **os.environ,
                "SCHEMATHESIS_HOOKS": "tests.api_fuzz_hooks",
                "PYTHONPATH": str(ROOT),
                "KNOCK_FUZZ_KEY": json.loads(body)["key"],
            },
            capture_output=True,
            text=True,
            timeout=900,
        )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
