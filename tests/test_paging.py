"""Lists page by cursor (paging.py) on the real FalkorDB: every item once, in order, with
writes between pages; a cursor that is not the list's own is a 422, never a 500."""

from __future__ import annotations

import asyncio
import base64
import json
import shlex
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from afterhack.cli.main import app as cli
from afterhack.client import AsyncClient, Client
from afterhack.model.pages import After
from afterhack.model.vocab import ClaimStatus
from afterhack.records.ids import new_id
from afterhack.store import claims as store_claims
from afterhack.store.client import Store
from afterhack.store.names import graph_name
from tests.support.cli import WIDE
from tests.support.conflicts import june_memo
from tests.support.errors import assert_canonical_error
from tests.support.graphs import RecordingGraph, explain, load
from tests.support.procs import AppProcess

Page = dict[str, Any]


def walk(get: Callable[[str | None], Page], between: Callable[[int], None] | None = None,
         max_pages: int = 20) -> tuple[list[Page], list[Any]]:
    """Every page of a list, following next_cursor; ``between(n)`` runs after page n."""
    pages: list[Page] = []
    cursor: str | None = None
    for n in range(max_pages):
        page = get(cursor)
        pages.append(page)
        if between is not None:
            between(n)
        cursor = page["next_cursor"]
        if cursor is None:
            return pages, [it for p in pages for it in p["items"]]
    raise AssertionError("the list did not end")


def ok(r: Any) -> Page:
    assert r.status_code == 200, r.text
    return dict(r.json())


def forged(body: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(body).encode()).decode().rstrip("=")


def claims_of(n: int, source: str, word: str) -> list[dict[str, Any]]:
    return [{"id": new_id(), "statement": f"The {word} milestone number {i} is on schedule.",
             "source_id": source} for i in range(n)]


def test_claims_page_through_45_once_each_in_order_with_an_insert_between(
        client: TestClient, falkordb: str, ws: str) -> None:
    # One bulk write: all 45 share one created_at, so only the id orders them.
    first = claims_of(45, "s1", "alpha")
    load(falkordb, ws, sources=[{"id": "s1", "title": "plan"}], claims=first)
    expected = sorted(c["id"] for c in first)
    added: list[str] = []

    def insert(n: int) -> None:
        if n == 0:
            later = claims_of(3, "s2", "beta")
            load(falkordb, ws, sources=[{"id": "s2", "title": "later"}], claims=later)
            added.extend(sorted(c["id"] for c in later))

    pages, items = walk(lambda cur: ok(client.get(
        f"/api/workspaces/{ws}/claims", params={"limit": 20, **({"cursor": cur} if cur else {})})),
        insert)
    ids = [c["id"] for c in items]
    # The claims written after the first page come after the first 45, each once.
    assert ids == expected + added
    assert [len(p["items"]) for p in pages] == [20, 20, 8]
    assert pages[0]["total"] == 45 and pages[-1]["total"] == 48
    assert pages[-1]["next_cursor"] is None
    assert all("search" in p for p in pages)  # the fields from before cursors stay

    # offset still reads the same order (clients from before cursors).
    by_offset = ok(client.get(f"/api/workspaces/{ws}/claims", params={"limit": 20,
                                                                      "offset": 20}))
    assert [c["id"] for c in by_offset["items"]] == ids[20:40]


def test_claims_as_of_page_by_the_same_cursor(client: TestClient, falkordb: str,
                                              ws: str) -> None:
    load(falkordb, ws, sources=[{"id": "s1", "title": "plan"}],
         claims=claims_of(7, "s1", "gamma"))
    now = ok(client.get(f"/api/workspaces/{ws}/claims", params={"limit": 100}))["items"]
    at = max(c["created_at"] for c in now)
    load(falkordb, ws, sources=[{"id": "s2", "title": "later"}],
         claims=claims_of(2, "s2", "delta"))

    def get(cur: str | None) -> Page:
        params: dict[str, Any] = {"limit": 3, "as_of": at}
        if cur:
            params["cursor"] = cur
        return ok(client.get(f"/api/workspaces/{ws}/claims", params=params))

    pages, items = walk(get)
    assert [c["id"] for c in items] == [c["id"] for c in now]
    assert [len(p["items"]) for p in pages] == [3, 3, 1]
    assert all(p["total"] is None for p in pages)


