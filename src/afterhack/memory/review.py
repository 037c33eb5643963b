"""The reviewer's way back: accept, reject or re-confirm a decision; move an action along.

Every change is a compare-and-set on the revision the client saw. Rejecting a decision
re-checks everything that depends on it with the same relabel a correction uses.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from afterhack.errors import (
    DecisionNotFound,
    DecisionUnsupported,
    InvalidRequest,
    InvalidTransition,
    StaleRevision,
)
from afterhack.memory.scope import Scope, until_written
from afterhack.model.decisions import (
    ActionRecord,
    DecisionRef,
    DecisionView,
    PremiseInput,
    RejectedReason,
)
from afterhack.model.vocab import (
    CURRENT_CLAIM,
    ActionOp,
    ActionStatus,
    DecisionOp,
    DecisionStatus,
)
from afterhack.model.writes import AuditEvent
from afterhack.records.audit import audit_event
from afterhack.records.clock import now_ms
from afterhack.records.flags import flags
from afterhack.rules.support import NOTHING_REFUTED, relabel
from afterhack.store import claims as store_claims
from afterhack.store import decisions as store_decisions
from afterhack.store import repair as store_repair
from afterhack.store.client import Graph

_ACTION_RULES: dict[ActionOp, tuple[list[ActionStatus], ActionStatus | Literal["released"],
                                    bool]] = {
    # op: (allowed from, to, requires its decisions in good standing)
    "approve": (["proposed"], "approved", True),
    "done": (["proposed", "approved"], "done", True),
    "cancel": (["proposed", "approved", "held"], "cancelled", False),
    "release": (["held"], "released", True),
}
# From where a decision may be accepted, or re-confirmed or rejected.
_ACCEPT_FROM: list[DecisionStatus] = ["draft", "needs_review"]
_CHANGE_FROM: list[DecisionStatus] = ["draft", "accepted", "needs_review"]


async def _current(g: Graph, decision_id: str) -> DecisionRef:
    found = await store_decisions.find_decisions(g, [decision_id])
    if decision_id not in found:
        raise DecisionNotFound(decision_id)
    return found[decision_id]


def _check_revision(kind: str, seen: int, cur: DecisionRef | ActionRecord) -> None:
    if cur["revision"] != seen:
        raise StaleRevision(f"This {kind} changed since you read it; read it again.",
                            seen=seen, current=cur["revision"], status=cur["status"])


@dataclass(frozen=True)
class Review:
    """A reviewer's change to a decision, made on the revision they read: accept it,
    re-confirm it on new evidence (``claim_ids``, or ``premises`` each with its own), or
    reject it."""

    op: DecisionOp
    revision: int
    claim_ids: list[str] | None = None
    premises: Sequence[PremiseInput] | None = None
    note: str | None = None


async def review_decision(ws: Scope, decision_id: str, review: Review) -> DecisionView:
    g = ws.graph
    cur = await _current(g, decision_id)
    _check_revision("decision", review.revision, cur)
    audits = [audit_event(f"decision.{review.op}", ws.actor, decision_id,
                          {"from": cur["status"], "note": review.note})]
    if review.op == "accept":
        if cur["status"] not in _ACCEPT_FROM:
            raise InvalidTransition(f"A {cur['status']} decision cannot be accepted.")
        restored = await store_decisions.accept_decision(
            g, decision_id, revision=review.revision, allowed_from=_ACCEPT_FROM,
            audits=audits, now=now_ms())
        if restored is None:
            await _explain_refusal(g, decision_id, review.revision, "accept")
    elif review.op == "reconfirm":
        await _reconfirm(g, decision_id, cur, review, audits)
    else:
        await _reject(ws, decision_id, cur, review, audits)
    return await store_decisions.get_decision(g, decision_id)


async def _explain_refusal(g: Graph, decision_id: str, revision: int, op: str) -> None:
    cur = await _current(g, decision_id)
    _check_revision("decision", revision, cur)
    raise DecisionUnsupported(
        f"Cannot {op}: a premise has no current claim or a decision it depends on is not in "
        "good standing. Re-confirm it with new evidence instead.", status=cur["status"])


async def _reconfirm(g: Graph, decision_id: str, cur: DecisionRef, review: Review,
                     audits: list[AuditEvent]) -> None:
    if cur["status"] == "rejected":
        raise InvalidTransition("A rejected decision cannot be re-confirmed.")
    groups: list[tuple[str, list[str]]] = []
    for i, p in enumerate(review.premises or []):
        ids = list(dict.fromkeys(p.get("claim_ids") or []))
        if ids:
            label = (p.get("statement") or f"premise {i + 1}").strip()
            groups.append((label, ids))
    if review.claim_ids and not groups:
        groups = [("main", list(dict.fromkeys(review.claim_ids)))]
    if not groups:
        raise InvalidRequest("Re-confirming needs claim_ids or premises with claim ids.")
    labels = [lab for lab, _ in groups]
    if len(set(labels)) != len(labels):
        raise InvalidRequest("Premise statements must be distinct.")
    all_ids = list(dict.fromkeys(i for _, ids in groups for i in ids))
    found = await store_claims.find_claims(g, all_ids)
    bad = [{"claim_id": i, "status": found[i]["status"] if i in found else "not_found"}
           for i in all_ids if i not in found or found[i]["status"] not in CURRENT_CLAIM]
    if bad:
        raise DecisionUnsupported("Every claim must exist and be current.", claims=bad)
    audits[0]["detail"] = json.dumps({**json.loads(audits[0]["detail"]), "claim_ids": all_ids})
    restored = await store_decisions.reconfirm_decision(
        g, decision_id, revision=review.revision, allowed_from=_CHANGE_FROM,
        uses=[{"claim_id": c, "premise": lab} for lab, ids in groups for c in ids],
        premise_order=labels, audits=audits, now=now_ms())
    if restored is None:
        await _explain_refusal(g, decision_id, review.revision, "re-confirm")


async def _reject(ws: Scope, decision_id: str, cur: DecisionRef, review: Review,
                  audits: list[AuditEvent]) -> None:
    """Reject the decision and flag (and hold) what depended on it, in one write guarded on
    their region; planned again while the region moves."""
    if cur["status"] == "rejected":
        raise InvalidTransition("This decision is already rejected.")
    g = ws.graph
    rejected: RejectedReason = {"type": "rejected", "note": review.note}

    async def attempt() -> bool | None:
        snap = await store_repair.load_region(g, [decision_id])
        out = relabel(snap, refuted=NOTHING_REFUTED, policy=ws.policy,
                      fallen_roots=frozenset([decision_id]))
        written = audits
        if out.flag or out.hold:
            written = [*audits, audit_event("decision.dependents_flagged", ws.actor,
                                            decision_id, {"flagged": sorted(out.flag),
                                                          "held": sorted(out.hold)})]
        if await store_decisions.reject_decision(
                g, decision_id, revision=review.revision, allowed_from=_CHANGE_FROM,
                reason=json.dumps(rejected), stamps=snap.stamps(),
                repair={"flags": flags(out.flag, type="upstream_rejected",
                                       decision_id=decision_id),
                        "holds": sorted(out.hold)}, audits=written, now=now_ms()):
            return True
        _check_revision("decision", review.revision, await _current(g, decision_id))
        return None

    await until_written(attempt, 5, StaleRevision(
        "Decisions depending on this one kept changing; retry."))


async def act_on_action(ws: Scope, action_id: str, op: ActionOp, revision: int) -> ActionRecord:
    g = ws.graph
    cur = await store_decisions.get_action(g, action_id)
    _check_revision("action", revision, cur)
    allowed_from, to, needs_good = _ACTION_RULES[op]
    if cur["status"] not in allowed_from:
        if cur["status"] == "held":
            raise InvalidTransition(
                "This action is held until the decisions it requires are back in good standing.",
                status="held")
        raise InvalidTransition(f"Cannot {op} an action that is {cur['status']}.",
                                status=cur["status"])
    ok = await store_decisions.set_action_status(
        g, action_id, revision=revision, allowed_from=allowed_from, to=to,
        needs_good_standing=needs_good,
        audits=[audit_event(f"action.{op}", ws.actor, action_id, {"from": cur["status"]})],
        now=now_ms())
    if not ok:
        again = await store_decisions.get_action(g, action_id)
        _check_revision("action", revision, again)
        if needs_good:
            statuses = await store_decisions.action_decision_statuses(g, action_id)
            raise InvalidTransition(
                f"Cannot {op}: a decision it requires is not in good standing.",
                decision_statuses=statuses)
        raise InvalidTransition(f"Cannot {op} an action that is {again['status']}.")
    return await store_decisions.get_action(g, action_id)
