"""From a Record tap to changed tiles, with and without the engine on the phone, as a slow phone
on a slow Wi-Fi feels it: Chromium with its CPU throttled 4× and 150 ms added to every request.

Run: .venv/bin/python bench/tap.py [--rounds 20]

It starts Knock (runserver, on a database of its own in a temporary folder, 127.0.0.1 only),
opens a game's table in Chromium twice: once as a phone that cannot fetch the engine (every tap
waits for the server's answer, as before) and once with the engine warm; for each, it records
rounds by taps and measures, in the page, the time from the Record tap to the first frame whose
tiles show the round's lives (not the tap's own marks, which Record clears at once), and counts
the requests the rounds cost (the news stream aside). The taps that make a round come 400 ms before Record, as a hand makes them: time
enough for the phone to play the round as it is tapped, so that Record has only to draw it
(static/js/record.js). It prints p50 and p95 of both, their ratio, the worker's start (cold, and from the
service worker's cache on a second load) and the bytes the engine's files took on the wire.
Every loop is bounded; nothing leaves this machine.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Resolved when the tap is made; the first animation frame whose tiles read otherwise ends it.
MEASURE = """async () => {
    // What a round changes on the tiles: the lives (tokens, and what a screen reader says), not
    // the tap's own marks, which Record clears at once.
    const tiles = () => [...document.querySelectorAll("#table .scoreboard .lives, #table .scoreboard .said")]
        .map((part) => part.outerHTML).join("");
    const before = tiles();
    const confirm = document.querySelector("#record button[name=confirm]");
    const started = performance.now();
    confirm.click();
    for (;;) {
        await new Promise((frame) => requestAnimationFrame(frame));
        if (tiles() !== before) return performance.now() - started;
        if (performance.now() - started > 20000) return null;
    }
}"""
ENGINE_FILES = r".*/(static/pyodide|engine)/.*"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _try in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    server.kill()
    sys.exit("Knock did not start")


def make_game(env: dict[str, str]) -> str:
    """A game of four players with ten lives each: twenty rounds and more before it ends."""
    code = (
        "from scorekeeper import play; from scorekeeper.models import Club;"
        "from scorekeeper.rules import build_rules;"
        "rules, _ = build_rules({'preset': 'scat', 'overrides': {'lives': 10}});"
        "club = Club.objects.create(name='Bench');"
        "game = play.start_game(club, ['Ana', 'Ben', 'Cara', 'Dev'], 0, rules, 'scat', 'referee');"
        "print(game.get_absolute_url())"
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip().splitlines()[-1]


def slow_phone(context, page) -> None:
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 150, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def taps(page, rounds: int) -> tuple[list[float], int]:
    """The time from each Record tap to changed tiles, and the requests the rounds cost (every
    request to the server meanwhile but static files, polls and the news stream)."""
    times = []
    sent: list[str] = []

    def count(request) -> None:
        # (Not the live news: its stream is open whatever the rounds.)
        if not any(part in request.url for part in ("/static/", "/poll", "/events")):
            sent.append(f"{request.method} {request.url}")

    page.on("request", count)
    for number in range(rounds):
        page.locator("#record .tile").nth(number % 4).click()
        page.locator("#record .tile").nth((number + 1) % 4).click()
        page.wait_for_timeout(400)  # the preview of the taps has come and gone
        took = page.evaluate(MEASURE)
        if took is not None:
            times.append(took)
        # The server's answer has drawn the table (the next round's number is on Record).
        page.wait_for_function(
            "(n) => document.querySelector('#table').dataset.nextRound == n", arg=number + 2
        )
    return times, len(sent)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 2 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    rounds = parser.parse_args().rounds
    from playwright.sync_api import sync_playwright

    folder = tempfile.mkdtemp(prefix="knock-bench-tap-")
    env = {
        **os.environ,
        "DJANGO_DEBUG": "1",
        "KNOCK_SQLITE_PATH": str(Path(folder) / "bench.sqlite3"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("DATABASE_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    server, base = start_server(env)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
            )
            figures = {}
            for engine in (False, True):
                url = base + make_game(env)
                context = browser.new_context(viewport={"width": 390, "height": 844})
                if not engine:
                    context.route(re.compile(ENGINE_FILES), lambda r: r.abort())
                page = context.new_page()
                page.goto(url)
                if engine:
                    page.wait_for_function(
                        "() => document.documentElement.dataset.engine === 'ready'",
                        timeout=120_000,
                    )
                    cold = int(page.evaluate("document.documentElement.dataset.engineMs"))
                    page.reload()
                    page.wait_for_function(
                        "() => document.documentElement.dataset.engine === 'ready'",
                        timeout=120_000,
                    )
                    warm = int(page.evaluate("document.documentElement.dataset.engineMs"))
                    figures["start"] = (cold, warm)
                slow_phone(context, page)
                figures[engine], figures[("requests", engine)] = taps(page, rounds)
                context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    server_only, local = figures[False], figures[True]
    print(f"tap to changed tiles, {rounds} rounds, CPU 4x slower, 150 ms latency")
    print(
        f"  over the server:     p50 {statistics.median(server_only):6.0f} ms   p95 {p95(server_only):6.0f} ms"
    )
    print(
        f"  engine on the phone: p50 {statistics.median(local):6.0f} ms   p95 {p95(local):6.0f} ms"
    )
    print(f"  ratio (phone / server), p95: {p95(local) / p95(server_only):.2f}")
    for engine, said in ((False, "over the server"), (True, "engine on the phone")):
        print(f"  requests per round, {said}: {figures[('requests', engine)] / rounds:.2f}")
    cold, warm = figures["start"]
    print(
        f"worker start (runtime and bundle loaded, engine imported): cold {cold} ms, "
        f"again from the cache {warm} ms (bench/engine.py prints the bytes)"
    )


if __name__ == "__main__":
    main()
