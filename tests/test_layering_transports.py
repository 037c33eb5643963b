"""The two transports stand side by side, read from the imports of every module of src/.

- The HTTP API (``afterhack.api``) and the MCP tools (``afterhack.mcpserver``) never import
  each other, nor the module that composes them (``afterhack.app``): what both need (the
  caller, the error body, the request and answer shapes) lives outside both (``access``,
  ``wire``).
- Neither transport imports the store (``afterhack.store``): a route or a tool is an adapter
  of the workspace's memory (memory/workspace.py), which reads and writes for it.
- No module imports a private name (one starting with ``_``) of FastAPI, Starlette, redis or
  falkordb, from a private module of theirs, or reads one as an attribute of a module of
  theirs: those change in any release, and the pins that came with them did too.

The general layering rules are in test_layering.py.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

import afterhack
from tests.support.imports import is_private

SRC = Path(afterhack.__file__).resolve().parent
TRANSPORTS = ("afterhack.api", "afterhack.mcpserver")
COMPOSITION = "afterhack.app"
STORE = "afterhack.store"
FRAMEWORKS = ("fastapi", "starlette", "redis", "falkordb")


@dataclass(frozen=True)
class Use:
    target: str  # the module imported, or module.name for ``from module import name``
    line: int


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(importer: str, is_package: bool, module: str | None, level: int) -> str:
    if not level:
        return module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - level + 1]
    return ".".join([*base, module] if module else base)


def _is_framework(module: str) -> bool:
    return module.split(".")[0] in FRAMEWORKS


def uses(source: str, importer: str, is_package: bool = False) -> list[Use]:
    """Everything a module imports, ``from m import n`` as ``m.n``, wherever it sits (in a
    function or under TYPE_CHECKING as well), and every attribute read off a name bound to
    a framework module (``routing._x`` after ``from fastapi import routing``)."""
    tree = ast.parse(source)
    found: list[Use] = []
    framework_names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Use(alias.name, node.lineno))
                if _is_framework(alias.name):
                    if alias.asname:
                        framework_names[alias.asname] = alias.name
                    else:
                        root = alias.name.split(".")[0]
                        framework_names[root] = root
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(importer, is_package, node.module, node.level)
            for alias in node.names:
                found.append(Use(f"{module}.{alias.name}", node.lineno))
                if _is_framework(module):
                    framework_names[alias.asname or alias.name] = f"{module}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            dotted = _dotted(node)
            root, _, rest = (dotted or "").partition(".")
            if root in framework_names:
                found.append(Use(f"{framework_names[root]}.{rest}", node.lineno))
    return found


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def _inside(target: str, package: str) -> bool:
    return target == package or target.startswith(package + ".")


def violations(importer: str, found: list[Use]) -> list[str]:
    out = []
    for use in found:
        where = f"{importer}:{use.line} uses {use.target}"
        for mine, other in (TRANSPORTS, TRANSPORTS[::-1]):
            if _inside(importer, mine) and (_inside(use.target, other)
                                            or _inside(use.target, COMPOSITION)):
                out.append(f"{where}: a transport must not import the other one")
        if any(_inside(importer, t) for t in TRANSPORTS) and _inside(use.target, STORE):
            out.append(f"{where}: a transport reaches the store only through the memory")
        if _is_framework(use.target) and any(is_private(p) for p in use.target.split(".")):
            out.append(f"{where}: a private name of a framework")
    return out


def _sources() -> list[tuple[str, Path]]:
    return sorted((_module_name(p), p) for p in SRC.rglob("*.py"))


def test_every_module_is_read() -> None:
    names = {name for name, _ in _sources()}
    assert {"afterhack.api.app", "afterhack.mcpserver.server", "afterhack.app",
            "afterhack.access", "afterhack.wire.errors"} <= names
    assert len(names) > 80


def test_transports_do_not_import_each_other_nor_framework_internals() -> None:
    found = []
    for name, path in _sources():
        found += violations(name, uses(path.read_text(encoding="utf-8"), name,
                                       path.name == "__init__.py"))
    assert found == []


def test_the_composition_knows_both_transports() -> None:
    path = SRC / "app.py"
    targets = {u.target for u in uses(path.read_text(encoding="utf-8"), COMPOSITION)}
    assert any(_inside(t, "afterhack.api") for t in targets)
    assert any(_inside(t, "afterhack.mcpserver") for t in targets)


@pytest.mark.parametrize(("importer", "source"), [
    ("afterhack.api.routes.x", "from afterhack.mcpserver.server import error_result"),
    ("afterhack.api.app", "from afterhack import mcpserver"),
    ("afterhack.api.app", "import afterhack.mcpserver.http"),
    ("afterhack.api.routes.x", "from ...mcpserver import callers"),
    ("afterhack.mcpserver.server", "from afterhack.api.deps import Caller"),
    ("afterhack.mcpserver.http", "from afterhack.app import create_app"),
    ("afterhack.mcpserver.server", "def f():\n    from afterhack.api import errors"),
    ("afterhack.api.lean", "from fastapi.routing import _effective_route_context_var"),
    ("afterhack.api.lean", "from fastapi import routing as r\nx = r._embed_body_fields"),
    ("afterhack.api.lean", "import fastapi.routing\nx = fastapi.routing._x"),
    ("afterhack.store.client", "from redis._parsers import X"),
    ("afterhack.store.client", "import falkordb._internal"),
    ("afterhack.store.client", "from starlette import _utils"),
    ("afterhack.api.routes.x", "from afterhack.store import sources"),
    ("afterhack.api.deps", "from afterhack.store.client import Store"),
    ("afterhack.api.routes.x", "import afterhack.store.claims"),
    ("afterhack.api.routes.x", "from ...store.audit import now"),
    ("afterhack.mcpserver.server", "from afterhack.store import workspaces"),
    ("afterhack.mcpserver.server", "def f():\n    from afterhack.store.client import Graph"),
])
def test_the_rules_catch_what_they_forbid(importer: str, source: str) -> None:
    assert violations(importer, uses(source, importer)) != []


@pytest.mark.parametrize(("importer", "source"), [
    ("afterhack.api.app", "from afterhack.wire.errors import error_body"),
    ("afterhack.mcpserver.server", "from afterhack.access import Caller"),
    ("afterhack.app", "from afterhack.mcpserver.http import mount_mcp"),
    ("afterhack.api.app", "from fastapi import FastAPI\nv = FastAPI.__name__"),
    ("afterhack.store.client", "import redis.asyncio as aioredis\nx = aioredis.Redis"),
    ("afterhack.api.routes.x", "from afterhack.memory.workspace import WorkspaceMemory"),
    ("afterhack.memory.workspace", "from afterhack.store import sources"),
])
def test_the_rules_allow_what_they_allow(importer: str, source: str) -> None:
    assert violations(importer, uses(source, importer)) == []
