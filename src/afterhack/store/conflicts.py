"""Conflicts between claims: a dispute over one fact, raised and joined with the claims that
cause them, listed, resolved.

A Conflict joins the claims that give one fact different values (``BETWEEN``, one claim per
statement; a copy of a statement is in every conflict a claim with its statement key is in).
Each ``BETWEEN`` edge names the side the claim is on (``side``: a value, named by the id of
its first claim) and when it joined (``at``). A new claim that gives the fact a value joins
the open conflict through one edge, whatever the size of the dispute: no write reads its
other claims. Raising and joining happen inside the query that writes the new claims
(``RAISE``); resolving is one guarded query, like a correction's apply. Reads are taken at a
moment (store/moment.py): now, or as of a time, when a conflict raised by then shows the
status it had then, the claims that had joined it by then, and their statuses then.

Pairs raised before conflicts were disputes have edges without ``side`` and ``at``: each of
their claims is its own side, joined when the conflict was raised (conflict_migration.py
joins those over one fact into one at start-up).
"""

from __future__ import annotations

from functools import cache
from typing import TypedDict

from afterhack.errors import ConflictNotFound
from afterhack.model.claims import ClaimConflictView, OtherSide
from afterhack.model.conflicts import ConflictClaim, SettledBy, StoredConflict, ValidTimeRow
from afterhack.model.pages import After
from afterhack.model.vocab import SETTLED_KINDS, ConflictKind, ConflictStatus, as_word
from afterhack.model.writes import AuditEvent, ConflictRow, LinkRow, MemberRow, Repair, Settle
from afterhack.store.audit import CREATE_AUDITS
from afterhack.store.client import Graph, Row
from afterhack.store.cypher import CURRENT, RETIRED, cypher_list
from afterhack.store.guard import FLAG_AND_HOLD, GUARD, GuardParams
from afterhack.store.history import born, change
from afterhack.store.keyset import after_params
from afterhack.store.moment import At, Moment, both, where
from afterhack.store.rows import of


def _side(e: str, c: str) -> str:
    """The side a BETWEEN edge ``e`` to claim ``c`` is on: a pair raised before conflicts
    were disputes has none (each claim its own side, there from the start)."""
    return f"coalesce({e}.side, {c}.id)"


def _joined(at: At, e: str) -> str:
    return at.joined(e)


