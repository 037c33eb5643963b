"""The core journeys on one FalkorDB and on a 3-master, 3-replica cluster: one module,
parametrised over both (reads as of an earlier time among them). The cluster is a real
local one (``falkordb_cluster`` in conftest).

Cluster-only checks follow the journeys: workspaces spread over every master, reads served
by replicas when asked, and a master killed with -9 in the middle of writes.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from mcp import Client

from afterhack.cluster.local import LocalCluster
from afterhack.config import Settings
from afterhack.memory.workspaces import create_workspace
from afterhack.store import ratelimit
from afterhack.store.client import PRIMARY_AFTER_WRITE_S, Store
from afterhack.store.names import REGISTRY_GRAPH, graph_name
from afterhack.store.workspaces import (
    delete_workspace,
    ready_workspaces,
    workspace_entries,
)
from tests.support import clusters
from tests.support.api import (
    add_source,
    app_client,
    apply_correction,
    new_workspace,
    preview_correction,
)
from tests.support.commands import command
from tests.support.graphs import violations, with_graph
from tests.support.moments import moment
from tests.support.procs import AppProcess
from tests.support.settings import EMBED_INLINE, make_settings
from tests.support.texts import JUNE, KEYNOTE
from tests.support.timing import bound, until

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=["single", "cluster"])
def backend(request: pytest.FixtureRequest, falkordb: str) -> str:
    """The FalkorDB URL the journeys run on: the session's one server, or any node of the
    session's cluster."""
    if request.param == "single":
        return falkordb
    cluster: LocalCluster = request.getfixturevalue("falkordb_cluster")
    return cluster.url


def _settings(url: str, tmp: Path, **extra: Any) -> Settings:
    # Claims embedded in their own write (EMBED_INLINE): no background vector
    # write lands later (it would keep this process's reads of the graph on its master).
    return make_settings(falkordb_url=url, data_dir=tmp, **EMBED_INLINE, **extra)


@pytest.fixture(scope="module")
def api(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with app_client(_settings(backend, tmp_path_factory.mktemp("api"))) as c:
        yield c


@pytest.fixture(scope="module")
def apps(backend: str, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[AppProcess, AppProcess]]:
    """Two ``afterhack serve`` processes on the backend."""
    base = tmp_path_factory.mktemp("apps")
    env = {"AFTERHACK_FALKORDB_URL": backend, "OPENAI_BASE_URL": "",
           "AFTERHACK_ADMIN_KEY": "", "AFTERHACK_REQUIRE_KEYS": "false"}
    a = AppProcess(env, data_dir=base / "a", log_path=base / "a.log")
    b = AppProcess(env, data_dir=base / "b", log_path=base / "b.log")
    try:
        # Side by side: most of a start is importing, on a core of its own.
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(AppProcess.start, (a, b)))
        yield a, b
    finally:
        a.stop()
        b.stop()


# -- the core journeys, on both --------------------------------------------------------


