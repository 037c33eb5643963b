"""Sources that disagree are a conflict, not two facts (docs/rules.md, rule 9).

Detection (checks.py, whose names this module also gives): when claims are added, each new
claim that could contradict anything is compared with its top neighbours by search, by words
and by meaning, never with the whole graph; the judge decides each pair, and the conflicts
are written in the same query as the claims.

Nothing is invalidated automatically. A reviewer resolves a conflict the way a correction is
applied, through the same machinery (the region snapshot, the relabel, the impact token and
one guarded write): keep one side, and every current claim of the other statement is
superseded by the kept claim, or dismiss it, and the pair is never raised again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from afterhack.errors import (
    ClaimNotFound,
    ClaimNotInConflict,
    ClaimSuperseded,
    ConflictClosed,
    InvalidRequest,
    StaleCorrectionPreview,
)
from afterhack.llm.judge import ConflictJudge
from afterhack.memory import claims, paging

# Detection lives in checks.py; its names are given here too, as callers know them.
from afterhack.memory.checks import Checks as Checks
from afterhack.memory.checks import check_new_claims as check_new_claims
from afterhack.memory.checks import conflict_row as conflict_row
from afterhack.memory.checks import pair_key as pair_key
from afterhack.memory.checks import stored_statement
from afterhack.memory.repair import describe, recheck_correction, refuted_by
from afterhack.model.claims import ClaimRow
from afterhack.model.conflicts import (
    ConflictRecord,
    ResolutionPreview,
    ResolutionResult,
    Superseded,
    ValidTimeInput,
    ValidTimeRow,
)
from afterhack.model.corrections import CorrectionOutcome
from afterhack.model.pages import ConflictList
from afterhack.model.region import RegionClaim, Snapshot, Stamps
from afterhack.model.vocab import (
    CONFLICT_STATUSES,
    CURRENT_CLAIM,
    ApplyStatus,
    ConflictStatus,
    Resolution,
    SupportPolicy,
)
from afterhack.rules.support import Outcome, relabel
from afterhack.store import claims as store_claims
from afterhack.store import conflicts as store_conflicts
from afterhack.store import corrections as store_corrections
from afterhack.store import repair as store_repair
from afterhack.store.audit import AuditEvent, audit_event, now_ms
from afterhack.store.client import Graph, concurrently
from afterhack.store.conflicts import ConflictRow, LinkRow, Settle, settle
from afterhack.store.guard import Flag, guard_params, twin_rows
from afterhack.store.names import new_id
from afterhack.store.source_params import LoserRow, NewClaim, PolicyRow, PolicyWrite, RetireRow
from afterhack.temporal.moments import parse_time

if TYPE_CHECKING:
    from afterhack.retrieval.vectors import Vectors


# --- A newer statement by the same speaker (a workspace's latest_wins, rule 11) ----------


@dataclass
class PolicyPlan:
    """What a ``latest_wins`` workspace supersedes in the write that raises the conflicts:
    the rows the write resolves, the claims it supersedes as seen, the region read and its
    relabel, and the same as a new version's retirement reads (versions.report)."""

    rows: list[PolicyRow] = field(default_factory=list)
    losers: list[LoserRow] = field(default_factory=list)
    settles: list[Settle] = field(default_factory=list)
    snap: Snapshot = field(default_factory=lambda: Snapshot({}, {}))
    out: Outcome = field(default_factory=Outcome)
    audits: list[AuditEvent] = field(default_factory=list)
    report: list[RetireRow] = field(default_factory=list)

    def write(self) -> PolicyWrite:
        flags: list[Flag] = []
        for d, reasons in self.out.flag.items():
            used = {u.claim_id for u in self.snap.decisions[d].uses}
            row = next((r for r in self.rows if used & set(r["losers"])), self.rows[0])
            flags.append({"id": d, "reason": json.dumps({
                "type": "conflict_resolved", "conflict_id": row["conflict_id"],
                "correction_id": row["correction_id"], "kept_claim_id": row["keep_id"],
                "superseded": row["losers"], "reviewer": POLICY_REVIEWER,
                "reasons": reasons})})
        return {**guard_params(self.snap.stamps()),
                "policy": self.rows,
                "policy_losers": self.losers, "policy_audits": self.audits,
                "settles": self.settles,
                "flags": flags, "holds": sorted(self.out.hold)}


