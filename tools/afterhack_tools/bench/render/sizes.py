"""The sections of a full run with a column per size: floors, latencies, where a preview's
time goes, throughput and memory, and the corrections against the naive baseline."""

from __future__ import annotations

from collections.abc import Callable

from afterhack_tools.bench.promises import KINDS, LATENCIES
from afterhack_tools.bench.records import Baseline, PreviewParts, SizeResult, Summary
from afterhack_tools.bench.render.table import lat, ms, pct, row, table

LABELS = {
    "search_api_fulltext": "search, words (BM25) via API `GET /claims?q=&mode=text`",
    "search_api_fulltext_broad": "search, words via API, one common word (claims/400 "
                                 "match)",
    "search_api_hybrid": "search, hybrid (words + meaning) via API, wall",
    "search_api_hybrid_without_embedding": "search, hybrid via API, less the query's "
                                           "embedding time",
    "search_query_embedding": "search: embedding the query (offline model, in the app)",
    "search_store_fulltext": "search, words (term counts + BM25) via store (÷ `RETURN 1`)",
    "search_store_contains": "search, `CONTAINS` scan via store (÷ `RETURN 1`)",
    "correction_preview": "correction preview (between applies)",
    "correction_preview_loop": "correction preview, back to back (each on a fresh claim)",
    "correction_apply": "correction apply",
    "agent_overhead_per_tool_call": "agent run: overhead per tool call (no model time)",
    "agent_overhead_per_run": "agent run: whole overhead (no model time)",
    "workspace_get": "`GET /api/workspaces/{ws}` (one graph read)",
}


def floors_section(sizes: list[SizeResult], head: list[str]) -> list[str]:
    rows = []
    for kind in KINDS:
        rows += [
            row(f"FalkorDB `RETURN 1`, {kind}",
                [ms(s["floors"][kind]["falkordb"]) for s in sizes]),
            row(f"HTTP `GET /api/ping`, {kind}", [ms(s["floors"][kind]["http"]) for s in sizes]),
            row(f"HTTP+FalkorDB floor (sum), {kind}",
                [ms(s["floors"][kind]["http_plus_falkordb"]) for s in sizes]),
        ]
    if all("plain_ping" in s["search"] for s in sizes):
        rows.append(row("HTTP `GET /api/ping` through a plain HTTP/1.1 client "
                        "(stdlib, kept alive), tight",
                        [ms(s["search"]["plain_ping"]) for s in sizes]))
    rows.append(row(
        "HTTP+FalkorDB floor (sum), tight, taken just before and after the back-to-back "
        "previews (the round with the median ratio)",
        [ms(s["corrections"]["preview_loop_floor"]["http_plus_falkordb"]) for s in sizes]))
    rows.append(row(
        "back-to-back previews' p50 ÷ that floor, each round",
        [", ".join(f"{r['ratio']}x" for r in s["corrections"]["preview_loop_rounds"])
         for s in sizes]))
    return [
        "## Floors",
        "",
        "Tight: a loop of nothing but that request. Interleaved: one of each taken just "
        "before each sample of the figures below, so it sees the same machine state.",
        "",
        *table(head, rows),
    ]


def latency_section(sizes: list[SizeResult], head: list[str]) -> list[str]:
    return [
        "## Latency",
        "",
        *table(head, [row(LABELS[name], [lat(figure(s), s["ratios"][name]) for s in sizes])
                      for name, (figure, _) in LATENCIES.items()] + _plain_rows(sizes)),
    ]


def _plain_rows(sizes: list[SizeResult]) -> list[str]:
    """The hybrid search through the plain client: no ratio, its floors are httpx's."""
    if not all("api_hybrid_plain_without_embedding" in s["search"] for s in sizes):
        return []
    return [row("search, hybrid via API through a plain HTTP/1.1 client, less the query's "
                "embedding time (no ratio: the floors are httpx's)",
                [ms(s["search"]["api_hybrid_plain_without_embedding"]) for s in sizes])]


