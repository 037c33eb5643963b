"""Conflicts between claims: raised with the claims that cause them, listed, resolved.

A Conflict joins two claims (``BETWEEN``) that say different things about the same subject.
It is a conflict between two statements: its ``key`` is made from both statement keys, so
the same pair is raised once however many copies of either statement are ingested, and a
claim is in every conflict some claim with its statement key is in. Raising happens inside
the query that writes the new claims (``RAISE``); resolving is one guarded query, like a
correction's apply. Reads are taken at a moment (store/moment.py): now, or as of a time,
when a conflict raised by then shows the status it had then and its claims theirs.
"""

from __future__ import annotations

from functools import cache
from typing import TypedDict

from afterhack.errors import ConflictNotFound
from afterhack.model.claims import ClaimConflictView, OtherSide
from afterhack.model.conflicts import ConflictClaim, ConflictRecord, SettledBy, ValidTimeRow
from afterhack.model.pages import After
from afterhack.model.vocab import SETTLED_KINDS, ConflictStatus, as_word
from afterhack.model.writes import AuditEvent, ConflictRow, LinkRow, Repair, Settle
from afterhack.store.audit import CREATE_AUDITS
from afterhack.store.client import Graph, Row
from afterhack.store.cypher import CURRENT, RETIRED, cypher_list
from afterhack.store.guard import FLAG_AND_HOLD, GUARD, GuardParams
from afterhack.store.history import born, change
from afterhack.store.keyset import after_params
from afterhack.store.moment import At, Moment, both, where
from afterhack.store.rows import of

# Appended to a query that has just created claims (ingest.py): each row of $conflicts
# becomes a Conflict between a new claim and a current one unless that pair of statements
# was raised before (whatever became of it: a dismissed pair is never raised again) or one
# of the two is no longer current (a new claim can be born superseded, a re-ingested
# mistake; the old one may have been corrected since it was found). Returns $raised.
RAISE = """
CALL {
  UNWIND $conflicts AS x
  MATCH (na:Node {id: x.new_id}), (ob:Node {id: x.old_id})
  WHERE na:Claim AND ob:Claim
    AND na.status IN ['proposed', 'accepted'] AND ob.status IN ['proposed', 'accepted']
  OPTIONAL MATCH (seen:Node {key: x.key}) WHERE seen:Conflict
  WITH x, na, ob, seen WHERE seen IS NULL
  CREATE (k:Conflict:Node {id: x.id, key: x.key, """ + born("'open'") + """, kind: x.kind,
      reason: x.reason, detected_by: x.detected_by, revision: 1, created_at: $now,
      newer_claim_id: x.newer_id, same_speaker: x.same_speaker})
  CREATE (k)-[:BETWEEN]->(ob), (k)-[:BETWEEN]->(na)
  CREATE (:AuditEvent:Node {id: x.audit_id, kind: 'conflict.raised', actor: $audit_actor,
      at: $now, subject_id: x.id, detail: x.audit_detail})
  RETURN collect(k.id) AS raised
}
"""

# Appended beside RAISE: each row of $links becomes a SAME_FACT edge from the new claim to
# the one it restates in other words (once: a pair checked again adds none), while both are
# current. A correction's preview reads them to list what states its fact in other words.
LINK = """
CALL {
  UNWIND $links AS l
  MATCH (ln:Node {id: l.new_id}), (lo:Node {id: l.old_id})
  WHERE ln:Claim AND lo:Claim AND ln.status IN ['proposed', 'accepted']
    AND lo.status IN ['proposed', 'accepted']
  MERGE (ln)-[:SAME_FACT]->(lo)
  RETURN count(*) AS n_linked
}
"""


class RaiseWrite(TypedDict):
    conflicts: list[ConflictRow]
    links: list[LinkRow]
    now: int
    audit_actor: str
    audits: list[AuditEvent]


async def raise_conflicts(g: Graph, p: RaiseWrite) -> list[str]:
    """Raise conflicts found after the claims were written (by meaning, as the worker
    embeds them), with their audit events, in one write; the ids raised (a pair raised
    meanwhile, or a claim no longer current, raises nothing)."""
    rows = await g.write(RAISE + "WITH raised " + LINK + "WITH raised " + CREATE_AUDITS
                         + " RETURN raised", p)
    return [str(i) for i in rows.scalar() or []]