POLICY_REVIEWER = "policy"


async def plan_latest_wins(g: Graph, raised: Sequence[ConflictRow],
                           new: Sequence[NewClaim], *, policy: SupportPolicy,
                           actor: str) -> PolicyPlan:
    """Of the conflicts new claims raise, those where the new claim is the newer statement
    of the same speaker: the older statement is superseded by it at once, recorded as a
    resolution whose reviewer is ``policy``, with the relabel of rule 5. Only when every
    current claim of the older statement was said by that speaker: the policy speaks for a
    speaker's own words, never for another source's that happen to state the same."""
    plan = PolicyPlan()
    by_id = {c["id"]: c for c in new}
    order = {c["id"]: i for i, c in enumerate(new)}
    # The newest statement first: what it supersedes is not superseded again by an older one.
    wanted = sorted((r for r in raised if r["same_speaker"] and r["newer_id"] == r["new_id"]),
                    key=lambda r: (by_id[r["new_id"]]["said_at"] or 0, order[r["new_id"]]),
                    reverse=True)
    if not wanted:
        return plan
    stored = await store_claims.statement_keys(
        g, [r["old_id"] for r in wanted if r["old_id"] not in by_id])
    old_keys = {**{i: k for i, (k, _) in stored.items()},
                **{r["old_id"]: by_id[r["old_id"]]["key"] for r in wanted
                   if r["old_id"] in by_id}}
    dead = await store_conflicts.corrected_keys(g, sorted({by_id[r["new_id"]]["key"]
                                                           for r in wanted}))
    held = await store_conflicts.holders(g, sorted(set(old_keys.values())))
    by_key: dict[str, list[store_conflicts.Holder]] = {}
    for h in held:
        by_key.setdefault(h["statement_key"], []).append(h)
    taken: set[str] = set()
    rows: list[tuple[ConflictRow, list[store_conflicts.Holder]]] = []
    for r in wanted:
        kept = by_id[r["new_id"]]
        if kept["key"] in dead or r["old_id"] not in old_keys or r["new_id"] in taken:
            continue
        losers = list(by_key.get(old_keys[r["old_id"]], []))
        if r["old_id"] in by_id:
            # An earlier message of this batch: written in the same query, before this.
            d = by_id[r["old_id"]]
            losers.append(store_conflicts.Holder(
                id=d["id"], statement_key=d["key"], statement=d["statement"], revision=1,
                n_users=0, said_by=d["said_by"], source_id=""))
        if not losers or any(h["said_by"] != kept["said_by"] for h in losers):
            continue
        if taken & {h["id"] for h in losers}:
            continue  # another newer statement of this batch supersedes it already
        taken |= {h["id"] for h in losers}
        rows.append((r, losers))
    if not rows:
        return plan
    kept_statement = {r["new_id"]: by_id[r["new_id"]]["statement"] for r, _ in rows}
    plan.snap = await store_repair.load_region(
        g, await store_repair.decisions_using(g, sorted(taken)))
    plan.out = relabel(plan.snap, refuted={h["id"]: h["source_id"] for _, ls in rows
                                           for h in ls if h["id"] not in by_id},
                       policy=policy)
    now = now_ms()
    outcome = json.dumps({"flagged": sorted(plan.out.flag), "held": sorted(plan.out.hold)})
    for r, losers in rows:
        correction_id = new_id()
        ids = [h["id"] for h in losers]
        row: PolicyRow = {
            "conflict_id": r["id"], "key": r["key"], "keep_id": r["new_id"],
            "correction_id": correction_id,
            "resolution_key": resolution_key(r["id"], "keep", r["new_id"], 1),
            "loser_id": r["old_id"], "losers": ids,
            "reason": "A newer statement by the same speaker (the workspace takes the "
                      "latest).",
            "outcome": outcome}
        plan.rows.append(row)
        # The guard checks the stored ones; a claim of this batch does not exist yet.
        plan.losers += [{"id": h["id"], "revision": h["revision"], "n_users": h["n_users"]}
                        for h in losers if h["id"] not in by_id]
        plan.report += [RetireRow(id=h["id"], revision=h["revision"], n_users=h["n_users"],
                                  status="superseded", superseded_by=r["new_id"],
                                  statement=h["statement"], statement_key=h["statement_key"])
                        for h in losers]
        plan.settles.append(settle(
            [old_keys[r["old_id"]]], "resolution", r["id"],
            f'Resolved by keeping "{kept_statement[r["new_id"]]}" (the workspace takes a '
            "speaker's latest statement)", POLICY_REVIEWER, skip=r["id"]))
        plan.audits.append(audit_event("conflict.resolved", actor, r["id"], {
            "correction_id": correction_id, "kept_claim_id": r["new_id"], "superseded": ids,
            "reviewer": POLICY_REVIEWER, "updates": "latest_wins",
            "flagged": sorted(plan.out.flag), "held": sorted(plan.out.hold)}, at=now))
    return plan


