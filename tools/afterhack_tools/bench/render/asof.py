"""The section on reads as of a time: latencies now, without histories and as of a time,
their ratios, and what a status change's history costs in memory."""

from __future__ import annotations

from afterhack_tools.bench.records import SizeResult
from afterhack_tools.bench.render.table import row, size_head, table

_ROWS = (
    ("search `GET /claims?q=`: now / without histories / as of early / as of late",
     ("search_now_a", "search_now_b", "search_asof_early", "search_asof_late")),
    ("a page of the claim list (offset 1000): now / without / early / late",
     ("list_now_a", "list_now_b", "list_asof_early", "list_asof_late")),
    ("one claim with its evidence: now / as of early", ("claim_now_a", "claim_asof_early")),
    ("one decision with why then, why now: now / without histories / as of early",
     ("decision_now_a", "decision_now_b", "decision_asof_early")),
    ("correction preview: with / without histories", ("preview_a", "preview_b")),
)


def asof_section(all_sizes: list[SizeResult]) -> list[str]:
    sizes = [s for s in all_sizes if "asof" in s]
    if not sizes:
        return []
    head = size_head([s["claims"] for s in sizes])

    def cells(names: tuple[str, ...]) -> list[str]:
        return [" / ".join(f"{s['asof']['latency'][k]['p50']:.2f}" for k in names) + " ms"
                for s in sizes]

    ratio_rows = [row(k.replace("_", " "), [f"{s['asof']['ratios'][k]}x" for s in sizes])
                  for k in sizes[0]["asof"]["ratios"]]
    mem = [s["asof"]["memory"] for s in sizes]
    return [
        "## Reads as of a time (rule 10)",
        "",
        "The workspace is loaded twice: with status histories (as the app writes it) and "
        "without (a graph written before them). Every claim then changes status once; "
        "\"early\" is a moment before those changes (a read as of it reads each claim's "
        "history), \"late\" one after. All figures are sampled in one round-robin, p50.",
        "",
        *table(head, [row(name, cells(keys)) for name, keys in _ROWS]),
        *table(["ratio (p50 ÷ p50)", *head[1:]], ratio_rows),
        *table(head, [
            row("history bytes per status change: GRAPH.MEMORY USAGE / used_memory",
                [f"{m['per_status_change_bytes_graph']} / "
                 f"{m['per_status_change_bytes_used_memory']} B" for m in mem]),
            row("first history entry per node (GRAPH.MEMORY USAGE, with ÷ without)",
                [f"{m['first_entry_bytes_per_node_graph']} B" for m in mem]),
        ]),
    ]
