"""Sources that disagree are a conflict, not two facts (docs/rules.md, rule 9).

Detection (checks.py): when claims are added, each new claim that could contradict anything
is compared with its top neighbours by search, by words and by meaning, never with the whole
graph; the judge decides each pair, and the conflicts are written in the same query as the
claims.

A conflict is a dispute over one fact (disputes.py): the claims that give it different
values, a side per value. Nothing is invalidated automatically. A reviewer resolves a
conflict the way a correction is applied, through the same machinery (the region snapshot,
the relabel, the impact token and one guarded write): keep one value, and every current
claim of every other side's statements is superseded by the kept claim, or dismiss it, and
no pair of its claims is raised again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from afterhack.errors import (
    ClaimNotFound,
    ClaimNotInConflict,
    ClaimSuperseded,
    ConflictClosed,
    InvalidRequest,
    StaleCorrectionPreview,
)
from afterhack.memory import checks, claims, disputes, paging
from afterhack.memory.checks import check_new_claims, stored_statement
from afterhack.memory.disputes import Placement
from afterhack.memory.repair import Seen, describe, recheck_correction
from afterhack.memory.scope import Scope
from afterhack.model.claims import ClaimRow
from afterhack.model.conflicts import (
    ConflictRecord,
    ResolutionPreview,
    ResolutionResult,
    StoredConflict,
    Superseded,
    ValidTimeInput,
    ValidTimeRow,
)
from afterhack.model.corrections import CorrectionOutcome
from afterhack.model.pages import ConflictList
from afterhack.model.region import Snapshot, Stamps
from afterhack.model.vocab import (
    CONFLICT_STATUSES,
    CURRENT_CLAIM,
    ApplyStatus,
    ConflictStatus,
    Resolution,
    SupportPolicy,
)
from afterhack.model.writes import ConflictRow, Flag, Settle
from afterhack.records.audit import audit_event
from afterhack.records.clock import now_ms
from afterhack.records.conflicts import settle
from afterhack.records.flags import flags
from afterhack.records.ids import new_id
from afterhack.rules.support import Outcome, relabel
from afterhack.store import claims as store_claims
from afterhack.store import conflicts as store_conflicts
from afterhack.store import corrections as store_corrections
from afterhack.store import repair as store_repair
from afterhack.store.client import Graph, concurrently
from afterhack.store.conflicts import DismissWrite, KeepWrite
from afterhack.store.guard import guard_params
from afterhack.store.source_params import LoserRow, NewClaim, PolicyRow, PolicyWrite, RetireRow
from afterhack.temporal.moments import parse_time

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
                "policy": self.rows, "policy_losers": self.losers, "settles": self.settles,
                "flags": flags, "holds": sorted(self.out.hold)}


POLICY_REVIEWER = "policy"


async def plan_latest_wins(g: Graph, found: checks.Checks, new: Sequence[NewClaim], *,
                           policy: SupportPolicy) -> PolicyPlan:
    """Of the pairs new claims disagree with, those where the new claim is the newer
    statement of the same speaker: the older statement is superseded by it at once, recorded
    as a supersede correction whose reviewer is ``policy``, with the relabel of rule 5; the
    conflict over their fact is resolved by keeping the newer claim when no other value of
    it is held any more. Only when every current claim of the older statement was said by
    that speaker: the policy speaks for a speaker's own words, never for another source's
    that happen to state the same."""
    plan = PolicyPlan()
    by_id = {c["id"]: c for c in new}
    order = {c["id"]: i for i, c in enumerate(new)}
    # The newest statement first: what it supersedes is not superseded again by an older one.
    wanted = sorted((r for r in found.rows if r["same_speaker"] and r["newer_id"] == r["new_id"]
                     and (r["new_id"], r["old_id"]) in found.placed.target_of),
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
    plan.snap = await store_repair.load_region(
        g, await store_repair.decisions_using(g, sorted(taken)))
    plan.out = relabel(plan.snap, refuted={h["id"]: h["source_id"] for _, ls in rows
                                           for h in ls if h["id"] not in by_id},
                       policy=policy)
    _supersede(plan, rows, by_id, old_keys, found.placed)
    return plan


def _supersede(plan: PolicyPlan, rows: Sequence[tuple[ConflictRow, list[store_conflicts.Holder]]],
               by_id: Mapping[str, NewClaim], old_keys: Mapping[str, str],
               placed: Placement) -> None:
    """The policy's supersessions into ``plan``, one per pair in ``rows`` with the claims
    it supersedes: each a correction by ``policy`` keeping the newer claim, the claims
    the write supersedes (those already stored are guarded), what it settles, its audit."""
    outcome = json.dumps({"flagged": sorted(plan.out.flag), "held": sorted(plan.out.hold)})
    raised = {d["id"] for d in placed.disputes}
    closing: set[str] = set()
    for r, losers in rows:
        correction_id = new_id()
        ids = [h["id"] for h in losers]
        conflict_id, conflict_key = placed.target_of[(r["new_id"], r["old_id"])]
        plan.rows.append({
            "conflict_id": conflict_id, "conflict_key": conflict_key,
            "before": conflict_id not in raised, "may_close": conflict_id not in closing,
            "keep_id": r["new_id"],
            "correction_id": correction_id,
            "resolution_key": resolution_key(conflict_id, "keep", r["new_id"], 1),
            "loser_id": r["old_id"], "losers": ids,
            "reason": "A newer statement by the same speaker (the workspace takes the "
                      "latest).",
            "outcome": outcome, "audit_id": new_id(),
            "audit_detail": json.dumps({
                "correction_id": correction_id, "kept_claim_id": r["new_id"],
                "superseded": ids, "reviewer": POLICY_REVIEWER, "updates": "latest_wins",
                "flagged": sorted(plan.out.flag), "held": sorted(plan.out.hold)},
                ensure_ascii=False, sort_keys=True)})
        closing.add(conflict_id)
        # The guard checks the stored ones; a claim of this batch does not exist yet.
        plan.losers += [{"id": h["id"], "revision": h["revision"], "n_users": h["n_users"]}
                        for h in losers if h["id"] not in by_id]
        plan.report += [RetireRow(id=h["id"], revision=h["revision"], n_users=h["n_users"],
                                  status="superseded", superseded_by=r["new_id"],
                                  statement=h["statement"], statement_key=h["statement_key"])
                        for h in losers]
        plan.settles.append(settle(
            [old_keys[r["old_id"]]], "resolution", conflict_id,
            f'Resolved by keeping "{by_id[r["new_id"]]["statement"]}" (the workspace takes a '
            "speaker's latest statement)", POLICY_REVIEWER, skip=conflict_id))


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
    return {"items": disputes.records(rows[:limit]), "total": total,
            "next_cursor": paging.next_after("conflicts", rows, limit)}


async def get_conflict(g: Graph, conflict_id: str, *,
                       as_of: int | None = None) -> ConflictRecord:
    return await disputes.get_conflict(g, conflict_id, as_of)


@dataclass(frozen=True)
class Disagreement:
    """An open conflict two or more of whose values are in a run's evidence."""

    conflict_id: str
    claim_ids: tuple[str, ...]  # the evidence's claims on any of its sides