# Appended to a write that supersedes or retires claims, after it has: for each of
# $settles, each open conflict one of whose statements (its keys) has no current claim left
# is closed as resolved, naming what settled it, with an audit event each; in the same
# query, so no conflict is left open against a statement nobody holds any more. Returns
# $settled (their ids).
SETTLE = """
CALL {
  UNWIND $settles AS st
  UNWIND st.keys AS sk
  MATCH (sc:Node {statement_key: sk})<-[:BETWEEN]-(sx:Conflict)
  WHERE sc:Claim AND sx.status = 'open' AND sx.id <> st.skip
  WITH DISTINCT st, sx, sk
  OPTIONAL MATCH (live:Node {statement_key: sk})
  WHERE live:Claim AND live.status IN """ + CURRENT + """
  WITH st, sx, sk, count(live) AS n_live
  WHERE n_live = 0
  WITH sx, collect(st)[0] AS st
  SET """ + change("sx", "'resolved'") + """, sx.revision = sx.revision + 1,
      sx.resolved_at = $now, sx.resolved_by = st.actor, sx.settled_kind = st.kind,
      sx.settled_id = st.id, sx.settled_note = st.note
  CREATE (:AuditEvent:Node {id: randomUUID(), kind: 'conflict.settled', actor: st.actor,
      at: $now, subject_id: sx.id, detail: st.detail})
  RETURN collect(sx.id) AS settled
}
"""


async def settled_by(g: Graph, by_id: str) -> list[str]:
    """The conflicts that what has this id settled."""
    rows = await g.read("MATCH (k:Node {status: 'resolved'}) WHERE k:Conflict "
                        "AND k.settled_id = $id RETURN k.id AS id ORDER BY k.created_at, k.id",
                        {"id": by_id})
    return [str(r["id"]) for r in rows]


def open_conflict_ids(at: At) -> str:
    """The ids of the open conflicts a claim (bound as ``c``) is in at the moment, through
    its statement key: a copy of a statement is in the conflicts of the claim that raised
    them (as of a time, through the copies that existed then). One id per claim of the
    conflict with that key: callers keep each id once."""
    return ("[(oc_t:Node {statement_key: c.statement_key})<-[:BETWEEN]-(oc_k:Conflict) "
            f"WHERE oc_t:Claim{both(at.exists('oc_t'))} AND {at.status_in('oc_k', _OPEN)} "
            "| oc_k.id]")


class Said(TypedDict):
    """When a claim was said (or, for a document's claim, added) and by whom."""

    id: str
    said_by: str | None
    said_at: int | None
    created_at: int


class Holder(TypedDict):
    """A current claim of a statement, with what a policy supersession must know of it."""

    id: str
    statement_key: str
    statement: str
    revision: int
    n_users: int
    said_by: str | None
    source_id: str


_SAID = of(Said)
_HOLDER = of(Holder)


async def said(g: Graph, ids: list[str]) -> dict[str, Said]:
    if not ids:
        return {}
    rows = await g.read("MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
                        "RETURN c.id AS id, c.said_by AS said_by, c.said_at AS said_at, "
                        "c.created_at AS created_at", {"ids": ids})
    return {r["id"]: r for r in _SAID.all(rows)}


async def holders(g: Graph, keys: list[str]) -> list[Holder]:
    """The current claims of these statements."""
    if not keys:
        return []
    rows = await g.read(
        "UNWIND $keys AS k MATCH (c:Node {statement_key: k}) "
        f"WHERE c:Claim AND c.status IN {CURRENT} "
        "RETURN c.id AS id, c.statement_key AS statement_key, c.statement AS statement, "
        "c.revision AS revision, size([(c)<-[u:USED_CLAIM]-(:Decision) | u]) AS n_users, "
        "c.said_by AS said_by, c.source_id AS source_id ORDER BY c.id", {"keys": keys})
    return _HOLDER.all(rows)


async def corrected_keys(g: Graph, keys: list[str]) -> set[str]:
    """Which of these statements a correction (or a resolution) retired: a new claim of
    one is written retired (store/sources.py), so it can supersede nothing."""
    if not keys:
        return set()
    rows = await g.read(
        "UNWIND $keys AS k MATCH (c:Node {statement_key: k}) "
        f"WHERE c:Claim AND c.status IN {RETIRED} AND (c)<-[:CORRECTS]-(:Correction) "
        "RETURN DISTINCT k AS key", {"keys": keys})
    return {r["key"] for r in rows}


class ClaimConflict(TypedDict):
    claim_id: str
    conflict_id: str
    side_key: str


