"""Erasure records and a speaker's requests (docs/rules.md, rule 22): a request's write
(withheld claims and the record, in one query), a decline, and the records read and listed.
A record holds no erased words and no hash of them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TypedDict

from afterhack.errors import ErasureNotFound
from afterhack.model.erasures import ErasureCounts, ErasureRecord, TargetRef
from afterhack.model.pages import After
from afterhack.model.vocab import ErasureKind, ErasureStatus
from afterhack.model.writes import AuditEvent
from afterhack.store.audit import CREATE_AUDITS
from afterhack.store.client import Graph
from afterhack.store.history import change
from afterhack.store.keyset import after_params
from afterhack.store.rows import of


class Stamp(TypedDict):
    id: str
    revision: int


class NewRequest(TypedDict):
    id: str
    source_id: str | None  # a speaker's request: the message that asked
    message_index: int | None
    requested_by: str  # the speaker, or the key that filed it
    reason: str | None  # a filed request's why (no erased words in it)
    claim_ids: list[str]
    claims: list[Stamp]


async def raise_request(g: Graph, request: NewRequest, now: int,
                        audits: list[AuditEvent]) -> bool:
    """Withhold the claims a request names (a speaker's, or one a key filed) and record the
    request, in one write; False if one of them moved (no longer current, or changed) since
    it was read."""
    rows = await g.write(
        "CALL { UNWIND $request.claims AS pc "
        "  MATCH (gc:Node {id: pc.id}) WHERE gc:Claim AND gc.revision = pc.revision "
        "  AND gc.status IN ['proposed', 'accepted'] RETURN count(gc) AS ok_claims } "
        "WITH ok_claims WHERE ok_claims = size($request.claims) "
        "CREATE (e:Erasure:Node {id: $request.id, created_at: $now, status: 'requested', "
        "  kind: 'request', source_id: $request.source_id, "
        "  message_index: $request.message_index, requested_by: $request.requested_by, "
        "  requested_at: $now, claim_ids: $request.claim_ids, reason: $request.reason, "
        "  revision: 1}) "
        "WITH e "
        "CALL { WITH e UNWIND $request.claims AS pc "
        "  MATCH (c:Node {id: pc.id}) WHERE c:Claim "
        "  SET c.withheld_from = c.status, " + change("c", "'withheld'") + ", "
        "    c.revision = c.revision + 1, c.erasure_id = e.id, c.erasure_at = $now, "
        "    c.erasure_by = $request.requested_by "
        "  RETURN count(c) AS n_withheld } "
        "WITH e " + CREATE_AUDITS + " RETURN e.id AS id",
        {"request": request, "now": now, "audits": audits})
    return bool(rows)


async def decline(g: Graph, request_id: str, revision: int, actor: str, reason: str | None,
                  now: int, audits: list[AuditEvent]) -> bool:
    """A request declined: the claims it withheld are what they were before, in one write;
    False if it is no longer waiting at that revision."""
    rows = await g.write(
        "MATCH (e:Node {id: $id}) WHERE e:Erasure AND e.status = 'requested' "
        "AND e.revision = $revision "
        "SET e.status = 'declined', e.declined_at = $now, e.declined_by = $actor, "
        "  e.reason = $reason, e.revision = e.revision + 1 "
        "WITH e "
        "CALL { WITH e UNWIND e.claim_ids AS cid MATCH (c:Node {id: cid}) WHERE c:Claim "
        "  AND c.status = 'withheld' AND c.erasure_id = e.id "
        "  SET " + change("c", "coalesce(c.withheld_from, 'proposed')") + ", "
        "    c.revision = c.revision + 1, c.withheld_from = null, c.erasure_id = null, "
        "    c.erasure_at = null, c.erasure_by = null "
        "  RETURN count(c) AS n_back } "
        "WITH e " + CREATE_AUDITS + " RETURN e.id AS id",
        {"id": request_id, "revision": revision, "actor": actor, "reason": reason, "now": now,
         "audits": audits})
    return bool(rows)


_RECORD_FIELDS = (
    "e.id AS id, e.status AS status, coalesce(e.kind, 'request') AS kind, "
    "e.source_id AS source_id, e.version_id AS version_id, "
    "e.message_index AS message_index, e.claim_id AS claim_id, e.request_id AS request_id, "
    "e.reason AS reason, e.requested_by AS requested_by, e.requested_at AS requested_at, "
    "e.applied_by AS applied_by, e.applied_at AS applied_at, e.declined_by AS declined_by, "
    "e.declined_at AS declined_at, e.created_at AS created_at, e.counts AS counts, "
    "e.claim_ids AS claim_ids, e.flagged AS flagged, e.held AS held, "
    "e.conflicts AS conflicts, e.disk AS disk, e.disk_clean_at AS disk_clean_at, "
    "e.revision AS revision")


class ErasureRow(TypedDict):
    id: str
    status: ErasureStatus
    kind: ErasureKind
    source_id: str | None
    version_id: str | None
    message_index: int | None
    claim_id: str | None
    request_id: str | None
    reason: str | None
    requested_by: str | None
    requested_at: int | None
    applied_by: str | None
    applied_at: int | None
    declined_by: str | None
    declined_at: int | None
    created_at: int
    counts: str | None
    claim_ids: list[str] | None
    flagged: list[str] | None
    held: list[str] | None
    conflicts: list[str] | None
    disk: str | None
    disk_clean_at: int | None
    revision: int | None


_ROW = of(ErasureRow)


def record(r: ErasureRow) -> ErasureRecord:
    counts: ErasureCounts | None = json.loads(r["counts"]) if r["counts"] else None
    target: TargetRef = {"kind": r["kind"], "source_id": r["source_id"],
                         "version_id": r["version_id"], "message_index": r["message_index"],
                         "claim_id": r["claim_id"], "request_id": r["request_id"]}
    disk = r["disk"]
    return {
        "id": r["id"], "status": r["status"], "target": target, "reason": r["reason"],
        "requested_by": r["requested_by"], "requested_at": r["requested_at"],
        "applied_by": r["applied_by"], "applied_at": r["applied_at"],
        "declined_by": r["declined_by"], "declined_at": r["declined_at"],
        "created_at": r["created_at"], "counts": counts,
        "claim_ids": list(r["claim_ids"] or []), "flagged": list(r["flagged"] or []),
        "held": list(r["held"] or []), "conflicts": list(r["conflicts"] or []),
        "disk": "clean" if disk == "clean" else "pending" if disk == "pending" else None,
        "disk_clean_at": r["disk_clean_at"],
    }


async def get_row(g: Graph, erasure_id: str) -> ErasureRow:
    rows = await g.read(f"MATCH (e:Node {{id: $id}}) WHERE e:Erasure RETURN {_RECORD_FIELDS}",
                        {"id": erasure_id})
    row = _ROW.first(rows)
    if row is None:
        raise ErasureNotFound(erasure_id)
    return row


async def get_erasure(g: Graph, erasure_id: str) -> ErasureRecord:
    return record(await get_row(g, erasure_id))


async def find_by_key(g: Graph, key: str) -> str | None:
    rows = await g.read("MATCH (e:Node {key: $key}) WHERE e:Erasure RETURN e.id AS id",
                        {"key": key})
    row = rows.first()
    return None if row is None else str(row["id"])


async def list_erasures(g: Graph, statuses: Sequence[ErasureStatus] | None, *, limit: int,
                        after: After | None = None) -> list[ErasureRecord]:
    """Newest first (by creation, then id), after a position (paging.py)."""
    rows = await g.read(
        "MATCH (e:Erasure) WHERE ($statuses IS NULL OR e.status IN $statuses) "
        "AND ($at_after IS NULL OR e.created_at < $at_after "
        "OR (e.created_at = $at_after AND e.id < $id_after)) "
        f"RETURN {_RECORD_FIELDS} ORDER BY e.created_at DESC, e.id DESC LIMIT $limit",
        {"statuses": list(statuses) if statuses is not None else None, "limit": limit,
         **after_params(after)})
    return [record(r) for r in _ROW.all(rows)]


async def count_erasures(g: Graph, statuses: Sequence[ErasureStatus] | None) -> int:
    if statuses is None:
        rows = await g.read("MATCH (e:Erasure) RETURN count(e) AS n")
    else:
        rows = await g.read("MATCH (e:Erasure) WHERE e.status IN $statuses "
                            "RETURN count(e) AS n", {"statuses": list(statuses)})
    return int(rows.scalar() or 0)


async def withheld_by(g: Graph, request_id: str) -> list[str]:
    """The claims a request withholds now."""
    rows = await g.read("MATCH (e:Node {id: $id}) WHERE e:Erasure "
                        "UNWIND e.claim_ids AS cid MATCH (c:Node {id: cid}) WHERE c:Claim "
                        "AND c.status = 'withheld' AND c.erasure_id = e.id "
                        "RETURN c.id AS id ORDER BY id", {"id": request_id})
    return [str(r["id"]) for r in rows]
