"""Corrections: preview exactly what apply will do, then apply it atomically.

Preview and apply compute the same relabel (support.py) from the same snapshot of the
affected region; apply proves the snapshot is the one the preview saw (a token over every
revision it depends on) and writes everything in one guarded query. A correction is new
evidence with its own human-provenance fragment; it never inherits the mistake's quote.
"""

from __future__ import annotations

import hashlib
import json

from pydantic_core import to_json

from afterhack.errors import ClaimNotFound, ClaimSuperseded, InvalidRequest, StaleCorrectionPreview
from afterhack.memory import claims
from afterhack.model.claims import ClaimView
from afterhack.model.corrections import (
    AlsoStates,
    ClaimBrief,
    ClaimImpact,
    CorrectionOutcome,
    CorrectionPreview,
    CorrectionResult,
    Impact,
    Revisions,
)
from afterhack.model.region import RegionClaim, Snapshot, Stamps
from afterhack.model.vocab import CURRENT_CLAIM, ApplyStatus, CorrectionKind, SupportPolicy
from afterhack.retrieval import search
from afterhack.rules.evidence import statement_key
from afterhack.rules.support import Outcome, relabel
from afterhack.store import corrections as store_corrections
from afterhack.store import decisions as store_decisions
from afterhack.store import repair as store_repair
from afterhack.store.audit import audit_event, now_ms
from afterhack.store.client import Graph, concurrently
from afterhack.store.corrections import CorrectionWrite
from afterhack.store.guard import Flag, twin_rows
from afterhack.store.names import new_id

REVIEWER_ORIGIN = "Workspace reviewer correction"


def impact_token(claim: RegionClaim, stamps: Stamps) -> str:
    """A digest of everything the relabel reads; equal tokens mean an equal picture."""
    # The stamps are in id order, so equal pictures encode alike. The decisions' stamps are
    # flattened to their values (each has the same fields, so nothing runs together): the
    # encoder takes plain values as they are, where it inspects each named tuple.
    payload = ([claim["id"], claim["revision"], claim["status"], claim["n_users"]],
               twin_rows(claim),
               [v for stamp in stamps.decisions for v in stamp],
               stamps.actions, stamps.claims, stamps.upstream)
    return "imp_" + hashlib.sha256(to_json(payload)).hexdigest()[:32]


def _revisions(claim: RegionClaim, stamps: Stamps) -> Revisions:
    """What a client sends back to apply: the claim's revision, the token, and each
    revision the token covers."""
    return {
        "claim_revision": claim["revision"],
        "impact_token": impact_token(claim, stamps),
        "impact": {
            "decisions": {d.id: d.revision for d in stamps.decisions},
            "actions": dict(stamps.actions),
            "claims": dict(stamps.claims),
            "upstream": dict(stamps.upstream),
            "twins": {t["id"]: t["revision"] for t in claim["twins"]},
        },
    }


def _brief(claim: RegionClaim) -> ClaimBrief:
    return {"id": claim["id"], "statement": claim["statement"], "status": claim["status"],
            "revision": claim["revision"]}


async def describe(g: Graph, snap: Snapshot, out: Outcome) -> Impact:
    d = snap.decisions
    # The snapshot knows an action's decisions inside the region; a held one is shown with
    # all it requires, read here if some are outside.
    required = await store_decisions.action_decisions(
        g, sorted(a.id for a in out.hold.values() if len(a.decision_ids) < a.n_required))
    return {
        "flag": [{"decision_id": i, "title": d[i].title, "status": d[i].status, "reasons": r}
                 for i, r in sorted(out.flag.items())],
        "hold": [{"action_id": a.id, "description": a.description, "status": a.status,
                  "decision_ids": sorted(required.get(a.id, a.decision_ids))}
                 for _, a in sorted(out.hold.items())],
        "stay": [{"decision_id": i, "title": d[i].title, "supported_by": s}
                 for i, s in sorted(out.stay.items())],
    }


def refuted_by(claim: RegionClaim) -> dict[str, str | None]:
    """What correcting the claim refutes: it and every current claim stating the same."""
    return {claim["id"]: claim["source_id"],
            **{t["id"]: t["source_id"] for t in claim["twins"]}}


