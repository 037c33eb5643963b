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

from afterhack.store.names import graph_name
from afterhack_tools.bench.breakdown import cpu_s
from afterhack_tools.bench.floors import ratio
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import (
    ErasureFigures,
    MessageErasure,
    SourceErasure,
    Summary,
)
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


def _model_ms(body: Any) -> float:
    return float(sum(c["duration_ms"] for c in body.get("model_calls") or []))


class Meter:
    """Each request's wall time and the CPU the app and FalkorDB spent on it (their threads'
    schedstat, breakdown.cpu_s), by the name of what it measures. CPU moves far less than
    wall time with what else the host runs. A request that reports model calls has their
    time taken out of its wall time; its CPU keeps the model's (the offline model is CPU
    work in the app, and its wall time is not its CPU on a busy host)."""

    def __init__(self, h: Harness, ws: str) -> None:
        assert h.http is not None and h.app is not None
        self.http = h.http
        self.pids = (h.app.pid, h.falkordb_pid(graph_name(ws)))
        self.wall: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}

    def _cpu_ms(self) -> float:
        return sum(cpu_s(pid) or 0.0 for pid in self.pids) * 1000

    async def call(self, name: str, method: str, path: str, body: Any = None,
                   status: int = 201) -> Any:
        before = self._cpu_ms()
        ms, r = await timed(partial(self.http.request, method, path, json=body))
        spent = self._cpu_ms() - before
        answer = _ok(r, name, status)
        model = _model_ms(answer) if isinstance(answer, dict) else 0.0
        self.wall.setdefault(name, []).append(ms - model)
        self.cpu.setdefault(name, []).append(spent)
        return answer

    def forget(self) -> None:
        """Drop what was taken so far (a first round, which plans each query)."""
        self.wall.clear()
        self.cpu.clear()

    def last(self, name: str) -> str:
        return f"{self.wall[name][-1]:.0f} ms (CPU {self.cpu[name][-1]:.0f})"

    def figures(self, names: tuple[str, ...]) -> tuple[dict[str, Summary],
                                                       dict[str, Summary]]:
        return ({n: summary(self.wall[n]) for n in names},
                {n: summary(self.cpu[n]) for n in names})


async def _erase(m: Meter, base: str, target: dict[str, Any]) -> dict[str, Any]:
    """Preview, then apply with its token, as a client does: the applied record."""
    preview = await m.call("preview", "POST", f"{base}/erasures/preview",
                           {"target": target}, 200)
    done = await m.call("apply", "POST", f"{base}/erasures", {
        "target": target, "impact_token": preview["impact_token"], "reason": "bench"})
    record: dict[str, Any] = done["erasure"]
    return record


