"""Point lookups by id: an index per label against one shared label's index.

Two graphs with the same nodes (claims, decisions, actions, fragments: ``size`` claims and
as many others), one indexed the old way (a unique ``id`` index on each label), one the new
way (every node also carries ``Node``, and only ``Node.id`` is indexed). Each is asked for
random ids of one label, by the pattern its layout needs, in alternating blocks; FalkorDB's
own execution time is reported beside the round trip.

    python -m afterhack_tools.bench.idlookup redis://127.0.0.1:PORT [--size 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
import uuid
from typing import Any

from afterhack.store import admin
from afterhack.store.client import Store
from afterhack_tools.bench.falkor import execution_ms
from afterhack_tools.bench.stats import summary

LABELS = ("Claim", "Decision", "Action", "SourceFragment")


async def _build(store: Store, name: str, ids: dict[str, list[str]], shared: bool) -> None:
    g = store.graph(name)
    for label, values in ids.items():
        labels = f"{label}:Node" if shared else label
        for i in range(0, len(values), 5000):
            await g.write(f"UNWIND $ids AS id CREATE (:{labels} {{id: id, status: 'x'}})",
                          {"ids": values[i:i + 5000]})
    for label in ("Node",) if shared else tuple(ids):
        await admin.create_unique_constraint(store, name, label, "id")
    while any(c["status"] != "OPERATIONAL" for c in await admin.list_constraints(store, name)):
        await asyncio.sleep(0.05)


async def _lookups(store: Store, name: str, cypher: str, ids: list[str], n: int,
                   rng: random.Random) -> list[float]:
    g = store.graph(name)
    wall = []
    for _ in range(n):
        want = rng.choice(ids)
        t0 = time.perf_counter_ns()
        rows = await g.read(cypher, {"id": want})
        wall.append((time.perf_counter_ns() - t0) / 1e6)
        assert rows.scalar() == want
    return wall


async def compare(url: str, size: int, samples: int) -> dict[str, Any]:
    store = Store(url)
    rng = random.Random(7)
    ids = {label: [str(uuid.uuid4()) for _ in range(size if label == "Claim" else size // 3)]
           for label in LABELS}
    old, new = f"idlookup_a_{uuid.uuid4().hex[:8]}", f"idlookup_b_{uuid.uuid4().hex[:8]}"
    names = {"per_label": old, "shared": new, "shared_filter": new}
    patterns = {"per_label": "MATCH (c:Claim {id:$id}) RETURN c.id AS id",
                "shared": "MATCH (c:Claim:Node {id:$id}) RETURN c.id AS id",
                "shared_filter": "MATCH (c:Node {id:$id}) WHERE c:Claim RETURN c.id AS id"}
    try:
        await _build(store, old, ids, shared=False)
        await _build(store, new, ids, shared=True)
        wall: dict[str, list[float]] = {k: [] for k in names}
        inside: dict[str, list[float]] = {k: [] for k in names}
        for _ in range(8):
            for k in names:
                await _lookups(store, names[k], patterns[k], ids["Claim"], 20, rng)  # warm
                wall[k] += await _lookups(store, names[k], patterns[k], ids["Claim"],
                                          samples // 8, rng)
                for _ in range(10):
                    inside[k].append(await execution_ms(url, names[k], patterns[k],
                                                        {"id": rng.choice(ids["Claim"])},
                                                        cluster=bool(store.is_cluster)))
        plans = {}
        for k in names:
            plan = await store.command(names[k], "GRAPH.EXPLAIN", names[k],
                                       patterns[k].replace("$id", "'x'"), read=True)
            plans[k] = " / ".join(line.strip() for line in plan)
        out = {k: summary(v) for k, v in wall.items()}
        return {"size": size, "nodes": sum(len(v) for v in ids.values()), "samples": samples,
                "patterns": patterns, "plans": plans, "round_trip": out,
                "in_falkordb": {k: summary(v) for k, v in inside.items()},
                "vs_per_label_p50": {k: round(out[k]["p50"] / out["per_label"]["p50"], 2)
                                     for k in names}}
    finally:
        for name in (old, new):
            await store.delete_graph(name)
        await store.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("url")
    p.add_argument("--size", type=int, default=10_000)
    p.add_argument("--samples", type=int, default=2000)
    args = p.parse_args()
    print(json.dumps(asyncio.run(compare(args.url, args.size, args.samples)), indent=1))


if __name__ == "__main__":
    main()