# Appended to a query that has just created claims (ingest.py). Each row of $conflicts
# becomes a new Conflict over one fact between a new claim and a current one, unless an
# open conflict with its key is there (raised meanwhile) or one of the two is no longer
# current (a new claim can be born superseded, a re-ingested mistake; the old one may have
# been corrected since it was found). Then each row of $members puts a current claim in a
# conflict: the one with its id if open (raised above, or before), else the open one with
# its key; once per claim, on its side. A claim joining a conflict raised before this write
# changes the conflict's revision (a resolution previewed before is stale) and is audited.
# Returns $raised and $joined (the conflicts raised, and those joined that were open
# before).
RAISE = """
CALL {
  UNWIND $conflicts AS x
  MATCH (na:Node {id: x.new_id}), (ob:Node {id: x.old_id})
  WHERE na:Claim AND ob:Claim
    AND na.status IN ['proposed', 'accepted'] AND ob.status IN ['proposed', 'accepted']
  OPTIONAL MATCH (seen:Node {key: x.key}) WHERE seen:Conflict AND seen.status = 'open'
  WITH x, seen WHERE seen IS NULL
  CREATE (k:Conflict:Node {id: x.id, key: x.key, """ + born("'open'") + """, kind: x.kind,
      reason: x.reason, detected_by: x.detected_by, revision: 1, created_at: $now,
      newer_claim_id: x.newer_id, same_speaker: x.same_speaker, n_sides: 0, n_claims: 0})
  CREATE (:AuditEvent:Node {id: x.audit_id, kind: 'conflict.raised', actor: $audit_actor,
      at: $now, subject_id: x.id, detail: x.audit_detail})
  RETURN collect(k.id) AS raised
}
CALL {
  WITH raised
  UNWIND $members AS m
  MATCH (mc:Node {id: m.claim_id})
  WHERE mc:Claim AND mc.status IN ['proposed', 'accepted']
  OPTIONAL MATCH (mi:Node {id: m.conflict_id}) WHERE mi:Conflict AND mi.status = 'open'
  OPTIONAL MATCH (mk:Node {key: m.conflict_key}) WHERE mk:Conflict AND mk.status = 'open'
  WITH raised, m, mc, CASE WHEN mi IS NULL THEN mk ELSE mi END AS mx
  WHERE mx IS NOT NULL
  MERGE (mx)-[me:BETWEEN]->(mc)
  ON CREATE SET me.side = m.side, me.at = $now
  WITH raised, m, mx, me WHERE me.at = $now AND me.side = m.side
  FOREACH (_ IN CASE WHEN mx.id IN raised OR m.audit_id IS NULL THEN [] ELSE [1] END |
    CREATE (:AuditEvent:Node {id: m.audit_id, kind: 'conflict.joined', actor: $audit_actor,
        at: $now, subject_id: mx.id, detail: m.audit_detail}))
  WITH raised, mx, count(m) AS n_in,
       toInteger(sum(CASE WHEN m.new_side THEN 1 ELSE 0 END)) AS n_new, collect(m) AS ms
  SET mx.n_claims = coalesce(mx.n_claims, 2) + n_in,
      mx.n_sides = coalesce(mx.n_sides, 2) + n_new,
      mx.revision = mx.revision + CASE WHEN mx.id IN raised THEN 0 ELSE 1 END,
      mx.newer_claim_id = coalesce(
        last([y IN ms WHERE y.newer_id = y.claim_id | y.claim_id]), mx.newer_claim_id),
      mx.same_speaker = CASE WHEN mx.id IN raised THEN mx.same_speaker
        ELSE reduce(same = mx.same_speaker, y IN ms | same AND y.same_speaker) END
  RETURN collect(CASE WHEN mx.id IN raised THEN null ELSE mx.id END) AS joined
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
    members: list[MemberRow]
    links: list[LinkRow]
    now: int
    audit_actor: str
    audits: list[AuditEvent]


async def raise_conflicts(g: Graph, p: RaiseWrite) -> list[str]:
    """Raise and join conflicts found after the claims were written (by meaning, as the
    worker embeds them), with their audit events, in one write; the ids raised or joined
    (a conflict raised meanwhile takes the members, a claim no longer current joins
    nothing)."""
    rows = await g.write(RAISE + "WITH raised, joined " + LINK + "WITH raised, joined "
                         + CREATE_AUDITS + " RETURN raised + joined AS ids", p)
    return [str(i) for i in rows.scalar() or []]


def live_sides(conflict: str, *, leaving: str | None = None) -> str:
    """A ``CALL {}`` giving ``n_live``: how many of a conflict's sides still hold a current
    claim, counted up to two (whether it is still a dispute). FalkorDB stops reading the
    conflict's claims at the second live side, so a large dispute costs what its first few
    claims cost. ``conflict`` is the conflict's variable; ``leaving``, a parameter listing
    claim ids that no longer count (an erasure's, before it writes)."""
    left = f" AND NOT sl.id IN ${leaving}" if leaving else ""
    return f"""
CALL {{
  WITH {conflict}
  MATCH ({conflict})-[se:BETWEEN]->(sm)
  WITH se, sm
  MATCH (sl:Node {{statement_key: sm.statement_key}})
  WHERE sl:Claim AND sl.status IN {CURRENT}{left}
  WITH DISTINCT {_side("se", "sm")} AS live_side LIMIT 2
  RETURN count(live_side) AS n_live
}}
"""


LIVE_SIDES = live_sides("sx")

# Appended to a write that supersedes or retires claims, after it has: for each of
# $settles, each open conflict a claim of one of its statements (keys) is in is closed as
# resolved, naming what settled it, with an audit event, once fewer than two of its sides
# hold a current claim; in the same query, so no conflict is left open over a fact only one
# value of which anybody still holds. Returns $settled (their ids).
SETTLE = """
CALL {
  UNWIND $settles AS st
  UNWIND st.keys AS sk
  MATCH (sc:Node {statement_key: sk}) WHERE sc:Claim
  WITH st, sc
  MATCH (sc)<-[:BETWEEN]-(sx:Node) WHERE sx:Conflict AND sx.status = 'open'
    AND sx.id <> st.skip
  WITH DISTINCT st, sx
""" + LIVE_SIDES + """
  WITH st, sx, n_live WHERE n_live < 2
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
    its statement key: a copy of a statement is in the conflicts of the claim that joined
    them (as of a time, through the copies that existed then, and the claims that had
    joined then). One id per claim of the conflict with that key: callers keep each id
    once."""
    return ("[(oc_t:Node {statement_key: c.statement_key})<-[oc_e:BETWEEN]-(oc_k:Conflict) "
            f"WHERE oc_t:Claim{both(at.exists('oc_t'), _joined(at, 'oc_e'))} "
            f"AND {at.status_in('oc_k', _OPEN)} | oc_k.id]")


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


class Membership(TypedDict):
    """A statement's place in an open or dismissed conflict: the conflict, and the claim of
    the statement in it with the side that claim is on."""

    key: str  # the statement key
    conflict_id: str
    conflict_key: str
    status: ConflictStatus
    kind: ConflictKind
    member_id: str
    side: str


_MEMBERSHIP = of(Membership)


async def memberships(g: Graph, keys: list[str]) -> list[Membership]:
    """The open and dismissed conflicts the claims of these statements are in, each with
    the side it is on: what a check reads before judging (a pair both in one such conflict
    is not judged again) and places new claims by. Read from the claims of each statement,
    so its cost is the statements', not the conflicts' sizes."""
    if not keys:
        return []
    # The claims first (the WITH): otherwise FalkorDB starts from every open node.
    rows = await g.read(
        "UNWIND $keys AS key MATCH (t:Node {statement_key: key}) WITH key, t "
        "MATCH (t)<-[e:BETWEEN]-(k:Node) "
        "WHERE t:Claim AND k:Conflict AND k.status IN ['open', 'dismissed'] "
        "RETURN key, k.id AS conflict_id, k.key AS conflict_key, k.status AS status, "
        f"k.kind AS kind, t.id AS member_id, {_side('e', 't')} AS side "
        "ORDER BY k.created_at, k.id", {"keys": sorted(set(keys))})
    return _MEMBERSHIP.all(rows)


class ClaimConflict(TypedDict):
    claim_id: str
    conflict_id: str
    side: str  # the side the claim's statement is on


_OPEN = cypher_list(["open"])
_CONFLICT_CLAIM = of(ConflictClaim)
_CONFLICT = of(StoredConflict)
_CLAIM_CONFLICT = of(ClaimConflict)
_CLAIM_CONFLICT_VIEW = of(ClaimConflictView)
_OTHER_SIDE = of(OtherSide)

# What a conflict's claims are read with: each with its source, its side and when it
# joined, from ``e``, ``c``, ``v`` and ``s``.
_HEAD = """k {.id, .key, .kind, .reason, .detected_by, .revision, .created_at, .resolved_at,
  .resolved_by, .resolution, .kept_claim_id, .correction_id, .newer_claim_id,
  .same_speaker, .settled_kind, .settled_id, .settled_note, .n_sides, .n_claims} AS k"""


def _claim_map(at: At) -> str:
    return f"""{{id: c.id, statement: c.statement, statement_key: c.statement_key,
    status: {at.status('c')}, revision: c.revision, evidence_quote: c.evidence_quote,
    source_id: s.id, source_title: s.title,
    correction_id: CASE WHEN c.confidence_kind = 'human_correction' THEN c.source_id END,
    version: v.version, created_at: c.created_at, source_added_at: v.created_at,
    said_by: c.said_by, said_at: c.said_at, side: {_side('e', 'c')},
    joined_at: coalesce(e.at, k.created_at)}}"""


_SOURCE_OF_C = ("OPTIONAL MATCH (c)-[:SUPPORTED_BY]->(:SourceFragment)<-[:HAS_FRAGMENT]-"
                "(v:SourceVersion)<-[:HAS_VERSION]-(s:Source)")


@cache
def _with_claims(at: At) -> str:
    """Continues a query that has bound a conflict ``k`` and its status then ``st``: the
    conflict with every claim that had joined it, each with its source."""
    return f"""
MATCH (k)-[e:BETWEEN]->(c:Claim){where(_joined(at, 'e'))}
{_SOURCE_OF_C}
WITH k, st, e, c, v, s ORDER BY c.created_at, c.id
RETURN {_HEAD}, st, true AS complete, collect({_claim_map(at)}) AS claims"""


def _record(row: Row) -> StoredConflict:
    record = dict(row["k"])
    record["status"] = row["st"]
    record["complete"] = row["complete"]
    kind, by, note = (record.pop("settled_kind"), record.pop("settled_id"),
                      record.pop("settled_note"))
    record["settled_by"] = (None if kind is None else SettledBy(
        kind=as_word(SETTLED_KINDS, kind), id=str(by), note=str(note)))
    if row["st"] == "open":
        # Open at the moment: a resolution (or what settled it) since did not exist yet.
        record.update(resolved_at=None, resolved_by=None, resolution=None, kept_claim_id=None,
                      correction_id=None, settled_by=None)
    claims = _CONFLICT_CLAIM.all(row["claims"])
    record["claims"] = claims
    if row["complete"] or record["n_sides"] is None:
        # As the claims read say (a pair raised before disputes has no counts).
        record["n_sides"] = len({c["side"] for c in claims})
        record["n_claims"] = len(claims)
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
                         as_of: int | None = None) -> list[StoredConflict]:
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
                        ) -> list[StoredConflict]:
    if not ids:
        return []
    m = Moment(as_of)
    return [_record(r) for r in await g.read(_by_ids(m.at), m.params(ids=ids))]


