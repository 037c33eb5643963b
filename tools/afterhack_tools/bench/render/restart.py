"""The restart section: the app killed with -9 and started again on its data, and a frozen
FalkorDB (SIGSTOP) under a running app."""

from __future__ import annotations

from typing import Literal

from afterhack_tools.bench.promises import HEALTH_MAX_S
from afterhack_tools.bench.records import FreezeFigures, FreezeRun, RestartFigures, RestartSize
from afterhack_tools.bench.render.table import row, size_head, table


def restart_section(r: RestartFigures) -> list[str]:
    sizes = r["sizes"]
    head = size_head([s["claims"] for s in sizes])

    def mb(n: int) -> str:
        return f"{n / 1e6:.1f} MB"

    def load(s: RestartSize) -> str:
        ld = s["falkordb_load"]
        return (f"{ld.get('total_s', '?')} s (snapshot {ld.get('base_s', '?')} s, "
                f"increments {ld.get('incr_s', '?')} s)")

    def check(s: RestartSize) -> str:
        c = s["check"]
        failed = c.get("failed_answers_by_status") or {}
        return (f"{c['sources_served']}/{c['sources_acknowledged']} sources, "
                f"{c['claims_sampled_served']}/{c['claims_sampled']} sampled claims"
                + ("" if not failed else " (**failed: " + ", ".join(
                    f"{n}× {code}" for code, n in sorted(failed.items())) + "**)"))

    rows = [
        row("written through `POST /sources`", [
            f"{s['claims']:,} claims in {s['sources']} sources, {s['write_s']} s"
            for s in sizes]),
        row("AOF rewrites while writing", [str(s["aof_rewrites_while_writing"])
                                           for s in sizes]),
        row("AOF on disk at the kill: snapshot + increments", [
            f"{mb(s['aof_at_kill']['base_bytes'])} + {mb(s['aof_at_kill']['incr_bytes'])}"
            for s in sizes]),
        row("**restart: `serve` start to `/api/health` with FalkorDB loaded** (÷ floor)", [
            f"**{s['restart_s']} s** ({s['restart_ratio']}x)" for s in sizes]),
        row("FalkorDB's load of its file (its log)", [load(s) for s in sizes]),
        row("file rewritten right after the load", [
            "yes" if s["rewrote_after_load"] else "no" for s in sizes]),
        row("FalkorDB loads until it came back (crashes at the end of a load)", [
            f"{s.get('falkordb_loads_to_come_back', '?')} "
            f"({s.get('falkordb_crashes_before_it_came_back', '?')})" for s in sizes]),
        row("FalkorDB crashed after the restart", [
            "**yes**" if s.get("falkordb_crashed_after_restart") else "no" for s in sizes]),
        row("served after the restart", [check(s) for s in sizes]),
    ]
    freeze = r.get("freeze")
    policy = ("afterhack's" if r["policy"] == "afterhack"
              else "Redis's default (100 %, 64 MB), for comparison")
    return [
        "## Restart after kill -9",
        "",
        f"The app (`afterhack serve`, embedded FalkorDB) killed with -9 after the claims were "
        f"written, then started again on the same data dir. Floor: the same start on an "
        f"empty data dir, {r['floor_s']} s. AOF rewrite policy: {policy}.",
        "",
        *table(head, rows),
        *(freeze_section(freeze) if freeze else []),
    ]


def freeze_section(f: FreezeFigures) -> list[str]:
    runs = [("SIGCONT after the freeze", f["sigcont"]),
            ("frozen for good: the app restarts it", f["restart"])]

    def answers(run: FreezeRun, kind: Literal["health", "read", "write"]) -> str:
        k = run[kind]
        seconds = k["seconds"]
        if not k["answers"] or seconds is None:
            return "none"
        statuses = ", ".join(f"{n}× {code}" for code, n in sorted(k["by_status"].items()))
        return (f"{k['answers']}: p50 {seconds['p50']} s, **max {k['max_s']} s** "
                f"({statuses})")

    rows = [
        row(f"health while frozen (promise {HEALTH_MAX_S:g} s)",
            [answers(r, "health") for _, r in runs]),
        row(f"reads while frozen (deadline {f['read_deadline_s']} s)",
            [answers(r, "read") for _, r in runs]),
        row(f"writes while frozen (deadline {f['write_deadline_s']} s)",
            [answers(r, "write") for _, r in runs]),
        row("**service back** (a write acknowledged) after the freeze began", [
            f"**{r['back_after_freeze_s']} s**" + (
                f" ({r['back_after_sigcont_s']} s after SIGCONT)"
                if r["back_after_sigcont_s"] is not None else "") for _, r in runs]),
        row("FalkorDB restarts by the app (stuck)", [
            f"{r['falkordb_restarts']} ({r['stuck_restarts']})" for _, r in runs]),
        row("acknowledged sources served afterwards", [
            f"{r['acknowledged_served']}/{r['acknowledged']}" for _, r in runs]),
    ]
    return [
        "",
        "### A frozen FalkorDB (SIGSTOP)",
        "",
        f"FalkorDB frozen under writers, a reader and a health poller, with a query timeout "
        f"of one second (deadlines {f['read_deadline_s']} s for a read and "
        f"{f['write_deadline_s']} s for a write), calls cut short after "
        f"{f['unresponsive_s']} s without a ping answered, and the stuck restart after "
        f"{f['stuck_restart_s']} s in the second run.",
        "",
        *table(["figure", *(name for name, _ in runs)], rows),
    ]