async def disagreements(g: Graph, evidence: Sequence[str]) -> list[Disagreement]:
    """The open conflicts at least two sides of which have a current claim in
    ``evidence``."""
    if not evidence:
        return []
    links = await store_conflicts.open_conflicts_of(g, list(dict.fromkeys(evidence)))
    sides: dict[str, dict[str, list[str]]] = {}
    for x in links:
        sides.setdefault(x["conflict_id"], {}).setdefault(x["side"], []).append(x["claim_id"])
    out = []
    for cid, by_side in sorted(sides.items()):
        if len(by_side) >= 2:
            ids = tuple(sorted(i for ids in by_side.values() for i in ids))
            out.append(Disagreement(cid, ids))
    return out


# --- Resolution ------------------------------------------------------------------------


@dataclass
class _Picture:
    conflict: StoredConflict
    keep_id: str | None
    keep_statement: str = ""
    loser_id: str | None = None  # a claim of a losing side the conflict names
    loser_keys: list[str] = field(default_factory=list)  # every other side's statements
    # [id, revision, users] of every current claim of those statements
    losers: list[list[str | int]] = field(default_factory=list)
    snap: Snapshot = field(default_factory=lambda: Snapshot({}, {}))
    out: Outcome = field(default_factory=Outcome)
    keep_revision: int | None = None