_OPEN = cypher_list(["open"])
_CONFLICT_CLAIM = of(ConflictClaim)
_CONFLICT = of(ConflictRecord)
_CLAIM_CONFLICT = of(ClaimConflict)
_CLAIM_CONFLICT_VIEW = of(ClaimConflictView)
_OTHER_SIDE = of(OtherSide)


@cache
def _with_claims(at: At) -> str:
    """Continues a query that has bound a conflict ``k`` and its status then ``st``: the
    conflict with its claims, each with its source."""
    return f"""
MATCH (k)-[:BETWEEN]->(c:Claim)
OPTIONAL MATCH (c)-[:SUPPORTED_BY]->(:SourceFragment)<-[:HAS_FRAGMENT]-(v:SourceVersion)
  <-[:HAS_VERSION]-(s:Source)
WITH k, st, c, v, s ORDER BY c.created_at, c.id
RETURN k {{.id, .key, .kind, .reason, .detected_by, .revision, .created_at, .resolved_at,
  .resolved_by, .resolution, .kept_claim_id, .correction_id, .newer_claim_id,
  .same_speaker, .settled_kind, .settled_id, .settled_note}} AS k, st,
  collect({{id: c.id, statement: c.statement, statement_key: c.statement_key,
    status: {at.status('c')}, revision: c.revision, evidence_quote: c.evidence_quote,
    source_id: s.id, source_title: s.title,
    correction_id: CASE WHEN c.confidence_kind = 'human_correction' THEN c.source_id END,
    version: v.version, created_at: c.created_at, source_added_at: v.created_at,
    said_by: c.said_by, said_at: c.said_at}}) AS claims"""


def _record(row: Row) -> ConflictRecord:
    record = dict(row["k"])
    record["status"] = row["st"]
    kind, by, note = (record.pop("settled_kind"), record.pop("settled_id"),
                      record.pop("settled_note"))
    record["settled_by"] = (None if kind is None else SettledBy(
        kind=as_word(SETTLED_KINDS, kind), id=str(by), note=str(note)))
    if row["st"] == "open":
        # Open at the moment: a resolution (or what settled it) since did not exist yet.
        record.update(resolved_at=None, resolved_by=None, resolution=None, kept_claim_id=None,
                      correction_id=None, settled_by=None)
    record["claims"] = _CONFLICT_CLAIM.all(row["claims"])
    return _CONFLICT.one(record)


@cache
def _list(at: At) -> str:
    return (f"MATCH (k:Conflict){where(at.exists('k'))} "
            f"WITH k, {at.status('k')} AS st WHERE ($status IS NULL OR st = $status) "
            "AND ($at_after IS NULL OR k.created_at < $at_after "
            "OR (k.created_at = $at_after AND k.id > $id_after)) "
            "WITH k, st ORDER BY k.created_at DESC, k.id SKIP $offset LIMIT $limit"
            + _with_claims(at) + " ORDER BY k.created_at DESC, k.id")


async def list_conflicts(g: Graph, *, status: ConflictStatus | None, limit: int,
                         offset: int = 0, after: After | None = None,
                         as_of: int | None = None) -> list[ConflictRecord]:
    """Newest first, after a position (paging.py) or past ``offset``; as of a time, those
    raised by then, each with its status then."""
    m = Moment(as_of)
    rows = await g.read(_list(m.at), m.params(status=status, limit=limit, offset=offset,
                                             **after_params(after)))
    return [_record(r) for r in rows]


async def count_conflicts(g: Graph, status: ConflictStatus | None) -> int:
    """Conflicts now (with that status): their status is the node's own."""
    rows = await g.read("MATCH (k:Conflict) WHERE $status IS NULL OR k.status = $status "
                        "RETURN count(k) AS n", {"status": status})
    return int(rows.scalar() or 0)


@cache
def _by_ids(at: At) -> str:
    return (f"MATCH (k:Node) WHERE k:Conflict AND k.id IN $ids{both(at.exists('k'))} "
            f"WITH k, {at.status('k')} AS st" + _with_claims(at) + " ORDER BY k.created_at, k.id")


async def get_conflicts(g: Graph, ids: list[str], as_of: int | None = None
                        ) -> list[ConflictRecord]:
    if not ids:
        return []
    m = Moment(as_of)
    return [_record(r) for r in await g.read(_by_ids(m.at), m.params(ids=ids))]


async def get_conflict(g: Graph, conflict_id: str, as_of: int | None = None) -> ConflictRecord:
    found = await get_conflicts(g, [conflict_id], as_of)
    if not found:
        raise ConflictNotFound(conflict_id, None if as_of is None
                               else "No conflict with that id at that time.")
    return found[0]