# --- Reading ---------------------------------------------------------------------------


def parse_status(value: str | None) -> ConflictStatus | None:
    if value is None or value == "all":
        return None
    for s in CONFLICT_STATUSES:
        if value == s:
            return s
    raise InvalidRequest(f"Unknown conflict status: {value}.",
                         allowed=[*CONFLICT_STATUSES, "all"])


async def list_conflicts(g: Graph, *, status: ConflictStatus | None, limit: int = 100,
                         offset: int = 0, cursor: str | None = None,
                         as_of: int | None = None) -> ConflictList:
    """A page, newest first, after the cursor's position (docs/api.md, "Pages"); with
    ``as_of``, those raised by then, each with its status then (not counted: ``total`` is
    None)."""
    after = paging.parse_after("conflicts", cursor, offset)
    listed = store_conflicts.list_conflicts(g, status=status, limit=limit + 1, offset=offset,
                                            after=after, as_of=as_of)
    total: int | None = None
    if as_of is None:
        rows, total = await concurrently(listed, store_conflicts.count_conflicts(g, status))
    else:
        rows = await listed
    return {"items": rows[:limit], "total": total,
            "next_cursor": paging.next_after("conflicts", rows, limit)}


async def get_conflict(g: Graph, conflict_id: str, *,
                       as_of: int | None = None) -> ConflictRecord:
    return await store_conflicts.get_conflict(g, conflict_id, as_of)


@dataclass(frozen=True)
class Disagreement:
    """An open conflict both sides of which are in a run's evidence."""

    conflict_id: str
    claim_ids: tuple[str, ...]  # the evidence's claims on either side


async def disagreements(g: Graph, evidence: Sequence[str]) -> list[Disagreement]:
    """The open conflicts whose two statements both have a current claim in ``evidence``."""
    if not evidence:
        return []
    links = await store_conflicts.open_conflicts_of(g, list(dict.fromkeys(evidence)))
    sides: dict[str, dict[str, list[str]]] = {}
    for x in links:
        sides.setdefault(x["conflict_id"], {}).setdefault(x["side_key"], []).append(
            x["claim_id"])
    out = []
    for cid, by_key in sorted(sides.items()):
        if len(by_key) >= 2:
            ids = tuple(sorted(i for ids in by_key.values() for i in ids))
            out.append(Disagreement(cid, ids))
    return out


# --- Resolution ------------------------------------------------------------------------


@dataclass
class _Picture:
    conflict: ConflictRecord
    keep_id: str | None
    loser: RegionClaim | None  # the losing statement's claim the region was read from
    losers: list[list[str | int]]  # [id, revision, users] of every current claim of that statement
    snap: Snapshot
    out: Outcome
    keep_revision: int | None = None