async def get_conflict(g: Graph, conflict_id: str, as_of: int | None = None) -> StoredConflict:
    found = await get_conflicts(g, [conflict_id], as_of)
    if not found:
        raise ConflictNotFound(conflict_id, None if as_of is None
                               else "No conflict with that id at that time.")
    return found[0]


# Each conflict with the claims of the statements asked for: found from those claims (a
# step from each to the conflicts it is in), so the read costs what they cost, not the
# conflict's size.
_TOUCHED = f"""
UNWIND $ids AS kid
MATCH (k:Node {{id: kid}}) WHERE k:Conflict
WITH k
UNWIND $keys AS key
MATCH (c:Node {{statement_key: key}}) WHERE c:Claim
WITH k, c
MATCH (c)<-[e:BETWEEN]-(k)
{_SOURCE_OF_C}
WITH k, e, c, v, s ORDER BY c.created_at, c.id
RETURN {_HEAD}, k.status AS st, false AS complete, collect({_claim_map(Moment().at)}) AS claims
ORDER BY k.created_at, k.id"""


async def touched_conflicts(g: Graph, ids: list[str], keys: list[str]) -> list[StoredConflict]:
    """These conflicts now, each with its claims of these statements only (what a write
    raised or joined, with the claims it was found against): not ``complete`` unless they
    are all of its claims."""
    if not ids or not keys:
        return []
    out = [_record(r) for r in await g.read(_TOUCHED, {"ids": ids, "keys": sorted(set(keys))})]
    for k in out:
        k["complete"] = len(k["claims"]) >= k["n_claims"]
    return out


