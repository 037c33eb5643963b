"""Why then, why now: what a decision rested on when it was made, what holds it up at the
moment shown (now, or a read's ``as_of``), and for each claim that fell in between, what
retired it (a correction, a conflict resolved against it, a new version of its source).
"""

from __future__ import annotations

from collections.abc import Sequence

from afterhack.model.claims import ClaimRef
from afterhack.model.decisions import (
    ClaimPast,
    DecisionRead,
    DecisionSupport,
    DecisionView,
    Fall,
    PremiseThenNow,
    PremiseUse,
    SupportClaim,
    SupportRecord,
)
from afterhack.model.vocab import CLAIM_STATUSES, CURRENT_CLAIM, ClaimStatus
from afterhack.records.clock import now_ms
from afterhack.store import asof_decisions as store_past
from afterhack.store import decisions as store_decisions
from afterhack.store.client import Graph, concurrently
from afterhack.temporal.moments import status_at


def _support_at(record: SupportRecord, at: int) -> tuple[list[str], list[PremiseUse]]:
    """The premise order and uses the decision had at ``at``."""
    then = store_past.support_at(record, at)
    if then is not None:
        return then
    return record["premise_order"], record["uses"]


def _grouped(order: Sequence[str], uses: Sequence[PremiseUse]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for u in sorted(uses, key=lambda u: u["claim_id"]):
        groups.setdefault(u["premise"], []).append(u["claim_id"])
    labels = [p for p in order if p in groups] + sorted(p for p in groups if p not in order)
    return {p: groups[p] for p in labels}


def _claim_at(c: ClaimPast, at: int) -> SupportClaim | None:
    status = status_at(c["history"], c["since"], at)
    if status is None:
        return None
    return {"id": c["id"], "statement": c["statement"], "status": _claim_status(status),
            "source_id": c["source_id"], "source_title": c["source_title"]}


_CLAIM_STATUS: dict[str, ClaimStatus] = {s: s for s in CLAIM_STATUSES}


def _claim_status(s: str) -> ClaimStatus:
    return _CLAIM_STATUS[s]


def _fall(c: ClaimPast, then: int, at: int) -> Fall:
    """What retired a claim between ``then`` and ``at``."""
    fell_at = next((t for s, t in zip(c["history"], c["since"], strict=True)
                    if then < t <= at and s not in CURRENT_CLAIM), None)
    out: Fall = {"claim_id": c["id"], "statement": c["statement"],
                 "status": _claim_status(status_at(c["history"], c["since"], at) or c["status"]),
                 "at": fell_at, "by": None, "correction_id": None, "conflict_id": None,
                 "version_id": None, "source_id": None, "reviewer": None, "reason": None,
                 "replaced_by": None}
    k = next((k for k in c["corrections"] if k["created_at"] <= at), None)
    v = c["retired_by"]
    if k is not None:
        out["by"] = "conflict" if k["kind"] == "supersede" else "correction"
        out["correction_id"] = k["id"]
        out["reviewer"] = k["reviewer"]
        out["reason"] = k["reason"]
        out["conflict_id"] = k["conflict_ids"][0] if k["conflict_ids"] else None
    elif v is not None and v["created_at"] <= at:
        out["by"] = "version"
        out["version_id"] = v["id"]
        out["source_id"] = v["source_id"]
    rep = next((r for r in sorted(c["replaced_by"], key=lambda r: r["created_at"])
                if fell_at is not None and r["created_at"] <= at), None)
    if rep is not None:
        ref: ClaimRef = {"id": rep["id"], "statement": rep["statement"], "status": rep["status"]}
        out["replaced_by"] = ref
    return out


def explain(record: SupportRecord, pasts: dict[str, ClaimPast], at: int) -> DecisionSupport:
    """Pure: the decision's premises when it was made and at ``at``, side by side."""
    decided = record["created_at"]
    then = _grouped(*_support_at(record, decided))
    now = _grouped(*_support_at(record, at))
    premises: list[PremiseThenNow] = []
    for label in [*then, *(p for p in now if p not in then)]:
        then_claims = [x for i in then.get(label, []) if i in pasts
                       and (x := _claim_at(pasts[i], decided)) is not None]
        now_claims = [x for i in now.get(label, []) if i in pasts
                      and (x := _claim_at(pasts[i], at)) is not None]
        current_now = {c["id"] for c in now_claims if c["status"] in CURRENT_CLAIM}
        fell = [_fall(pasts[c["id"]], decided, at) for c in then_claims
                if c["status"] in CURRENT_CLAIM and c["id"] not in current_now
                and (status_at(pasts[c["id"]]["history"], pasts[c["id"]]["since"], at)
                     or "") not in CURRENT_CLAIM]
        premises.append({
            "premise": label, "then": then_claims, "now": now_claims,
            "held_then": any(c["status"] in CURRENT_CLAIM for c in then_claims),
            "holds_now": bool(current_now), "fell": fell})
    return {"decided_at": decided, "at": at,
            "reconfirmed": [t for t in record["support_until"] if t <= at],
            "premises": premises}


async def read_decision(g: Graph, decision_id: str, *, as_of: int | None = None
                        ) -> DecisionRead:
    """A decision (as of a time, if given) with why then and why now."""
    view: DecisionView
    record: SupportRecord
    view, record = await concurrently(store_decisions.get_decision(g, decision_id, as_of),
                                      store_past.support_record(g, decision_id))
    at = now_ms() if as_of is None else as_of
    ids = {u["claim_id"] for u in record["uses"]}
    for was in record["support_history"]:
        ids |= {u["claim_id"] for u in store_past.parse_support(was)[1]}
    pasts = await store_past.claim_pasts(g, sorted(ids))
    return {**view, "support": explain(record, pasts, at)}