async def _picture(g: Graph, claim_id: str, policy: SupportPolicy, workspace_id: str | None = None
                   ) -> tuple[RegionClaim, Snapshot, Outcome]:
    claim, snap = await store_repair.claim_region(g, claim_id, workspace_id=workspace_id)
    if claim is None:
        raise ClaimNotFound(claim_id)
    out = relabel(snap, refuted=refuted_by(claim), policy=policy)
    return claim, snap, out


async def also_states(g: Graph, claim: RegionClaim) -> list[AlsoStates]:
    """The twins, as a preview lists them: "also states this" (never alternative support)."""
    if not claim["twins"]:
        return []
    titles = await store_repair.source_titles(g, sorted(
        {t["source_id"] for t in claim["twins"] if t["source_id"]}))
    return [AlsoStates(claim_id=t["id"], status=t["status"], revision=t["revision"],
                       source_id=t["source_id"], source_title=titles.get(t["source_id"] or ""))
            for t in claim["twins"]]


def _check_statement(kind: CorrectionKind, statement: str | None, reason: str | None) -> str:
    if kind == "replace":
        if not statement or not statement.strip():
            raise InvalidRequest("A replacement needs the corrected statement.")
        return statement.strip()
    text = (reason or statement or "").strip()
    return text or "Retracted by a reviewer."


async def preview_correction(g: Graph, claim_id: str, *, statement: str | None,
                             kind: CorrectionKind, policy: SupportPolicy,
                             workspace_id: str | None = None) -> CorrectionPreview:
    """What applying this correction would do now, and the revisions apply must present.

    With ``workspace_id``, the workspace is checked in the same read as the claim (see
    store.repair.claim_region), so the caller need not read it first."""
    claim, snap, out = await _picture(g, claim_id, policy, workspace_id)
    text = _check_statement(kind, statement, None)
    if claim["status"] not in CURRENT_CLAIM:
        raise ClaimSuperseded(claim_id=claim_id, status=claim["status"])
    return {
        "claim": _brief(claim),
        "kind": kind,
        "statement": text if kind == "replace" else statement,
        **await describe(g, snap, out),
        "also_states_this": await also_states(g, claim),
        "revisions": _revisions(claim, snap.stamps()),
    }


async def claim_impact(g: Graph, claim_id: str, *, policy: SupportPolicy) -> ClaimImpact:
    """What depends on a claim: what a correction of it would flag and hold, and what would
    stay supported and on what. Read-only, and no statement is needed: the relabel does not
    depend on what the claim would be replaced with."""
    claim, snap, out = await _picture(g, claim_id, policy)
    return {
        "claim": _brief(claim),
        "correctable": claim["status"] in CURRENT_CLAIM,
        **await describe(g, snap, out),
        "also_states_this": await also_states(g, claim),
        "revisions": _revisions(claim, snap.stamps()),
    }


def correction_key(claim_id: str, kind: CorrectionKind, text: str, claim_revision: int) -> str:
    """Identity of one apply, so a retried or double-clicked apply is recognised."""
    raw = json.dumps([claim_id, kind, statement_key(text), claim_revision]).encode()
    return "cor_" + hashlib.sha256(raw).hexdigest()[:32]


