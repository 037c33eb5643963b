"""Pairs raised before conflicts were disputes, joined into one conflict per fact at start-up
(memory/conflict_migration.py plans it): what is read, and the one guarded write per step.

A pair is an open conflict with a claim whose ``BETWEEN`` edge names no side. A step joins
some of them into the conflict they go into (the survivor): its claims are given their
sides, each statement of the others that it lacks joins it on its side (``at`` the step's
time: a read as of before it shows the pairs as they were), and the others close as
resolved, settled ``merged`` into it, with an audit event each. A step writes all of it or,
when any of them is no longer open, nothing; what is left is a pair again for the next
start, so the migration can stop anywhere and be run again.
"""

from __future__ import annotations

from typing import TypedDict

from afterhack.model.vocab import ConflictKind
from afterhack.store.client import Graph
from afterhack.store.history import change
from afterhack.store.rows import of


class OldMember(TypedDict):
    claim_id: str
    key: str
    statement: str
    said_by: str | None
    side: str | None  # None on an edge written before sides


class OpenConflict(TypedDict):
    id: str
    kind: ConflictKind
    created_at: int
    members: list[OldMember]


_OPEN_CONFLICT = of(OpenConflict)

_MEMBERS = ("[(k)-[e:BETWEEN]->(c:Claim) | {claim_id: c.id, key: c.statement_key, "
            "statement: c.statement, said_by: c.said_by, side: e.side}] AS members")


async def pairs(g: Graph) -> list[OpenConflict]:
    """The open conflicts raised as pairs (a claim on an edge without a side)."""
    rows = await g.read(
        "MATCH (k:Node {status: 'open'}) WHERE k:Conflict "
        "WITH k, size([(k)-[e:BETWEEN]->() WHERE e.side IS NULL | e]) AS n_old "
        "WHERE n_old > 0 "
        f"RETURN k.id AS id, k.kind AS kind, k.created_at AS created_at, {_MEMBERS} "
        "ORDER BY k.created_at, k.id")
    return _OPEN_CONFLICT.all(rows)


async def open_of_keys(g: Graph, keys: list[str]) -> list[OpenConflict]:
    """The open conflicts the claims of these statements are in."""
    if not keys:
        return []
    rows = await g.read(
        "UNWIND $keys AS key MATCH (t:Node {statement_key: key}) WITH t "
        "MATCH (t)<-[:BETWEEN]-(k:Node) WHERE t:Claim AND k:Conflict AND k.status = 'open' "
        "WITH DISTINCT k "
        f"RETURN k.id AS id, k.kind AS kind, k.created_at AS created_at, {_MEMBERS} "
        "ORDER BY k.created_at, k.id", {"keys": keys})
    return _OPEN_CONFLICT.all(rows)


class SideRow(TypedDict):
    claim_id: str
    side: str


class MergeWrite(TypedDict):
    """One step: the survivor, the sides of its own claims, the claims joining it, the pairs
    it closes, its counts after the step, and the audit of each."""

    survivor: str
    sides: list[SideRow]  # its own claims whose edge names no side yet
    joins: list[SideRow]  # claims of the statements it lacks, each on its side
    merged: list[str]  # the conflicts it takes in, closed as merged into it
    n_sides: int
    n_claims: int
    now: int
    actor: str
    note: str
    audit_id: str
    audit_detail: str
    settle_detail: str


_MERGE = """
MATCH (x:Node {id: $survivor}) WHERE x:Conflict AND x.status = 'open'
CALL {
  UNWIND $merged AS mid
  MATCH (mk:Node {id: mid}) WHERE mk:Conflict AND mk.status = 'open'
  RETURN count(mk) AS ok_merged
}
WITH x, ok_merged WHERE ok_merged = size($merged)
CALL {
  WITH x
  UNWIND $sides AS sd
  MATCH (sc:Node {id: sd.claim_id}) WHERE sc:Claim
  WITH x, sc, sd
  MATCH (x)-[se:BETWEEN]->(sc)
  SET se.side = coalesce(se.side, sd.side)
  RETURN count(se) AS n_sided
}
CALL {
  WITH x
  UNWIND $joins AS jn
  MATCH (jc:Node {id: jn.claim_id}) WHERE jc:Claim
  MERGE (x)-[je:BETWEEN]->(jc)
  ON CREATE SET je.side = jn.side, je.at = $now
  RETURN count(je) AS n_joined
}
CALL {
  UNWIND $merged AS mid
  MATCH (mk:Node {id: mid}) WHERE mk:Conflict
  SET """ + change("mk", "'resolved'") + """, mk.revision = mk.revision + 1,
      mk.resolved_at = $now, mk.resolved_by = $actor, mk.settled_kind = 'merged',
      mk.settled_id = $survivor, mk.settled_note = $note
  CREATE (:AuditEvent:Node {id: randomUUID(), kind: 'conflict.settled', actor: $actor,
      at: $now, subject_id: mk.id, detail: $settle_detail})
  RETURN count(mk) AS n_merged
}
SET x.n_sides = $n_sides, x.n_claims = $n_claims, x.revision = x.revision + 1
CREATE (:AuditEvent:Node {id: $audit_id, kind: 'conflict.merged', actor: $actor, at: $now,
    subject_id: x.id, detail: $audit_detail})
RETURN x.id AS id
"""


async def merge(g: Graph, p: MergeWrite) -> bool:
    """One step, all or nothing; False when the survivor or one it takes in is no longer
    open."""
    return bool(await g.write(_MERGE, p))
