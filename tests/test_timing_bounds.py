"""No test asserts a wall-clock bound tighter than three times its promise.

A comparison in a test whose one side is a measured time (a clock minus a clock, or a value
named as one: ``seconds``, ``elapsed``, ``took``, ``duration_ms``, ``..._after``) must have
``bound(PROMISE)`` from tests/support/timing.py on its other side, which gives the promise
``MARGIN`` (at least 3) times its value; the promise is named, so what it promises can be
looked up. A measured time compared with another measured time is an order, not a bound,
and stands as it is, and so does a time compared with zero. The only others are the
comparisons listed below, each with why it bounds no promise (a lower bound, which load
cannot break, or a time budget that ends a loop).
How long a promise really takes is the bench's to measure and report (``afterhack bench``,
its freeze section and its promises).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from tests.support.paths import ROOT
from tests.support.timing import MARGIN

CLOCKS = frozenset({"monotonic", "perf_counter", "monotonic_ns", "perf_counter_ns"})
# A time point by its name: t0, started, killed_at.
POINT = re.compile(r"^(t\d*|start|started|began)$|_at$")
# A measured time by its name: a.seconds, took, promoted_after, calls[0].duration_ms.
ELAPSED = re.compile(r"(^|_)(seconds|elapsed|took|duration|duration_ms|duration_s|latency)$"
                     r"|_after$")

# (file, the comparison as written) -> why it bounds no promise.
NOT_A_PROMISE: dict[tuple[str, str], str] = {
    ("tests/test_fuzz.py", "time.monotonic() - started > TIME_LIMIT_S"):
        "the fuzzer's time budget: it stops generating cases, it fails nothing",
    ("tests/test_gateway.py", "time.monotonic() - t0 >= 3 * 0.15"):
        "a lower bound: two at a time, six calls of 0.15 s take three rounds at least",
}


@dataclass(frozen=True)
class Timed:
    path: str
    line: int
    text: str
    bounded: bool  # the other side is bound(...)
    promise: str | None  # bound's argument, as written


def _clock_call(n: ast.AST) -> bool:
    if not isinstance(n, ast.Call):
        return False
    f = n.func
    if isinstance(f, ast.Attribute):
        return f.attr in CLOCKS or (f.attr == "time" and isinstance(f.value, ast.Name)
                                     and f.value.id in ("time", "loop"))
    return isinstance(f, ast.Name) and f.id in CLOCKS


def _ident(n: ast.AST) -> str | None:
    return n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else None


def _bound_call(n: ast.AST) -> bool:
    return isinstance(n, ast.Call) and _ident(n.func) == "bound"


def timed_comparisons(path: str, source: str) -> list[Timed]:
    tree = ast.parse(source)
    points: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and _clock_call(n.value):
            points |= {t.id for t in n.targets if isinstance(t, ast.Name)}

    def point(n: ast.AST) -> bool:
        ident = _ident(n)
        return _clock_call(n) or (ident is not None and (ident in points
                                                         or bool(POINT.search(ident))))

    def clock_minus_clock(n: ast.AST) -> bool:
        return (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub)
                and point(n.left) and point(n.right))

    measured: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and clock_minus_clock(n.value):
            measured |= {t.id for t in n.targets if isinstance(t, ast.Name)}

    def measured_leaf(n: ast.AST) -> bool:
        ident = _ident(n)
        return clock_minus_clock(n) or (ident is not None and (
            ident in measured or bool(ELAPSED.search(ident))))

    def elapsed(n: ast.AST) -> bool:
        # A side made of a measured time (1000 * sum(took)) is one.
        return not _bound_call(n) and any(measured_leaf(x) for x in ast.walk(n))

    found = []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Compare):
            continue
        sides = [n.left, *n.comparators]
        for i, op in enumerate(n.ops):
            if not isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE):
                continue
            a, b = sides[i], sides[i + 1]
            if not (elapsed(a) or elapsed(b)):
                continue
            if elapsed(a) and elapsed(b):
                continue  # an order of two measured times
            other = b if elapsed(a) else a
            if isinstance(other, ast.Constant) and other.value == 0:
                continue  # a time is not negative: no bound
            promise = (ast.get_source_segment(source, other.args[0])
                       if _bound_call(other) and isinstance(other, ast.Call) and other.args
                       else None)
            found.append(Timed(path, n.lineno, ast.get_source_segment(source, n) or "",
                               _bound_call(other), promise))
    return sorted(found, key=lambda t: (t.path, t.line))


def _tests() -> list[Timed]:
    found = []
    for p in sorted((ROOT / "tests").rglob("*.py")):
        rel = p.relative_to(ROOT).as_posix()
        if rel == "tests/test_timing_bounds.py":
            continue  # its examples are what it looks for
        found += timed_comparisons(rel, p.read_text(encoding="utf-8"))
    return sorted(found, key=lambda t: (t.path, t.line))


def test_the_margin_is_three_times_the_promise_at_least() -> None:
    assert MARGIN >= 3


def test_every_timed_comparison_in_the_tests_is_a_bound_of_a_named_promise() -> None:
    found = _tests()
    unbounded = [f"{t.path}:{t.line}: {t.text}" for t in found
                 if not t.bounded and (t.path, t.text) not in NOT_A_PROMISE]
    assert unbounded == [], ("compare a measured time with bound(PROMISE) "
                             "(tests/support/timing.py):\n" + "\n".join(unbounded))
    # A promise by name: a bare number says nothing of what was promised.
    bare = [f"{t.path}:{t.line}: {t.text}" for t in found
            if t.bounded and not re.search(r"[A-Za-z_]", t.promise or "")]
    assert bare == [], "name the promise:\n" + "\n".join(bare)
    # The exceptions are still in the tests: a stale entry would let its text come back.
    seen = {(t.path, t.text) for t in found}
    assert [k for k in NOT_A_PROMISE if k not in seen] == []


def test_the_scan_finds_what_it_is_for(tmp_path: Path) -> None:
    source = '''
import time

def test_x(app, calls, limit):
    t0 = time.monotonic()
    run()
    assert time.monotonic() - t0 < 1.5
    took = time.perf_counter() - t0
    assert took <= 2
    assert 0 <= calls[0].duration_ms < 100
    assert [a for a in app.answers if a.seconds > 1.0] == []
    back_at = wait()
    assert back_at - frozen_at < FREEZE_S + 10
    assert promoted_after < 30
    assert a.seconds <= bound(DEADLINE_S + 1.0)
    assert a.seconds <= bound(4.0)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        pass
    assert a.started > frozen_at + 1.0 and frozen_at - 0.5 <= a.started
    assert len(items) < 1000
    assert calls[0].duration_ms < 1000 * sum(tools_took) and took < promoted_after
'''
    found = timed_comparisons("x.py", source)
    assert [(t.line, t.bounded, t.promise) for t in found] == [
        (7, False, None), (9, False, None), (10, False, None), (11, False, None),
        (13, False, None), (14, False, None),
        (15, True, "DEADLINE_S + 1.0"), (16, True, "4.0")]
