"""Conversations against plain text, and reading files (docs/rules.md, rule 11).

Messages appended: a conversation grows to ``messages`` messages by appends of ``batch``
messages each (``POST .../sources/{id}/messages``), and the same sentences are ingested as
plain text in the same batches, each batch a text source of its own (``POST /sources``),
the two taking turns in one app on one FalkorDB (offline model). For each, the rate
excluding model time (the request's wall time less the ``model_calls`` it reports:
extraction and the conflict judge), over every request and over the last tenth (a
conversation near its full length), and the ratio of text's rate to the conversation's.
Then single messages appended to the full conversation against single-sentence text
sources, the same way.

Files: read time per MB of file for each kind (filereading.py), CPU and wall; and what
keeping an original in the graph costs (a Word document with a large picture uploaded,
against its text added as text): Redis's used_memory and the request's time.
"""

from __future__ import annotations

import asyncio
import io
import random
import statistics
import struct
import time
import zlib
from collections.abc import Callable
from dataclasses import asdict
from typing import Any, cast

import docx
import httpx

from afterhack_tools.bench.filereading import measure_file_reading, sample_files
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import (
    ConversationFigures,
    ConversationRates,
    FileReading,
    KeptOriginal,
)
from afterhack_tools.bench.synth import Vocabulary

MESSAGES = 10_000
BATCH = 100
SINGLES = 50
SPEAKERS = ("Ana", "Ben", "Chen", "Dara")
SETTLE_S = 2.0


def sentences(n: int, seed: int = 36) -> list[str]:
    vocab = Vocabulary()
    rng = random.Random(seed)
    return [vocab.statement(rng, 700_000 + i)[0] for i in range(n)]


async def _post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> tuple[float, float]:
    """The request's wall time and the model's part of it, in ms."""
    t0 = time.perf_counter()
    r = await http.post(path, json=body)
    wall = (time.perf_counter() - t0) * 1000
    if r.status_code != 201:
        raise RuntimeError(f"{path} answered {r.status_code}: {r.text[:300]}")
    model = sum(c["duration_ms"] for c in r.json()["model_calls"])
    return wall, model


def _rate(items: int, timings: list[tuple[float, float]]) -> float:
    """Items per second of the time spent outside the model."""
    own_ms = sum(w - m for w, m in timings)
    return round(items / (own_ms / 1000), 1)


async def measure_conversations(log: Callable[[str], None], messages: int = MESSAGES,
                                batch: int = BATCH,
                                singles: int = SINGLES) -> ConversationRates:
    """Appends and text sources interleaved, batch by batch, so both meet the same load on
    the machine and the same size of workspace."""
    said = sentences(messages + singles)
    body, extra = said[:messages], said[messages:]
    at = 1_780_000_000_000
    async with Harness() as h:
        assert h.http is not None
        http = h.http
        chat_ws = (await http.post("/api/workspaces", json={"name": "chat"})).json()["id"]
        text_ws = (await http.post("/api/workspaces", json={"name": "text"})).json()["id"]
        chat_base = f"/api/workspaces/{chat_ws}/sources"
        text_base = f"/api/workspaces/{text_ws}/sources"
        chat: list[tuple[float, float]] = []
        text: list[tuple[float, float]] = []
        source_id = ""
        for start in range(0, messages, batch):
            part = body[start : start + batch]
            said_now = [{"speaker": SPEAKERS[(start + i) % len(SPEAKERS)], "text": s,
                         "at": at + (start + i) * 1000} for i, s in enumerate(part)]
            if not source_id:
                r = await http.post(chat_base, json={"title": "bench chat",
                                                     "messages": said_now})
                if r.status_code != 201:
                    raise RuntimeError(f"create answered {r.status_code}: {r.text[:300]}")
                source_id = r.json()["source"]["id"]
                # The first request of each (a new query's plan) is not counted.
                await http.post(text_base, json={"title": f"text {start}",
                                                 "text": " ".join(part)})
                continue
            chat.append(await _post(http, f"{chat_base}/{source_id}/messages",
                                    {"messages": said_now}))
            text.append(await _post(http, text_base, {"title": f"text {start}",
                                                      "text": " ".join(part)}))
            if (start // batch) % 20 == 19:
                log(f"[conversations] {start + batch:,} messages")
        one_chat: list[tuple[float, float]] = []
        one_text: list[tuple[float, float]] = []
        for s in extra:
            one_chat.append(await _post(http, f"{chat_base}/{source_id}/messages",
                                        {"messages": [{"speaker": "Ana", "text": s}]}))
            one_text.append(await _post(http, text_base, {"title": "one", "text": s}))
    counted = len(chat) * batch
    tail = max(1, len(chat) // 10)
    out: dict[str, Any] = {
        "messages": messages, "batch": batch, "singles": singles,
        "conversation_per_s": _rate(counted, chat),
        "text_per_s": _rate(counted, text),
        "conversation_last_tenth_per_s": _rate(tail * batch, chat[-tail:]),
        "text_last_tenth_per_s": _rate(tail * batch, text[-tail:]),
        "append_p50_ms": round(statistics.median(w for w, _ in chat), 1),
        "text_p50_ms": round(statistics.median(w for w, _ in text), 1),
        "single_message_per_s": _rate(singles, one_chat),
        "single_sentence_per_s": _rate(singles, one_text),
    }
    out["text_over_conversation"] = round(out["text_per_s"] / out["conversation_per_s"], 2)
    out["text_over_conversation_last_tenth"] = round(
        out["text_last_tenth_per_s"] / out["conversation_last_tenth_per_s"], 2)
    out["text_over_single_message"] = round(
        out["single_sentence_per_s"] / out["single_message_per_s"], 2)
    log(f"[conversations] {out}")
    return cast(ConversationRates, out)


def noise_docx(image_bytes: int = 3 << 20, seed: int = 36) -> bytes:
    """A Word document as many are: a page of text and a large picture (random pixels, so it
    does not compress), the file's bytes mostly not its text."""
    side = int((image_bytes / 3) ** 0.5)
    rng = random.Random(seed)
    raw = b"".join(b"\x00" + rng.randbytes(side * 3) for _ in range(side))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
           + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))
    document = docx.Document()
    document.add_heading("Venue survey", level=1)
    for s in sentences(40, seed):
        document.add_paragraph(s)
    document.add_picture(io.BytesIO(png))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


