"""The rules engine stays readable: no function longer than a screen, none that branches more
than a reader can follow (ruff's C901 holds complexity to 12), and no Django in it."""

import ast
import graphlib
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


def module_name(path):
    parts = path.relative_to(ENGINE.parents[1]).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path, node):
    """The modules of the engine an import names (relative imports made whole)."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = package[: len(package) - node.level + 1] if node.level else []
    module = [*base, *(node.module.split(".") if node.module else [])]
    named = [".".join([*module, alias.name]) for alias in node.names]
    return [name for name in named if name in MODULES] or [".".join(module)]


MODULES = {module_name(path) for path in ENGINE.rglob("*.py")}


def test_the_engine_is_a_tree_nothing_imports_what_uses_it():
    """Counted in every function too: an import put off to the call is still an arrow up. The
    endings are found by declaration (``endings.base.declared``), so none is imported by name."""
    graph = {}
    for path in ENGINE.rglob("*.py"):
        arrows = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                arrows |= {name for name in imported(path, node) if name in MODULES}
        graph[module_name(path)] = arrows
    try:
        order = list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as circle:
        pytest.fail(f"the engine's imports go round: {' -> '.join(circle.args[1])}")
    # What every ending stands on comes before any of them; what uses them, after.
    first_ending = min(order.index(name) for name in MODULES if ".endings." in name)
    for below in (
        "scorekeeper.rules.ruleset",
        "scorekeeper.rules.round",
        "scorekeeper.rules.hands",
    ):
        assert order.index(below) < first_ending
    for above in ("resolve", "possible", "game", "phone"):
        assert order.index(f"scorekeeper.rules.{above}") > order.index("scorekeeper.rules.endings")