def preview_parts_section(sizes: list[SizeResult], head: list[str]) -> list[str]:
    def cpu(s: SizeResult, request: str, process: str) -> str:
        c = s["preview_parts"]["cpu_ms_per_request"]
        return "n/a" if c is None else f"{c[request][process]:.3f} ms"

    def p50(what: Callable[[PreviewParts], Summary]) -> list[str]:
        return [f"{what(s['preview_parts'])['p50']:.3f} ms" for s in sizes]

    cpu_rows = [
        row(f"{process} CPU per {name}", [cpu(s, request, process) for s in sizes])
        for request, name in (("preview", "preview"), ("ping", "ping"),
                              ("return_one", "`RETURN 1`"))
        for process in ("client", "app", "falkordb")
        if not (request == "ping" and process == "falkordb")
        and not (request == "return_one" and process == "app")]
    return [
        "## Where a preview's time goes",
        "",
        "One loop, each step once per round on claims not corrected above: `GET /api/ping`, "
        "`RETURN 1` through the store, a preview through the API, the same region read "
        "through the store from this process, and FalkorDB's own execution time of that "
        "read's first query. CPU per request: this benchmark's HTTP client (httpx, the "
        "client the floors are measured with), the app and FalkorDB, read around each "
        "request and averaged over the loop. A floor's client CPU is as much a part of it "
        "as the server's.",
        "",
        *table(head, [
            row("preview through the API, p50", p50(lambda p: p["preview"])),
            row("`GET /api/ping`, p50", p50(lambda p: p["ping"])),
            row("`RETURN 1` through the store, p50", p50(lambda p: p["return_one"])),
            row("region read through the store (wall), p50", p50(lambda p: p["region_read"])),
            row("... its first query inside FalkorDB, p50",
                p50(lambda p: p["first_query_in_falkordb"])),
            *cpu_rows,
        ]),
    ]


def throughput_section(sizes: list[SizeResult], head: list[str]) -> list[str]:
    def ingest(s: SizeResult) -> str:
        i = s["ingest"]
        return (f"{i['claims_per_s']:,}/s ({s['ratios']['ingest_vs_bulk_load']['rate']}x "
                f"the bulk loader; {i['claims']:,} claims in {i['sources']} sources)")

    def mem(s: SizeResult) -> str:
        mm = s["load"]["memory"]
        x = s["ratios"]["memory_vs_statement_bytes"]["graph_memory_usage"]
        return (f"{mm['bytes_per_claim']:,} B ({x}x statement bytes; "
                f"graph {mm['graph_memory_usage_bytes'] / 2**20:.0f} MB)")

    def used(s: SizeResult) -> str:
        x = s["ratios"]["memory_vs_statement_bytes"]["used_memory"]
        return f"{s['load']['memory']['used_memory_delta_per_claim']:,} B ({x}x)"

    return [
        "## Throughput and memory",
        "",
        *table(head, [
            row("ingest via `POST /sources`, claims/s without model time (÷ bulk loader's "
                "rate)", [ingest(s) for s in sizes]),
            row("ingest, claims/s including the offline model",
                [f"{s['ingest']['claims_per_s_with_model']:,}/s" for s in sizes]),
            row("bulk loader through the store (a fragment per claim, batches of 5,000), "
                "claims/s",
                [f"{s['load']['claims_per_s']:,}/s ({s['load']['seconds']} s)" for s in sizes]),
            row("memory per claim, `GRAPH.MEMORY USAGE` ÷ claims (÷ statement bytes)",
                [mem(s) for s in sizes]),
            row("memory per claim, Redis `used_memory` growth during the load",
                [used(s) for s in sizes]),
            # A rewrite forks FalkorDB and copies its pages as they are written: what was
            # measured meanwhile is slower, in this run as in production.
            row("FalkorDB AOF rewrites (forks) while this size was loaded and measured",
                [str(s.get("aof_rewrites", "n/a")) for s in sizes]),
            # Linux's pressure figure for the whole host: how much of the time some task
            # (this run's own included) waited for a CPU. A run to compare with another has
            # it low.
            row("host CPU pressure while this size ran (some task waiting for a CPU)",
                [pct(s.get("cpu_stall_pct")) for s in sizes]),
            row("CPU time stolen by the hypervisor while this size ran",
                [pct(s.get("cpu_steal_pct")) for s in sizes]),
        ]),
    ]


def baseline_section(sizes: list[SizeResult], head: list[str]) -> list[str]:
    b = [s["corrections"]["baseline"] for s in sizes]

    def avoided(x: Baseline) -> str:
        naive = x["naive_decisions"] + x["naive_actions"]
        share = 100 * x["false_alarms_avoided"] / naive if naive else 0.0
        return f"{x['false_alarms_avoided']} ({share:.0f}% of naive)"

    return [
        "## Corrections against flag-everything-reachable",
        "",
        "On the same corrections: a naive rule flags every decision (in good standing) that "
        "uses the corrected claim or depends on one that does, at any depth, and holds every "
        "open action requiring one; afterhack flags only what lost its support.",
        "",
        *table(head, [
            row("corrections applied", [str(x["corrections"]) for x in b]),
            row("decisions in their regions (mean / max)",
                [f"{s['corrections']['region_decisions']['mean']} / "
                 f"{s['corrections']['region_decisions']['max']}" for s in sizes]),
            row("decisions flagged: naive / afterhack",
                [f"{x['naive_decisions']} / {x['flagged']}" for x in b]),
            row("actions held: naive / afterhack",
                [f"{x['naive_actions']} / {x['held']}" for x in b]),
            row("false alarms avoided (decisions + actions)", [avoided(x) for x in b]),
        ]),
    ]
