"""The section on one fact given many values: open conflicts, the write rate as the dispute
grows, memory and the restart after kill -9."""

from __future__ import annotations

from afterhack_tools.bench.records import OneFactFigures, OneFactRates


def _rates(name: str, r: OneFactRates) -> str:
    return (f"| {name} | {r['first_sources_per_s']} ({r['first_s']} s) | "
            f"{r['last_sources_per_s']} ({r['last_s']} s) | {r['last_over_first']}x | "
            f"{r['first_cpu_s']} s / {r['last_cpu_s']} s = {r['last_over_first_cpu']}x |")


def one_fact_section(f: OneFactFigures) -> list[str]:
    aof = f["aof_at_kill"]
    return [
        "## One fact, many values",
        "",
        f"{f['at_all']['sources']:,} sources written one after another through the API of "
        f"a real `afterhack serve`, each of {f['notes_per_source']} notes that give the same "
        "budget a value no other note gives (\"Note 12-3 says the budget is 123 euros.\"): "
        f"{f['claims']:,} claims of one fact. A conflict is a dispute over one fact, so they "
        "are one conflict, each value a side; a new value joins it through one edge.",
        "",
        f"Open conflicts at the end: **{f['open_conflicts']}** ({f['conflicts']} in all), "
        f"the largest of {f['largest_conflict_claims']:,} claims.",
        "",
        "The time of each window on the clock, and the CPU the app and FalkorDB spent on it "
        "(the vector worker embedding what came before included): on a machine shared with "
        "other work, the clock also counts the others' load.",
        "",
        "| sources | first 50, sources/s | last 50, sources/s | last ÷ first (clock) | "
        "CPU, first / last |",
        "|---|---|---|---|---|",
        _rates("the first 100", f["at_100"]),
        _rates(f"all {f['at_all']['sources']:,}", f["at_all"]),
        "",
        f"The workspace graph: {f['graph_memory_bytes'] / 2**20:.1f} MiB (GRAPH.MEMORY "
        f"USAGE); the append-only file at the kill: base {aof['base_bytes']:,} B, "
        f"incremental {aof['incr_bytes']:,} B. Killed with -9, a new `serve` on the data "
        f"dir answered health in {f['restart_s']} s ({f['restart_ratio']}x the "
        f"{f['floor_s']} s of a start on an empty data dir), with the dispute as it was: "
        f"{'yes' if f['served_after_restart'] else '**no**'}.",
        "",
    ]
