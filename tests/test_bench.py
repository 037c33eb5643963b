"""The benchmark suite runs end to end on a tiny size and writes well-formed results.

Benchmarks are never timed pass/fail tests: this checks only that every figure is there
and is a positive number, and that the Markdown table was written.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from afterhack_tools.bench.promises import freeze_promises
from afterhack_tools.bench.records import Answers, FreezeFigures, FreezeRun

LATENCY = ("p50", "p95", "n")


def _positive_latency(s: dict[str, Any], where: str) -> None:
    for k in LATENCY:
        assert s[k] > 0, f"{where}.{k} = {s[k]}"
    assert s["p95"] >= s["p50"], where


def test_ping_touches_nothing(client: TestClient) -> None:
    r = client.get("/api/ping")
    assert r.status_code == 200 and r.json() == {"pong": True}


def test_quick_bench_writes_json_and_markdown(tmp_path: Path) -> None:
    out = tmp_path / "results"
    proc = subprocess.run(
        [sys.executable, "-m", "afterhack.cli", "bench", "--quick", "--out", str(out)],
        # The retrieval section embeds its claims with the offline model: minutes, not
        # seconds, on a busy 2-core machine.
        capture_output=True, text=True, timeout=420, cwd=tmp_path, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]

    result = json.loads((out / "latest.json").read_text())
    assert set(result) >= {"meta", "tenants", "sizes", "promises"}
    meta = result["meta"]
    assert meta["machine"]["cores"] > 0 and meta["machine"]["python"]
    assert meta["versions"]["falkordb"].count(".") == 2
    assert meta["duration_s"] > 0

    (size,) = result["sizes"]
    assert size["claims"] == 200
    for kind in ("tight", "interleaved"):
        floors = size["floors"][kind]
        _positive_latency(floors["falkordb"], f"floors.{kind}.falkordb")
        _positive_latency(floors["http"], f"floors.{kind}.http")
        assert floors["http_plus_falkordb"]["p50"] > 0
    for name, r in size["ratios"].items():
        # GRAPH.MEMORY USAGE counts whole megabytes: 0 for a 200-claim graph.
        assert r and all(x > 0 or name.startswith("memory") for x in r.values()), name
    _positive_latency(size["workspace_get"], "workspace_get")
    for path in ("api_fulltext", "api_fulltext_broad", "store_fulltext", "store_contains",
                 "api_hybrid"):
        _positive_latency(size["search"][path], f"search.{path}")
        assert size["search"][path]["mean_hits"] > 0, path
    for path in ("api_hybrid_without_embedding", "query_embedding",
                 "api_hybrid_plain_without_embedding", "plain_ping"):
        _positive_latency(size["search"][path], f"search.{path}")
    assert size["search"]["query_embedding"]["p50"] < size["search"]["api_hybrid"]["p50"]
    idle = size["search"]["after_idle"]
    assert idle["gap_ms"] == size["search"]["query_embedding"]["p50"]
    for path in ("ping", "ping_after_gap", "return_one", "return_one_after_gap"):
        _positive_latency(idle[path], f"search.after_idle.{path}")
    corr = size["corrections"]
    _positive_latency(corr["preview"], "preview")
    _positive_latency(corr["preview_loop"], "preview back to back")
    for part in ("falkordb", "http"):
        _positive_latency(corr["preview_loop_floor"][part], f"floor around it: {part}")
    assert size["ratios"]["correction_preview_loop"]["adjacent"] > 0
    rounds = corr["preview_loop_rounds"]
    assert len(rounds) == 2 and all(r["ratio"] > 0 for r in rounds)
    assert size["ratios"]["correction_preview_loop"]["adjacent"] == corr["preview_loop_ratio"]
    assert isinstance(size["aof_rewrites"], int) and size["aof_rewrites"] >= 0
    # Where the kernel reports CPU pressure it is a share of the run's time.
    if Path("/proc/pressure/cpu").exists():
        assert isinstance(size["cpu_stall_pct"], float) and 0 <= size["cpu_stall_pct"] < 200
    else:
        assert size["cpu_stall_pct"] is None
    if Path("/proc/stat").exists():
        assert isinstance(size["cpu_steal_pct"], float) and 0 <= size["cpu_steal_pct"] <= 100
    _positive_latency(corr["apply"], "apply")
    parts = size["preview_parts"]
    for what in ("preview", "ping", "return_one", "region_read", "first_query_in_falkordb"):
        _positive_latency(parts[what], f"preview_parts.{what}")
    cpu = parts["cpu_ms_per_request"]
    assert cpu is not None, "the suite runs on Linux, where /proc has every process's CPU"
    assert set(cpu) == {"ping", "return_one", "preview"}
    assert all(set(by) == {"client", "app", "falkordb"} for by in cpu.values()), cpu
    # Each process that serves a request spends CPU on it (read in nanoseconds, so even a
    # tiny run sees it); the app plays no part in a RETURN 1 sent from the client.
    for request, process in (("preview", "client"), ("preview", "app"),
                             ("preview", "falkordb"), ("ping", "client"), ("ping", "app"),
                             ("return_one", "client"), ("return_one", "falkordb")):
        assert cpu[request][process] > 0, (request, process, cpu)
    assert cpu["return_one"]["app"] < cpu["preview"]["app"], cpu
    base = corr["baseline"]
    assert base["corrections"] > 0
    assert base["naive_decisions"] >= base["flagged"] >= 0
    assert base["naive_actions"] >= base["held"] >= 0
    runs = size["agent_runs"]
    _positive_latency(runs["overhead_per_tool_call"], "agent overhead per tool call")
    assert runs["tool_calls_per_run"] > 0
    ingest = size["ingest"]
    assert ingest["claims"] > 0 and ingest["claims_per_s"] > 0 and ingest["dropped"] == {}
    assert ingest["own_vs_model"] > 0  # the offline model ran in every ingest
    assert size["load"]["claims_per_s"] > 0
    assert size["load"]["memory"]["used_memory_delta_bytes"] > 0

    tenants = result["tenants"]
    assert tenants["floors"]["tight"]["http"]["p50"] > 0
    assert tenants["workspaces"] == 20
    for k in ("get_with_1", "get_with_all_same", "get_with_all_random", "create"):
        _positive_latency(tenants[k], f"tenants.{k}")
    assert tenants["used_memory_per_workspace_bytes"] > 0

    conflicts = size["conflicts"]
    for side in ("with_checks", "without_checks"):
        assert conflicts["cost"][side]["claims"] > 0 and conflicts["cost"][side]["claims_per_s"] > 0
    # One sentence in fifty restates a workspace claim with another date: some conflicts.
    assert conflicts["cost"]["with_checks"]["conflicts_raised"] > 0
    assert conflicts["cost"]["without_checks"]["conflicts_raised"] == 0
    assert conflicts["collateral"]["resolved"] > 0
    assert conflicts["collateral"]["changed_outside_region"] == 0, conflicts["collateral"]
    quality = result["conflict_quality"]
    assert quality["all"]["pairs"] >= 60 and quality["held_out"]["pairs"] > 0

    _asof_figures(size["asof"])
    assert {p["id"] for p in result["promises"]} == {
        "apply_scales", "preview_near_floor", "ingest_rate", "detector_quality",
        "sealed_quality", "conflict_checks_cost", "conflict_no_collateral", "hybrid_search",
        *ASOF_PROMISES}
    # GRAPH.MEMORY USAGE counts whole megabytes, and used_memory moves on its own: a tiny
    # workspace's history bytes may read as 0; a detector that finds none of the sealed
    # set's contradictions has a recall of 0 there.
    assert all(isinstance(p["holds"], bool) and (p["value"] > 0 or p["id"] in (
        "conflict_no_collateral", "history_bytes", "sealed_quality"))
        for p in result["promises"])

    ret = result["retrieval"]
    assert ret["rows"] == 30 and 0 < ret["answerable"] <= 30
    assert ret["ingest"]["claims"] > ret["ingest"]["sources"] > 0
    assert set(ret["api"]) == {"text", "vector", "hybrid", "default"}
    for ranking in (*ret["api"].values(), ret["bm25"]):
        hits = [ranking[f"hit@{k}"] for k in (1, 5, 10)]
        assert 0 <= hits[0] <= hits[1] <= hits[2] <= ret["answerable"] / 30, ranking
    assert ret["api"]["hybrid"]["hit@10"] > 0
    assert ret["api"]["default"]["hit@5"] >= ret["api"]["hybrid"]["hit@5"]
    assert 0 <= ret["agent"]["answer_rate"] <= 1 and ret["agent"]["runs"] == 30
    md = (out / "latest.md").read_text()
    assert md.startswith("# afterhack benchmarks")
    for heading in ("## Promises", "## Floors", "## Latency", "## Throughput and memory",
                    "## Corrections against flag-everything-reachable", "empty workspaces",
                    "## Where a preview's time goes", "## Conflicts", "## Retrieval (HaluEval QA)",
                    "## Reads as of a time"):
        assert heading in md
    assert "| correction apply |" in md
    assert "200 claims" in md
    # The search promise is judged through the plain client, and says so beside httpx's.
    (hybrid,) = [p for p in result["promises"] if p["id"] == "hybrid_search"]
    assert hybrid["value"] == size["search"]["api_hybrid_plain_without_embedding"]["p50"]
    assert "through a plain HTTP/1.1 client" in hybrid["measured"]
    assert "through httpx" in hybrid["measured"]
    assert "| search, hybrid via API through a plain HTTP/1.1 client" in md
    # The suite stopped what it started: nothing answers on the app's port any more.
    port = meta["app_port"]
    try:
        httpx.get(f"http://127.0.0.1:{port}/api/ping", timeout=0.5)
        raise AssertionError("the benchmark's app is still running")
    except httpx.TransportError:
        pass


ASOF_PROMISES = ("asof_search_near_now", "now_reads_not_slower", "history_bytes")


def _asof_figures(asof: dict[str, Any]) -> None:
    for name, lat in asof["latency"].items():
        _positive_latency(lat, f"asof.{name}")
    assert set(asof["latency"]) >= {"search_now_a", "search_now_b", "search_asof_early",
                                    "preview_a", "preview_b", "decision_asof_early"}
    assert all(r > 0 for r in asof["ratios"].values()), asof["ratios"]
    assert asof["memory"]["claims"] == 200


def test_the_asof_section_runs_alone(tmp_path: Path) -> None:
    out = tmp_path / "results"
    proc = subprocess.run(
        [sys.executable, "-m", "afterhack.cli", "bench", "--quick", "--only", "asof",
         "--out", str(out)], capture_output=True, text=True, timeout=240, cwd=tmp_path,
        check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads((out / "latest.json").read_text())
    assert result["tenants"] is None and result["meta"]["config"]["only"] == "asof"
    (size,) = result["sizes"]
    assert "corrections" not in size
    _asof_figures(size["asof"])
    assert {p["id"] for p in result["promises"]} == set(ASOF_PROMISES)
    md = (out / "latest.md").read_text()
    assert md.startswith("# afterhack benchmarks: reads as of a time")
    assert "| search as of a time within" in md


def test_the_conflicts_section_runs_alone(tmp_path: Path) -> None:
    out = tmp_path / "results"
    proc = subprocess.run(
        [sys.executable, "-m", "afterhack.cli", "bench", "--quick", "--only", "conflicts",
         "--out", str(out)], capture_output=True, text=True, timeout=240, cwd=tmp_path,
        check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads((out / "latest.json").read_text())
    assert result["tenants"] is None and result["meta"]["config"]["only"] == "conflicts"
    (size,) = result["sizes"]
    # The correction preview against its floor: a preview looks for the claims that state
    # the corrected fact in other words.
    assert set(size) >= {"claims", "load", "conflicts", "corrections"}
    assert size["corrections"]["preview_loop_ratio"] > 0
    assert {p["id"] for p in result["promises"]} == {
        "detector_quality", "sealed_quality", "conflict_checks_cost",
        "conflicts_preview_near_floor", "conflict_no_collateral"}
    md = (out / "latest.md").read_text()
    assert md.startswith("# afterhack benchmarks: conflicts") and "| held out |" in md
    # The sealed set: its totals on a line that names it, in the log and the report.
    sealed = result["conflict_quality"]["sealed"]
    assert sealed["pairs"] >= 150 and sealed["tp"] + sealed["fn"] == sealed["contradictions"]
    assert "sealed held-out set: precision " in proc.stderr
    assert "| sealed held-out set (never tuned on) |" in md


def test_the_restart_section_runs_alone_and_leaves_latest_alone(tmp_path: Path) -> None:
    out = tmp_path / "results"
    proc = subprocess.run(
        [sys.executable, "-m", "afterhack.cli", "bench", "--quick", "--only", "restart",
         "--out", str(out)], capture_output=True, text=True, timeout=300, cwd=tmp_path,
        check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert not (out / "latest.json").exists() and not (out / "latest.md").exists()
    result = json.loads((out / "restart.json").read_text())
    restart = result["restart"]
    assert restart["policy"] == "afterhack" and restart["floor_s"] > 0
    (size,) = restart["sizes"]
    assert size["claims"] == 1000 and size["restart_s"] > 0 and size["restart_ratio"] > 0
    assert size["aof_at_kill"]["base_bytes"] + size["aof_at_kill"]["incr_bytes"] > 0
    assert size["falkordb_load"]["total_s"] >= 0
    check = size["check"]
    assert check["sources_served"] == check["sources_acknowledged"] > 0
    assert check["claims_sampled_served"] == check["claims_sampled"] > 0
    md = (out / "restart.md").read_text()
    assert md.startswith("# afterhack benchmark: restart only") and "kill -9" in md
    # The frozen FalkorDB's times are reported as rule 21's promises.
    assert [p["id"] for p in result["promises"]] == [
        "health_within_a_second", "requests_within_their_deadline"]
    assert all(isinstance(p["holds"], bool) and isinstance(p["value"], float | int)
               for p in result["promises"])
    assert "## Promises" in md and "health answers within 1 s" in md


def _freeze_run(health_s: float, read_s: float, write_s: float) -> FreezeRun:
    def answers(max_s: float) -> Answers:
        return {"answers": 3, "seconds": None, "max_s": max_s, "by_status": {"200": 3}}

    return {"health": answers(health_s), "read": answers(read_s), "write": answers(write_s),
            "frozen_for_s": None, "back_after_freeze_s": 9.0, "back_after_sigcont_s": None,
            "acknowledged": 1, "acknowledged_served": 1, "falkordb_restarts": 0,
            "stuck_restarts": 0}


def test_the_freeze_promises_hold_only_within_their_times() -> None:
    def holds(sigcont: FreezeRun, restart: FreezeRun) -> dict[str, bool]:
        figures: FreezeFigures = {"read_deadline_s": 3.0, "write_deadline_s": 4.0,
                                  "unresponsive_s": 2.0, "stuck_restart_s": 8.0,
                                  "sigcont": sigcont, "restart": restart}
        return {p["id"]: p["holds"] for p in freeze_promises(figures)}

    kept = _freeze_run(0.4, 3.2, 4.9)
    assert holds(kept, kept) == {"health_within_a_second": True,
                                 "requests_within_their_deadline": True}
    assert holds(kept, _freeze_run(1.2, 3.2, 4.9)) == {
        "health_within_a_second": False, "requests_within_their_deadline": True}
    assert holds(_freeze_run(0.4, 4.1, 4.0), kept) == {
        "health_within_a_second": True, "requests_within_their_deadline": False}


def test_the_conversations_section_runs_alone(tmp_path: Path) -> None:
    out = tmp_path / "results"
    proc = subprocess.run(
        [sys.executable, "-m", "afterhack.cli", "bench", "--quick", "--only", "conversations",
         "--out", str(out)], capture_output=True, text=True, timeout=600, cwd=tmp_path,
        check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads((out / "conversations.json").read_text())
    talk = result["conversations"]["conversations"]
    assert talk["messages"] == 400 and talk["batch"] == 20
    for key in ("conversation_per_s", "text_per_s", "conversation_last_tenth_per_s",
                "text_last_tenth_per_s", "single_message_per_s", "single_sentence_per_s",
                "text_over_conversation", "text_over_single_message"):
        assert talk[key] > 0, key
    files = result["conversations"]["files"]
    assert [f["kind"] for f in files] == ["plain text", "Markdown", "HTML", "PDF", "DOCX"]
    assert all(f["cpu_ms_per_file_mb"] > 0 and f["places"] >= 1 for f in files)
    kept = result["conversations"]["kept_original"]
    # The original is in the graph, as base64: at least 4/3 of its size in memory.
    assert kept["kept_bytes_per_file_byte"] >= 4 / 3, kept
    md = (out / "conversations.md").read_text()
    assert md.startswith("# afterhack benchmarks: conversations only")
    assert "## Keeping an original" in md and "| every request |" in md
    assert not (out / "latest.json").exists()


def test_the_disk_scrub_section_runs_alone(tmp_path: Path) -> None:
    out = tmp_path / "results"
    proc = subprocess.run(
        [sys.executable, "-m", "afterhack.cli", "bench", "--quick", "--only", "disk-scrub",
         "--out", str(out)], capture_output=True, text=True, timeout=600, cwd=tmp_path,
        check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads((out / "disk-scrub.json").read_text())["disk-scrub"]
    [size] = result["sizes"]
    assert size["claims"] == 1000 and result["empty_rewrite"]["n"] == 2
    for key in ("plain_rewrite", "scrub", "scrub_with_snapshot", "delete_wait_disk"):
        assert size[key]["n"] == 2 and size[key]["p50"] > 0, key
    # The bulk load's increments are folded into a base by the first rewrite.
    assert size["aof_before"]["incr_bytes"] > 0 and size["aof_after"]["incr_bytes"] < (
        size["aof_before"]["incr_bytes"])
    md = (out / "disk-scrub.md").read_text()
    assert md.startswith("# afterhack benchmarks: disk-scrub only")
    assert "| the scrubber, embedded server |" in md
    assert not (out / "latest.json").exists()


def test_the_erasure_section_runs_alone(tmp_path: Path) -> None:
    out = tmp_path / "results"
    proc = subprocess.run(
        [sys.executable, "-m", "afterhack.cli", "bench", "--quick", "--only", "erasure",
         "--out", str(out)], capture_output=True, text=True, timeout=600, cwd=tmp_path,
        check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads((out / "erasure.json").read_text())
    source = result["erasure"]["source"]
    for shape, batch in (("message", None), ("message_appended", 100)):
        message = result["erasure"][shape]
        assert message["messages"] == 400 and message["claims"] > 0
        assert message["batch"] == batch
        for key in ("preview", "apply", "retract_preview", "retract_apply", "append"):
            _positive_latency(message["wall_ms"][key], f"{shape}.{key}")
            assert message["wall_ms"][key]["n"] == message["cpu_ms"][key]["n"] == 3, key
            assert message["cpu_ms"][key]["p50"] > 0, key
        assert message["fragments_touched"] >= 1
        for key in ("preview_over_retract", "apply_over_retract", "apply_over_append",
                    "cpu_apply_over_retract"):
            assert message[key] > 0, key
    assert (result["erasure"]["message"]["version_chars"]
            > 3 * result["erasure"]["message_appended"]["version_chars"])
    assert source["claims_per_source"] == 100 and source["claims_erased"] == 100
    for key in ("preview", "apply", "get_source", "add"):
        _positive_latency(source["wall_ms"][key], f"source.{key}")
        assert source["wall_ms"][key]["n"] == 2 and source["cpu_ms"][key]["p50"] > 0, key
    assert source["preview_over_get"] > 0 and source["apply_over_add"] > 0
    assert source["cpu_apply_over_add"] > 0
    md = (out / "erasure.md").read_text()
    assert md.startswith("# afterhack benchmarks: erasure only")
    assert "## Erasing one message of a long conversation" in md
    assert "| one version: apply |" in md and "| appends of 100: apply |" in md
    assert "## Erasing a source of many claims" in md
    assert not (out / "latest.json").exists()