async def known_keys(g: Graph, keys: list[str]) -> set[str]:
    """Which of these pair keys were raised before (in any status)."""
    if not keys:
        return set()
    rows = await g.read("MATCH (k:Node) WHERE k:Conflict AND k.key IN $keys "
                        "RETURN k.key AS key",
                        {"keys": keys})
    return {r["key"] for r in rows}


# The claims first, then their keys' conflicts: the key is looked up in the index only when
# the claim comes from a WITH and the conditions wait for the next one; otherwise FalkorDB
# starts from every conflict (a condition on k) or joins with every node (no WITH).
_CONFLICTS_OF_CLAIMS = (
    "WITH c MATCH (t:Node {statement_key: c.statement_key})<-[:BETWEEN]-(k:Conflict) "
    "WITH c, t, k WHERE t:Claim")


async def open_conflicts_of(g: Graph, claim_ids: list[str]) -> list[ClaimConflict]:
    """For each claim, the open conflicts it is in (through its statement key)."""
    if not claim_ids:
        return []
    rows = await g.read(
        f"MATCH (c:Node) WHERE c:Claim AND c.id IN $ids {_CONFLICTS_OF_CLAIMS} "
        "AND k.status = 'open' "
        "RETURN DISTINCT c.id AS claim_id, k.id AS conflict_id, c.statement_key AS side_key",
        {"ids": claim_ids})
    return _CLAIM_CONFLICT.all(rows)


@cache
def _of_claim(at: At) -> str:
    return (
        f"MATCH (c:Node {{id:$id}}) WHERE c:Claim {_CONFLICTS_OF_CLAIMS}"
        f"{both(at.exists('t'))} AND {at.status_in('k', _OPEN)} "
        "WITH DISTINCT c, k "
        "MATCH (k)-[:BETWEEN]->(o:Claim) WHERE o.statement_key <> c.statement_key "
        "OPTIONAL MATCH (o)-[:SUPPORTED_BY]->(:SourceFragment)<-[:HAS_FRAGMENT]-"
        "(:SourceVersion)<-[:HAS_VERSION]-(s:Source) "
        "WITH k, o, s ORDER BY o.created_at, o.id "
        "RETURN k.id AS id, k.kind AS kind, k.reason AS reason, "
        "collect({id: o.id, statement: o.statement, "
        f"  status: {at.status('o')}, source_id: s.id, source_title: s.title}}) AS other "
        "ORDER BY k.id")


async def open_conflicts_of_claim(g: Graph, claim_id: str, as_of: int | None = None
                                  ) -> list[ClaimConflictView]:
    """The open conflicts (at the moment) a claim's statement is in, each with the claims
    on the other side (as of a time, those that existed then)."""
    m = Moment(as_of)
    rows = await g.read(_of_claim(m.at), m.params(id=claim_id))
    return [_CLAIM_CONFLICT_VIEW.one({**r, "status": "open", "other": _OTHER_SIDE.all(r["other"])})
            for r in rows]


# The conflict and the claim kept must be exactly as previewed, and the losing statement's
# current claims exactly those previewed ($losers: [id, revision, users], any order).
_RESOLUTION_GUARD = """
CALL {
  MATCH (x:Node {id: $conflict_id})
  WHERE x:Conflict AND x.status = 'open' AND x.revision = $conflict_revision
  RETURN count(x) AS ok_conflict
}
CALL {
  MATCH (kept:Node {id: $keep_id})
  WHERE kept:Claim AND kept.revision = $keep_revision AND kept.status IN ['proposed', 'accepted']
  RETURN count(kept) AS ok_kept
}
CALL {
  MATCH (lc:Node {statement_key: $loser_key})
  WHERE lc:Claim AND lc.status IN ['proposed', 'accepted']
  WITH lc, size([(lc)<-[lu:USED_CLAIM]-(:Decision) | lu]) AS n_lc_users
  RETURN collect([lc.id, lc.revision, n_lc_users]) AS loser_state
}
WITH ok_conflict, ok_kept, loser_state
WHERE ok_conflict = 1 AND ok_kept = 1 AND size(loser_state) = size($losers)
  AND all(x IN loser_state WHERE x IN $losers)
"""

