"""Run the whole suite: tenants first, then each size (floors, search, corrections, agent
runs, ingest; its workspace is deleted after them, so the vectors its ingests left pending
are not embedded under the next size's figures), then the restart after kill -9, then the
promises checked against the figures; write JSON and Markdown. ``only="restart"`` runs the
restart section alone and writes its own files (restart.json, restart.md), never latest.*.

With ``cluster``, the suite runs once on one server (``latest.*``) and again on a local
3-master, 3-replica cluster (``latest-cluster.*``: the two side by side, then the cluster's
own report), with ``cluster_tenants`` empty workspaces there. The restart section runs on
the single server only (it kills the embedded FalkorDB the app starts)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from afterhack.store.names import graph_name
from afterhack_tools.bench import promises, report, sealed_set
from afterhack_tools.bench.agents import measure_agent_runs
from afterhack_tools.bench.asof import measure_asof
from afterhack_tools.bench.breakdown import measure_preview_parts
from afterhack_tools.bench.conflicts import labelled_pairs, measure_collateral
from afterhack_tools.bench.conflicts import measure_cost as measure_conflict_cost
from afterhack_tools.bench.conflicts import quality as conflict_quality
from afterhack_tools.bench.conversations import measure as measure_conversations
from afterhack_tools.bench.corrections import measure_corrections
from afterhack_tools.bench.diskscrub import QUICK_SIZES as DISK_SCRUB_QUICK
from afterhack_tools.bench.diskscrub import SIZES as DISK_SCRUB_SIZES
from afterhack_tools.bench.diskscrub import measure as measure_disk_scrub
from afterhack_tools.bench.embedingest import measure_embedding_ingest
from afterhack_tools.bench.erasure import measure as measure_erasure
from afterhack_tools.bench.floors import Floors
from afterhack_tools.bench.harness import Harness, cpu_stall_us, cpu_ticks, machine
from afterhack_tools.bench.ingest import measure_ingest
from afterhack_tools.bench.load import load_workspace
from afterhack_tools.bench.meaning import for_pairs
from afterhack_tools.bench.onefact import measure_one_fact
from afterhack_tools.bench.records import (
    BenchResult,
    ConflictFigures,
    CorrectionFigures,
    RestartFigures,
    RestartResult,
    SectionResult,
    SizeResult,
    TenantFigures,
)
from afterhack_tools.bench.render.cluster import side_by_side
from afterhack_tools.bench.restart import AofPolicy, measure_restart
from afterhack_tools.bench.retrieval import measure_retrieval
from afterhack_tools.bench.search import measure_search
from afterhack_tools.bench.stats import sample, summary
from afterhack_tools.bench.synth import (
    Vocabulary,
    Workspace,
    agent_tasks,
    build_workspace,
    correction_targets,
    search_queries,
)
from afterhack_tools.bench.tenants import measure_tenants
from afterhack_tools.bench.withmodel import measure_with_model

DEFAULT_SIZES = (1000, 10_000, 100_000)
QUICK_SIZES = (200,)
# Claims on disk when the app is killed; the issue that asked for it (#17) named these two.
RESTART_SIZES = (24_000, 240_000)
SECTIONS = ("conflicts", "asof", "restart", "retrieval", "embedding-ingest",
            "conversations", "real-model", "disk-scrub",
            "erasure", "one-fact")
# Sections that run alone beside a full run, never in it (run_section).
ALONE = ("retrieval", "embedding-ingest", "conversations", "real-model", "disk-scrub",
         "erasure", "one-fact")


@dataclass
class BenchConfig:
    sizes: tuple[int, ...] = DEFAULT_SIZES
    out: Path = Path("bench-results")
    quick: bool = False
    floor_samples: int = 1000
    search_samples: int = 200
    corrections: int = 40
    breakdown_rounds: int = 200
    preview_loop_rounds: int = 5
    agent_runs: int = 30
    workspace_gets: int = 500
    tenants: int = 1000
    ingest_sources: int = 4
    ingest_claims_per_source: int = 5000
    conflict_resolutions: int = 3
    # Empty: no restart section (a quick full run skips it; ``--only restart --quick`` not).
    restart_sizes: tuple[int, ...] = RESTART_SIZES
    restart_claims_per_source: int = 5000
    restart_claim_samples: int = 500
    restart_aof_policy: AofPolicy = "afterhack"
    asof_samples: int = 200
    # Run one section only ("conflicts", "restart", "asof"); None runs them all.
    only: str | None = None
    retrieval_rows: int = 1000
    # The conversations section: messages appended, how many per append.
    conversation_messages: int = 10_000
    conversation_batch: int = 100
    # The erasure section: a conversation of so many messages (one version), how many of
    # them are erased, and the sources of so many claims erased whole.
    erasure_messages: int = 10_000
    erasure_message_samples: int = 10
    erasure_sources: int = 5
    erasure_claims_per_source: int = 1000
    # The section with a real model: HaluEval rows, how many of them are asked of the agent
    # (None: all), and every how many labelled pairs one goes to its judge (1: all). A run
    # through the model takes about a minute here and a pair several seconds: these keep
    # the section within half an hour.
    real_model_rows: int = 40
    real_model_agent_rows: int | None = 10
    real_model_judge_every: int = 2
    # The disk-scrub section: claims at each size, and rounds of each measure (None: as
    # diskscrub.py sets them per size).
    disk_scrub_sizes: tuple[int, ...] = DISK_SCRUB_SIZES
    disk_scrub_rounds: int | None = None
    # The one-fact section: notes written, eight a source, each giving one budget a value.
    one_fact_claims: int = 10_000
    command: str = "afterhack bench"
    cluster: bool = False
    cluster_tenants: int = 10_000

    @classmethod
    def quick_config(cls, **overrides: Any) -> BenchConfig:
        base: dict[str, Any] = dict(
            sizes=QUICK_SIZES, quick=True, floor_samples=100, search_samples=20,
            corrections=6, breakdown_rounds=20, preview_loop_rounds=2, agent_runs=5,
            workspace_gets=50, tenants=20, ingest_sources=1, ingest_claims_per_source=400,
            conflict_resolutions=2, restart_sizes=(), restart_claim_samples=50,
            retrieval_rows=30, asof_samples=10, real_model_rows=6, real_model_agent_rows=3,
            real_model_judge_every=10, disk_scrub_sizes=DISK_SCRUB_QUICK, disk_scrub_rounds=2,
            erasure_messages=400, erasure_message_samples=3, erasure_sources=2,
            erasure_claims_per_source=100,
            one_fact_claims=800)
        base.update(overrides)
        return cls(**base)


Log = Callable[[str], None]


async def _measure_size(h: Harness, cfg: BenchConfig, n: int, vocab: Vocabulary,
                        log: Log) -> SizeResult:
    assert h.http is not None
    http = h.http
    t0 = time.perf_counter()
    rewrites_before = await h.aof_rewrites()
    stall_before, ticks_before = cpu_stall_us(), cpu_ticks()
    ws = build_workspace(n, vocab=vocab)
    log(f"[{n}] shape {ws.counts()}")
    if cfg.only == "asof":
        return {"claims": n, "shape": ws.counts(),
                "asof": await measure_asof(h, ws, cfg.asof_samples, log),
                "cpu_stall_pct": _stall_pct(stall_before, time.perf_counter() - t0),
                "cpu_steal_pct": _steal_pct(ticks_before),
                "seconds": round(time.perf_counter() - t0, 1)}
    ws_id, load = await load_workspace(h, ws, f"bench {n}")
    log(f"[{n}] bulk-loaded in {load['seconds']} s ({load['claims_per_s']} claims/s)")
    if cfg.only == "conflicts":
        # A correction preview now looks for the claims that state the corrected fact in
        # other words: it is measured against its floor here too, before the ingests (whose
        # claims wait for vectors, and the worker embedding them would run under it).
        preview = await _measure_preview(h, cfg, ws_id, ws, n, log)
        return {"claims": n, "shape": ws.counts(), "load": load, "corrections": preview,
                "conflicts": await _measure_conflicts(h, cfg, ws_id, ws, vocab, n, log),
                "cpu_stall_pct": _stall_pct(stall_before, time.perf_counter() - t0),
                "cpu_steal_pct": _steal_pct(ticks_before),
                "seconds": round(time.perf_counter() - t0, 1)}
    floors = Floors(h, graph_name(ws_id))
    tight = await floors.tight(cfg.floor_samples)
    log(f"[{n}] floors: RETURN 1 p50 {tight['falkordb']['p50']} ms, "
        f"ping p50 {tight['http']['p50']} ms")

    async def get_ws() -> None:
        (await http.get(f"/api/workspaces/{ws_id}")).raise_for_status()

    workspace_get = summary(await sample(get_ws, cfg.workspace_gets, warmup=10,
                                         before=floors.tick))
    search = await measure_search(h, ws_id, search_queries(ws, 64), cfg.search_samples, floors)
    log(f"[{n}] search p50: api {search['api_fulltext']['p50']} ms, store full-text "
        f"{search['store_fulltext']['p50']} ms, CONTAINS {search['store_contains']['p50']} ms")
    targets = correction_targets(ws, cfg.corrections + 2 + 50)
    corr = await measure_corrections(h, ws_id, targets[:cfg.corrections + 2], floors,
                                     floor_samples=max(50, cfg.floor_samples // 4),
                                     loop_rounds=cfg.preview_loop_rounds)
    log(f"[{n}] corrections p50: preview {corr['preview']['p50']} ms, "
        f"apply {corr['apply']['p50']} ms")
    # Claims not corrected above: a preview of a corrected one stops before any work.
    parts = await measure_preview_parts(h, ws_id, targets[cfg.corrections + 2:],
                                        cfg.breakdown_rounds)
    log(f"[{n}] preview parts p50: region read {parts['region_read']['p50']} ms, in FalkorDB "
        f"{parts['first_query_in_falkordb']['p50']} ms; CPU ms per request "
        f"{parts['cpu_ms_per_request']}")
    agents = await measure_agent_runs(h, ws_id, agent_tasks(vocab, cfg.agent_runs + 2), floors)
    log(f"[{n}] agent run overhead per tool call p50 "
        f"{agents['overhead_per_tool_call']['p50']} ms")
    ingest = await measure_ingest(h, ws_id, vocab, sources=cfg.ingest_sources,
                                  claims_per_source=cfg.ingest_claims_per_source,
                                  serial_base=10_000_000)
    log(f"[{n}] ingest {ingest['claims_per_s']} claims/s without model time")
    conflicts = await _measure_conflicts(h, cfg, ws_id, ws, vocab, n, log)
    asof = await measure_asof(h, ws, cfg.asof_samples, log)
    rewrites = await h.aof_rewrites() - rewrites_before
    # Gone before the next size: the claims its ingest sections added wait for vectors, and
    # the app's worker embedding them (minutes of it) would run under the next size's
    # figures. A deleted workspace's backlog is dropped.
    (await http.delete(f"/api/workspaces/{ws_id}")).raise_for_status()
    return {
        "claims": n,
        "shape": ws.counts(),
        "load": load,
        "floors": {"tight": tight, "interleaved": floors.interleaved()},
        "workspace_get": workspace_get,
        "search": search,
        "corrections": corr,
        "preview_parts": parts,
        "agent_runs": agents,
        "ingest": ingest,
        "conflicts": conflicts,
        "asof": asof,
        "aof_rewrites": rewrites,
        "cpu_stall_pct": _stall_pct(stall_before, time.perf_counter() - t0),
        "cpu_steal_pct": _steal_pct(ticks_before),
        "seconds": round(time.perf_counter() - t0, 1),
    }


async def _measure_preview(h: Harness, cfg: BenchConfig, ws_id: str, ws: Workspace, n: int,
                           log: Log) -> CorrectionFigures:
    """The correction preview back to back against the tight-loop floors around it, as the
    full run's corrections section measures it (corrections.py)."""
    floors = Floors(h, graph_name(ws_id))
    corr = await measure_corrections(h, ws_id, correction_targets(ws, cfg.corrections + 2),
                                     floors, floor_samples=max(50, cfg.floor_samples // 4),
                                     loop_rounds=cfg.preview_loop_rounds)
    log(f"[{n}] correction preview p50 {corr['preview_loop']['p50']} ms back to back, "
        f"{corr['preview_loop_ratio']}x its floor")
    return corr


async def _measure_conflicts(h: Harness, cfg: BenchConfig, ws_id: str, ws: Workspace,
                             vocab: Vocabulary, n: int, log: Log) -> ConflictFigures:
    cost = await measure_conflict_cost(h, ws_id, ws, vocab, sources=cfg.ingest_sources,
                                       claims_per_source=cfg.ingest_claims_per_source,
                                       serial_base=20_000_000)
    log(f"[{n}] ingest with conflict checks {cost['with_checks']['claims_per_s']} claims/s, "
        f"without {cost['without_checks']['claims_per_s']} ({cost['slowdown']}x); "
        f"{cost['with_checks']['conflicts_raised']} conflicts raised")
    coll = await measure_collateral(h, ws_id, cfg.conflict_resolutions)
    log(f"[{n}] {coll['resolved']} conflicts resolved, {coll['changed_outside_region']} "
        "changes outside their regions")
    return {"cost": cost, "collateral": coll}


def _stall_pct(before: int | None, seconds: float) -> float | None:
    """Share of the stretch in which some task on the host waited for a CPU (this run's own
    processes included): 0 on an idle host, tens of percent on a busy one."""
    after = cpu_stall_us()
    if before is None or after is None or seconds <= 0:
        return None
    return round((after - before) / 1e6 / seconds * 100, 1)


def _steal_pct(before: tuple[int, int] | None) -> float | None:
    after = cpu_ticks()
    if before is None or after is None or after[1] <= before[1]:
        return None
    return round((after[0] - before[0]) / (after[1] - before[1]) * 100, 1)


async def _restart(cfg: BenchConfig, vocab: Vocabulary, log: Log) -> RestartFigures:
    return await measure_restart(cfg.restart_sizes, per_source=cfg.restart_claims_per_source,
                                 claim_samples=cfg.restart_claim_samples,
                                 policy=cfg.restart_aof_policy, vocab=vocab, log=log)


async def run_restart_only(cfg: BenchConfig, log: Log = print) -> RestartResult:
    started = time.time()
    t0 = time.perf_counter()
    restart = await _restart(cfg, Vocabulary(), log)
    result: RestartResult = {
        "meta": {"started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
                 "duration_s": round(time.perf_counter() - t0, 1),
                 "command": cfg.command, "machine": machine()},
        "restart": restart}
    freeze = restart.get("freeze")
    if freeze:
        result["promises"] = promises.freeze_promises(freeze)
    cfg.out.mkdir(parents=True, exist_ok=True)
    (cfg.out / "restart.json").write_text(json.dumps(result, indent=2) + "\n")
    (cfg.out / "restart.md").write_text(report.restart_markdown(result))
    return result


async def run_bench(cfg: BenchConfig, log: Log = print) -> BenchResult | RestartResult:
    if cfg.only == "restart":
        return await run_restart_only(cfg, log)
    if cfg.only not in (None, *SECTIONS):
        raise ValueError(f"unknown section {cfg.only!r}; one of {', '.join(SECTIONS)}")
    single = await _run_suite(cfg, log, cluster=False)
    write(single, cfg.out)
    if not cfg.cluster:
        return single
    log("again on a local cluster of 3 masters with a replica each")
    cluster = await _run_suite(cfg, log, cluster=True)
    cluster["meta"]["duration_s"] = round(
        cluster["meta"]["duration_s"] + single["meta"]["duration_s"], 1)
    write(cluster, cfg.out, name="latest-cluster",
          before="## One server and the cluster, side by side\n\nEach figure is divided by "
          "floors measured on its own FalkorDB (for the cluster: `RETURN 1` on the master "
          "holding the workspace).\n\n" + side_by_side(single, cluster) + "\n")
    return cluster


async def _run_suite(cfg: BenchConfig, log: Log, *, cluster: bool) -> BenchResult:
    started = time.time()
    t0 = time.perf_counter()
    vocab = Vocabulary()
    tenants_count = cfg.cluster_tenants if cluster else cfg.tenants
    async with Harness(cluster=cluster) as h:
        versions = await h.falkordb_version()
        app_port = int(h.base_url.rsplit(":", 1)[1])
        log(f"FalkorDB {versions['falkordb']} (Redis {versions['redis']}); app at {h.base_url}")
        quality = conflict_quality(meaning=for_pairs(labelled_pairs()))
        free = quality["free"]
        log(f"conflict detector: precision {quality['all']['precision']}, recall "
            f"{quality['all']['recall']} on {quality['all']['pairs']} pairs (held out: "
            f"{quality['held_out']['precision']} / {quality['held_out']['recall']}); freely "
            f"worded: {free['all']['precision']} / {free['all']['recall']} on "
            f"{free['all']['pairs']} pairs (held out: {free['held_out']['precision']} / "
            f"{free['held_out']['recall']}); nouns, verbs and languages: "
            f"{quality['dev_set']['all']['precision']} / {quality['dev_set']['all']['recall']} "
            f"on {quality['dev_set']['all']['pairs']} pairs; second dev set: "
            f"{quality['dev_set2']['all']['precision']} / "
            f"{quality['dev_set2']['all']['recall']} on {quality['dev_set2']['all']['pairs']} "
            f"pairs"
            f"{'' if quality['by_meaning'] else ' (by words alone)'}")
        log(sealed_set.line(quality["sealed"]))
        tenants: TenantFigures | None = None
        if cfg.only is None:
            tenants = await measure_tenants(h, tenants_count, cfg.workspace_gets)
            log(f"{tenants_count} workspaces: "
                f"{tenants['used_memory_per_workspace_bytes'] / 1024:.0f} KiB each; per "
                f"master {tenants['graphs_per_master']}")
            log(f"GET p50 {tenants['get_with_1']['p50']} ms with 1 workspace, "
                f"{tenants['get_with_all_random']['p50']} ms with all")
        sizes: list[SizeResult] = []
        for n in cfg.sizes:
            sizes.append(await _measure_size(h, cfg, n, vocab, log))
        # A section run alone (conflicts, asof) leaves it out: it takes minutes.
        retrieval = (await measure_retrieval(h, cfg.retrieval_rows, log)
                     if cfg.only is None else None)
    # After the harness is gone: it starts its own FalkorDB and apps, kills one.
    restart = (await _restart(cfg, vocab, log)
               if cfg.restart_sizes and cfg.only is None and not cluster else None)
    config = {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(cfg).items()}
    result: BenchResult = {
        "meta": {
            "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
            "duration_s": round(time.perf_counter() - t0, 1),
            "command": cfg.command,
            "machine": machine(),
            "versions": versions,
            "config": config,
            "app_port": app_port,
            "falkordb": "cluster: 3 masters, 1 replica each" if cluster else "one server",
        },
        "tenants": tenants,
        "conflict_quality": quality,
        "sizes": sizes,
    }
    if retrieval is not None:
        result["retrieval"] = retrieval
    if restart is not None:
        result["restart"] = restart
    if cfg.only is None:
        for size in sizes:
            size["ratios"] = promises.ratios(size)
    result["promises"] = promises.promises(result)
    return result


async def run_section(cfg: BenchConfig, section: str, log: Log = print) -> SectionResult:
    """One section alone (retrieval, embedding-ingest, conversations, real-model,
    disk-scrub, erasure, one-fact), written beside (never over) a full run's results, as
    <section>.json and <section>.md."""
    if section not in ALONE:
        raise ValueError(f"{section!r} does not run beside a full run")
    started = time.time()
    t0 = time.perf_counter()
    async with Harness() as h:
        versions = await h.falkordb_version()
        retrieval = (await measure_retrieval(h, cfg.retrieval_rows, log)
                     if section == "retrieval" else None)
        with_model = (await measure_with_model(h, cfg.real_model_rows, log,
                                               agent_rows=cfg.real_model_agent_rows,
                                               judge_every=cfg.real_model_judge_every)
                      if section == "real-model" else None)
    embedding = await measure_embedding_ingest(log) if section == "embedding-ingest" else None
    talk = (await measure_conversations(log, cfg.conversation_messages,
                                        cfg.conversation_batch)
            if section == "conversations" else None)
    scrub = (await measure_disk_scrub(log, cfg.disk_scrub_sizes, cfg.disk_scrub_rounds)
             if section == "disk-scrub" else None)
    erasing = (await measure_erasure(
        log, messages=cfg.erasure_messages, message_samples=cfg.erasure_message_samples,
        sources=cfg.erasure_sources, claims_per_source=cfg.erasure_claims_per_source)
        if section == "erasure" else None)
    one_fact = (await measure_one_fact(cfg.one_fact_claims, log)
                if section == "one-fact" else None)
    if one_fact is not None:
        one_fact["promises"] = promises.one_fact_promises(one_fact)
    result: SectionResult = {
        "meta": {
            "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
            "duration_s": round(time.perf_counter() - t0, 1),
            "command": cfg.command,
            "machine": machine(),
            "versions": versions,
        },
    }
    if retrieval is not None:
        result["retrieval"] = retrieval
    if embedding is not None:
        result["embedding-ingest"] = embedding
    if talk is not None:
        result["conversations"] = talk
    if with_model is not None:
        result["real-model"] = with_model
    if scrub is not None:
        result["disk-scrub"] = scrub
    if erasing is not None:
        result["erasure"] = erasing
    if one_fact is not None:
        result["one-fact"] = one_fact
    cfg.out.mkdir(parents=True, exist_ok=True)
    (cfg.out / f"{section}.json").write_text(json.dumps(result, indent=2) + "\n")
    (cfg.out / f"{section}.md").write_text(report.section_markdown(result, section))
    return result


def write(result: BenchResult, out: Path, *, name: str = "latest", before: str = "") -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(result, indent=2) + "\n")
    (out / f"{name}.md").write_text(before + report.markdown(result))
