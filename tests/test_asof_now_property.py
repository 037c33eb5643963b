"""A read as of "now" (a moment after the last write) is the read now, for every read that
has an as-of form: both graph views, the claim list and each claim, the conflict lists and
each conflict, each decision and each action. Whole answers are compared (every node and
edge of the views with its labels and properties), after each step of random workspaces
built through the API. The two reads are built from the same pieces (store/moment.py): this
is what keeps them from drifting apart. Bounded by count and steps."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import afterhack
from tests.support.api import read_json
from tests.support.moments import moment
from tests.support.steps import SENTENCES, TASKS, step, steps


def _reads(client: TestClient, ws: str) -> list[tuple[str, dict[str, Any]]]:
    """Every read of the workspace that takes ``as_of``, each item of a list read alone."""
    base = f"/api/workspaces/{ws}"
    graph = read_json(client, base + "/graph")
    claims = read_json(client, base + "/claims", status="all", limit=1000)["items"]
    conflicts = read_json(client, base + "/conflicts", status="all")["items"]
    reads: list[tuple[str, dict[str, Any]]] = [
        (base + "/graph", {}), (base + "/graph", {"view": "internal"}),
        (base + "/claims", {"status": "all", "limit": 1000}),
        (base + "/claims", {"limit": 2}),  # the current ones, a page with a cursor
        *((base + "/conflicts", {"status": s}) for s in ("all", "open", "resolved",
                                                          "dismissed")),
    ]
    reads += [(f"{base}/claims/{c['id']}", {}) for c in claims]
    reads += [(f"{base}/conflicts/{k['id']}", {}) for k in conflicts]
    for kind in ("decision", "action"):
        reads += [(f"{base}/{kind}s/{n['id']}", {}) for n in graph["nodes"]
                  if n["type"] == kind]
    return reads


def _answer(path: str, body: dict[str, Any]) -> dict[str, Any]:
    """What a read as of a time must give as the read now does: all of it, but for what
    differs by design. A claim list as of a time is not counted (counting reads every
    claim's history) and echoes its ``as_of``; a decision's ``support.at`` is the moment
    shown (the time of the read, or ``as_of``). Nor is the conflict list as of a time counted
    (docs/api.md, "Pages")."""
    out = dict(body)
    if path.endswith("/conflicts"):
        out.pop("total")
    if path.endswith("/claims"):
        out.pop("total")
        out["search"] = {k: v for k, v in out["search"].items() if k != "as_of"}
    if "/decisions/" in path:
        out["support"] = {k: v for k, v in out["support"].items() if k != "at"}
    return out


def _difference(now: Any, then: Any, where: str = "") -> str | None:
    """Where two answers first differ, and how; None when they are equal."""
    if isinstance(now, dict) and isinstance(then, dict):
        for key in sorted(now.keys() | then.keys()):
            found = _difference(now.get(key, "<absent>"), then.get(key, "<absent>"),
                                f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(now, list) and isinstance(then, list) and len(now) == len(then):
        for i, (a, b) in enumerate(zip(now, then, strict=True)):
            found = _difference(a, b, f"{where}[{i}]")
            if found:
                return found
        return None
    return None if now == then else f"{where}: now {_short(now)}, as of now {_short(then)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 160 else text[:150] + "…" + text[-9:]


def _settled(client: TestClient, ws: str) -> None:
    """Once the claims a step wrote have their vectors: the app's vector worker embeds a
    reviewer's claims after the write, and the internal view shows a claim's vector as
    stored at the time of the read, whatever its ``as_of``."""
    deadline = time.monotonic() + 30
    while read_json(client, f"/api/workspaces/{ws}/embeddings")["pending"]:
        assert time.monotonic() < deadline, "claims still wait for their vectors"
        time.sleep(0.05)


def _assert_same_now(client: TestClient, ws: str) -> None:
    _settled(client, ws)
    reads = _reads(client, ws)
    now = [_answer(path, read_json(client, path, **params)) for path, params in reads]
    t = moment()
    for (path, params), read_now in zip(reads, now, strict=True):
        then = _answer(path, read_json(client, path, **params, as_of=t))
        assert then == read_now, (path, params, _difference(read_now, then))


@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(plan=st.lists(steps, min_size=3, max_size=7))
def test_a_read_as_of_now_is_the_read_now(client: TestClient,
                                          plan: list[tuple[Any, ...]]) -> None:
    ws = client.post("/api/workspaces", json={"name": "as of now"}).json()["id"]
    # A memo and a plan resting on it first, so later steps have something to change.
    for s in [("ingest", SENTENCES[0] + " " + SENTENCES[2]), ("run", TASKS[0]), *plan]:
        step(client, ws, s)
        _assert_same_now(client, ws)


def test_only_the_pieces_write_the_time_into_a_query() -> None:
    # A read as of a time that wrote its own conditions on ``$as_of`` would be a second
    # text of its view, free to drift from the read now: every one goes through the pieces
    # (store/moment.py, over the history of store/history.py).
    src = Path(afterhack.__file__).parent
    writers = sorted(str(p.relative_to(src)) for p in src.rglob("*.py")
                     if "$as_of" in p.read_text(encoding="utf-8"))
    assert writers == ["store/history.py", "store/moment.py"]
