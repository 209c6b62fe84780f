"""The bytes a phone downloads once for the engine on the phone, as the app serves them, and
how much faster its second start is than its first.

The runtime's files go out as whitenoise precompresses them (brotli, as collectstatic writes
them; gzip where a browser asks for no brotli), the cut standard library as it is (a zip), and
the rules bundle gzipped (``web/engine.py``). Beside them: what the package as it comes would
cost (its whole standard library, gzip only). Then, where Node.js is installed, the engine's
start from scratch against its start from the snapshot the phone keeps after its first
(``bench/engine-start.mjs``, both in one Node process, alternately: a ratio, not a clock).

    .venv/bin/python bench/engine.py
"""

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import brotli
import django

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from scorekeeper.web import engine  # noqa: E402

RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")


def main() -> None:
    folder = engine.runtime_dir()
    if folder is None:
        sys.exit("No runtime installed: run npm ci first.")
    rows = []
    for name in RUNTIME:
        data = (folder / name).read_bytes()
        rows.append((name, len(data), len(brotli.compress(data)), len(gzip.compress(data, 9))))
    stdlib = engine.stdlib()
    rows.append(("python stdlib (cut)", len(stdlib), len(stdlib), len(stdlib)))
    version, bundle = engine.bundle()
    packed = len(gzip.compress(bundle, 6))
    rows.append((f"rules bundle {version}", len(bundle), packed, packed))
    print(f"{'file':<32} {'bytes':>11} {'brotli':>11} {'gzip':>11}")
    for name, size, br, gz in rows:
        print(f"{name:<32} {size:>11,} {br:>11,} {gz:>11,}")
    total = [sum(row[i] for row in rows) for i in (1, 2, 3)]
    print(f"{'a phone downloads once':<32} {total[0]:>11,} {total[1]:>11,} {total[2]:>11,}")
    full = (folder / "python_stdlib.zip").stat().st_size
    as_it_comes = sum(row[3] for row in rows[: len(RUNTIME)]) + full
    print(f"the package as it comes (gzip, whole stdlib {full:,}): {as_it_comes:,}")
    print(f"ratio, served / as it comes: {total[1] / as_it_comes:.2f}")
    starts(folder, stdlib, bundle)


def starts(folder: Path, stdlib: bytes, bundle: bytes, rounds: int = 5) -> None:
    """The engine's cold start against its warm one, timed by Node in one process."""
    node = shutil.which("node")
    if node is None:
        print("no Node.js: the start from the kept snapshot is not measured")
        return
    with tempfile.TemporaryDirectory() as where:
        (Path(where) / "stdlib.zip").write_bytes(stdlib)
        (Path(where) / "bundle.json").write_bytes(bundle)
        script = Path(__file__).with_name("engine-start.mjs")
        out = subprocess.run(
            [
                node,
                str(script),
                str(folder),
                f"{where}/stdlib.zip",
                f"{where}/bundle.json",
                str(rounds),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    print(
        f"engine start, median of {figures['rounds']}: from scratch {figures['cold']:.0f} ms, "
        f"from the kept snapshot {figures['warm']:.0f} ms (packed {figures['packed']:,} bytes); "
        f"warm / cold {figures['warm'] / figures['cold']:.2f}"
    )


if __name__ == "__main__":
    main()