# Keep one side: every current claim of the other statement is superseded by the kept claim
# (its own source fragment is the evidence: no reviewer fragment), a Correction of kind
# 'supersede' records who decided and why, and RESOLVES the conflict.
_KEEP = """
MATCH (x:Node {id: $conflict_id}), (kept:Node {id: $keep_id})
WHERE x:Conflict AND kept:Claim
SET """ + change("x", "'resolved'") + """, x.revision = x.revision + 1, x.resolved_at = $now,
    x.resolved_by = $correction.reviewer, x.resolution = 'keep', x.kept_claim_id = kept.id,
    x.correction_id = $correction.id, x.resolution_key = $key
CREATE (k:Correction:Node {id: $correction.id, claim_id: $correction.claim_id, key: $key,
    statement: kept.statement, reason: $correction.reason, reviewer: $correction.reviewer,
    kind: 'supersede', replacement_id: kept.id, outcome: $correction.outcome,
    created_at: $now})-[:RESOLVES]->(x)
WITH k, kept
CALL {
  WITH k, kept
  UNWIND $losers AS lo
  MATCH (l:Node {id: lo[0]}) WHERE l:Claim
  SET """ + change("l", "'superseded'") + """, l.revision = l.revision + 1
  CREATE (k)-[:CORRECTS]->(l)
  CREATE (kept)-[:SUPERSEDES {reason: 'conflict'}]->(l)
  RETURN count(l) AS n_superseded
}
"""

# Dismiss: both statements hold (another scope, say); the pair is never raised again. When
# they hold at different times, each statement's current claims take the valid time the
# reviewer gave it ($valid: ValidTimeRow).
_DISMISS = """
MATCH (x:Node {id: $conflict_id})
WHERE x:Conflict AND x.status = 'open' AND x.revision = $conflict_revision
SET """ + change("x", "'dismissed'") + """, x.revision = x.revision + 1, x.resolved_at = $now,
    x.resolved_by = $reviewer, x.resolution = 'dismiss', x.dismiss_reason = $reason,
    x.resolution_key = $key
WITH x
CALL {
  WITH x
  UNWIND $valid AS vt
  MATCH (vc:Node {statement_key: vt.key}) WHERE vc:Claim AND vc.status IN """ + CURRENT + """
  SET vc.valid_from = vt.valid_from, vc.valid_until = vt.valid_until,
      vc.revision = vc.revision + 1
  RETURN count(vc) AS n_valid
}
WITH x
"""


class KeptCorrection(TypedDict):
    """The correction of kind 'supersede' a resolution that keeps one side writes."""

    id: str
    claim_id: str  # the losing side's claim the conflict named
    reason: str | None
    reviewer: str
    outcome: str  # JSON: what it flagged and held


class KeepWrite(GuardParams, Repair):
    """A resolution keeping one side: guarded on the conflict, the kept claim, the losing
    statement's current claims ($losers: [id, revision, users]) and the region."""

    conflict_id: str
    conflict_revision: int
    keep_id: str
    keep_revision: int | None
    loser_key: str | None
    losers: list[list[str | int]]
    key: str  # the resolution's key (a repeat is recognised by it)
    now: int
    correction: KeptCorrection
    conflicts: list[ConflictRow]  # the kept claim's own, checked like a new claim's
    links: list[LinkRow]
    audit_actor: str
    settles: list[Settle]
    audits: list[AuditEvent]


class DismissWrite(TypedDict):
    conflict_id: str
    conflict_revision: int
    key: str
    now: int
    reviewer: str
    reason: str | None
    valid: list[ValidTimeRow]
    audits: list[AuditEvent]


async def keep(g: Graph, p: KeepWrite) -> bool:
    """Resolve by keeping one side, in one guarded query: the other conflicts of the losing
    statement settled ($settles), the kept claim's new conflicts raised ($conflicts); False
    when anything moved."""
    rows = await g.write(
        GUARD + _RESOLUTION_GUARD + _KEEP + "WITH k " + SETTLE + "WITH k, settled " + RAISE
        + "WITH k " + LINK + "WITH k " + FLAG_AND_HOLD + "WITH k " + CREATE_AUDITS
        + " RETURN k.id AS id", p)
    return bool(rows)


async def dismiss(g: Graph, p: DismissWrite) -> bool:
    rows = await g.write(_DISMISS + CREATE_AUDITS + " RETURN x.id AS id", p)
    return bool(rows)


async def resolution_key_of(g: Graph, conflict_id: str) -> str | None:
    rows = await g.read("MATCH (x:Node {id: $id}) WHERE x:Conflict "
                        "RETURN x.resolution_key AS key",
                        {"id": conflict_id})
    value = rows.scalar()
    return None if value is None else str(value)

