"""The section on erasure: one message of a long conversation, and sources of many claims,
each erased (preview, then apply) beside writes of the same reach."""

from __future__ import annotations

from afterhack_tools.bench.records import ErasureFigures, Summary


def _ms(s: Summary) -> str:
    return f"{s['p50']:,.0f} ms (p95 {s['p95']:,.0f}, n {s['n']})"


def erasure_section(res: ErasureFigures) -> list[str]:
    m, s = res["message"], res["source"]
    return [
        "## Erasing one message of a long conversation",
        "",
        f"A conversation of {m['messages']:,} messages made in one request, so one version "
        f"of {m['version_chars']:,} characters holds them all ({m['claims']:,} claims; made "
        f"in {m['build_s']} s with the offline model, vectors off). {m['preview']['n']} "
        "messages spread "
        "over it are erased one after another: a preview, then an apply with its token "
        "(`POST .../erasures/preview`, `POST .../erasures`). Beside each, in turn: a retract "
        "correction of another message's claim (the guarded write with the same repair and "
        "no text cut) and one message appended (a plain write; the model's time left out). "
        f"The last erasure cut {m['fragments_touched']} fragment(s) and scrubbed "
        f"{m['records_scrubbed']} other record(s).",
        "",
        "| | erase one message | retract one claim | append one message | erase ÷ retract "
        "| erase ÷ append |",
        "|---|---|---|---|---|---|",
        f"| preview | {_ms(m['preview'])} | {_ms(m['retract_preview'])} | | "
        f"{m['preview_over_retract']} | |",
        f"| apply | {_ms(m['apply'])} | {_ms(m['retract_apply'])} | {_ms(m['append_own'])} "
        f"| {m['apply_over_retract']} | {m['apply_over_append']} |",
        "",
        "## Erasing a source of many claims",
        "",
        f"{s['sources']} sources of {s['claims_per_source']:,} claims each "
        f"({s['chars_per_source']:,} characters), each added (`POST /sources`, offline "
        "model; its own time, the model's left out, is the write of the same size), read "
        "whole (`GET .../sources/{id}`, the read of the same size), then erased whole: a "
        f"preview, then an apply. The last erased {s['claims_erased']:,} claims and "
        f"scrubbed {s['records_scrubbed']} other record(s).",
        "",
        "| | erase the source | the same size, plainly | ratio |",
        "|---|---|---|---|",
        f"| preview | {_ms(s['preview'])} | read it: {_ms(s['get_source'])} | "
        f"{s['preview_over_get']} |",
        f"| apply | {_ms(s['apply'])} | add it: {_ms(s['add_own'])} | {s['apply_over_add']} |",
        "",
    ]