async def open_conflicts_of(g: Graph, claim_ids: list[str]) -> list[ClaimConflict]:
    """For each claim, the open conflicts it is in (through its statement key), with the
    side its statement is on."""
    if not claim_ids:
        return []
    rows = await g.read(
        "MATCH (c:Node) WHERE c:Claim AND c.id IN $ids "
        "WITH c MATCH (t:Node {statement_key: c.statement_key})<-[e:BETWEEN]-(k:Conflict) "
        "WITH c, t, e, k WHERE t:Claim AND k.status = 'open' "
        f"RETURN DISTINCT c.id AS claim_id, k.id AS conflict_id, {_side('e', 't')} AS side",
        {"ids": claim_ids})
    return _CLAIM_CONFLICT.all(rows)


# How many claims of the other sides a claim read lists per conflict (the newest).
OTHER_SIDES_SHOWN = 20


@cache
def _of_claim(at: At) -> str:
    return (
        "MATCH (c:Node {id:$id}) WHERE c:Claim "
        "WITH c MATCH (t:Node {statement_key: c.statement_key})<-[te:BETWEEN]-(k:Conflict) "
        f"WITH c, t, te, k WHERE t:Claim{both(at.exists('t'), _joined(at, 'te'))} "
        f"AND {at.status_in('k', _OPEN)} "
        f"WITH DISTINCT k, {_side('te', 't')} AS mine "
        "MATCH (k)-[oe:BETWEEN]->(o:Claim) "
        f"WHERE {_side('oe', 'o')} <> mine{both(_joined(at, 'oe'))} "
        f"AND {at.status_in('o', CURRENT)} "
        "OPTIONAL MATCH (o)-[:SUPPORTED_BY]->(:SourceFragment)<-[:HAS_FRAGMENT]-"
        "(:SourceVersion)<-[:HAS_VERSION]-(s:Source) "
        "WITH k, o, s ORDER BY coalesce(o.said_at, o.created_at) DESC, o.id "
        "RETURN k.id AS id, k.kind AS kind, k.reason AS reason, "
        "collect({id: o.id, statement: o.statement, "
        f"  status: {at.status('o')}, source_id: s.id, source_title: s.title}})"
        f"[..{OTHER_SIDES_SHOWN}] AS other "
        "ORDER BY k.id")


