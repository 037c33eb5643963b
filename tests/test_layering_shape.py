"""The shape of the code, read from the source of every module of src/afterhack.

- No function is longer than MAX_LINES lines: a use case is a plan and a write, and each
  step a function of its own.
- No function of the memory (``afterhack.memory``) takes more than MAX_PARAMS parameters:
  a use case takes its Scope (memory/scope.py: the graph, the settings, the model's parts,
  the caller) and the request's own data, never those parts one by one.
- Cypher lives in the store (``afterhack.store``) alone: no string outside it reads as a
  query.
- The store makes no ids and reads no clock: the domain does (afterhack/records/) and hands
  them over with the write, so the store holds Cypher and its execution only.

The import rules are in test_layering.py and test_layering_transports.py.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import afterhack

SRC = Path(afterhack.__file__).resolve().parent
MAX_LINES = 80
MAX_PARAMS = 6
# A query's own words, as no prose of this code writes them: MATCH (, RETURN, UNWIND ...
CYPHER = re.compile(r"\b(MATCH|MERGE|OPTIONAL MATCH)\s*\(|\bUNWIND\s+\$|\bRETURN\b"
                    r"|\bGRAPH\.(QUERY|RO_QUERY|DELETE)\b")
# What makes an id or reads the wall clock (a deadline's monotonic clock, and the random
# pick of a replica, are execution).
IDS_AND_CLOCK = {"uuid", "secrets", "time.time", "time.time_ns", "os.urandom",
                 "datetime.now", "datetime.datetime.now", "datetime.utcnow"}


@dataclass(frozen=True)
class Function:
    module: str
    name: str
    line: int
    lines: int
    params: int


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def functions(source: str, module: str) -> list[Function]:
    """Every function and method, its length in lines (decorators not counted) and its
    parameters (``self`` and ``cls`` of a method not counted)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
            names += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
            if names and names[0] in ("self", "cls"):
                names = names[1:]
            assert node.end_lineno is not None
            out.append(Function(module, node.name, node.lineno,
                                node.end_lineno - node.lineno + 1, len(names)))
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def cypher_outside_the_store(source: str, module: str) -> list[str]:
    if _within(module, "afterhack.store"):
        return []
    tree = ast.parse(source)
    docs = _docstrings(tree)
    return [f"{module}:{n.lineno} holds a query: {n.value[:60]!r}" for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docs and CYPHER.search(n.value)]


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def ids_and_clock_in_the_store(source: str, module: str) -> list[str]:
    if not _within(module, "afterhack.store"):
        return []
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Attribute):
            names = [d] if (d := _dotted(node)) else []
        line = getattr(node, "lineno", 0)
        found += [f"{module}:{line} uses {n}" for n in names if n in IDS_AND_CLOCK]
    return found


def _sources() -> list[tuple[str, str]]:
    return sorted((_module_name(p), p.read_text(encoding="utf-8")) for p in SRC.rglob("*.py"))


SOURCES = _sources()
FUNCTIONS = [f for module, source in SOURCES for f in functions(source, module)]


def test_every_module_is_read() -> None:
    assert {"afterhack.memory.workspace", "afterhack.store.client", "afterhack.api.app"} <= {
        m for m, _ in SOURCES}
    assert len(FUNCTIONS) > 1000


def test_no_function_is_longer_than_80_lines() -> None:
    long = [f"{f.module}.{f.name}:{f.line} is {f.lines} lines" for f in FUNCTIONS
            if f.lines > MAX_LINES]
    assert long == []


def test_no_use_case_takes_more_than_6_parameters() -> None:
    wide = [f"{f.module}.{f.name}:{f.line} takes {f.params}" for f in FUNCTIONS
            if _within(f.module, "afterhack.memory") and f.params > MAX_PARAMS]
    assert wide == []


def test_cypher_lives_in_the_store() -> None:
    assert [x for module, source in SOURCES
            for x in cypher_outside_the_store(source, module)] == []


def test_the_store_makes_no_ids_and_reads_no_clock() -> None:
    assert [x for module, source in SOURCES
            for x in ids_and_clock_in_the_store(source, module)] == []


def test_the_measures_count_what_they_say() -> None:
    [f] = functions("async def f(a, b, *c, d=1, **e):\n    x = 1\n    return x\n", "m")
    assert (f.lines, f.params) == (3, 5)
    [m] = functions("class K:\n    def g(self, a):\n        pass\n", "m")
    assert (m.name, m.params) == ("g", 1)
    long = "def f():\n" + "    x = 1\n" * MAX_LINES
    assert functions(long, "m")[0].lines == MAX_LINES + 1


@pytest.mark.parametrize(("module", "source"), [
    ("afterhack.retrieval.vectors", "q = 'MATCH (e:WorkspaceEntry) RETURN e.id'"),
    ("afterhack.memory.ingest", "def f(g):\n    return g.read('MATCH (c:Claim) RETURN c')"),
    ("afterhack.api.routes.x", "Q = 'UNWIND $rows AS r CREATE (n)'"),
])
def test_a_query_outside_the_store_is_found(module: str, source: str) -> None:
    assert cypher_outside_the_store(source, module) != []


@pytest.mark.parametrize(("module", "source"), [
    ("afterhack.store.conflicts", "q = 'MATCH (e) RETURN e'"),
    ("afterhack.memory.ingest", "def f():\n    '''MATCH (x) RETURN x, in a docstring.'''"),
    ("afterhack.memory.ingest", "x = 'a source returns nothing'"),
])
def test_what_is_not_a_query_outside_the_store_passes(module: str, source: str) -> None:
    assert cypher_outside_the_store(source, module) == []


@pytest.mark.parametrize("source", [
    "import uuid", "import secrets", "from uuid import uuid4", "import time\nt = time.time()",
    "import time\nt = time.time_ns()", "import os\nb = os.urandom(16)",
    "from datetime import datetime\nt = datetime.now()",
])
def test_an_id_or_a_clock_in_the_store_is_found(source: str) -> None:
    assert ids_and_clock_in_the_store(source, "afterhack.store.audit") != []
    assert ids_and_clock_in_the_store(source, "afterhack.records.ids") == []


def test_a_deadline_in_the_store_passes() -> None:
    assert ids_and_clock_in_the_store("import time\nt = time.monotonic()",
                                      "afterhack.store.client") == []
