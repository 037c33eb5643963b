"""A new version of a source speaks for that source (docs/rules.md, rule 9).

A claim of the source whose quote is no longer in the new version's text, and whose
statement no other current source supports, is retired in the same write as the new
version: superseded by the new version's claim that states the same thing differently
(the detector or the model's judge says the two contradict), otherwise withdrawn (status
``rejected``, ``retired_by`` the new version: nothing replaces it). The relabel of rule 5
then runs on the retired claims exactly as for a correction, and the write is guarded on
the region it read. Sentences the new version keeps keep their claims: no churn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from afterhack import facts
from afterhack.llm.judge import Candidate, ConflictJudge
from afterhack.memory.repair import describe
from afterhack.model.calls import ModelCall
from afterhack.model.conflicts import Retired
from afterhack.model.corrections import Impact
from afterhack.model.region import Snapshot
from afterhack.model.vocab import SupportPolicy
from afterhack.rules.support import Outcome, relabel
from afterhack.store import repair as store_repair
from afterhack.store import sources as store_sources
from afterhack.store.client import Graph
from afterhack.store.source_params import NewClaim, RetireRow, SourceClaim

# How many of the new version's claims one retired claim is compared with.
_CANDIDATES = 3


@dataclass
class VersionPlan:
    retire: list[RetireRow] = field(default_factory=list)
    snap: Snapshot = field(default_factory=lambda: Snapshot({}, {}))
    out: Outcome = field(default_factory=Outcome)
    calls: list[ModelCall] = field(default_factory=list)

    @property
    def retired_ids(self) -> set[str]:
        return {r["id"] for r in self.retire}


def gone_from(current: Sequence[SourceClaim], text: str) -> list[SourceClaim]:
    """The source's current claims whose quote the new text no longer holds."""
    return [c for c in current if not c["evidence_quote"] or c["evidence_quote"] not in text]


async def plan_retirement(g: Graph, judge: ConflictJudge | None, *, source_id: str,
                          gone: Sequence[SourceClaim], new_claims: Sequence[NewClaim],
                          policy: SupportPolicy) -> VersionPlan:
    plan = VersionPlan()
    if not gone:
        return plan
    supported = await store_sources.keys_held_elsewhere(
        g, sorted({c["statement_key"] for c in gone}), source_id)
    retiring = [c for c in gone if c["statement_key"] not in supported]
    if not retiring:
        return plan
    # Which new claim states the same thing differently: the closest few by subject,
    # judged; the first that contradicts supersedes.
    readings = [(n, facts.read(n["statement"])) for n in new_claims]
    asks: list[tuple[int, NewClaim]] = []
    for i, c in enumerate(retiring):
        rc = facts.read(c["statement"])
        near = sorted((n for n, rn in readings
                       if facts.same_subject(rc.frame, rn.frame)),
                      key=lambda n: n["quote_start"])[:_CANDIDATES]
        asks += [(i, n) for n in near]
    superseded_by: dict[int, str] = {}
    if asks and judge is not None:
        verdicts, plan.calls = await judge.judge(
            [Candidate(a=retiring[i]["statement"], b=n["statement"]) for i, n in asks])
        for (i, n), j in zip(asks, verdicts, strict=True):
            if j.verdict == "contradicts":
                superseded_by.setdefault(i, n["id"])
    ids = [c["id"] for c in retiring]
    plan.snap = await store_repair.load_region(g, await store_repair.decisions_using(g, ids))
    users = {i: sum(u.claim_id == i for d in plan.snap.decisions.values() for u in d.uses)
             for i in ids}
    plan.retire = [RetireRow(
        id=c["id"], revision=c["revision"], n_users=users[c["id"]],
        status="superseded" if i in superseded_by else "rejected",
        superseded_by=superseded_by.get(i), statement=c["statement"],
        statement_key=c["statement_key"])
        for i, c in enumerate(retiring)]
    plan.out = relabel(plan.snap, refuted={c["id"]: source_id for c in retiring},
                       policy=policy)
    return plan


class VersionReport(Impact):
    retired: list[Retired]
    flagged: list[str]
    held: list[str]


async def report(g: Graph, plan: VersionPlan) -> VersionReport:
    """What the new version retired, flagged and held, in a correction preview's words."""
    return {
        "retired": [{"claim_id": r["id"], "statement": r["statement"], "status": r["status"],
                     "superseded_by": r["superseded_by"]} for r in plan.retire],
        **await describe(g, plan.snap, plan.out),
        "flagged": sorted(plan.out.flag),
        "held": sorted(plan.out.hold),
    }