async def _retract(m: Meter, base: str, claim_id: str) -> None:
    path = f"{base}/claims/{claim_id}/corrections"
    revisions = (await m.call("retract_preview", "POST", f"{path}/preview",
                              {"kind": "retract"}, 200))["revisions"]
    await m.call("retract_apply", "POST", path, {
        "kind": "retract", "claim_revision": revisions["claim_revision"],
        "impact_token": revisions["impact_token"]})


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
    log(f"[erasure] a conversation of {messages:,} messages "
        f"({'in one version' if batch is None else f'appended {batch} at a time'}), "
        f"{built.claims:,} claims, in {built.build_s:.1f} s")
    with_claim = sorted(built.claim_of)
    step = max(2, len(with_claim) // (samples + 2))
    # Spread over the conversation, each with a neighbour whose claim is retracted; the
    # first of them is not counted (each request's first query plans it).
    picks = [(with_claim[k * step], with_claim[k * step + 1]) for k in range(samples + 1)
             if k * step + 1 < len(with_claim)]
    m = Meter(h, ws)
    record: dict[str, Any] = {}
    for n, (index, neighbour) in enumerate(picks):
        record = await _erase(m, base, {"source_id": built.source_id, "message_index": index})
        await _retract(m, base, built.claim_of[neighbour])
        await m.call("append", "POST", f"{base}/sources/{built.source_id}/messages",
                     {"messages": [{"speaker": "Ana", "text": f"One more note, {n}."}]})
        log(f"[erasure] message {index}: preview {m.last('preview')}, apply "
            f"{m.last('apply')}; retract {m.last('retract_preview')} / "
            f"{m.last('retract_apply')}; append {m.last('append')}"
            + (" (not counted)" if n == 0 else ""))
        if n == 0:
            m.forget()
    wall, cpu = m.figures(("preview", "apply", "retract_preview", "retract_apply",
                           "append"))
    (await http.delete(base)).raise_for_status()
    return {
        "messages": messages, "batch": batch, "claims": built.claims,
        "version_chars": built.largest_version_chars, "build_s": round(built.build_s, 1),
        "wall_ms": wall, "cpu_ms": cpu,
        "fragments_touched": int(record["counts"]["fragments"]),
        "records_scrubbed": int(record["counts"]["records"]),
        "preview_over_retract": ratio(wall["preview"]["p50"],
                                      wall["retract_preview"]["p50"]),
        "apply_over_retract": ratio(wall["apply"]["p50"], wall["retract_apply"]["p50"]),
        "apply_over_append": ratio(wall["apply"]["p50"], wall["append"]["p50"]),
        "cpu_apply_over_retract": ratio(cpu["apply"]["p50"], cpu["retract_apply"]["p50"])}


async def measure_source(h: Harness, log: Log, sources: int = SOURCES,
                         claims_per_source: int = CLAIMS_PER_SOURCE) -> SourceErasure:
    assert h.http is not None
    http = h.http
    ws = _ok(await http.post("/api/workspaces", json={"name": "erase a source"}),
             "workspace")["id"]
    base = f"/api/workspaces/{ws}"
    vocab = Vocabulary()
    m = Meter(h, ws)
    record: dict[str, Any] = {}
    chars = 0
    for i in range(sources + 1):
        text = source_text(claims_per_source, seed=4300 + i, vocab=vocab,
                           serial_base=43_000_000 + i * claims_per_source)
        chars = len(text)
        body = await m.call("add", "POST", f"{base}/sources",
                            {"title": f"Bench source {i}", "text": text})
        sid = body["source"]["id"]
        await m.call("get_source", "GET", f"{base}/sources/{sid}", status=200)
        record = await _erase(m, base, {"source_id": sid})
        log(f"[erasure] a source of {len(body['claims']):,} claims: preview "
            f"{m.last('preview')}, apply {m.last('apply')}; added in {m.last('add')}, read "
            f"in {m.last('get_source')}" + (" (not counted)" if i == 0 else ""))
        if i == 0:
            m.forget()
    wall, cpu = m.figures(("preview", "apply", "get_source", "add"))
    (await http.delete(base)).raise_for_status()
    return {
        "sources": sources, "claims_per_source": claims_per_source,
        "chars_per_source": chars, "wall_ms": wall, "cpu_ms": cpu,
        "claims_erased": int(record["counts"]["claims"]),
        "records_scrubbed": int(record["counts"]["records"]),
        "preview_over_get": ratio(wall["preview"]["p50"], wall["get_source"]["p50"]),
        "apply_over_add": ratio(wall["apply"]["p50"], wall["add"]["p50"]),
        "cpu_apply_over_add": ratio(cpu["apply"]["p50"], cpu["add"]["p50"])}


async def measure(log: Log, *, messages: int = MESSAGES, message_samples: int =
                  MESSAGE_SAMPLES, sources: int = SOURCES,
                  claims_per_source: int = CLAIMS_PER_SOURCE) -> ErasureFigures:
    async with Harness(app_env={"AFTERHACK_EMBEDDINGS": "false"}) as h:
        message = await measure_message(h, log, messages, message_samples)
        appended = await measure_message(h, log, messages, message_samples,
                                         batch=APPEND_BATCH)
        source = await measure_source(h, log, sources, claims_per_source)
    return {"message": message, "message_appended": appended, "source": source}
