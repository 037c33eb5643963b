"""The section on rewriting FalkorDB's files after an erasure."""

from __future__ import annotations

from afterhack_tools.bench.records import AofFiles, DiskScrubFigures, Summary
from afterhack_tools.bench.render.table import label, size_head, table


def _ms(s: Summary) -> str:
    return f"{s['p50']:,.0f} / {s['p95']:,.0f} ms"


def _mb(f: AofFiles) -> str:
    return (f"{(f['base_bytes'] + f['incr_bytes']) / 2**20:,.1f} MB "
            f"({f['base_bytes'] / 2**20:,.1f} + {f['incr_bytes'] / 2**20:,.1f})")


def disk_scrub_section(res: DiskScrubFigures) -> list[str]:
    sizes = res["sizes"]
    claims = [s["claims"] for s in sizes]
    e = res["empty_rewrite"]
    rounds = ", ".join(f"{k} at {label(int(n))} claims" for n, k in res["rounds"].items())
    rows = [
        "## Rewriting FalkorDB's files after an erasure",
        "",
        "A synthetic workspace bulk-loaded at each size; each round overwrites one claim's "
        "statement and leaves an `Erasure` pending, as an erasure's apply does, then times "
        "the rewrite (runtime/scrub.py). The floor, in the same run: a plain `BGREWRITEAOF` "
        "of the same data polled to its end; before any load it took "
        f"{e['p50']:,.0f} ms (p50 of {e['n']}). Rounds: {rounds}. Times are p50 / p95, and "
        "each against the floor's p50.",
        "",
        *table(size_head(claims), [
            "| plain `BGREWRITEAOF` (floor) | " + " | ".join(
                _ms(s["plain_rewrite"]) for s in sizes) + " |",
            "| the scrubber, embedded server | " + " | ".join(
                f"{_ms(s['scrub'])} ({s['scrub_over_plain']}x)" for s in sizes) + " |",
            "| the scrubber, with a snapshot (any other server) | " + " | ".join(
                f"{_ms(s['scrub_with_snapshot'])} ({s['scrub_with_snapshot_over_plain']}x)"
                for s in sizes) + " |",
            "| `DELETE /api/workspaces/{ws}?wait=disk` | " + " | ".join(
                f"{_ms(s['delete_wait_disk'])} ({s['delete_over_plain']}x)"
                for s in sizes) + " |",
            "| append-only file before the first rewrite (base + increments) | " + " | ".join(
                _mb(s["aof_before"]) for s in sizes) + " |",
            "| after it | " + " | ".join(_mb(s["aof_after"]) for s in sizes) + " |",
        ]),
        "The scrubber's rewrite is the floor's plus what it reads and writes around it: the "
        "pending erasures of every workspace before, the slow logs and FalkorDB's query "
        "log, the data dir checked after, and the erasures marked clean. A server that is "
        "not the embedded one also writes an RDB snapshot after its append-only file, "
        "since a replica keeps the one its last full sync wrote. `?wait=disk` adds the "
        "deletion itself and the app's request.",
        "",
    ]
    return rows