async def _picture(g: Graph, conflict: StoredConflict, keep: str | None,
                   policy: SupportPolicy) -> _Picture:
    if keep is None:
        return _Picture(conflict, None)
    kept = await store_claims.find_claims(g, [keep])
    if keep not in kept:
        raise ClaimNotFound(keep)
    side_of = {c["statement_key"]: c["side"] for c in conflict["claims"]}
    keys = await store_claims.statement_keys(g, [keep])
    keep_key = keys[keep][0]
    if keep_key not in side_of:
        raise ClaimNotInConflict(claim_id=keep, conflict_id=conflict["id"])
    if kept[keep]["status"] not in CURRENT_CLAIM:
        # A resolution that closed the conflict since it was read may be what superseded
        # the claim to keep: then the closing is the reason to give.
        now = await store_conflicts.get_conflict(g, conflict["id"])
        if now["status"] != "open":
            raise ConflictClosed(conflict_id=conflict["id"], status=now["status"])
        raise ClaimSuperseded(f"The claim to keep is {kept[keep]['status']}.", claim_id=keep,
                              status=kept[keep]["status"])
    others = [c for c in conflict["claims"] if c["side"] != side_of[keep_key]]
    p = _Picture(conflict, keep, keep_statement=kept[keep]["statement"],
                 loser_keys=sorted({c["statement_key"] for c in others}),
                 keep_revision=kept[keep]["revision"])
    held = await store_repair.statements_region(g, p.loser_keys, p.snap)
    p.out = relabel(p.snap, refuted={c["id"]: c["source_id"] for c in held}, policy=policy)
    p.losers = sorted([c["id"], c["revision"], c["n_users"]] for c in held)
    # The correction names a claim it supersedes: the conflict's own, where one is current.
    losing = {c["id"] for c in held}
    p.loser_id = next((c["id"] for c in others if c["id"] in losing),
                      str(p.losers[0][0]) if p.losers else None)
    return p


def _token(p: _Picture, stamps: Stamps) -> str:
    """A digest of everything the resolution's relabel and guard read."""
    payload = [[p.conflict["id"], p.conflict["revision"], p.conflict["status"]],
               [p.keep_id, p.keep_revision], p.losers,
               [list(d) for d in stamps.decisions], stamps.actions, stamps.claims,
               stamps.upstream]
    return "imp_" + hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:32]


def _valid_rows(conflict: StoredConflict,
                valid_times: Sequence[ValidTimeInput]) -> list[ValidTimeRow]:
    """The valid times a dismissal writes, by statement: each names a claim of one side,
    and every statement of that side takes it."""
    side_of = {c["id"]: c["side"] for c in conflict["claims"]}
    keys_of: dict[str, list[str]] = {}
    for c in conflict["claims"]:
        keys_of.setdefault(c["side"], []).append(c["statement_key"])
    rows: list[ValidTimeRow] = []
    given: set[str] = set()
    for v in valid_times:
        side = side_of.get(v["claim_id"])
        if side is None:
            raise ClaimNotInConflict(claim_id=v["claim_id"], conflict_id=conflict["id"])
        if side in given:
            raise InvalidRequest("Give each side's valid time once.", claim_id=v["claim_id"])
        given.add(side)
        begin = parse_time(v["valid_from"], "valid_from")
        end = parse_time(v["valid_until"], "valid_until")
        if begin is not None and end is not None and end <= begin:
            raise InvalidRequest("valid_until must come after valid_from.",
                                 claim_id=v["claim_id"])
        rows += [{"key": key, "valid_from": begin, "valid_until": end}
                 for key in sorted(set(keys_of[side]))]
    return rows


def resolution_key(conflict_id: str, op: Resolution, keep: str | None,
                   conflict_revision: int) -> str:
    raw = json.dumps([conflict_id, op, keep, conflict_revision]).encode()
    return "res_" + hashlib.sha256(raw).hexdigest()[:32]