async def open_conflicts_of_claim(g: Graph, claim_id: str, as_of: int | None = None
                                  ) -> list[ClaimConflictView]:
    """The open conflicts (at the moment) a claim's statement is in, each with the newest
    current claims of the other sides (as of a time, those that had joined then and were
    current then)."""
    m = Moment(as_of)
    rows = await g.read(_of_claim(m.at), m.params(id=claim_id))
    return [_CLAIM_CONFLICT_VIEW.one({**r, "status": "open", "other": _OTHER_SIDE.all(r["other"])})
            for r in rows]


# The conflict and the claim kept must be exactly as previewed, and the losing statements'
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
  UNWIND $loser_keys AS lk
  MATCH (lc:Node {statement_key: lk})
  WHERE lc:Claim AND lc.status IN ['proposed', 'accepted']
  WITH lc, size([(lc)<-[lu:USED_CLAIM]-(:Decision) | lu]) AS n_lc_users
  RETURN collect([lc.id, lc.revision, n_lc_users]) AS loser_state
}
WITH ok_conflict, ok_kept, loser_state
WHERE ok_conflict = 1 AND ok_kept = 1 AND size(loser_state) = size($losers)
  AND all(x IN loser_state WHERE x IN $losers)
"""

# Keep one value: every current claim of every other side's statements is superseded by
# the kept claim (its own source fragment is the evidence: no reviewer fragment), a
# Correction of kind 'supersede' records who decided and why, and RESOLVES the conflict.
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

# Dismiss: every value holds (another scope, say); no pair of its claims is raised again.
# When they hold at different times, each side's statements' current claims take the valid
# time the reviewer gave that side ($valid: ValidTimeRow).
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
    claim_id: str  # a claim of a losing side the conflict names
    reason: str | None
    reviewer: str
    outcome: str  # JSON: what it flagged and held


class KeepWrite(GuardParams, Repair):
    """A resolution keeping one value: guarded on the conflict, the kept claim, the losing
    statements' current claims ($losers: [id, revision, users]) and the region."""

    conflict_id: str
    conflict_revision: int
    keep_id: str
    keep_revision: int | None
    loser_keys: list[str]
    losers: list[list[str | int]]
    key: str  # the resolution's key (a repeat is recognised by it)
    now: int
    correction: KeptCorrection
    conflicts: list[ConflictRow]  # the kept claim's own, checked like a new claim's
    members: list[MemberRow]
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
    """Resolve by keeping one value, in one guarded query: the other conflicts of the losing
    statements settled ($settles), the kept claim's new conflicts raised or joined
    ($conflicts, $members); False when anything moved."""
    rows = await g.write(
        GUARD + _RESOLUTION_GUARD + _KEEP + "WITH k " + RAISE + "WITH k " + LINK + "WITH k "
        + SETTLE + "WITH k " + FLAG_AND_HOLD + "WITH k " + CREATE_AUDITS
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
