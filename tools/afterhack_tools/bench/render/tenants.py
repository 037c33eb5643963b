"""The section on many empty workspaces: a workspace's read with one graph and with all of
them, and what each costs in memory."""

from __future__ import annotations

from afterhack_tools.bench.floors import ratio
from afterhack_tools.bench.promises import API_FLOOR, KINDS
from afterhack_tools.bench.records import Summary, TenantFigures
from afterhack_tools.bench.render.table import lat, ms, row, table


def tenants_section(t: TenantFigures) -> list[str]:
    f = t["floors"]

    def over_floors(s: Summary) -> str:
        return lat(s, {k: ratio(s["p50"], f[k][API_FLOOR]["p50"]) for k in KINDS})

    create = t["create"]
    rows = [
        row("`GET /api/workspaces/{ws}` with 1 workspace graph", [over_floors(t["get_with_1"])]),
        row(f"... with {t['workspaces']:,} (same workspace)",
            [over_floors(t["get_with_all_same"])]),
        row(f"... with {t['workspaces']:,} (random workspace)",
            [over_floors(t["get_with_all_random"])]),
        row("memory per empty workspace, Redis `used_memory` growth",
            [f"{t['used_memory_per_workspace_bytes'] / 1024:.0f} KiB"]),
        row("`GRAPH.MEMORY USAGE` summed over them (whole MB per graph)",
            [f"{t['graph_memory_usage_sum_bytes'] / 2**20:.0f} MB"]),
    ]
    if create:
        rows.append(row("`POST /api/workspaces` (4 at a time)", [ms(create)]))
    per_master = t.get("graphs_per_master")
    if per_master:
        rows.append(row("workspace graphs per master (by port)", [", ".join(
            f"{port}: {n:,}" for port, n in per_master.items())]))
    return [
        f"## {t['workspaces']:,} empty workspaces",
        "",
        *table(["figure", "value"], rows),
    ]