@dataclass(frozen=True)
class Choice:
    """A reviewer's choice on a conflict: keep one value (``keep``: a claim of its side),
    or ``dismiss`` it (every value holds; with ``valid_times``, each side at its own
    time)."""

    keep: str | None = None
    dismiss: bool = False
    reason: str | None = None
    valid_times: Sequence[ValidTimeInput] = ()

    @property
    def op(self) -> Resolution:
        if (self.keep is None) == (not self.dismiss):
            raise InvalidRequest("Send either keep (a claim id) or dismiss: true.")
        return "keep" if self.keep is not None else "dismiss"


def _superseded(c: ClaimRow) -> Superseded:
    """A claim a resolution supersedes, with where it comes from: its source, or for a
    reviewer's claim the correction that wrote it (a claim row's source_id is either)."""
    reviewer = c["confidence_kind"] == "human_correction"
    return {"claim_id": c["id"], "revision": c["revision"], "statement": c["statement"],
            "source_id": None if reviewer else c["source_id"],
            "correction_id": c["source_id"] if reviewer else None}


async def preview_resolution(ws: Scope, conflict_id: str, choice: Choice) -> ResolutionPreview:
    """What this resolution would do now, shaped like a correction preview, with the
    revisions apply must send back."""
    g = ws.graph
    op = choice.op
    conflict = await store_conflicts.get_conflict(g, conflict_id)
    if conflict["status"] != "open":
        raise ConflictClosed(conflict_id=conflict_id, status=conflict["status"])
    p = await _picture(g, conflict, choice.keep, ws.policy)
    found = await store_claims.find_claims(g, [str(x[0]) for x in p.losers])
    superseded = [_superseded(found[str(x[0])]) for x in p.losers]
    return {
        "conflict": disputes.record(conflict),
        "resolution": op,
        "keep": choice.keep,
        "supersede": superseded,
        **await describe(g, p.snap, p.out),
        "revisions": {"conflict_revision": conflict["revision"],
                      "keep_revision": p.keep_revision,
                      "impact_token": _token(p, p.snap.stamps())},
    }


async def resolve(ws: Scope, conflict_id: str, choice: Choice, seen: Seen,
                  reviewer: str | None = None) -> tuple[ApplyStatus, ResolutionResult]:
    """Apply a resolution previewed with these revisions. Keeping a value supersedes the
    current claims of every other side's statements by the kept claim, closes (settles)
    every other open conflict that leaves with one value held, and checks the kept claim
    against its nearest current claims like a new one, in the same guarded write. The same
    resolution again answers ``already_applied``."""
    op = choice.op
    if choice.valid_times and op != "dismiss":
        raise InvalidRequest("valid_times go with dismiss: every side holds, each at its "
                             "own time.")
    g = ws.graph
    key = resolution_key(conflict_id, op, choice.keep, seen.revision)
    conflict = await store_conflicts.get_conflict(g, conflict_id)
    repeat = await _repeat(ws, conflict, op, key)
    if repeat is not None:
        return "already_applied", repeat
    if conflict["status"] != "open":
        raise ConflictClosed(conflict_id=conflict_id, status=conflict["status"])
    p = await _picture(g, conflict, choice.keep, ws.policy)
    token = _token(p, p.snap.stamps())
    if conflict["revision"] != seen.revision or token != seen.impact_token:
        raise StaleCorrectionPreview(
            seen={"conflict_revision": seen.revision, "impact_token": seen.impact_token},
            current={"conflict_revision": conflict["revision"], "impact_token": token})
    who = reviewer or ws.actor
    if op == "dismiss":
        ok = await store_conflicts.dismiss(g, dismiss_write(conflict, choice, key, who,
                                                            ws.actor))
    else:
        assert choice.keep is not None
        found = checks.Checks()
        if ws.judge is not None:
            kept = await store_claims.statement_keys(g, [choice.keep])
            found = await check_new_claims(
                g, ws.judge, [stored_statement(choice.keep, kept[choice.keep][1],
                                               kept[choice.keep][0])],
                exclude=[str(x[0]) for x in p.losers], vectors=ws.vectors)
        ok = await store_conflicts.keep(g, keep_write(p, Ruling(choice, key, who), found,
                                                      ws.actor))
    if ok:
        return "applied", await _result(g, conflict_id, None)
    # The same resolution may have won the race from another process: a repeat.
    again = await store_conflicts.get_conflict(g, conflict_id)
    repeat = await _repeat(ws, again, op, key)
    if repeat is not None:
        return "already_applied", repeat
    raise StaleCorrectionPreview(
        seen={"conflict_revision": seen.revision, "impact_token": seen.impact_token},
        current={"conflict_revision": again["revision"], "conflict_status": again["status"]})