def test_a_search_pages_by_rank_and_its_cursor_serves_only_that_search(
        client: TestClient, falkordb: str, ws: str) -> None:
    load(falkordb, ws, sources=[{"id": "s1", "title": "plan"}],
         claims=claims_of(12, "s1", "launch"))
    base = f"/api/workspaces/{ws}/claims"
    whole = ok(client.get(base, params={"q": "launch milestone", "limit": 50, "mode": "text"}))
    assert len(whole["items"]) == 12 and whole["next_cursor"] is None
    assert whole["total"] is None  # a ranking's top, not a count

    def get(cur: str | None) -> Page:
        params: dict[str, Any] = {"q": "launch milestone", "limit": 5, "mode": "text"}
        if cur:
            params["cursor"] = cur
        return ok(client.get(base, params=params))

    pages, items = walk(get)
    assert [c["id"] for c in items] == [c["id"] for c in whole["items"]]
    assert [len(p["items"]) for p in pages] == [5, 5, 2]
    # The same cursor with another query, mode or status is refused, not misread.
    cursor = pages[0]["next_cursor"]
    for other in ({"q": "schedule"}, {"mode": "hybrid"}, {"status": "all"}):
        r = client.get(base, params={"q": "launch milestone", "mode": "text", "limit": 5,
                                     "cursor": cursor, **other})
        assert_canonical_error(r, 422)
        assert r.json()["error"]["code"] == "invalid_cursor"


def test_sources_and_decisions_page_with_totals(client: TestClient, falkordb: str,
                                                ws: str) -> None:
    sources = [{"id": new_id(), "title": f"doc {i}"} for i in range(25)]
    claims = [c for s in sources for c in claims_of(1, s["id"], "epsilon")]
    decisions: list[dict[str, Any]] = [
        {"id": new_id(), "title": f"decide {i}", "premises": {"p": [claims[i]["id"]]}}
        for i in range(23)]
    load(falkordb, ws, sources=sources, claims=claims, decisions=decisions)

    def lister(path: str, limit: int, **extra: Any) -> Callable[[str | None], Page]:
        def get(cur: str | None) -> Page:
            params = {"limit": limit, **extra, **({"cursor": cur} if cur else {})}
            return ok(client.get(f"/api/workspaces/{ws}/{path}", params=params))
        return get

    pages, items = walk(lister("sources", 10))
    assert sorted(s["id"] for s in items) == sorted(s["id"] for s in sources)
    assert [s["id"] for s in items] == sorted(s["id"] for s in items)  # one created_at
    assert [len(p["items"]) for p in pages] == [10, 10, 5]
    assert {p["total"] for p in pages} == {25}

    pages, items = walk(lister("decisions", 10, status="draft"))
    assert sorted(d["id"] for d in items) == sorted(d["id"] for d in decisions)
    assert [d["id"] for d in items] == sorted(d["id"] for d in decisions)  # one created_at
    assert {p["total"] for p in pages} == {23}
    none = ok(client.get(f"/api/workspaces/{ws}/decisions", params={"status": "accepted"}))
    assert none == {"items": [], "next_cursor": None, "total": 0}


def test_runs_page_newest_first_with_a_run_between_pages(client: TestClient, ws: str) -> None:
    r = client.post(f"/api/workspaces/{ws}/sources",
                    json={"title": "plan", "text": "The product launch is on June 12."})
    assert r.status_code == 201, r.text

    def run(task: str) -> str:
        r = client.post(f"/api/workspaces/{ws}/agent-runs", json={"task": task})
        assert r.status_code == 201, r.text
        return str(r.json()["run"]["id"])

    made = [run(f"Plan the launch, take {i}") for i in range(5)]
    late: list[str] = []
    pages, items = walk(
        lambda cur: ok(client.get(f"/api/workspaces/{ws}/agent-runs",
                                  params={"limit": 2, **({"cursor": cur} if cur else {})})),
        lambda n: late.append(run("A late run")) if n == 0 else None)
    ids = [it["id"] for it in items]
    # Newest first: the run made after page one is newer than every run listed, so it
    # is not on a later page; the five are each listed once.
    assert sorted(ids) == sorted(made) and late[0] not in ids
    assert [len(p["items"]) for p in pages] == [2, 2, 1]
    assert pages[0]["total"] == 5 and pages[-1]["total"] == 6
    created = [it["created_at"] for it in items]
    assert created == sorted(created, reverse=True)