def _statement_of(conflict: ConflictRecord, claim_id: str) -> str:
    """The statement of the conflict's side the claim states."""
    sides = {c["id"]: c["statement"] for c in conflict["claims"]}
    return sides.get(claim_id) or next(iter(sides.values()), "")


def _sides(conflict: ConflictRecord) -> dict[str, str]:
    """Statement key -> the conflict's claim with it."""
    return {c["statement_key"]: c["id"] for c in conflict["claims"]}


async def _picture(g: Graph, conflict: ConflictRecord, keep: str | None,
                   policy: SupportPolicy) -> _Picture:
    if keep is None:
        return _Picture(conflict, None, None, [], Snapshot({}, {}), Outcome())
    kept = await store_claims.find_claims(g, [keep])
    if keep not in kept:
        raise ClaimNotFound(keep)
    sides = _sides(conflict)
    keys = await store_claims.statement_keys(g, [keep])
    keep_key = keys[keep][0]
    if keep_key not in sides:
        raise ClaimNotInConflict(claim_id=keep, conflict_id=conflict["id"])
    if kept[keep]["status"] not in CURRENT_CLAIM:
        # A resolution that closed the conflict since it was read may be what superseded
        # the claim to keep: then the closing is the reason to give.
        now = await store_conflicts.get_conflict(g, conflict["id"])
        if now["status"] != "open":
            raise ConflictClosed(conflict_id=conflict["id"], status=now["status"])
        raise ClaimSuperseded(f"The claim to keep is {kept[keep]['status']}.", claim_id=keep,
                              status=kept[keep]["status"])
    loser_anchor = next(i for k, i in sides.items() if k != keep_key)
    loser, snap = await store_repair.claim_region(g, loser_anchor)
    assert loser is not None
    refuted = refuted_by(loser)
    if loser["status"] not in CURRENT_CLAIM:
        refuted.pop(loser["id"])  # already gone: only its current twins lose now
    out = relabel(snap, refuted=refuted, policy=policy)
    losers: list[list[str | int]] = (
        [[loser["id"], loser["revision"], loser["n_users"]]] if loser["id"] in refuted else [])
    losers += twin_rows(loser)
    return _Picture(conflict, keep, loser, sorted(losers), snap, out,
                    keep_revision=kept[keep]["revision"])


def _token(p: _Picture, stamps: Stamps) -> str:
    """A digest of everything the resolution's relabel and guard read."""
    payload = [[p.conflict["id"], p.conflict["revision"], p.conflict["status"]],
               [p.keep_id, p.keep_revision], p.losers,
               [list(d) for d in stamps.decisions], stamps.actions, stamps.claims,
               stamps.upstream]
    return "imp_" + hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:32]


def _valid_rows(conflict: ConflictRecord,
                valid_times: Sequence[ValidTimeInput]) -> list[ValidTimeRow]:
    """The valid times a dismissal writes, by statement: each names a claim of one side."""
    key_of = {c["id"]: c["statement_key"] for c in conflict["claims"]}
    rows: dict[str, ValidTimeRow] = {}
    for v in valid_times:
        key = key_of.get(v["claim_id"])
        if key is None:
            raise ClaimNotInConflict(claim_id=v["claim_id"], conflict_id=conflict["id"])
        if key in rows:
            raise InvalidRequest("Give each side's valid time once.", claim_id=v["claim_id"])
        begin = parse_time(v["valid_from"], "valid_from")
        end = parse_time(v["valid_until"], "valid_until")
        if begin is not None and end is not None and end <= begin:
            raise InvalidRequest("valid_until must come after valid_from.",
                                 claim_id=v["claim_id"])
        rows[key] = {"key": key, "valid_from": begin, "valid_until": end}
    return list(rows.values())


def resolution_key(conflict_id: str, op: Resolution, keep: str | None,
                   conflict_revision: int) -> str:
    raw = json.dumps([conflict_id, op, keep, conflict_revision]).encode()
    return "res_" + hashlib.sha256(raw).hexdigest()[:32]


