"""Synthetic workspaces: sources, claims, decisions with premises, chains and actions.

The shape is the same at every size, so figures at 1k and 100k claims are comparable:

* 20 claims per source (one fragment each, as the bulk loader writes them);
* one decision per 5 claims, with 1-3 premises of 1-3 claims each; a premise's second claim
  comes from the same source as its first half of the time (shared source: no independent
  support) and from another source otherwise;
* one claim in 200 is a hub that up to 20 decisions use (the fan-out cap is 20);
* a third of the decisions build on (DEPENDS_ON) one or two of the 40 before them, so chains
  form, and one in 100 is in a two-decision cycle;
* half the decisions have an action; a tenth of those also require the upstream decision.

Statements are made of invented words (no stopwords, no stemming collisions), unique, end in
a full stop, and carry their names and numbers, so the offline extractor keeps them all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from afterhack.records.ids import new_id

CLAIMS_PER_SOURCE = 20
CLAIMS_PER_DECISION = 5
HUB_EVERY = 200
MAX_FAN_OUT = 20
_HUB_PICK = 0.15
_DEPENDS_P = 0.35
_CYCLE_P = 0.01
_WINDOW = 40

_ONSETS = ["b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z",
           "br", "dr", "gr", "kr", "pl", "st", "tr"]
_VOWELS = ["a", "e", "i", "o", "u", "ai", "ea", "io"]
_CODAS = ["", "", "n", "r", "s", "x", "l", "m"]
_VERBS = ["ships", "delivers", "moves", "confirms", "schedules", "approves", "reviews",
          "migrates", "tests", "signs"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]


def _word(rng: random.Random, syllables: int) -> str:
    return "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(syllables)) \
        + rng.choice(_CODAS)


class Vocabulary:
    """Invented project, component and person names (fixed sizes, deterministic)."""

    def __init__(self, seed: int = 7) -> None:
        rng = random.Random(seed)
        seen: set[str] = set()

        def pool(n: int, syllables: int) -> list[str]:
            out: list[str] = []
            while len(out) < n:
                w = _word(rng, syllables)
                if w not in seen:
                    seen.add(w)
                    out.append(w)
            return out

        self.projects = [w.capitalize() for w in pool(400, 3)]
        self.components = pool(300, 2)
        self.people = [w.capitalize() for w in pool(300, 2)]

    def statement(self, rng: random.Random, serial: int) -> tuple[str, dict[str, str]]:
        parts = {"project": rng.choice(self.projects), "component": rng.choice(self.components),
                 "person": rng.choice(self.people)}
        text = (f"Project {parts['project']} {rng.choice(_VERBS)} the {parts['component']} "
                f"module on {rng.choice(_MONTHS)} {rng.randint(1, 28)} under ticket {serial} "
                f"with {parts['person']}.")
        return text, parts


@dataclass
class Workspace:
    """Rows for store.bulk.bulk_load, plus what the measurements need to pick from."""

    sources: list[dict[str, Any]] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    words: dict[str, dict[str, str]] = field(default_factory=dict)  # claim id -> its names
    users: dict[str, int] = field(default_factory=dict)  # claim id -> decisions using it

    def counts(self) -> dict[str, int]:
        return {
            "sources": len(self.sources),
            "claims": len(self.claims),
            "decisions": len(self.decisions),
            "actions": len(self.actions),
            "uses": sum(len(ids) for d in self.decisions for ids in d["premises"].values()),
            "depends_on": sum(len(d["depends_on"]) for d in self.decisions),
            "hub_claims": sum(1 for n in self.users.values() if n >= MAX_FAN_OUT),
            "max_fan_out": max(self.users.values(), default=0),
        }


def build_workspace(n_claims: int, *, seed: int = 1, vocab: Vocabulary | None = None) -> Workspace:
    rng = random.Random(seed)
    vocab = vocab or Vocabulary()
    ws = Workspace()
    n_sources = max(2, n_claims // CLAIMS_PER_SOURCE)
    for i in range(n_sources):
        ws.sources.append({"id": new_id(), "title": f"Synthetic report {i}"})
    by_source: list[list[str]] = [[] for _ in range(n_sources)]
    for i in range(n_claims):
        text, parts = vocab.statement(rng, 100_000 + i)
        s = i % n_sources
        cid = new_id()
        ws.claims.append({"id": cid, "statement": text, "source_id": ws.sources[s]["id"],
                          "status": "accepted" if rng.random() < 0.4 else "proposed"})
        ws.words[cid] = parts
        by_source[s].append(cid)
    source_of = {c["id"]: i % n_sources for i, c in enumerate(ws.claims)}
    hubs: list[str] = [c["id"] for c in ws.claims[:: HUB_EVERY]]
    uses = ws.users

    def pick(exclude: set[str]) -> str | None:
        for _ in range(20):
            if rng.random() < _HUB_PICK:
                cid = rng.choice(hubs)
            else:
                cid = str(ws.claims[rng.randrange(n_claims)]["id"])
            if cid not in exclude and uses.get(cid, 0) < MAX_FAN_OUT:
                return cid
        return None

    def same_source(cid: str, exclude: set[str]) -> str | None:
        options: list[str] = [c for c in by_source[source_of[cid]]
                              if c not in exclude and uses.get(c, 0) < MAX_FAN_OUT]
        return rng.choice(options) if options else None

    n_decisions = max(1, n_claims // CLAIMS_PER_DECISION)
    for i in range(n_decisions):
        premises: dict[str, list[str]] = {}
        chosen: set[str] = set()
        for p in range(rng.choices((1, 2, 3), (5, 3, 2))[0]):
            first = pick(chosen)
            if first is None:
                continue
            ids = [first]
            chosen.add(first)
            for _ in range(rng.choices((0, 1, 2), (4, 4, 2))[0]):
                nxt = same_source(first, chosen) if rng.random() < 0.5 else pick(chosen)
                if nxt is not None:
                    ids.append(nxt)
                    chosen.add(nxt)
            premises[f"Premise {p + 1}"] = ids
        for cid in chosen:
            uses[cid] = uses.get(cid, 0) + 1
        depends_on: list[str] = []
        if i > 0 and rng.random() < _DEPENDS_P:
            lo = max(0, i - _WINDOW)
            k = 1 if rng.random() < 0.8 else 2
            depends_on = list({ws.decisions[rng.randrange(lo, i)]["id"] for _ in range(k)})
        ws.decisions.append({"id": new_id(), "title": f"Synthetic decision {i}",
                             "status": "accepted" if rng.random() < 0.3 else "draft",
                             "premises": premises, "depends_on": depends_on})
    for i in range(1, n_decisions):
        if rng.random() < _CYCLE_P:
            a, b = ws.decisions[i], ws.decisions[rng.randrange(max(0, i - _WINDOW), i)]
            if b["id"] not in a["depends_on"]:
                a["depends_on"].append(b["id"])
            if a["id"] not in b["depends_on"]:
                b["depends_on"].append(a["id"])
    for i, d in enumerate(ws.decisions):
        if rng.random() < 0.5:
            required = [d["id"]]
            if d["depends_on"] and rng.random() < 0.1:
                required.append(d["depends_on"][0])
            ws.actions.append({"id": new_id(), "description": f"Synthetic action {i}",
                               "status": "approved" if rng.random() < 0.3 else "proposed",
                               "decision_ids": required})
    return ws


def source_text(n_sentences: int, *, seed: int, serial_base: int,
                vocab: Vocabulary | None = None) -> str:
    """A big document of unique declarative sentences, for ingest through POST /sources."""
    rng = random.Random(seed)
    vocab = vocab or Vocabulary()
    return " ".join(vocab.statement(rng, serial_base + i)[0] for i in range(n_sentences))


def search_queries(ws: Workspace, n: int, *, seed: int = 3) -> list[list[str]]:
    """Two words (project and person) of a random claim: the full-text AND finds that claim."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        c = ws.claims[rng.randrange(len(ws.claims))]
        w = ws.words[c["id"]]
        out.append([w["project"].lower(), w["person"].lower()])
    return out


def correction_targets(ws: Workspace, n: int, *, seed: int = 4) -> list[str]:
    """Distinct claims that decisions use, hubs among them in their natural share."""
    rng = random.Random(seed)
    used = [c["id"] for c in ws.claims if ws.users.get(c["id"], 0) > 0]
    rng.shuffle(used)
    return used[:n]


def agent_tasks(vocab: Vocabulary, n: int, *, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    return [f"Plan the {rng.choice(vocab.components)} rollout for {rng.choice(vocab.projects)}"
            for _ in range(n)]