def test_ingest_ask_correct(api: TestClient, backend: str) -> None:
    ws = new_workspace(api, "journey")
    src = api.post(f"/api/workspaces/{ws}/sources",
                   json={"title": "Launch plan", "text": f"{JUNE} {KEYNOTE}"})
    assert src.status_code == 201, src.text
    claims = {c["statement"]: c["id"] for c in src.json()["claims"]}
    run = api.post(f"/api/workspaces/{ws}/agent-runs", json={"task": "Plan the launch event"})
    assert run.status_code == 201, run.text
    decision = run.json()["decision"]
    assert [c["id"] for p in decision["premises"] for c in p["claims"]] == [claims[JUNE]]
    july = "The product launch is planned for July 1."
    preview = preview_correction(api, ws, claims[JUNE], july)
    assert [f["decision_id"] for f in preview["flag"]] == [decision["id"]]
    before = moment()
    applied = apply_correction(api, ws, claims[JUNE], july, preview)
    assert applied.status_code == 201, applied.text
    assert applied.json()["flagged"] == [decision["id"]]
    # The same preview again is stale now.
    assert apply_correction(api, ws, claims[JUNE], "Another date.", preview).status_code == 409
    fresh = api.post(f"/api/workspaces/{ws}/agent-runs", json={"task": "When is the launch?"})
    cited = [c["id"] for p in fresh.json()["decision"]["premises"] for c in p["claims"]]
    assert cited == [applied.json()["replacement"]["id"]]
    # The memory as it was before the correction, read from the status histories.
    base = f"/api/workspaces/{ws}"
    then = api.get(f"{base}/claims/{claims[JUNE]}", params={"as_of": before}).json()
    assert then["status"] == "proposed" and then["superseded_by"] is None
    assert api.get(f"{base}/claims/{claims[JUNE]}").json()["status"] == "superseded"
    was = api.get(f"{base}/decisions/{decision['id']}", params={"as_of": before}).json()
    assert was["status"] == decision["status"]
    hits = api.get(f"{base}/claims", params={"q": "launch", "as_of": before}).json()["items"]
    found = [h["id"] for h in hits]
    assert claims[JUNE] in found and applied.json()["replacement"]["id"] not in found
    kinds = [e["kind"] for e in api.get(f"{base}/timeline").json()["events"]]
    assert kinds.count("correction") == 1 and "source_added" in kinds
    assert violations(backend, ws) == []


def test_listing_and_the_registry(api: TestClient, backend: str) -> None:
    made = [new_workspace(api, f"listed-{i}") for i in range(12)]
    listed = api.get("/api/workspaces", params={"limit": 500}).json()["items"]
    assert set(made) <= {w["id"] for w in listed}
    gone = made.pop()
    assert api.delete(f"/api/workspaces/{gone}").status_code == 200
    assert api.get(f"/api/workspaces/{gone}").status_code == 404
    listed = {w["id"] for w in api.get("/api/workspaces", params={"limit": 500}).json()["items"]}
    assert set(made) <= listed and gone not in listed


def test_rate_counters_are_shared_and_expire(backend: str) -> None:
    async def go() -> tuple[list[int], int]:
        store = Store(backend)
        bucket = f"afterhack:rl:{{test-{uuid.uuid4().hex}}}:1"
        try:
            counts = [await ratelimit.hit(store, bucket, 60) for _ in range(3)]
            ttl = await store.command(bucket, "TTL", bucket, read=True)
            return counts, int(ttl)
        finally:
            await store.command(bucket, "DEL", bucket)
            await store.close()

    counts, ttl = asyncio.run(go())
    assert counts == [1, 2, 3] and 0 < ttl <= 60


def test_racing_applies_from_two_apps_give_one_winner(
        apps: tuple[AppProcess, AppProcess], backend: str) -> None:
    a, b = apps
    with httpx.Client(base_url=a.base_url, timeout=60) as http:
        ws = new_workspace(http, "race")
        claim = add_source(http, ws, JUNE, title="plan")["claims"][0]["id"]
        run = http.post(f"/api/workspaces/{ws}/agent-runs", json={"task": "Plan the launch"})
        assert run.status_code == 201, run.text
        preview = preview_correction(http, ws, claim, "The launch is on July 1.")
    barrier = threading.Barrier(12, timeout=60)  # a thread that fails cannot hang the rest

    def apply(i: int) -> int:
        with httpx.Client(base_url=(a if i % 2 else b).base_url, timeout=60) as http:
            barrier.wait()
            return apply_correction(http, ws, claim, f"The launch is on July {i + 1}.",
                                    preview).status_code

    with ThreadPoolExecutor(12) as pool:
        codes = sorted(pool.map(apply, range(12)))
    assert codes == [201] + [409] * 11, codes

    async def count(g: Any) -> Any:
        return (await g.read("MATCH (c:Claim {id:$id}) RETURN "
                             "size([(c)<-[s:SUPERSEDES]-(:Claim) | s]) AS n", {"id": claim})
                ).scalar()

    assert with_graph(backend, ws, count) == 1
    assert violations(backend, ws) == []