def test_actions_page_newest_first_with_totals(client: TestClient, falkordb: str,
                                              ws: str) -> None:
    claims = claims_of(1, "s1", "theta")
    decision = {"id": new_id(), "title": "decide", "premises": {"p": [claims[0]["id"]]}}
    actions: list[dict[str, Any]] = [
        {"id": new_id(), "description": f"act {i}", "decision_ids": [decision["id"]]}
        for i in range(23)]
    load(falkordb, ws, sources=[{"id": "s1", "title": "plan"}], claims=claims,
         decisions=[decision], actions=actions)

    def get(cur: str | None, **extra: Any) -> Page:
        params = {"limit": 10, **extra, **({"cursor": cur} if cur else {})}
        return ok(client.get(f"/api/workspaces/{ws}/actions", params=params))

    pages, items = walk(get)
    assert [a["id"] for a in items] == sorted(a["id"] for a in actions)  # one created_at
    assert [len(p["items"]) for p in pages] == [10, 10, 3]
    assert {p["total"] for p in pages} == {23}
    assert get(None, status="held") == {"items": [], "next_cursor": None, "total": 0}


def _conflicting(client: TestClient, ws: str, n: int) -> None:
    """One conflict per fact: a memo says June 12, a later one June 19."""
    for month, day in (("March", 12), ("April", 19)):
        r = client.post(f"/api/workspaces/{ws}/sources",
                        json={"title": month, "text": june_memo(n, day)})
        assert r.status_code == 201, r.text


def test_conflicts_page_by_cursor_now_and_as_of_a_time(client: TestClient, ws: str) -> None:
    _conflicting(client, ws, 5)

    def get(cur: str | None, **extra: Any) -> Page:
        params = {"limit": 2, "status": "all", **extra, **({"cursor": cur} if cur else {})}
        return ok(client.get(f"/api/workspaces/{ws}/conflicts", params=params))

    whole = get(None, limit=100)["items"]
    assert len(whole) == 5 and whole[0]["status"] == "open"
    pages, items = walk(get)
    assert [k["id"] for k in items] == [k["id"] for k in whole]
    assert [len(p["items"]) for p in pages] == [2, 2, 1] and {p["total"] for p in pages} == {5}
    # As of now (a time): the same list, not counted.
    pages, items = walk(lambda cur: get(cur, as_of=whole[0]["created_at"] + 1))
    assert [k["id"] for k in items] == [k["id"] for k in whole]
    assert {p["total"] for p in pages} == {None}
    # offset, as documented before cursors, still skips by count.
    assert [k["id"] for k in get(None, offset=2)["items"]] == [k["id"] for k in whole[2:4]]


def test_the_audit_trail_pages_newest_first_with_writes_between_pages(
        client: TestClient, ws: str) -> None:
    for i in range(4):
        r = client.post(f"/api/workspaces/{ws}/sources",
                        json={"title": f"doc {i}", "text": f"Milestone {i} is on schedule."})
        assert r.status_code == 201, r.text
    whole = ok(client.get(f"/api/workspaces/{ws}/audit", params={"limit": 1000}))
    assert len(whole["items"]) == whole["total"] >= 4
    late: list[int] = []

    def write(n: int) -> None:
        if n == 0:
            r = client.post(f"/api/workspaces/{ws}/sources",
                            json={"title": "late", "text": "A late milestone is on schedule."})
            late.append(r.status_code)

    pages, items = walk(lambda cur: ok(client.get(
        f"/api/workspaces/{ws}/audit", params={"limit": 3, **({"cursor": cur} if cur else {})})),
        write)
    # Newest first: what was written after page one is newer than every event listed.
    assert late == [201]
    assert [e["id"] for e in items] == [e["id"] for e in whole["items"]]
    keys = [(e["at"], e["id"]) for e in items]
    assert keys == sorted(keys, reverse=True)
    assert pages[-1]["total"] > pages[0]["total"]
    before = ok(client.get(f"/api/workspaces/{ws}/audit",
                           params={"before": whole["items"][0]["at"], "limit": 1000}))
    assert all(e["at"] < whole["items"][0]["at"] for e in before["items"])
    assert before["total"] == len(before["items"])