def _op(keep: str | None, dismiss: bool) -> Resolution:
    if (keep is None) == (not dismiss):
        raise InvalidRequest("Send either keep (a claim id) or dismiss: true.")
    return "keep" if keep is not None else "dismiss"


def _superseded(c: ClaimRow) -> Superseded:
    """A claim a resolution supersedes, with where it comes from: its source, or for a
    reviewer's claim the correction that wrote it (a claim row's source_id is either)."""
    reviewer = c["confidence_kind"] == "human_correction"
    return {"claim_id": c["id"], "revision": c["revision"], "statement": c["statement"],
            "source_id": None if reviewer else c["source_id"],
            "correction_id": c["source_id"] if reviewer else None}


async def preview_resolution(g: Graph, conflict_id: str, *, keep: str | None, dismiss: bool,
                             policy: SupportPolicy) -> ResolutionPreview:
    """What this resolution would do now, shaped like a correction preview, with the
    revisions apply must send back."""
    op = _op(keep, dismiss)
    conflict = await store_conflicts.get_conflict(g, conflict_id)
    if conflict["status"] != "open":
        raise ConflictClosed(conflict_id=conflict_id, status=conflict["status"])
    p = await _picture(g, conflict, keep, policy)
    found = await store_claims.find_claims(g, [str(x[0]) for x in p.losers])
    superseded = [_superseded(found[str(x[0])]) for x in p.losers]
    return {
        "conflict": conflict,
        "resolution": op,
        "keep": keep,
        "supersede": superseded,
        **await describe(g, p.snap, p.out),
        "revisions": {"conflict_revision": conflict["revision"],
                      "keep_revision": p.keep_revision,
                      "impact_token": _token(p, p.snap.stamps())},
    }


