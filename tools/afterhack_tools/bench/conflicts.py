"""Conflicts: how well the offline detector tells contradictions from near misses, what the
checks cost at ingest, and that resolving one changes nothing outside its region.

* Quality: precision and recall of the offline detector on the labelled pairs of
  conflict_pairs.py (the two sides share their wording) and conflict_pairs_free.py (worded
  freely, German and Chinese among them), each on the part it was tuned on, on the held-out
  part, per category, and for the free set per language; on the two development sets
  (conflict_pairs_dev.py, and conflict_pairs_dev2.jsonl, written apart from the others
  with conversations among them), per category and per language; and on the sealed held-out set
  (sealed_set.py), never tuned on, of which only the aggregate figures are kept. ``python -m
  afterhack_tools.bench.conflicts`` prints them.
* Cost: sources go alternately to the app (checks on) and to a second app on the same
  FalkorDB with ``AFTERHACK_CONFLICT_CHECKS=false``, into the same workspace; claims per
  second exclude model time for both (the model's calls as each response records them:
  extraction, and the conflict judge, which the offline detector is). One sentence in
  ``_RESTATE_EVERY`` restates a workspace claim with another date, so the checks find
  neighbours, judge them and raise conflicts, as on a real workspace.
* Collateral: a few of the conflicts raised are resolved (keeping one side, then the
  other); every claim's, decision's, action's and conflict's status and revision is read
  before and after, and any change outside the losing claims, the decisions flagged, the
  actions held and the conflict itself is counted.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Protocol

import httpx

from afterhack.facts import Judgement, Meaning, judge_statements
from afterhack.store.invariants import collateral, states
from afterhack.store.names import graph_name
from afterhack_tools.bench import (
    conflict_pairs,
    conflict_pairs_dev,
    conflict_pairs_dev2,
    conflict_pairs_free,
    sealed_set,
)
from afterhack_tools.bench.harness import Harness
from afterhack_tools.bench.meaning import for_pairs
from afterhack_tools.bench.records import (
    Collateral,
    ConflictCost,
    ConflictQuality,
    DevQuality,
    FreeQuality,
    IngestRates,
    Score,
    SetQuality,
)
from afterhack_tools.bench.render.conflicts import quality_table
from afterhack_tools.bench.stats import timed
from afterhack_tools.bench.synth import Vocabulary, Workspace, source_text

_RESTATE_EVERY = 50


class Labelled(Protocol):
    @property
    def a(self) -> str: ...
    @property
    def b(self) -> str: ...
    @property
    def category(self) -> str: ...
    @property
    def split(self) -> str: ...
    @property
    def contradicts(self) -> bool: ...


class InLanguages(Labelled, Protocol):
    @property
    def lang(self) -> str: ...


Judge = Callable[[str, str], Judgement]


def _score(subset: Sequence[Labelled], named: Callable[[Judgement], str | None],
           meaning: Meaning | None = None, judge: Judge | None = None) -> Score:
    """The detector's verdicts on ``subset``, counted; by ``judge`` when given (a
    message read with its speaker), else on the two sides as written."""
    tp = fp = fn = tn = 0
    wrong_kind = 0
    misses: list[str] = []
    for p in subset:
        j = judge(p.a, p.b) if judge is not None else judge_statements(p.a, p.b, meaning)
        said = j.verdict == "contradicts"
        if said and p.contradicts:
            tp += 1
            wrong_kind += named(j) != p.category
        elif said:
            fp += 1
            misses.append(f"false alarm ({p.category}): {p.a} / {p.b}")
        elif p.contradicts:
            fn += 1
            misses.append(f"missed ({p.category}): {p.a} / {p.b}")
        else:
            tn += 1
    return {"pairs": len(subset), "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": round(tp / (tp + fp), 3) if tp + fp else 1.0,
            "recall": round(tp / (tp + fn), 3) if tp + fn else 1.0,
            "kind_mislabelled": wrong_kind, "errors": misses}


def _set_quality(pairs: Sequence[Labelled], named: Callable[[Judgement], str | None],
                 kinds: Sequence[str], meaning: Meaning | None = None) -> SetQuality:
    categories = sorted({p.category for p in pairs})
    return {
        "all": _score(pairs, named, meaning),
        "dev": _score([p for p in pairs if p.split == "dev"], named, meaning),
        "held_out": _score([p for p in pairs if p.split == "held_out"], named, meaning),
        "by_category": {c: _score([p for p in pairs if p.category == c], named, meaning)
                        for c in categories},
        "contradiction_kinds": list(kinds),
    }


def _value_kind(j: Judgement) -> str | None:
    return j.value_kind


def _dev_quality(pairs: Sequence[InLanguages], meaning: Meaning | None,
                 judge: Judge | None = None) -> DevQuality:
    def score(subset: Sequence[InLanguages]) -> Score:
        return _score(subset, _value_kind, meaning, judge)

    return {"all": score(pairs),
            "by_category": {c: score([p for p in pairs if p.category == c])
                            for c in sorted({p.category for p in pairs})},
            "by_lang": {lang: score([p for p in pairs if p.lang == lang])
                        for lang in sorted({p.lang for p in pairs})}}


def quality(pairs: Sequence[conflict_pairs.Pair] = conflict_pairs.PAIRS,
            free: Sequence[conflict_pairs_free.Pair] = conflict_pairs_free.PAIRS,
            dev: Sequence[conflict_pairs_dev.Pair] = conflict_pairs_dev.PAIRS,
            dev2: Sequence[conflict_pairs_dev2.Pair] = conflict_pairs_dev2.PAIRS, *,
            meaning: Meaning | None = None) -> ConflictQuality:
    """Precision and recall of the offline detector on the labelled pairs: the set whose
    sides share their wording at the top level (its categories are the service's conflict
    kinds), the freely worded set under ``free`` and the set of nouns against verbs and of
    languages against each other under ``dev_set`` (their categories are the detector's
    value kinds), the second development set under ``dev_set2`` (judged as the app judges:
    a message with its speaker), each with its figures per language too, and the sealed
    set under ``sealed``
    (its totals alone). With ``meaning`` (meaning.py), the words two statements do not share
    are compared by meaning, as the app's judge does, and a message is read with its
    speaker."""
    shared = _set_quality(pairs, lambda j: j.kind, conflict_pairs.CONTRADICTION_KINDS,
                          meaning)
    free_q: FreeQuality = {
        **_set_quality(free, _value_kind, conflict_pairs_free.CONTRADICTION_KINDS, meaning),
        "by_lang": {lang: _score([p for p in free if p.lang == lang], _value_kind, meaning)
                    for lang in sorted({p.lang for p in free})}}
    return {**shared, "free": free_q, "dev_set": _dev_quality(dev, meaning),
            "dev_set2": _dev_quality(dev2, meaning, sealed_set.as_the_app_judges(meaning)),
            "sealed": sealed_set.score(judge=sealed_set.as_the_app_judges(meaning)),
            "by_meaning": meaning is not None}


def labelled_pairs() -> list[tuple[str, str]]:
    """Every labelled pair of the tuning sets and the sealed one, as two statements (a
    message without its speaker): what their meaning is asked for."""
    return [*((p.a, p.b) for ps in (conflict_pairs.PAIRS, conflict_pairs_free.PAIRS,
                                    conflict_pairs_dev.PAIRS) for p in ps),
            *(sealed_set.as_said(p.a, p.b)[1:] for p in conflict_pairs_dev2.PAIRS),
            *sealed_set.statements()]


def _moved(statement: str) -> str | None:
    m = re.search(r" on (\w+) (\d+) ", statement)
    if m is None:
        return None
    day = int(m.group(2)) % 28 + 1
    return statement[: m.start(2)] + str(day) + statement[m.end(2):]


def _text(vocab: Vocabulary, ws: Workspace, i: int, n: int, serial_base: int,
          rng: random.Random) -> str:
    sentences = re.findall(r"[^.]+\.\s?", source_text(n, seed=5000 + i, vocab=vocab,
                                                     serial_base=serial_base))
    for k in range(0, len(sentences), _RESTATE_EVERY):
        moved = _moved(rng.choice(ws.claims)["statement"])
        if moved is not None:
            sentences[k] = moved + " "
    return "".join(sentences).strip()


async def _ingest(http: httpx.AsyncClient, ws_id: str, title: str,
                  text: str) -> tuple[float, float, int, int]:
    """(wall ms, model ms, claims kept, conflicts raised)."""
    ms, r = await timed(partial(http.post, f"/api/workspaces/{ws_id}/sources",
                                json={"title": title, "text": text}))
    if r.status_code != 201:
        raise RuntimeError(f"ingest answered {r.status_code}: {r.text[:500]}")
    body = r.json()
    model = sum(c["duration_ms"] for c in body["model_calls"])
    return ms, model, len(body["claims"]), len(body["conflicts"])


async def measure_cost(h: Harness, ws_id: str, ws: Workspace, vocab: Vocabulary, *,
                       sources: int, claims_per_source: int,
                       serial_base: int) -> ConflictCost:
    assert h.http is not None
    rng = random.Random(17)
    side: dict[str, dict[str, float]] = {
        k: {"wall_ms": 0.0, "model_ms": 0.0, "claims": 0, "conflicts": 0}
        for k in ("with_checks", "without_checks")}
    async with h.other_app("app-nochecks", {"AFTERHACK_CONFLICT_CHECKS": "false"}) as off:
        for i in range(sources * 2):
            name = "with_checks" if i % 2 == 0 else "without_checks"
            http = h.http if name == "with_checks" else off
            text = _text(vocab, ws, i, claims_per_source,
                         serial_base + i * claims_per_source, rng)
            wall, model, kept, raised = await _ingest(http, ws_id, f"Conflict bench {i}", text)
            s = side[name]
            s["wall_ms"] += wall
            s["model_ms"] += model
            s["claims"] += kept
            s["conflicts"] += raised

    def rates(s: dict[str, float]) -> IngestRates:
        return {"claims": int(s["claims"]), "conflicts_raised": int(s["conflicts"]),
                "wall_s": round(s["wall_ms"] / 1000, 3),
                "model_s": round(s["model_ms"] / 1000, 3),
                "claims_per_s": round(s["claims"] / ((s["wall_ms"] - s["model_ms"]) / 1000)),
                "claims_per_s_with_model": round(s["claims"] / (s["wall_ms"] / 1000))}

    on, off_ = rates(side["with_checks"]), rates(side["without_checks"])
    return {"sources_each": sources, "claims_per_source": claims_per_source,
            "restate_every": _RESTATE_EVERY, "with_checks": on, "without_checks": off_,
            "slowdown": round(off_["claims_per_s"] / on["claims_per_s"], 2),
            "slowdown_with_model": round(off_["claims_per_s_with_model"]
                                         / on["claims_per_s_with_model"], 2)}


async def measure_collateral(h: Harness, ws_id: str, resolutions: int) -> Collateral:
    assert h.http is not None and h.store is not None
    g = h.store.graph(graph_name(ws_id))
    listed = (await h.http.get(f"/api/workspaces/{ws_id}/conflicts",
                               params={"status": "open", "limit": resolutions})).json()["items"]
    done = changed_outside = flagged = superseded = 0
    problems: list[str] = []
    for i, k in enumerate(listed[:resolutions]):
        # A conflict is a dispute over one fact: keep a claim of one of its values, in turn.
        sides = k["sides"]
        keep = sides[i % len(sides)]["claims"][0]["id"]
        base = f"/api/workspaces/{ws_id}/conflicts/{k['id']}"
        p = (await h.http.post(base + "/preview", json={"keep": keep})).json()
        before = await states(g)
        r = await h.http.post(base + "/resolve", json={
            "keep": keep, "conflict_revision": p["revisions"]["conflict_revision"],
            "impact_token": p["revisions"]["impact_token"]})
        if r.status_code != 201:
            problems.append(f"resolve answered {r.status_code}: {r.text[:200]}")
            continue
        out = r.json()
        found = collateral(before, await states(g),
                           {*out["superseded"], k["id"], *out["flagged"], *out["held"]})
        problems += found
        changed_outside += len(found)
        flagged += len(out["flagged"])
        superseded += len(out["superseded"])
        done += 1
    return {"resolved": done, "superseded": superseded, "flagged": flagged,
            "changed_outside_region": changed_outside, "problems": problems[:20]}


def main() -> None:
    print("| pairs | count | precision | recall | TP / FP / FN / TN |")
    print("|---|---|---|---|---|")
    for line in quality_table(quality(meaning=for_pairs(labelled_pairs()))):
        print(line)


if __name__ == "__main__":
    main()