def test_workspaces_page_by_cursor(client: TestClient) -> None:
    mine = []
    for i in range(5):
        r = client.post("/api/workspaces", json={"name": f"paged {i}"})
        assert r.status_code == 201
        mine.append(r.json()["id"])
    pages, items = walk(lambda cur: ok(client.get(
        "/api/workspaces", params={"limit": 2, **({"cursor": cur} if cur else {})})),
        max_pages=1000)
    ids = [w["id"] for w in items]
    assert len(ids) == len(set(ids))  # none twice
    assert [i for i in ids if i in mine] == mine  # oldest first, none missed
    assert pages[0]["total"] >= 5 and pages[0]["limit"] == 2 and pages[0]["offset"] == 0
    assert all(len(p["items"]) <= 2 for p in pages)


MALFORMED = [
    "!!!",
    "not-base64-json",
    forged(["claims"]),
    forged({"l": "claims"}),
    forged({"l": "claims", "at": "1", "id": "x"}),
    forged({"l": "claims", "at": -1, "id": "x"}),
    forged({"l": "claims", "at": True, "id": "x"}),
    forged({"l": "claims", "at": 2**60, "id": "x"}),
    forged({"l": "claims", "at": 1, "id": "x" * 65}),
    forged({"l": "claims", "at": 1, "id": ""}),
    forged({"l": "claims", "at": 1, "id": 5}),
    forged({"l": "claims", "at": 1, "id": "a\x00b"}),
    forged({"l": "claims", "at": 1, "id": "x\ud800"}),
    forged({"l": "claims", "at": 1.5, "id": "x"}),
    forged({"l": "claims", "at": 1, "id": "x", "extra": 1}),
    forged({"l": "claim_search", "q": "x", "n": 3}),
    forged({"l": "sources", "at": 1, "id": "x"}),
    base64.urlsafe_b64encode(b"\xff\xfe").decode(),
]


@pytest.mark.parametrize("cursor", MALFORMED)
def test_a_malformed_or_foreign_claims_cursor_is_a_422(client: TestClient, ws: str,
                                                       cursor: str) -> None:
    r = client.get(f"/api/workspaces/{ws}/claims", params={"cursor": cursor})
    assert_canonical_error(r, 422)
    assert r.json()["error"]["code"] == "invalid_cursor"


def test_every_list_refuses_another_lists_cursor_and_cursor_with_offset(
        client: TestClient, falkordb: str, ws: str) -> None:
    load(falkordb, ws, sources=[{"id": "s1", "title": "plan"}],
         claims=claims_of(3, "s1", "zeta"))
    claims_cursor = ok(client.get(f"/api/workspaces/{ws}/claims",
                                  params={"limit": 1}))["next_cursor"]
    assert claims_cursor
    paths = ["/api/workspaces", f"/api/workspaces/{ws}/sources",
             f"/api/workspaces/{ws}/agent-runs", f"/api/workspaces/{ws}/decisions",
             f"/api/workspaces/{ws}/actions", f"/api/workspaces/{ws}/conflicts",
             f"/api/workspaces/{ws}/audit"]
    for path in paths:
        r = client.get(path, params={"cursor": claims_cursor})
        assert_canonical_error(r, 422)
        assert r.json()["error"]["code"] == "invalid_cursor", path
    for path in ("claims", "conflicts"):
        r = client.get(f"/api/workspaces/{ws}/{path}", params={"cursor": claims_cursor,
                                                               "offset": 1})
        assert_canonical_error(r, 422)
    r = client.get(f"/api/workspaces/{ws}/claims", params={"cursor": "x" * 513})
    assert_canonical_error(r, 422)
    # Nothing was changed by the refusals: the list reads as before.
    assert ok(client.get(f"/api/workspaces/{ws}/claims"))["total"] == 3


# -- the client and the CLI, against a real running app ---------------------------------


