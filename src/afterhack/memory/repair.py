"""Corrections: preview exactly what apply will do, then apply it atomically.

Preview and apply compute the same relabel (support.py) from the same snapshot of the
affected region; apply proves the snapshot is the one the preview saw (a token over every
revision it depends on) and writes everything in one guarded query. A correction is new
evidence with its own human-provenance fragment; it never inherits the mistake's quote.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic_core import to_json

from afterhack import facts
from afterhack.errors import (
    ClaimNotFound,
    ClaimNotListed,
    ClaimSuperseded,
    InvalidRequest,
    StaleCorrectionPreview,
)
from afterhack.memory import checks, claims
from afterhack.memory.disputes import Stated
from afterhack.memory.scope import Scope, until_written
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
    ValueRead,
)
from afterhack.model.region import RegionClaim, Snapshot, Stamps
from afterhack.model.vocab import CURRENT_CLAIM, ApplyStatus, CorrectionKind, SupportPolicy
from afterhack.records.audit import audit_event
from afterhack.records.clock import now_ms
from afterhack.records.conflicts import conflict_row, pair_key, settle
from afterhack.records.flags import flags
from afterhack.records.ids import new_id
from afterhack.retrieval import search
from afterhack.rules.evidence import statement_key
from afterhack.rules.support import Outcome, relabel
from afterhack.store import conflicts as store_conflicts
from afterhack.store import corrections as store_corrections
from afterhack.store import decisions as store_decisions
from afterhack.store import repair as store_repair
from afterhack.store.client import Graph, concurrently
from afterhack.store.corrections import CorrectionWrite
from afterhack.store.repair import StatementClaim

REVIEWER_ORIGIN = "Workspace reviewer correction"


@dataclass(frozen=True)
class OtherWords:
    """A current claim that states the corrected claim's fact in other words (or a copy of
    such a claim), with the value the two give."""

    claim: StatementClaim
    value: facts.ValueRead


@dataclass
class Picture:
    """What a correction of a claim reaches: the claim and its twins, the claims stating its
    fact in other words (and theirs), the region of all of them, and the relabel with the
    claims the reviewer leaves out (``left``) not refuted."""

    claim: RegionClaim
    snap: Snapshot
    others: list[OtherWords] = field(default_factory=list)
    left: frozenset[str] = frozenset()  # statement keys left out of the correction
    out: Outcome = field(default_factory=Outcome)

    @property
    def corrected_others(self) -> list[OtherWords]:
        return [o for o in self.others if o.claim["statement_key"] not in self.left]

    @property
    def left_out(self) -> list[OtherWords]:
        return [o for o in self.others if o.claim["statement_key"] in self.left]


def twin_rows(claim: RegionClaim) -> list[list[str | int]]:
    """A claim's twins as the apply's guard compares them: [id, revision, users]."""
    return [[t["id"], t["revision"], t["n_users"]] for t in claim["twins"]]


def _other_rows(others: Sequence[OtherWords]) -> list[list[str | int]]:
    return [[o.claim["id"], o.claim["revision"], o.claim["n_users"]] for o in others]


def impact_token(claim: RegionClaim, stamps: Stamps,
                 others: Sequence[OtherWords] = ()) -> str:
    """A digest of everything the relabel reads; equal tokens mean an equal picture. It
    covers the claims in other words whatever the reviewer leaves out of them, so a list of
    claims to leave out is checked against the picture it was chosen from."""
    # The stamps are in id order, so equal pictures encode alike. The decisions' stamps are
    # flattened to their values (each has the same fields, so nothing runs together): the
    # encoder takes plain values as they are, where it inspects each named tuple.
    payload = ([claim["id"], claim["revision"], claim["status"], claim["n_users"]],
               twin_rows(claim),
               [v for stamp in stamps.decisions for v in stamp],
               stamps.actions, stamps.claims, stamps.upstream, _other_rows(others))
    return "imp_" + hashlib.sha256(to_json(payload)).hexdigest()[:32]


def _revisions(p: Picture, stamps: Stamps) -> Revisions:
    """What a client sends back to apply: the claim's revision, the token, and each
    revision the token covers."""
    return {
        "claim_revision": p.claim["revision"],
        "impact_token": impact_token(p.claim, stamps, p.others),
        "impact": {
            "decisions": {d.id: d.revision for d in stamps.decisions},
            "actions": dict(stamps.actions),
            "claims": dict(stamps.claims),
            "upstream": dict(stamps.upstream),
            "twins": {t["id"]: t["revision"] for t in p.claim["twins"]},
            "in_other_words": {o.claim["id"]: o.claim["revision"] for o in p.others},
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


def _reached(snap: Snapshot, refuted: Sequence[str]) -> set[str]:
    """The decisions using a refuted claim and all that depend on them: the region the
    relabel is about (the snapshot also holds the region of claims left out)."""
    dependents: dict[str, list[str]] = {}
    for d in snap.decisions.values():
        for up in d.ups:
            dependents.setdefault(up.decision_id, []).append(d.id)
    wanted = set(refuted)
    todo = [d.id for d in snap.decisions.values() if any(u.claim_id in wanted for u in d.uses)]
    seen: set[str] = set()
    while todo:
        i = todo.pop()
        if i not in seen:
            seen.add(i)
            todo += dependents.get(i, [])
    return seen


async def in_other_words(g: Graph, claim: RegionClaim, snap: Snapshot) -> list[OtherWords]:
    """The current claims that state the claim's fact in other words: the statements a
    check linked to it (or to a twin) when one of the two was new (memory/checks.py: the
    same subject and attribute, the same value, among the newer one's nearest by words and
    by meaning), each read again by facts.same_fact for the value, with every current copy
    of each; their region is added to ``snap``."""
    if not claim["same_fact_keys"]:
        return []
    found = await store_repair.statements_region(g, claim["same_fact_keys"], snap)
    values: dict[str, facts.ValueRead | None] = {}
    out: list[OtherWords] = []
    for c in found:
        key = c["statement_key"]
        if key not in values:
            values[key] = facts.same_fact(claim["statement"], c["statement"])
        v = values[key]
        if v is not None:
            out.append(OtherWords(claim=c, value=v))
    return out


async def picture(g: Graph, claim_id: str, policy: SupportPolicy, *,
                  leave: Sequence[str] = (), workspace_id: str | None = None) -> Picture:
    """The claim, what its correction reaches, and the relabel with ``leave`` (claims the
    preview listed in other words, with their copies) not corrected. ClaimNotListed if
    ``leave`` names another claim."""
    claim, snap = await store_repair.claim_region(g, claim_id, workspace_id=workspace_id)
    if claim is None:
        raise ClaimNotFound(claim_id)
    p = Picture(claim=claim, snap=snap)
    if claim["status"] in CURRENT_CLAIM:
        p.others = await in_other_words(g, claim, snap)
    key_of = {o.claim["id"]: o.claim["statement_key"] for o in p.others}
    unknown = sorted(set(leave) - key_of.keys())
    if unknown:
        raise ClaimNotListed(claim_ids=unknown)
    p.left = frozenset(key_of[i] for i in leave)
    refuted = {**refuted_by(claim),
               **{o.claim["id"]: o.claim["source_id"] for o in p.corrected_others}}
    p.out = relabel(snap, refuted=refuted, policy=policy)
    if p.others:
        reached = _reached(snap, list(refuted))
        p.out.stay = {i: s for i, s in p.out.stay.items() if i in reached}
    return p


async def also_states(g: Graph, p: Picture) -> list[AlsoStates]:
    """The twins and the claims in other words, as a preview lists them: "also states this"
    (never alternative support)."""
    claim = p.claim
    twins = claim["twins"]
    if not twins and not p.others:
        return []
    briefs = await store_repair.claim_briefs(
        g, [*(t["id"] for t in twins), *(o.claim["id"] for o in p.others)])
    out = [AlsoStates(claim_id=t["id"], status=t["status"], revision=t["revision"],
                      statement=briefs[t["id"]].statement if t["id"] in briefs
                      else claim["statement"],
                      evidence_quote=briefs[t["id"]].evidence_quote if t["id"] in briefs
                      else None,
                      source_id=t["source_id"],
                      source_title=briefs[t["id"]].source_title if t["id"] in briefs
                      else None,
                      in_other_words=False, value_read=None, left_out=False)
           for t in twins]
    for o in p.others:
        c = o.claim
        out.append(AlsoStates(
            claim_id=c["id"], status=c["status"], revision=c["revision"],
            statement=c["statement"], evidence_quote=c["evidence_quote"],
            source_id=c["source_id"],
            source_title=briefs[c["id"]].source_title if c["id"] in briefs else None,
            in_other_words=True,
            value_read=ValueRead(kind=o.value.kind, value=o.value.value,
                                 in_claim=o.value.in_a, in_other=o.value.in_b),
            left_out=c["statement_key"] in p.left))
    return out


def _check_statement(kind: CorrectionKind, statement: str | None, reason: str | None) -> str:
    if kind == "replace":
        if not statement or not statement.strip():
            raise InvalidRequest("A replacement needs the corrected statement.")
        return statement.strip()
    text = (reason or statement or "").strip()
    return text or "Retracted by a reviewer."


@dataclass(frozen=True)
class Fix:
    """A correction as a reviewer asks for it: ``replace`` with the corrected statement, or
    ``retract`` (with a reason); ``leave``: claims the preview listed as stating the same
    fact in other words that the correction is to leave out."""

    kind: CorrectionKind = "replace"
    statement: str | None = None
    reason: str | None = None
    leave: Sequence[str] = ()


@dataclass(frozen=True)
class Seen:
    """What a preview showed and its apply sends back: the revision of what it is about (the
    claim, or the conflict) and the token over everything else the preview read."""

    revision: int
    impact_token: str


async def preview_correction(ws: Scope, claim_id: str, fix: Fix) -> CorrectionPreview:
    """What applying this correction would do now, and the revisions apply must present.

    A workspace opened without reading it (Workspaces.at) is checked in the same read as
    the claim (see store.repair.claim_region), so the caller need not read it first."""
    p = await picture(ws.graph, claim_id, ws.policy, leave=fix.leave,
                      workspace_id=ws.id if ws.row is None else None)
    text = _check_statement(fix.kind, fix.statement, None)
    if p.claim["status"] not in CURRENT_CLAIM:
        raise ClaimSuperseded(claim_id=claim_id, status=p.claim["status"])
    return {
        "claim": _brief(p.claim),
        "kind": fix.kind,
        "statement": text if fix.kind == "replace" else fix.statement,
        **await describe(ws.graph, p.snap, p.out),
        "also_states_this": await also_states(ws.graph, p),
        "revisions": _revisions(p, p.snap.stamps()),
    }


async def claim_impact(ws: Scope, claim_id: str) -> ClaimImpact:
    """What depends on a claim: what a correction of it would flag and hold, and what would
    stay supported and on what. Read-only, and no statement is needed: the relabel does not
    depend on what the claim would be replaced with."""
    g = ws.graph
    p = await picture(g, claim_id, ws.policy)
    return {
        "claim": _brief(p.claim),
        "correctable": p.claim["status"] in CURRENT_CLAIM,
        **await describe(g, p.snap, p.out),
        "also_states_this": await also_states(g, p),
        "revisions": _revisions(p, p.snap.stamps()),
    }


def correction_key(claim_id: str, kind: CorrectionKind, text: str, claim_revision: int) -> str:
    """Identity of one apply, so a retried or double-clicked apply is recognised."""
    raw = json.dumps([claim_id, kind, statement_key(text), claim_revision]).encode()
    return "cor_" + hashlib.sha256(raw).hexdigest()[:32]


@dataclass(frozen=True)
class Applying:
    """One apply as planned: its key (correction_key), the corrected text, the ids it
    writes under, and the reviewer it names."""

    key: str
    text: str
    correction_id: str
    replacement_id: str | None
    reviewer: str


async def _replacement_conflicts(ws: Scope, p: Picture,
                                 replacement: checks.NewStatement) -> checks.Checks:
    """The conflicts a replacement raises: with every current claim near it that gives
    another value for the same thing (it is checked like any new claim; what the correction
    supersedes does not count), and with each claim left out of the correction, which still
    states the corrected fact."""
    corrected = {p.claim["id"], *(t["id"] for t in p.claim["twins"]),
                 *(o.claim["id"] for o in p.corrected_others)}
    found = checks.Checks()
    if ws.judge is not None:
        found = await checks.check_new_claims(ws.graph, ws.judge, [replacement],
                                              exclude=corrected, vectors=ws.vectors)
    raised = {r["key"] for r in found.rows}
    for o in p.left_out:
        k = pair_key(replacement["key"], o.claim["statement_key"])
        if k in raised:
            continue
        raised.add(k)
        reason = (f'Left out of the correction of "{p.claim["statement"]}" to '
                  f'"{replacement["statement"]}": it still says {o.value.in_b}.')
        found.rows.append(conflict_row(k, facts.conflict_kind(o.value.kind), reason,
                                       "reviewer", replacement["id"], o.claim["id"],
                                       newer=replacement["id"]))
        found.stated[replacement["id"]] = Stated(replacement["statement"], replacement["key"])
        found.stated[o.claim["id"]] = Stated(o.claim["statement"], o.claim["statement_key"])
    if p.left_out:
        read = {m["key"] for m in found.found}
        found.found += await store_conflicts.memberships(
            ws.graph, sorted({st.key for st in found.stated.values()} - read))
        found.place()
    return found


async def apply_correction(ws: Scope, claim_id: str, fix: Fix, seen: Seen,
                           reviewer: str | None = None) -> tuple[ApplyStatus, CorrectionResult]:
    """Apply what the preview showed: the claim, its twins and the claims stating its fact
    in other words (but those ``fix.leave`` names) corrected together, in one guarded write
    with the replacement's conflicts (checked like a new claim's) and the conflicts it
    settles. The same apply again answers ``already_applied``."""
    text = _check_statement(fix.kind, fix.statement, fix.reason)
    key = correction_key(claim_id, fix.kind, text, seen.revision)
    done = await _applied(ws, key)
    if done is not None:
        return "already_applied", done
    p, stamps = await _as_previewed(ws, claim_id, fix.leave, seen)
    plan = Applying(key=key, text=text, correction_id=new_id(),
                    replacement_id=new_id() if fix.kind == "replace" else None,
                    reviewer=reviewer or ws.actor)
    found = checks.Checks()
    if plan.replacement_id is not None:
        found = await _replacement_conflicts(
            ws, p, checks.stored_statement(plan.replacement_id, text, statement_key(text)))
    if await store_corrections.apply(ws.graph, stamps,
                                     correction_write(p, fix, plan, found, ws.actor)):
        return "applied", await _result(ws.graph, plan.correction_id, None)
    # The same apply may have won the race from another process: that is a repeat.
    done = await _applied(ws, key)
    if done is not None:
        return "already_applied", done
    current = await store_repair.claim_state(ws.graph, claim_id)
    raise StaleCorrectionPreview(
        seen={"claim_revision": seen.revision, "impact_token": seen.impact_token},
        current={"claim_revision": current["revision"] if current else None,
                 "claim_status": current["status"] if current else None})


async def _applied(ws: Scope, key: str) -> CorrectionResult | None:
    """The result of the apply with this key if it was applied before, re-checked."""
    existing = await store_corrections.find_by_key(ws.graph, key)
    if existing is None:
        return None
    return await _result(ws.graph, existing, await recheck_correction(ws, existing))


async def _as_previewed(ws: Scope, claim_id: str, leave: Sequence[str],
                        seen: Seen) -> tuple[Picture, Stamps]:
    """The picture now, refused as stale unless it is the one the preview showed (the
    token does not depend on what is left out; the leave list is checked against the
    picture after, so a stale list is a stale preview)."""
    p = await picture(ws.graph, claim_id, ws.policy)
    claim = p.claim
    token = impact_token(claim, p.snap.stamps(), p.others)
    if claim["revision"] != seen.revision or token != seen.impact_token:
        raise StaleCorrectionPreview(
            seen={"claim_revision": seen.revision, "impact_token": seen.impact_token},
            current={"claim_revision": claim["revision"], "impact_token": token,
                     "claim_status": claim["status"]})
    if claim["status"] not in CURRENT_CLAIM:
        raise ClaimSuperseded(claim_id=claim_id, status=claim["status"])
    if leave:
        p = await picture(ws.graph, claim_id, ws.policy, leave=leave)
        if impact_token(p.claim, p.snap.stamps(), p.others) != token:
            raise StaleCorrectionPreview(
                seen={"claim_revision": seen.revision, "impact_token": seen.impact_token},
                current={"claim_revision": p.claim["revision"], "claim_status":
                         p.claim["status"]})
    return p, p.snap.stamps()


def correction_write(p: Picture, fix: Fix, plan: Applying, found: checks.Checks,
                     actor: str) -> CorrectionWrite:
    """The one guarded write of a correction: the claim and every claim corrected with it
    superseded (or rejected), the correction with its reviewer's fragment, the replacement
    and the conflicts it raises and settles, the flags and holds of the relabel, and the
    audit event. Everything in it was read or made before: no I/O."""
    claim, out, text, kind = p.claim, p.out, plan.text, fix.kind
    also = [*twin_rows(claim), *_other_rows(p.corrected_others)]
    now = now_ms()
    rid = plan.replacement_id
    return {
        "claim_id": claim["id"], "claim_revision": claim["revision"],
        "n_users": claim["n_users"], "kind": kind, "key": plan.key, "now": now,
        "twins": also,
        "guard_keys": sorted({claim["statement_key"] or "",
                              *(o.claim["statement_key"] for o in p.others)}),
        "guard_rows": [*twin_rows(claim), *_other_rows(p.others)],
        "old_status": "superseded" if kind == "replace" else "rejected",
        "correction": {
            "id": plan.correction_id,
            "statement": text if kind == "replace" else (fix.statement or text),
            "reason": fix.reason, "reviewer": plan.reviewer, "kind": kind,
            "replacement_id": rid,
            "outcome": json.dumps({"flagged": sorted(out.flag), "held": sorted(out.hold)}),
        },
        "fragment": {"id": new_id(), "text": text, "origin_name": REVIEWER_ORIGIN},
        "replacement": {"id": rid, "statement": text, "key": statement_key(text),
                        "terms": search.claim_terms(text)},  # one claim: a list is fine
        "flags": flags(out.flag, type="correction", correction_id=plan.correction_id,
                       claim_id=claim["id"]),
        "holds": sorted(out.hold),
        **found.writes(),
        "settles": [settle([claim["statement_key"] or "",
                            *(o.claim["statement_key"] for o in p.corrected_others)],
                           "correction", plan.correction_id,
                           f'Corrected to "{text}"' if kind == "replace"
                           else f'"{claim["statement"]}" retracted', plan.reviewer)],
        "audit_actor": actor,
        "audits": [audit_event("correction.applied", actor, plan.correction_id, {
            "claim_id": claim["id"], "kind": kind, "replacement_id": rid,
            "also_corrected": sorted(str(x[0]) for x in also),
            "left_out": sorted(o.claim["id"] for o in p.left_out),
            "flagged": sorted(out.flag), "held": sorted(out.hold)}, at=now)],
    }


async def recheck_claims(g: Graph, claim_ids: Sequence[str], *, policy: SupportPolicy,
                         actor: str) -> CorrectionOutcome:
    """Re-run the dependency check for claims already corrected (or erased) together; flags
    what lost support, in one guarded write (planned again while the region moves)."""
    ids = sorted(set(claim_ids))

    async def attempt() -> CorrectionOutcome | None:
        snap = await store_repair.load_region(g, await store_repair.decisions_using(g, ids))
        refuted = {u.claim_id: u.source_id for d in snap.decisions.values() for u in d.uses
                   if u.claim_id in ids}
        out = relabel(snap, refuted=refuted, policy=policy)
        if not out.flag and not out.hold:
            return {"flagged": [], "held": []}
        now = now_ms()
        ok = await store_corrections.repair_only(
            g, snap.stamps(), {"flags": flags(out.flag, type="recheck", claim_id=ids[0]),
                               "holds": sorted(out.hold)},
            [audit_event("correction.rechecked", actor, ids[0], {
                "claims": ids, "flagged": sorted(out.flag), "held": sorted(out.hold)},
                at=now)], now)
        return {"flagged": sorted(out.flag), "held": sorted(out.hold)} if ok else None

    return await until_written(attempt, 5, StaleCorrectionPreview(
        "The region kept changing during the re-check; retry."))


async def recheck_correction(ws: Scope, correction_id: str) -> CorrectionOutcome:
    """Re-run the dependency check for every claim a correction corrected."""
    corr = await store_corrections.get_correction(ws.graph, correction_id)
    return await recheck_claims(ws.graph, [corr["claim_id"], *corr["also_corrected"]],
                                policy=ws.policy, actor=ws.actor)


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
    result: CorrectionResult = {
        "correction": corr, "old_claim": old, "replacement": replacement,
        "also_corrected": corr["also_corrected"], "flagged": outcome["flagged"],
        "held": outcome["held"],
        "conflicts": replacement["conflicts"] if replacement is not None else [],
        "settled": await store_conflicts.settled_by(g, correction_id)}
    if recheck is not None:
        result["recheck"] = recheck
    return result
