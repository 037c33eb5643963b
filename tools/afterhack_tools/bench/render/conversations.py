"""The section on conversations against plain text, and on reading files."""

from __future__ import annotations

from afterhack_tools.bench.records import ConversationFigures


def conversations_section(res: ConversationFigures) -> list[str]:
    c = res["conversations"]
    rows = [
        "## Conversations against plain text",
        "",
        f"A conversation grown to {c['messages']:,} messages by appends of {c['batch']} "
        f"(`POST .../sources/{{id}}/messages`), and the same sentences as plain text in the "
        "same batches, each a source of its own (`POST /sources`), taking turns. Rates "
        "exclude model time (the offline extractor and conflict judge, as `model_calls` "
        "report them) and the first request of each.",
        "",
        "| | conversation, messages/s | text, sentences/s | text ÷ conversation |",
        "|---|---|---|---|",
        f"| every request | {c['conversation_per_s']:,} | {c['text_per_s']:,} | "
        f"{c['text_over_conversation']} |",
        f"| the last tenth (near {c['messages']:,} messages) | "
        f"{c['conversation_last_tenth_per_s']:,} | {c['text_last_tenth_per_s']:,} | "
        f"{c['text_over_conversation_last_tenth']} |",
        f"| one message (one sentence) per request, {c['singles']} of them, to the full "
        f"conversation | {c['single_message_per_s']:,} | {c['single_sentence_per_s']:,} | "
        f"{c['text_over_single_message']} |",
        "",
        f"Median request: an append {c['append_p50_ms']} ms, a text source "
        f"{c['text_p50_ms']} ms.",
        "",
        "## Reading files",
        "",
        "A file of about 1 MB of each kind (tools/afterhack_tools/bench/filereading.py), read "
        "with `read_file`; the median of five reads.",
        "",
        "| kind | file MB | text chars | places | CPU ms per MB | wall ms |",
        "|---|---|---|---|---|---|",
    ]
    for f in res["files"]:
        rows.append(f"| {f['kind']} | {f['file_mb']:.2f} | {f['text_chars']:,} | "
                    f"{f['places']:,} | {f['cpu_ms_per_file_mb']:.0f} | {f['wall_ms']:.0f} |")
    k = res["kept_original"]
    rows += [
        "",
        "## Keeping an original",
        "",
        f"A Word document of {k['file_bytes']:,} bytes (a page of text, {k['text_chars']:,} "
        "characters, and a large picture) uploaded, against its text added as text; both "
        "without extraction. Redis's `used_memory` grew by "
        f"{k['used_memory_upload_bytes']:,} bytes for the upload and "
        f"{k['used_memory_text_bytes']:,} for the text: the original costs "
        f"{k['kept_bytes_per_file_byte']} bytes of memory per byte of file. The upload took "
        f"{k['upload_ms']} ms, the text {k['text_ms']} ms.",
        "",
    ]
    return rows