async def test_an_agent_run_driven_over_mcp(apps: tuple[AppProcess, AppProcess]) -> None:
    a, b = apps
    async with httpx.AsyncClient(base_url=a.base_url, timeout=60) as http:
        ws = (await http.post("/api/workspaces", json={"name": "mcp"})).json()["id"]
        added = await http.post(f"/api/workspaces/{ws}/sources",
                                json={"title": "Plan", "text": JUNE})
        june = added.json()["claims"][0]["id"]

    async def call(c: Client, name: str, **args: Any) -> Any:
        r = await c.call_tool(name, {"workspace_id": ws, **args})
        assert not r.is_error, r.content
        data = r.structured_content
        assert data is not None
        return data["result"] if set(data) == {"result"} else data

    # The run lives in the graph, so each call may go to either app.
    async with Client(a.base_url + "/mcp") as ca, Client(b.base_url + "/mcp") as cb:
        run = (await call(ca, "start_run", task="Plan the launch"))["run_id"]
        hits = await call(cb, "search_claims", run_id=run, query="launch")
        assert [h["claim_id"] for h in hits] == [june]
        await call(ca, "get_claim_sources", run_id=run, claim_ids=[june])
        view = await call(cb, "submit_proposal", run_id=run, answer="June 12",
                          claim_ids=[june])
    assert view["decision"]["status"] == "draft"
    assert [c["id"] for p in view["decision"]["premises"] for c in p["claims"]] == [june]


# -- the cluster only -------------------------------------------------------------------

DISTRIBUTION_WORKSPACES = 1000


def test_workspaces_land_on_every_master(falkordb_cluster: LocalCluster,
                                         tmp_path: Path) -> None:
    """Create many workspaces through the store and count the graphs each master holds."""
    url = falkordb_cluster.url

    async def make(n: int) -> tuple[list[str], float]:
        store = Store(url, pool_size=32)
        t0 = time.monotonic()
        try:
            sem = asyncio.Semaphore(16)

            async def one(i: int) -> str:
                async with sem:
                    return str((await create_workspace(store, f"spread-{i}", "test"))["id"])

            made = list(await asyncio.gather(*(one(i) for i in range(n))))
            took = time.monotonic() - t0
            entries = await workspace_entries(store, limit=n + 10_000, offset=0, ids=made)
            listed = await ready_workspaces(store, [e["id"] for e in entries])
            assert {w["id"] for w in listed} == set(made)
            return made, took
        finally:
            await store.close()

    async def drop(made: list[str]) -> None:
        store = Store(url, pool_size=32)
        sem = asyncio.Semaphore(16)

        async def one(ws: str) -> None:
            async with sem:
                await delete_workspace(store, ws)

        try:
            await asyncio.gather(*(one(ws) for ws in made))
        finally:
            await store.close()

    made, took = asyncio.run(make(DISTRIBUTION_WORKSPACES))
    # Counted before they go (the rest of the session's cluster need not carry them).
    held = clusters.keys_per_master(falkordb_cluster, "ws_")
    asyncio.run(drop(made))
    where = Counter(clusters.master_of(falkordb_cluster, graph_name(ws)) for ws in made)
    registry = clusters.master_of(falkordb_cluster, REGISTRY_GRAPH)
    print(f"\n{len(made)} workspaces in {took:.1f} s over {len(where)} masters: "
          + ", ".join(f"{port}: {n}" for port, n in sorted(where.items()))
          + f" (registry on {registry})")
    masters = [p for p, r in clusters.roles(falkordb_cluster).items() if r == "master"]
    assert set(where) == set(masters)
    # Counted on the nodes themselves, not from the slot map.
    assert all(held[p] >= where[p] for p in masters)
    # Uniform hashing: each of 3 masters gets a third, give or take.
    assert min(where.values()) > DISTRIBUTION_WORKSPACES / 3 * 0.8