async def measure_kept_original(h: Harness, log: Callable[[str], None]) -> KeptOriginal:
    """What keeping an original in the graph costs: a document with a large picture
    uploaded, against its text added as text (both without extraction), in Redis's
    used_memory and in the request's time."""
    assert h.http is not None and h.store is not None
    data = noise_docx()
    http = h.http
    ws = (await http.post("/api/workspaces", json={"name": "originals"})).json()["id"]
    base = f"/api/workspaces/{ws}/sources"
    before = await h.used_memory()
    t0 = time.perf_counter()
    r = await http.post(base + "/files", files={"file": ("survey.docx", data)},
                        data={"extract": "false"})
    upload_ms = (time.perf_counter() - t0) * 1000
    if r.status_code != 201:
        raise RuntimeError(f"upload answered {r.status_code}: {r.text[:300]}")
    # Read once the write's buffers (the request's, the append-only file's) are freed.
    await asyncio.sleep(SETTLE_S)
    after_upload = await h.used_memory()
    text = r.json()["source"]["versions"][0]["text"]
    t0 = time.perf_counter()
    t = await http.post(base, json={"title": "survey text", "text": text, "extract": False})
    text_ms = (time.perf_counter() - t0) * 1000
    await asyncio.sleep(SETTLE_S)
    after_text = await h.used_memory()
    if t.status_code != 201:
        raise RuntimeError(f"text answered {t.status_code}: {t.text[:300]}")
    out: KeptOriginal = {
        "file_bytes": len(data), "text_chars": len(text),
        "used_memory_upload_bytes": after_upload - before,
        "used_memory_text_bytes": after_text - after_upload,
        "kept_bytes_per_file_byte": round(
            ((after_upload - before) - (after_text - after_upload)) / len(data), 2),
        "upload_ms": round(upload_ms, 1), "text_ms": round(text_ms, 1)}
    log(f"[originals] {out}")
    return out


def measure_files(repeats: int = 5) -> list[FileReading]:
    return [cast(FileReading, asdict(f)) for f in measure_file_reading(sample_files(), repeats)]


async def measure(log: Callable[[str], None], messages: int = MESSAGES,
                  batch: int = BATCH) -> ConversationFigures:
    files = measure_files()
    for f in files:
        log(f"[files] {f['kind']}: {f['cpu_ms_per_file_mb']:.0f} CPU ms per MB")
    async with Harness() as h:
        kept = await measure_kept_original(h, log)
    return {"conversations": await measure_conversations(log, messages, batch),
            "files": files, "kept_original": kept}