async def apply_correction(g: Graph, claim_id: str, *, statement: str | None,
                           kind: CorrectionKind, reason: str | None, reviewer: str,
                           claim_revision: int, impact_token_seen: str, policy: SupportPolicy,
                           actor: str) -> tuple[ApplyStatus, CorrectionResult]:
    text = _check_statement(kind, statement, reason)
    key = correction_key(claim_id, kind, text, claim_revision)
    existing = await store_corrections.find_by_key(g, key)
    if existing is not None:
        recheck = await recheck_claim(g, claim_id, policy=policy, actor=actor)
        return "already_applied", await _result(g, existing, recheck)

    claim, snap, out = await _picture(g, claim_id, policy)
    stamps = snap.stamps()
    token = impact_token(claim, stamps)
    if claim["revision"] != claim_revision or token != impact_token_seen:
        raise StaleCorrectionPreview(
            seen={"claim_revision": claim_revision, "impact_token": impact_token_seen},
            current={"claim_revision": claim["revision"], "impact_token": token,
                     "claim_status": claim["status"]})
    if claim["status"] not in CURRENT_CLAIM:
        raise ClaimSuperseded(claim_id=claim_id, status=claim["status"])

    correction_id = new_id()
    replacement_id = new_id() if kind == "replace" else None
    flags: list[Flag] = [
        {"id": i, "reason": json.dumps({"type": "correction", "correction_id": correction_id,
                                        "claim_id": claim_id, "reasons": r})}
        for i, r in out.flag.items()]
    now = now_ms()
    write: CorrectionWrite = {
        "claim_id": claim_id, "claim_revision": claim["revision"],
        "n_users": claim["n_users"], "kind": kind, "key": key, "now": now,
        "statement_key": claim["statement_key"], "twins": twin_rows(claim),
        "old_status": "superseded" if kind == "replace" else "rejected",
        "correction": {
            "id": correction_id, "statement": text if kind == "replace" else (statement or text),
            "reason": reason, "reviewer": reviewer, "kind": kind,
            "replacement_id": replacement_id,
            "outcome": json.dumps({"flagged": sorted(out.flag), "held": sorted(out.hold)}),
        },
        "fragment": {"id": new_id(), "text": text, "origin_name": REVIEWER_ORIGIN},
        "replacement": {"id": replacement_id, "statement": text, "key": statement_key(text),
                        "terms": search.claim_terms(text)},  # one claim: a list is fine
        "flags": flags, "holds": sorted(out.hold),
        "audits": [audit_event("correction.applied", actor, correction_id, {
            "claim_id": claim_id, "kind": kind, "replacement_id": replacement_id,
            "also_corrected": [t["id"] for t in claim["twins"]],
            "flagged": sorted(out.flag), "held": sorted(out.hold)}, at=now)],
    }
    if not await store_corrections.apply(g, stamps, write):
        # The same apply may have won the race from another process: that is a repeat.
        winner = await store_corrections.find_by_key(g, key)
        if winner is not None:
            recheck = await recheck_claim(g, claim_id, policy=policy, actor=actor)
            return "already_applied", await _result(g, winner, recheck)
        current = await store_repair.claim_state(g, claim_id)
        raise StaleCorrectionPreview(
            seen={"claim_revision": claim_revision, "impact_token": impact_token_seen},
            current={"claim_revision": current["revision"] if current else None,
                     "claim_status": current["status"] if current else None})
    return "applied", await _result(g, correction_id, None)


async def recheck_claim(g: Graph, claim_id: str, *, policy: SupportPolicy,
                        actor: str) -> CorrectionOutcome:
    """Re-run the dependency check for an already corrected claim; flags what lost support."""
    for _ in range(5):
        _, snap, out = await _picture(g, claim_id, policy)
        if not out.flag and not out.hold:
            return {"flagged": [], "held": []}
        flags: list[Flag] = [
            {"id": i, "reason": json.dumps({"type": "recheck", "claim_id": claim_id,
                                            "reasons": r})} for i, r in out.flag.items()]
        ok = await store_corrections.repair_only(
            g, snap.stamps(), {"flags": flags, "holds": sorted(out.hold)},
            [audit_event("correction.rechecked", actor, claim_id, {
                "flagged": sorted(out.flag), "held": sorted(out.hold)})])
        if ok:
            return {"flagged": sorted(out.flag), "held": sorted(out.hold)}
    raise StaleCorrectionPreview("The region kept changing during the re-check; retry.")


async def _result(g: Graph, correction_id: str,
                  recheck: CorrectionOutcome | None) -> CorrectionResult:
    corr = await store_corrections.get_correction(g, correction_id)
    old: ClaimView
    replacement: ClaimView | None
    if corr["replacement_id"]:
        old, replacement = await concurrently(claims.get_claim(g, corr["claim_id"]),
                                              claims.get_claim(g, corr["replacement_id"]))
    else:
        old, replacement = await claims.get_claim(g, corr["claim_id"]), None
    outcome = corr.pop("outcome", {"flagged": [], "held": []})
    result: CorrectionResult = {"correction": corr, "old_claim": old, "replacement": replacement,
                                "also_corrected": corr["also_corrected"],
                                "flagged": outcome["flagged"], "held": outcome["held"]}
    if recheck is not None:
        result["recheck"] = recheck
    return result
