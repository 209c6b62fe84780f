"""The house reads from the top (docs/architecture.md): each room of ``scorekeeper`` imports
only the rooms its docstring names, so no arrow runs up, and the rules engine imports nothing of
the house at all."""

import ast
from pathlib import Path

HOUSE = Path(__file__).resolve().parents[2] / "scorekeeper"

# What each room may import (the room's docstring says the same).
MAY_IMPORT = {
    "rules": set(),
    "lib": {"rules"},
    "models": {"lib", "rules"},
    "reports": {"lib", "models", "rules"},
    "play": {"lib", "models", "rules"},
    "tournaments": {"lib", "models", "play", "reports", "rules"},
    "live": {"lib", "models"},
    "backup": {"lib", "models", "play", "rules", "tournaments"},
    "web": {"backup", "lib", "live", "models", "play", "reports", "rules", "tournaments"},
    "api": {"lib", "models", "play", "reports", "rules", "tournaments", "web.access"},
    "management": {"backup", "lib", "models", "play", "rules"},
    "admin": {"lib", "models", "rules"},
    "apps": {"rules"},
    "templatetags": {"lib", "rules"},
    "migrations": {"lib", "models", "rules"},  # a default a migration names
}


def arrows():
    """Every import of one room by another: (the importing file, the room it names)."""
    for path in sorted(HOUSE.rglob("*.py")):
        parts = path.relative_to(HOUSE.parent).with_suffix("").parts
        package = list(parts if path.name == "__init__.py" else parts[:-1])
        room = parts[1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[: len(package) - node.level + 1]
                named = (
                    [[*base, *node.module.split(".")]]
                    if node.module
                    else [[*base, alias.name] for alias in node.names]
                )
            elif isinstance(node, ast.ImportFrom) and node.module:
                named = [node.module.split(".")]
            elif isinstance(node, ast.Import):
                named = [alias.name.split(".") for alias in node.names]
            else:
                continue
            for name in named:
                if (
                    len(name) > 1
                    and name[0] == "scorekeeper"
                    and name[1] != room.removesuffix(".py")
                ):
                    yield path.relative_to(HOUSE), room.removesuffix(".py"), name[1:]


def test_every_room_imports_only_what_stands_below_it():
    up = []
    for path, room, name in arrows():
        allowed = MAY_IMPORT[room]
        if name[0] not in allowed and ".".join(name[:2]) not in allowed:
            up.append(f"{path} imports {'.'.join(name)}")
    assert not up, up


def test_the_docs_draw_every_room():
    drawn = (HOUSE.parent / "docs" / "architecture.md").read_text()
    for room in ("web/", "api/", "backup.py", "play.py", "live.py", "reports/", "models/"):
        assert room in drawn, room
