"""The rules engine stays readable: no function longer than a screen, none that branches more
than a reader can follow (ruff's C901 holds complexity to 12), and no Django in it."""

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "scorekeeper" / "rules"
LONGEST = 60  # lines


def functions():
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield path.relative_to(ENGINE), node


@pytest.mark.parametrize(
    "path, function", list(functions()), ids=lambda x: str(getattr(x, "name", x))
)
def test_no_function_of_the_engine_is_longer_than_a_screen(path, function):
    lines = function.end_lineno - function.lineno + 1
    assert lines <= LONGEST, f"{path}: {function.name} is {lines} lines"


def test_the_engine_imports_no_django():
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else [alias.name for alias in node.names]
                )
                assert not any(name.split(".")[0] == "django" for name in names), path