@dataclass(frozen=True)
class Ruling:
    """A resolution as it is written: the reviewer's choice, its key, who decided."""

    choice: Choice
    key: str
    reviewer: str


def dismiss_write(conflict: StoredConflict, choice: Choice, key: str, reviewer: str,
                  actor: str) -> DismissWrite:
    """The write of a dismissal: the conflict closed for good, each side's valid time."""
    now = now_ms()
    valid = _valid_rows(conflict, choice.valid_times)
    return {"conflict_id": conflict["id"], "conflict_revision": conflict["revision"],
            "key": key, "now": now, "reviewer": reviewer, "reason": choice.reason,
            "valid": valid,
            "audits": [audit_event("conflict.dismissed", actor, conflict["id"],
                                   {"reason": choice.reason, "valid_times": valid}, at=now)]}


def keep_write(p: _Picture, ruling: Ruling, found: checks.Checks, actor: str) -> KeepWrite:
    """The one guarded write of keeping a value: every other side's statements' claims
    superseded by the kept one, the correction that records it, the kept claim's own
    conflicts, the conflicts it settles, the flags and holds of the relabel, and the audit
    event."""
    keep, conflict = ruling.choice.keep, p.conflict
    assert keep is not None and p.loser_id is not None
    conflict_id = conflict["id"]
    correction_id = new_id()
    loser_ids = [str(x[0]) for x in p.losers]
    now = now_ms()
    return {
        **guard_params(p.snap.stamps()), "conflict_id": conflict_id,
        "conflict_revision": conflict["revision"],
        "keep_id": keep, "keep_revision": p.keep_revision,
        "loser_keys": p.loser_keys, "losers": p.losers, "key": ruling.key,
        "now": now,
        "correction": {
            "id": correction_id, "claim_id": p.loser_id, "reason": ruling.choice.reason,
            "reviewer": ruling.reviewer,
            "outcome": json.dumps({"flagged": sorted(p.out.flag), "held": sorted(p.out.hold)})},
        "flags": flags(p.out.flag, type="conflict_resolved", conflict_id=conflict_id,
                       correction_id=correction_id, kept_claim_id=keep, superseded=loser_ids),
        "holds": sorted(p.out.hold),
        **found.writes(), "audit_actor": actor,
        "settles": [settle(p.loser_keys, "resolution", conflict_id,
                           f'Resolved by keeping "{p.keep_statement}"',
                           ruling.reviewer, skip=conflict_id)],
        "audits": [audit_event("conflict.resolved", actor, conflict_id, {
            "correction_id": correction_id, "kept_claim_id": keep,
            "superseded": loser_ids, "flagged": sorted(p.out.flag),
            "held": sorted(p.out.hold)}, at=now)]}


async def _repeat(ws: Scope, conflict: StoredConflict, op: Resolution,
                  key: str) -> ResolutionResult | None:
    """The result of this same resolution if it was applied before, re-checked."""
    if conflict["status"] == "open":
        return None
    if await store_conflicts.resolution_key_of(ws.graph, conflict["id"]) != key:
        return None
    recheck = None
    if op == "keep" and conflict["correction_id"]:
        recheck = await recheck_correction(ws, conflict["correction_id"])
    return await _result(ws.graph, conflict["id"], recheck)


async def _result(g: Graph, conflict_id: str,
                  recheck: CorrectionOutcome | None) -> ResolutionResult:
    conflict = await disputes.get_conflict(g, conflict_id)
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

