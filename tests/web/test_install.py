"""What a server installs: only what Knock needs to run, pinned with hashes; and everything the
README and CI install, the same pins and the tools to test it."""

import re
import tomllib
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
DEV_TOOLS = {"pytest", "playwright", "mypy", "ruff", "hypothesis", "schemathesis", "djade"}


def pins(path: Path) -> dict[str, str]:
    """Each package of a lock with its version; every one must carry at least one hash."""
    text = path.read_text()
    found = {}
    for block in re.split(r"\n(?=\S)", text):
        if block.startswith("#") or not block.strip():
            continue
        name, version = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", block).groups()
        assert "--hash=sha256:" in block, f"{path.name}: {name} has no hash"
        found[name.lower().replace("_", "-")] = version
    return found


def declared(names: list[str]) -> set[str]:
    return {re.match(r"^[A-Za-z0-9_.-]+", n).group(0).lower().replace("_", "-") for n in names}


def test_production_installs_only_what_knock_needs_to_run_pinned_with_hashes():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    production = pins(ROOT / "requirements" / "production.txt")
    assert declared(project["dependencies"]) <= set(production)
    assert not DEV_TOOLS & set(production), DEV_TOOLS & set(production)
    assert {"brotli", "sentry-sdk"} <= set(production)  # static files in Brotli; errors tracked


def test_the_whole_lock_has_the_same_pins_and_the_tools_to_test():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    production = pins(ROOT / "requirements" / "production.txt")
    everything = pins(ROOT / "requirements.txt")
    assert {name: everything.get(name) for name in production} == production
    assert declared(project["optional-dependencies"]["dev"]) <= set(everything)
    assert set(everything) >= DEV_TOOLS
    # Nothing of a particular machine: no index or path of the machine that made the lock.
    for lock in ("requirements.txt", "requirements/production.txt"):
        text = (ROOT / lock).read_text()
        assert "--index-url" not in text and "--find-links" not in text and "file://" not in text


def test_a_production_server_sends_static_files_in_brotli_and_gzip_as_asked(transactional_db):
    import brotli

    from ..servers import app_server, collected_static, server_environment

    css = next(Path(collected_static(), "css").glob("knock.*.css"))
    assert css.with_name(css.name + ".br").exists() and css.with_name(css.name + ".gz").exists()
    with app_server(server_environment()) as base:
        path = f"/static/css/{css.name}"
        for asked, encoding in (("br, gzip", "br"), ("gzip", "gzip"), ("identity", None)):
            request = urllib.request.Request(base + path, headers={"Accept-Encoding": asked})
            with urllib.request.urlopen(request, timeout=10) as answer:
                body = answer.read()
                assert answer.headers.get("Content-Encoding") == encoding
        plain = css.read_bytes()
        request = urllib.request.Request(base + path, headers={"Accept-Encoding": "br"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert brotli.decompress(answer.read()) == plain
    assert body == plain


def test_the_service_files_are_valid_units_that_run_the_shipped_configurations(tmp_path):
    import shutil
    import subprocess

    units = {
        "knock.service": "config/gunicorn.py",
        "knock-events.service": "config/gunicorn_events.py",
    }
    for name, config in units.items():
        text = (ROOT / "deploy" / name).read_text()
        assert f"ExecStart=/srv/knock/.venv/bin/gunicorn -c {config}" in text
        assert (ROOT / config).exists()
        assert "Type=notify" in text and "EnvironmentFile=/etc/knock/env" in text
        assert "DJANGO_DEBUG=0" in text
    if not shutil.which("systemd-analyze"):
        pytest.skip("systemd-analyze is not on this machine")
    # Verified as systemd reads them, with the programs they name standing in for the real ones.
    for name in units:
        text = (
            (ROOT / "deploy" / name)
            .read_text()
            .replace("/srv/knock/.venv/bin/gunicorn", "/bin/true")
        )
        text = text.replace("/bin/kill", shutil.which("kill") or "/bin/kill")
        (tmp_path / name).write_text(text)
    done = subprocess.run(
        ["systemd-analyze", "verify", *(str(tmp_path / name) for name in units)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
