"""Erasure (docs/rules.md, rule 22): what erasing costs, beside writes of the same reach.

One message of a long conversation, in two shapes: made in one request, so one version
holds every message (the hardest case: every fragment and quote after an erased span
moves), and grown by appends of a hundred, a version each (as a conversation an agent
remembers grows). Messages spread over it are erased one after another (preview, then apply
with the preview's token, as a client does); beside each, in turn, so both meet the same
load, a retract correction of another message's claim (preview, then apply: the guarded
write with the same repair and no text cut) and one message appended to the conversation
(a plain write; the model's time, as ``model_calls`` report it, left out).

A source of many claims: each source is added (``POST /sources``, offline model; its own
time, the model's left out, is the plain write of the same size), read whole (``GET``, the
read of the same size), then erased whole, preview then apply.

The first sample of each is not counted (the first run of a query plans it). Everything
runs in one app on its own FalkorDB (harness.py), the offline model, with vectors off: the
vector worker would otherwise embed the section's 25,000 claims in the app's process while
the figures are taken (an erased claim's vector is dropped by the same write either way).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import httpx

from afterhack_tools.bench.floors import ratio
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import ErasureFigures, MessageErasure, SourceErasure
from afterhack_tools.bench.stats import summary, timed
from afterhack_tools.bench.synth import Vocabulary, source_text

MESSAGES = 10_000
MESSAGE_SAMPLES = 10
# A conversation grown by appends of this many messages: a version each.
APPEND_BATCH = 100
SOURCES = 5
CLAIMS_PER_SOURCE = 1000
SPEAKERS = ("Ana", "Ben", "Chen", "Dara")

Log = Callable[[str], None]


def _ok(r: httpx.Response, what: str, status: int = 201) -> Any:
    if r.status_code != status:
        raise RuntimeError(f"{what} answered {r.status_code}: {r.text[:300]}")
    return r.json()


def _own_ms(wall_ms: float, body: Any) -> float:
    """A request's time without the model's part of it."""
    return wall_ms - float(sum(c["duration_ms"] for c in body["model_calls"]))


async def _erase(http: httpx.AsyncClient, base: str, target: dict[str, Any]
                 ) -> tuple[float, float, dict[str, Any]]:
    """Preview, then apply with its token: both times (ms) and the applied record."""
    ms_p, r = await timed(partial(http.post, f"{base}/erasures/preview",
                                  json={"target": target}))
    preview = _ok(r, "erasure preview", 200)
    ms_a, r = await timed(partial(http.post, f"{base}/erasures", json={
        "target": target, "impact_token": preview["impact_token"], "reason": "bench"}))
    return ms_p, ms_a, _ok(r, "erasure apply")["erasure"]


async def _retract(http: httpx.AsyncClient, base: str, claim_id: str) -> tuple[float, float]:
    path = f"{base}/claims/{claim_id}/corrections"
    ms_p, r = await timed(partial(http.post, f"{path}/preview", json={"kind": "retract"}))
    revisions = _ok(r, "correction preview", 200)["revisions"]
    ms_a, r = await timed(partial(http.post, path, json={
        "kind": "retract", "claim_revision": revisions["claim_revision"],
        "impact_token": revisions["impact_token"]}))
    _ok(r, "correction apply")
    return ms_p, ms_a


class Built(NamedTuple):
    source_id: str
    claims: int  # claims kept
    claim_of: dict[int, str]  # a claim of each message that gave one, by message index
    largest_version_chars: int
    build_s: float


async def _conversation(http: httpx.AsyncClient, base: str, messages: int,
                        batch: int | None) -> Built:
    """A conversation of ``messages`` messages: made in one request (one version holds
    them all), or grown by appends of ``batch`` (a version each)."""
    vocab = Vocabulary()
    rng = random.Random(43)
    said = [{"speaker": SPEAKERS[i % len(SPEAKERS)],
             "text": vocab.statement(rng, 800_000 + i)[0],
             "at": 1_780_000_000_000 + i * 1000} for i in range(messages)]
    step = batch or messages
    t0 = time.perf_counter()
    made = _ok(await http.post(f"{base}/sources", json={"title": "bench chat",
                                                        "messages": said[:step]}),
               "conversation")
    sid = made["source"]["id"]
    claims = list(made["claims"])
    for start in range(step, messages, step):
        added = _ok(await http.post(f"{base}/sources/{sid}/messages",
                                    json={"messages": said[start:start + step]}), "append")
        claims += added["claims"]
    build_s = time.perf_counter() - t0
    source = _ok(await http.get(f"{base}/sources/{sid}"), "source", 200)
    index_of = {f["id"]: f["message_index"] for v in source["versions"]
                for f in v["fragments"]}
    claim_of: dict[int, str] = {}
    for c in claims:
        claim_of.setdefault(index_of[c["fragment_id"]], c["id"])
    return Built(sid, len(claims), claim_of,
                 max(len(v["text"]) for v in source["versions"]), build_s)


async def measure_message(h: Harness, log: Log, messages: int = MESSAGES,
                          samples: int = MESSAGE_SAMPLES,
                          batch: int | None = None) -> MessageErasure:
    """One message erased at a time; ``batch``: the conversation grew by appends of so
    many messages (None: made in one request)."""
    assert h.http is not None
    http = h.http
    ws = _ok(await http.post("/api/workspaces", json={"name": "erase a message"}),
             "workspace")["id"]
    base = f"/api/workspaces/{ws}"
    built = await _conversation(http, base, messages, batch)
    claim_of = built.claim_of
    log(f"[erasure] a conversation of {messages:,} messages "
        f"({'in one version' if batch is None else f'appended {batch} at a time'}), "
        f"{built.claims:,} claims, in {built.build_s:.1f} s")
    with_claim = sorted(claim_of)
    step = max(2, len(with_claim) // (samples + 2))
    # Spread over the conversation, each with a neighbour whose claim is retracted; the
    # first of them is not counted (each request's first query plans it).
    picks = [(with_claim[k * step], with_claim[k * step + 1]) for k in range(samples + 1)
             if k * step + 1 < len(with_claim)]
    erase_p: list[float] = []
    erase_a: list[float] = []
    retract_p: list[float] = []
    retract_a: list[float] = []
    append: list[float] = []
    record: dict[str, Any] = {}
    for n, (index, neighbour) in enumerate(picks):
        ms_p, ms_a, record = await _erase(http, base, {"source_id": built.source_id,
                                                       "message_index": index})
        erase_p.append(ms_p)
        erase_a.append(ms_a)
        ms_p, ms_a = await _retract(http, base, claim_of[neighbour])
        retract_p.append(ms_p)
        retract_a.append(ms_a)
        ms, r = await timed(partial(http.post, f"{base}/sources/{built.source_id}/messages",
                                    json={"messages": [{"speaker": "Ana",
                                                        "text": f"One more note, {n}."}]}))
        append.append(_own_ms(ms, _ok(r, "append")))
        log(f"[erasure] message {index}: preview {erase_p[-1]:.0f} ms, apply "
            f"{erase_a[-1]:.0f} ms; retract {retract_p[-1]:.0f} / {retract_a[-1]:.0f} ms; "
            f"append {append[-1]:.0f} ms" + (" (not counted)" if n == 0 else ""))
        if n == 0:
            for kept in (erase_p, erase_a, retract_p, retract_a, append):
                kept.clear()
    out: MessageErasure = {
        "messages": messages, "batch": batch, "claims": built.claims,
        "version_chars": built.largest_version_chars, "build_s": round(built.build_s, 1),
        "preview": summary(erase_p), "apply": summary(erase_a),
        "retract_preview": summary(retract_p), "retract_apply": summary(retract_a),
        "append_own": summary(append),
        "fragments_touched": int(record["counts"]["fragments"]),
        "records_scrubbed": int(record["counts"]["records"]),
        "preview_over_retract": 0.0, "apply_over_retract": 0.0, "apply_over_append": 0.0}
    out["preview_over_retract"] = ratio(out["preview"]["p50"],
                                        out["retract_preview"]["p50"])
    out["apply_over_retract"] = ratio(out["apply"]["p50"], out["retract_apply"]["p50"])
    out["apply_over_append"] = ratio(out["apply"]["p50"], out["append_own"]["p50"])
    (await http.delete(base)).raise_for_status()
    return out


async def measure_source(h: Harness, log: Log, sources: int = SOURCES,
                         claims_per_source: int = CLAIMS_PER_SOURCE) -> SourceErasure:
    assert h.http is not None
    http = h.http
    ws = _ok(await http.post("/api/workspaces", json={"name": "erase a source"}),
             "workspace")["id"]
    base = f"/api/workspaces/{ws}"
    vocab = Vocabulary()
    erase_p: list[float] = []
    erase_a: list[float] = []
    get: list[float] = []
    add: list[float] = []
    record: dict[str, Any] = {}
    chars = 0
    for i in range(sources + 1):
        text = source_text(claims_per_source, seed=4300 + i, vocab=vocab,
                           serial_base=43_000_000 + i * claims_per_source)
        chars = len(text)
        ms, r = await timed(partial(http.post, f"{base}/sources",
                                    json={"title": f"Bench source {i}", "text": text}))
        body = _ok(r, "source")
        add.append(_own_ms(ms, body))
        sid = body["source"]["id"]
        ms, r = await timed(partial(http.get, f"{base}/sources/{sid}"))
        _ok(r, "get source", 200)
        get.append(ms)
        ms_p, ms_a, record = await _erase(http, base, {"source_id": sid})
        erase_p.append(ms_p)
        erase_a.append(ms_a)
        log(f"[erasure] a source of {len(body['claims']):,} claims: preview {ms_p:.0f} ms, "
            f"apply {ms_a:.0f} ms; added in {add[-1]:.0f} ms, read in {get[-1]:.0f} ms"
            + (" (not counted)" if i == 0 else ""))
        if i == 0:
            for kept in (erase_p, erase_a, get, add):
                kept.clear()
    out: SourceErasure = {
        "sources": sources, "claims_per_source": claims_per_source,
        "chars_per_source": chars, "preview": summary(erase_p), "apply": summary(erase_a),
        "get_source": summary(get), "add_own": summary(add),
        "claims_erased": int(record["counts"]["claims"]),
        "records_scrubbed": int(record["counts"]["records"]),
        "preview_over_get": 0.0, "apply_over_add": 0.0}
    out["preview_over_get"] = ratio(out["preview"]["p50"], out["get_source"]["p50"])
    out["apply_over_add"] = ratio(out["apply"]["p50"], out["add_own"]["p50"])
    (await http.delete(base)).raise_for_status()
    return out


async def measure(log: Log, *, messages: int = MESSAGES, message_samples: int =
                  MESSAGE_SAMPLES, sources: int = SOURCES,
                  claims_per_source: int = CLAIMS_PER_SOURCE) -> ErasureFigures:
    async with Harness(app_env={"AFTERHACK_EMBEDDINGS": "false"}) as h:
        message = await measure_message(h, log, messages, message_samples)
        appended = await measure_message(h, log, messages, message_samples,
                                         batch=APPEND_BATCH)
        source = await measure_source(h, log, sources, claims_per_source)
    return {"message": message, "message_appended": appended, "source": source}