def test_a_graph_moving_between_masters_is_followed(falkordb_cluster: LocalCluster) -> None:
    """While its slot migrates the old master answers ASK, afterwards MOVED: the store
    follows both, and its slot map learns the new home."""
    url = falkordb_cluster.url
    name = "moving_" + uuid.uuid4().hex

    async def go() -> tuple[list[int], int, int]:
        store = Store(url)
        g = store.graph(name)
        try:
            await g.write("CREATE (:X {id: 1})")
            src = clusters.master_of(falkordb_cluster, name)
            dst = next(p for p, r in clusters.roles(falkordb_cluster).items()
                       if r == "master" and p != src)
            with falkordb_cluster.client(falkordb_cluster.node(src)) as a, \
                 falkordb_cluster.client(falkordb_cluster.node(dst)) as b:
                slot = int(command(a, "CLUSTER", "KEYSLOT", name))
                a_id, b_id = (command(c, "CLUSTER", "MYID") for c in (a, b))
                command(b, "CLUSTER", "SETSLOT", slot, "IMPORTING", a_id)
                command(a, "CLUSTER", "SETSLOT", slot, "MIGRATING", b_id)
                command(a, "MIGRATE", "127.0.0.1", dst, "", 0, 5000, "KEYS", name)
                counts = [(await g.read("MATCH (x:X) RETURN count(x) AS n")).scalar()]
                await g.write("CREATE (:X {id: 2})")  # ASK: written on the new home
                for n in clusters.nodes(falkordb_cluster):
                    with falkordb_cluster.client(n) as c:
                        if clusters.roles(falkordb_cluster).get(n.port) == "master":
                            command(c, "CLUSTER", "SETSLOT", slot, "NODE", b_id)
            counts.append((await g.read("MATCH (x:X) RETURN count(x) AS n")).scalar())
            return counts, store._nodes.primary(name).endpoint.port, dst
        finally:
            await store.delete_graph(name)
            await store.close()

    counts, routed_to, dst = asyncio.run(go())
    assert counts == [1, 2] and routed_to == dst


def test_reads_served_by_replicas_and_stale_previews_still_refused(
        falkordb_cluster: LocalCluster, tmp_path: Path) -> None:
    settings = _settings(falkordb_cluster.url, tmp_path, read_from_replicas=True)
    with app_client(settings) as api:
        ws = new_workspace(api, "replicas")
        claim = add_source(api, ws, JUNE, title="plan")["claims"][0]["id"]
        assert api.post(f"/api/workspaces/{ws}/agent-runs",
                        json={"task": "Plan the launch"}).status_code == 201
        # This process reads what it wrote from the primary for a moment (read-your-writes).
        time.sleep(PRIMARY_AFTER_WRITE_S)
        clusters.settle(falkordb_cluster)
        clusters.reset_stats(falkordb_cluster)
        for _ in range(20):
            assert api.get(f"/api/workspaces/{ws}/graph").status_code == 200
            assert api.get(f"/api/workspaces/{ws}/claims/{claim}").status_code == 200
        stale = preview_correction(api, ws, claim, "The launch is on July 1.")
        reads = clusters.command_calls(falkordb_cluster, "graph.RO_QUERY")
        roles = clusters.roles(falkordb_cluster)
        print("\nGRAPH.RO_QUERY calls per node: " + ", ".join(
            f"{p} ({roles[p]}): {n}" for p, n in sorted(reads.items())))
        home = clusters.master_of(falkordb_cluster, graph_name(ws))
        replica_reads = sum(n for p, n in reads.items() if roles[p] == "replica")
        assert replica_reads >= 41 and reads[home] == 0

        # A newer apply moves the claim on; the preview read from a replica is now stale,
        # and the apply's guard, which runs on the master, says so.
        fresh = preview_correction(api, ws, claim, "The launch is on July 2.")
        applied = apply_correction(api, ws, claim, "The launch is on July 2.", fresh)
        assert applied.status_code == 201
        r = apply_correction(api, ws, claim, "The launch is on July 1.", stale)
        assert r.status_code == 409, r.text
        assert violations(falkordb_cluster.url, ws) == []


# A replica takes over a lost master within this: the app's default wait for it
# (AFTERHACK_FALKORDB_FAILOVER_WAIT_S) is set to it.
TAKEOVER_S = float(Settings.model_fields["falkordb_failover_wait_s"].default)