def test_client_walks_every_page_and_the_cli_prints_a_page_and_the_way_on(
        running_app: AppProcess, falkordb: str) -> None:
    with Client(running_app.base_url) as c:
        ws = c.create_workspace("cli paging")["id"]
        c.workspace = ws
        made = claims_of(25, "s1", "eta")
        load(falkordb, ws, sources=[{"id": "s1", "title": "plan"}], claims=made)
        expected = sorted(m["id"] for m in made)
        assert [h["id"] for h in c.items(c.search_claims, limit=7)] == expected
        assert [len(p["items"]) for p in c.pages(c.search_claims, limit=10)] == [10, 10, 5]
        assert [s["id"] for s in c.items(c.list_sources, limit=1)] == ["s1"]

    runner = CliRunner()
    args = ["--url", running_app.base_url, "--workspace", ws]
    seen: list[str] = []
    cursor: list[str] = []
    hints = []
    for _ in range(3):
        out = runner.invoke(cli, ["claims", "--limit", "10", *cursor, *args], env=WIDE)
        assert out.exit_code == 0, out.output
        seen += [line.split()[0] for line in out.stdout.splitlines()]
        hints.append(out.stderr.strip())
        if not out.stderr:
            break
        cursor = ["--cursor", shlex.split(out.stderr.split("`")[1])[-1]]
    assert seen == expected
    assert hints[0].startswith("\u2026 15 more of 25: `afterhack claims --cursor ")
    assert hints[1].startswith("\u2026 more of 25: `afterhack claims --cursor ")
    assert hints[2] == ""
    every = runner.invoke(cli, ["claims", "--all", "--limit", "3", *args], env=WIDE)
    assert [line.split()[0] for line in every.stdout.splitlines()] == expected
    assert every.stderr == ""
    one = runner.invoke(cli, ["sources", *args], env=WIDE)
    assert one.exit_code == 0 and one.stdout.split()[0] == "s1" and one.stderr == ""
    empty = runner.invoke(cli, ["runs", *args], env=WIDE)
    assert empty.exit_code == 0 and empty.stdout.strip() == "(none)"
    bad = runner.invoke(cli, ["claims", "--cursor", "nonsense", *args], env=WIDE)
    assert bad.exit_code == 1 and "invalid_cursor" in bad.stderr


def test_client_and_cli_page_actions_conflicts_and_audit(running_app: AppProcess,
                                                         falkordb: str) -> None:
    with Client(running_app.base_url) as c:
        ws = c.create_workspace("more paging")["id"]
        c.workspace = ws
        for month, day in (("March", 12), ("April", 19)):
            c.add_source(june_memo(3, day), title=month)
        claims = claims_of(1, "s1", "iota")
        decision = {"id": new_id(), "title": "decide", "premises": {"p": [claims[0]["id"]]}}
        actions: list[dict[str, Any]] = [{"id": new_id(), "description": f"act {i}",
                                          "decision_ids": [decision["id"]]} for i in range(5)]
        load(falkordb, ws, sources=[{"id": "s1", "title": "plan"}], claims=claims,
             decisions=[decision], actions=actions)
        assert [a["id"] for a in c.items(c.list_actions, limit=2)] == sorted(
            a["id"] for a in actions)
        conflicts = c.list_conflicts(limit=100)["items"]
        assert len(conflicts) == 3
        assert [k["id"] for k in c.items(c.list_conflicts, limit=1)] == [
            k["id"] for k in conflicts]
        trail = c.audit(limit=1000)
        assert [e["id"] for e in c.items(c.audit, limit=2)] == [
            e["id"] for e in trail["items"]] and trail["total"] == len(trail["items"])

    runner = CliRunner()
    args = ["--url", running_app.base_url, "--workspace", ws]
    first = runner.invoke(cli, ["conflicts", "--limit", "2", *args], env=WIDE)
    assert first.exit_code == 0, first.output
    assert first.stderr.startswith("\u2026 1 more of 3: `afterhack conflicts --status open "
                                   "--cursor "), first.stderr
    cursor = shlex.split(first.stderr.split("`")[1])[-1]
    rest = runner.invoke(cli, ["conflicts", "--limit", "2", "--cursor", cursor, *args], env=WIDE)
    assert rest.exit_code == 0 and rest.stderr == "", rest.output
    shown = [k["id"] for k in conflicts if k["id"] in first.stdout + rest.stdout]
    assert shown == [k["id"] for k in conflicts]
    assert all(k["id"] not in rest.stdout for k in conflicts[:2])
    every = runner.invoke(cli, ["conflicts", "--all", "--limit", "1", *args], env=WIDE)
    assert all(k["id"] in every.stdout for k in conflicts) and every.stderr == ""


