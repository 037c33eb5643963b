"""One server and a cluster side by side: the same suite's figures, each divided by floors
measured on its own FalkorDB, in one table."""

from __future__ import annotations

from afterhack_tools.bench.promises import API_FLOOR, KINDS, LATENCIES
from afterhack_tools.bench.records import BenchResult
from afterhack_tools.bench.render.sizes import LABELS
from afterhack_tools.bench.render.table import label, lat, ms, row, table


def side_by_side(single: BenchResult, cluster: BenchResult) -> str:
    rows = []
    for s1, s2 in zip(single["sizes"], cluster["sizes"], strict=False):
        n = label(s1["claims"])
        for kind in KINDS:
            rows.append(row(f"{n}: FalkorDB `RETURN 1`, {kind}",
                            [ms(s["floors"][kind]["falkordb"]) for s in (s1, s2)]))
            rows.append(row(f"{n}: HTTP+FalkorDB floor, {kind}",
                            [ms(s["floors"][kind][API_FLOOR]) for s in (s1, s2)]))
        for name, (figure, _) in LATENCIES.items():
            rows.append(row(f"{n}: {LABELS[name]}",
                            [lat(figure(s), s["ratios"][name]) for s in (s1, s2)]))
        rows.append(row(f"{n}: ingest, claims/s without model time",
                        [f"{s['ingest']['claims_per_s']:,}/s" for s in (s1, s2)]))
    t1, t2 = single["tenants"], cluster["tenants"]
    if t1 is None or t2 is None:
        raise ValueError("the side-by-side view compares two full runs, tenants included")
    rows += [
        row("empty workspaces created", [f"{t['workspaces']:,}" for t in (t1, t2)]),
        row("memory per empty workspace (`used_memory` growth; cluster: masters only)",
            [f"{t['used_memory_per_workspace_bytes'] / 1024:.0f} KiB" for t in (t1, t2)]),
        row("`POST /api/workspaces` (4 at a time)",
            [ms(t["create"]) if t["create"] else "n/a" for t in (t1, t2)]),
        row("`GET /api/workspaces/{ws}` with all of them (random workspace)",
            [ms(t["get_with_all_random"]) for t in (t1, t2)]),
        row("workspace graphs per master",
            [", ".join(f"{p}: {k:,}" for p, k in (t.get("graphs_per_master") or {}).items())
             or "one server" for t in (t1, t2)]),
    ]
    return "\n".join(table(["figure", "one server", "3 masters + 3 replicas"], rows))