async def resolve(g: Graph, conflict_id: str, *, keep: str | None, dismiss: bool,
                  reason: str | None, reviewer: str, conflict_revision: int,
                  impact_token_seen: str, policy: SupportPolicy, actor: str,
                  valid_times: Sequence[ValidTimeInput] = (),
                  judge: ConflictJudge | None = None, vectors: Vectors | None = None
                  ) -> tuple[ApplyStatus, ResolutionResult]:
    """Apply a resolution previewed with these revisions. Keeping a side supersedes the
    other statement's current claims by the kept claim, closes (settles) every other open
    conflict of that statement, and, with ``judge``, checks the kept claim against its
    nearest current claims like a new one, in the same guarded write."""
    op = _op(keep, dismiss)
    if valid_times and op != "dismiss":
        raise InvalidRequest("valid_times go with dismiss: both sides hold, at different "
                             "times.")
    key = resolution_key(conflict_id, op, keep, conflict_revision)
    conflict = await store_conflicts.get_conflict(g, conflict_id)
    repeat = await _repeat(g, conflict, op, key, policy, actor)
    if repeat is not None:
        return "already_applied", repeat
    if conflict["status"] != "open":
        raise ConflictClosed(conflict_id=conflict_id, status=conflict["status"])
    p = await _picture(g, conflict, keep, policy)
    stamps = p.snap.stamps()
    token = _token(p, stamps)
    if conflict["revision"] != conflict_revision or token != impact_token_seen:
        raise StaleCorrectionPreview(
            seen={"conflict_revision": conflict_revision, "impact_token": impact_token_seen},
            current={"conflict_revision": conflict["revision"], "impact_token": token})
    now = now_ms()
    if op == "dismiss":
        valid = _valid_rows(conflict, valid_times)
        ok = await store_conflicts.dismiss(g, {
            "conflict_id": conflict_id, "conflict_revision": conflict_revision, "key": key,
            "now": now, "reviewer": reviewer, "reason": reason, "valid": valid,
            "audits": [audit_event("conflict.dismissed", actor, conflict_id,
                                   {"reason": reason, "valid_times": valid}, at=now)]})
    else:
        assert keep is not None and p.loser is not None
        correction_id = new_id()
        loser_ids = [str(x[0]) for x in p.losers]
        raised: list[ConflictRow] = []
        links: list[LinkRow] = []
        if judge is not None:
            kept = await store_claims.statement_keys(g, [keep])
            found = await check_new_claims(
                g, judge, [stored_statement(keep, kept[keep][1], kept[keep][0])],
                exclude=loser_ids, vectors=vectors)
            raised, links = found.rows, found.links
        flags: list[Flag] = [{"id": i, "reason": json.dumps({
            "type": "conflict_resolved", "conflict_id": conflict_id, "correction_id":
            correction_id, "kept_claim_id": keep, "superseded": loser_ids, "reasons": r})}
            for i, r in p.out.flag.items()]
        ok = await store_conflicts.keep(g, {
            **guard_params(stamps), "conflict_id": conflict_id,
            "conflict_revision": conflict_revision,
            "keep_id": keep, "keep_revision": p.keep_revision,
            "loser_key": p.loser["statement_key"], "losers": p.losers, "key": key,
            "now": now,
            "correction": {
                "id": correction_id, "claim_id": p.loser["id"], "reason": reason,
                "reviewer": reviewer,
                "outcome": json.dumps({"flagged": sorted(p.out.flag),
                                       "held": sorted(p.out.hold)})},
            "flags": flags, "holds": sorted(p.out.hold),
            "conflicts": raised, "links": links, "audit_actor": actor,
            "settles": [settle([p.loser["statement_key"] or ""], "resolution", conflict_id,
                               f'Resolved by keeping "{_statement_of(conflict, keep)}"',
                               reviewer, skip=conflict_id)],
            "audits": [audit_event("conflict.resolved", actor, conflict_id, {
                "correction_id": correction_id, "kept_claim_id": keep,
                "superseded": loser_ids, "flagged": sorted(p.out.flag),
                "held": sorted(p.out.hold)}, at=now)]})
    if not ok:
        # The same resolution may have won the race from another process: a repeat.
        again = await store_conflicts.get_conflict(g, conflict_id)
        repeat = await _repeat(g, again, op, key, policy, actor)
        if repeat is not None:
            return "already_applied", repeat
        raise StaleCorrectionPreview(
            seen={"conflict_revision": conflict_revision, "impact_token": impact_token_seen},
            current={"conflict_revision": again["revision"], "conflict_status":
                     again["status"]})
    return "applied", await _result(g, conflict_id, None)


async def _repeat(g: Graph, conflict: ConflictRecord, op: Resolution, key: str,
                  policy: SupportPolicy, actor: str) -> ResolutionResult | None:
    """The result of this same resolution if it was applied before, re-checked."""
    if conflict["status"] == "open":
        return None
    if await store_conflicts.resolution_key_of(g, conflict["id"]) != key:
        return None
    recheck = None
    if op == "keep" and conflict["correction_id"]:
        recheck = await recheck_correction(g, conflict["correction_id"], policy=policy,
                                           actor=actor)
    return await _result(g, conflict["id"], recheck)


async def _result(g: Graph, conflict_id: str,
                  recheck: CorrectionOutcome | None) -> ResolutionResult:
    conflict = await store_conflicts.get_conflict(g, conflict_id)
    result: ResolutionResult = {"conflict": conflict, "correction": None, "kept": None,
                                "superseded": [], "flagged": [], "held": [],
                                "settled": await store_conflicts.settled_by(g, conflict_id)}
    if conflict["correction_id"]:
        corr = await store_corrections.get_correction(g, conflict["correction_id"])
        result["correction"] = corr
        if corr["replacement_id"]:
            result["kept"] = await claims.get_claim(g, corr["replacement_id"])
        result["superseded"] = sorted([corr["claim_id"], *corr["also_corrected"]])
        outcome: CorrectionOutcome = corr.get("outcome") or {"flagged": [], "held": []}
        result["flagged"] = outcome["flagged"]
        result["held"] = outcome["held"]
    if recheck is not None:
        result["recheck"] = recheck
    return result