async def test_async_client_walks_every_page(running_app: AppProcess) -> None:
    async with AsyncClient(running_app.base_url) as c:
        made = [(await c.create_workspace(f"async paging {i}"))["id"] for i in range(3)]
        listed = [w["id"] async for w in c.items(c.list_workspaces, limit=2)]
    assert [i for i in listed if i in made] == made and len(listed) == len(set(listed))


def test_a_claims_page_and_its_count_read_through_the_status_index(falkordb: str,
                                                                   ws: str) -> None:
    # The page after a cursor is found as the first page is: the status index brings the
    # candidates, the position only filters them (never a scan of every node).
    load(falkordb, ws, sources=[{"id": "s1", "title": "plan"}],
         claims=claims_of(30, "s1", "theta"))
    seen: list[tuple[str, dict[str, Any]]] = []

    async def go() -> None:
        store = Store(falkordb)
        try:
            g = RecordingGraph(store, graph_name(ws), seen)
            current: list[ClaimStatus] = ["accepted", "proposed"]
            first = await store_claims.list_claims(g, current, 11, 0)
            after = After(first[9]["created_at"], first[9]["id"])
            assert len(await store_claims.list_claims(g, current, 11, 0, after)) == 11
            assert await store_claims.count_claims_in(g, current) == 30
        finally:
            await store.close()

    asyncio.run(go())
    plans = [explain(falkordb, graph_name(ws), cypher, params) for cypher, params in seen]
    assert len(plans) == 3
    for plan in plans:
        assert "Node By Index Scan | (c:Node)" in plan, plan
        assert "Label Scan" not in plan and "All Node Scan" not in plan, plan


# Characters that trouble a query parameter or an encoding.
_AWKWARD = st.sampled_from(["\x00", "\ud800", "'", '"', "\\", "`", "\u2028", "é", "a", "-"])
_JSONISH = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                     st.floats(allow_nan=False, allow_infinity=False),
                     st.text(st.characters(exclude_categories=[]), max_size=80))


@settings(max_examples=60, deadline=None, phases=[Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(
    # Shaped as the server's own, with any values: the checks on each value are reached.
    st.fixed_dictionaries({"l": st.just("claims"),
                           "at": st.integers(0, 2**53),
                           "id": st.one_of(st.text(_AWKWARD, min_size=1, max_size=8),
                                           st.text(st.characters(exclude_categories=[]),
                                                   min_size=1, max_size=70))}),
    st.fixed_dictionaries({"l": st.just("claims"), "at": _JSONISH, "id": _JSONISH}),
    st.fixed_dictionaries({"l": st.just("claim_search"), "q": _JSONISH,
                           "n": st.one_of(st.integers(0, 3000), _JSONISH)}),
    st.dictionaries(st.sampled_from(["l", "at", "id", "q", "n", "x"]), _JSONISH, max_size=5)),
    search=st.booleans())
def test_any_cursor_body_is_a_page_or_a_422(client: TestClient, body: dict[str, Any],
                                            search: bool) -> None:
    if "ws" not in _FUZZ_WS:
        _FUZZ_WS["ws"] = client.post("/api/workspaces", json={"name": "fuzz"}).json()["id"]
    ws = _FUZZ_WS["ws"]
    raw = json.dumps(body).encode()  # surrogates travel escaped, as a forger would send them
    params = {"cursor": base64.urlsafe_b64encode(raw).decode(), **({"q": "launch"}
                                                                  if search else {})}
    r = client.get(f"/api/workspaces/{ws}/claims", params=params)
    if r.status_code != 200:
        assert_canonical_error(r, 422)


_FUZZ_WS: dict[str, str] = {}
