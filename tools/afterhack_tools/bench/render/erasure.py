"""The section on erasure: one message of a long conversation, and sources of many claims,
each erased (preview, then apply) beside writes of the same reach."""

from __future__ import annotations

from afterhack_tools.bench.records import ErasureFigures, MessageErasure, Summary


def _cell(wall: dict[str, Summary], cpu: dict[str, Summary], name: str) -> str:
    w, c = wall[name], cpu[name]
    return f"{w['p50']:,.0f} ms (p95 {w['p95']:,.0f}); CPU {c['p50']:,.0f} ms"


def _message_rows(m: MessageErasure, shape: str) -> list[str]:
    w, c = m["wall_ms"], m["cpu_ms"]
    return [
        f"| {shape}: preview | {_cell(w, c, 'preview')} | {_cell(w, c, 'retract_preview')} "
        f"| | {m['preview_over_retract']} | |",
        f"| {shape}: apply | {_cell(w, c, 'apply')} | {_cell(w, c, 'retract_apply')} | "
        f"{_cell(w, c, 'append')} | {m['apply_over_retract']} (CPU "
        f"{m['cpu_apply_over_retract']}) | {m['apply_over_append']} |",
    ]


def erasure_section(res: ErasureFigures) -> list[str]:
    m, a, s = res["message"], res["message_appended"], res["source"]
    w, c = s["wall_ms"], s["cpu_ms"]
    return [
        "## Erasing one message of a long conversation",
        "",
        f"A conversation of {m['messages']:,} messages ({m['claims']:,} claims), in two "
        f"shapes: made in one request, so one version of {m['version_chars']:,} characters "
        f"holds them all (made in {m['build_s']} s), and grown by appends of {a['batch']}, "
        f"a version each (grown in {a['build_s']} s); the offline model, vectors off. "
        f"{m['wall_ms']['preview']['n']} messages spread over each are erased one after "
        "another: a preview, then an apply with its token (`POST .../erasures/preview`, "
        "`POST .../erasures`). Beside each, in turn: a retract correction of another "
        "message's claim (the guarded write with the same repair and no text cut) and one "
        "message appended (a plain write; the model's time left out). In one version, every "
        "fragment and quote after the erased message moves by what the marker took; grown "
        "by appends, only those of its own version. Each cell: the median wall time (p95), "
        "and the median CPU time the app and FalkorDB spent on the request, which moves far "
        "less than wall time with what else the host runs (an append's CPU holds the "
        "offline model's extraction, its wall time does not).",
        "",
        "| | erase one message | retract one claim | append one message | erase ÷ retract "
        "| erase ÷ append |",
        "|---|---|---|---|---|---|",
        *_message_rows(m, "one version"),
        *_message_rows(a, f"appends of {a['batch']}"),
        "",
        "## Erasing a source of many claims",
        "",
        f"{s['sources']} sources of {s['claims_per_source']:,} claims each "
        f"({s['chars_per_source']:,} characters), each added (`POST /sources`, offline "
        "model; its own time, the model's left out, is the write of the same size), read "
        "whole (`GET .../sources/{id}`, the read of the same size), then erased whole: a "
        f"preview, then an apply. The last erased {s['claims_erased']:,} claims and "
        f"scrubbed {s['records_scrubbed']} other record(s). Cells as above (adding's CPU "
        "holds the offline model's extraction).",
        "",
        "| | erase the source | the same size, plainly | ratio |",
        "|---|---|---|---|",
        f"| preview | {_cell(w, c, 'preview')} | read it: {_cell(w, c, 'get_source')} | "
        f"{s['preview_over_get']} |",
        f"| apply | {_cell(w, c, 'apply')} | add it: {_cell(w, c, 'add')} | "
        f"{s['apply_over_add']} (CPU {s['cpu_apply_over_add']}) |",
        "",
    ]
