"""The tests' own layering: what several test modules share lives in ``tests/support`` (helpers)
or ``tests/conftest.py`` (fixtures), and no module imports from a test module or from
conftest. A helper taken from another test module ties the two together (moving or
renaming a test breaks an unrelated one) and lets copies drift into two signatures."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def _is_test_module(module: str) -> bool:
    parts = module.split(".")
    return len(parts) >= 2 and parts[0] == "tests" and (
        parts[1].startswith("test_") or parts[1] == "conftest")


def imports_of_test_modules(source: str) -> list[tuple[int, str]]:
    """(line, module) for each import, anywhere in ``source``, of a test module or conftest."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if _is_test_module(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if _is_test_module(node.module):
                found.append((node.lineno, node.module))
            elif node.module == "tests":
                found += [(node.lineno, f"tests.{a.name}") for a in node.names
                          if _is_test_module(f"tests.{a.name}")]
    return found


def _test_files() -> list[Path]:
    return sorted(TESTS.rglob("*.py"))


def test_every_module_of_the_tests_is_read() -> None:
    names = {p.relative_to(TESTS).as_posix() for p in _test_files()}
    assert {"conftest.py", "test_hygiene.py", "support/api.py", "support/errors.py"} <= names
    assert len(names) > 60


def test_no_module_imports_from_a_test_module() -> None:
    bad = [f"{p.relative_to(TESTS.parent)}:{line} imports {module}"
           for p in _test_files()
           for line, module in imports_of_test_modules(p.read_text(encoding="utf-8"))]
    assert not bad, "move what they share to tests/support or tests/conftest.py:\n" + "\n".join(bad)


@pytest.mark.parametrize("source", [
    "from tests.test_conflicts import _add",
    "import tests.test_mcp",
    "import tests.test_mcp as mcp_tests",
    "from tests import test_kill9",
    "from tests.conftest import snapshot",
    "def f():\n    from tests.test_kill9 import read\n",
])
def test_an_import_from_a_test_module_is_found(source: str) -> None:
    assert imports_of_test_modules(source) != []


@pytest.mark.parametrize("source", [
    "from tests.support.api import add_source",
    "from tests.support import LOCAL",
    "import tests.support.graphs",
    "from afterhack.store import names",
])
def test_an_import_of_support_is_not(source: str) -> None:
    assert imports_of_test_modules(source) == []