def test_killing_a_master_during_writes(falkordb_cluster: LocalCluster,
                                        tmp_path: Path) -> None:
    """kill -9 of a master while writes run across workspaces (each write confirmed by a
    replica): meanwhile only 2xx, 409 and 503 (with a retry hint); once a replica has
    taken over, every acknowledged write is there and the invariants hold everywhere."""
    env = {"AFTERHACK_FALKORDB_URL": falkordb_cluster.url, "OPENAI_BASE_URL": "",
           "AFTERHACK_ADMIN_KEY": "", "AFTERHACK_REQUIRE_KEYS": "false",
           "AFTERHACK_WRITE_REPLICAS": "1", "AFTERHACK_FALKORDB_FAILOVER_WAIT_S": "8"}
    app = AppProcess(env, data_dir=tmp_path / "app", log_path=tmp_path / "app.log").start()
    try:
        with httpx.Client(base_url=app.base_url, timeout=60) as http:
            wss = [new_workspace(http, f"failover-{i}") for i in range(9)]
        homes = {ws: clusters.master_of(falkordb_cluster, graph_name(ws)) for ws in wss}
        victim = Counter(homes.values()).most_common(1)[0][0]
        acked: dict[str, list[str]] = {ws: [] for ws in wss}
        codes: Counter[int] = Counter()
        refusals: Counter[tuple[str, str, bool]] = Counter()
        stop = threading.Event()
        lock = threading.Lock()

        def writer(k: int) -> None:
            with httpx.Client(base_url=app.base_url, timeout=60) as http:
                i = 0
                while not stop.is_set():
                    i += 1
                    ws = wss[(k + i) % len(wss)]
                    text = f"Batch {k}-{i} ships on day {i} from the north warehouse."
                    r = http.post(f"/api/workspaces/{ws}/sources",
                                  json={"title": f"w{k}-{i}", "text": text})
                    with lock:
                        codes[r.status_code] += 1
                        if r.status_code in (200, 201):
                            acked[ws].append(r.json()["source"]["id"])
                        elif r.status_code == 503:
                            err = r.json()["error"]
                            refusals[(err["code"], err["details"].get("reason", ""),
                                      "retry-after" in r.headers)] += 1

        def answered() -> int:
            with lock:
                return sum(codes.values())

        threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        until(lambda: codes[201] > 0, timeout_s=120, what="writes acknowledged before the kill")
        falkordb_cluster.kill(victim)
        killed_at = time.monotonic()
        # Until a replica holds the victim's slots (the poll's own timeout only ends a hang).
        until(lambda: sum(r == "master" for r in clusters.roles(falkordb_cluster).values()) == 3,
              timeout_s=bound(TAKEOVER_S) + 30, what="a replica took over", every_s=0.1)
        promoted_after = time.monotonic() - killed_at
        # Then the writers go on until more of their writes have been answered.
        more = answered() + 20
        until(lambda: answered() >= more, timeout_s=120, what="writes answered after it")
        stop.set()
        for t in threads:
            t.join(timeout=60)
        print(f"\nkilled master {victim}; a replica took over after {promoted_after:.1f} s; "
              f"answers: {dict(sorted(codes.items()))}; 503s: {dict(refusals)}")
        assert set(codes) <= {200, 201, 409, 503}, codes
        assert codes[201] > 0
        # A 503 says to retry, unless the write may have happened: then it says that.
        for code, reason, retry_hint in refusals:
            assert (code == "graph_store_unavailable" and retry_hint) or (
                code == "graph_store_unavailable" and reason == "write_outcome_unknown") or (
                code == "write_not_replicated" and not retry_hint), (code, reason)
        assert promoted_after <= bound(TAKEOVER_S)
        for ws in wss:
            assert violations(falkordb_cluster.url, ws) == [], ws

            async def present(g: Any) -> set[str]:
                rows = await g.read("MATCH (s:Source) RETURN s.id AS id")
                return {r["id"] for r in rows}

            assert set(acked[ws]) <= with_graph(falkordb_cluster.url, ws, present), ws
    finally:
        app.stop()
        # The killed node comes back as a replica of the one that took over.
        falkordb_cluster.up()
