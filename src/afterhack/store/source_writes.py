"""Writing a source: a version in ONE query together with its fragments, kept claims, the
conflicts they raise and the audit event, so a crash leaves the source either whole or
absent; a new version retires what it no longer says in the same query; a conversation's
append writes only its new messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from afterhack.store.audit import CREATE_AUDIT, CREATE_AUDITS
from afterhack.store.client import Graph
from afterhack.store.conflicts import LINK, LIVE_SIDES, RAISE, SETTLE
from afterhack.store.cypher import CURRENT, PENDING, RETIRED
from afterhack.store.guard import FLAG_AND_HOLD, GUARD
from afterhack.store.history import born, change
from afterhack.store.rows import of
from afterhack.store.source_params import (
    ClaimsWrite,
    ClaimsWritten,
    MessagesWrite,
    MessagesWritten,
    NewClaim,
    NewFragment,
    NewVersionWrite,
    VersionWrite,
    VersionWritten,
)

_VERSION_WRITTEN = of(VersionWritten)


_CLAIMS_WRITTEN = of(ClaimsWritten)




# A claim crosses to the store as a list of its fields in this order, not as a map, inside
# its fragment's row: map keys were about a quarter of an ingest's parameter text, which the
# server parses before it runs anything, and a claim inside its fragment's row needs no
# lookup of that fragment by id.
_CELLS = ("id", "statement", "key", "terms", "quote", "quote_start", "quote_end",
          "confidence", "extracted_by", "valid_from", "valid_until", "v", "said_by",
          "said_at")


_C = {name: f"c[{i}]" for i, name in enumerate(_CELLS)}


ClaimCells = tuple[str, str, str, str, str, int, int, float, str, int | None, int | None,
                   list[float] | None, str | None, int | None]


def claim_cells(c: NewClaim) -> ClaimCells:
    """A claim's fields in the order of ``_CELLS``."""
    return (c["id"], c["statement"], c["key"], c["terms"], c["quote"], c["quote_start"],
            c["quote_end"], c["confidence"], c["extracted_by"], c["valid_from"],
            c["valid_until"], c.get("v"), c["said_by"], c["said_at"])


class ClaimsOf(TypedDict):
    """A fragment's id with the claims written with it."""

    id: str
    claims: list[ClaimCells]


class FragmentCells(NewFragment):
    """A new fragment with the claims written with it."""

    claims: list[ClaimCells]


def _by_fragment(claims: list[NewClaim]) -> dict[str, list[ClaimCells]]:
    out: dict[str, list[ClaimCells]] = {}
    for c in claims:
        out.setdefault(c["fragment_id"], []).append(claim_cells(c))
    return out


def fragment_cells(fragments: list[NewFragment], claims: list[NewClaim]) -> list[FragmentCells]:
    by = _by_fragment(claims)
    return [{**f, "claims": by.get(f["id"], [])} for f in fragments]


def claims_of(claims: list[NewClaim]) -> list[ClaimsOf]:
    return [{"id": fid, "claims": cs} for fid, cs in _by_fragment(claims).items()]


# Claims are created in subqueries so a version without claims still returns its row.
# Each is searchable by its words (``terms``) at once; its vector comes with it when ingest
# embedded it (``v``), or later from the vector worker (``vector_pending``).
# A claim whose statement was already corrected somewhere in the workspace comes back
# superseded by that correction's replacement (or rejected, for a retraction): a
# re-ingested mistake must not become current evidence again. Only those claims come back
# in `created` (every other one is 'proposed'): a map per claim in the reply cost more to
# parse on the client than writing the claims did.
_CLAIM_PROPS = f"""id: {_C['id']}, statement: {_C['statement']}, statement_key: {_C['key']},
      evidence_quote: {_C['quote']}, quote_start: {_C['quote_start']},
      quote_end: {_C['quote_end']}, confidence: {_C['confidence']},
      confidence_kind: 'quote_match', revision: 1,
      source_id: $source_id, version_id: $version_id, fragment_id: f.id,
      extracted_by: {_C['extracted_by']}, created_at: $now, valid_from: {_C['valid_from']},
      valid_until: {_C['valid_until']}, said_by: {_C['said_by']}, said_at: {_C['said_at']},
      terms: CASE {_C['terms']} WHEN '' THEN [] ELSE split({_C['terms']}, ' ') END,
      vector_pending: {_C['v']} IS NULL,
      embedding: CASE WHEN {_C['v']} IS NULL THEN null ELSE vecf32({_C['v']}) END"""


# The keys of re-ingested mistakes (a retired claim with that key, a Correction pointing at
# it) are looked up first, so the claims that match none (nearly all) are created in one pass
# without a lookup or an aggregation each; only the few that match go the long way.
_REINGESTED = born("CASE WHEN r IS NULL THEN 'rejected' ELSE 'superseded' END")


def _create_claims(bind_fragment: str) -> str:
    """Creates the claims of $fragments (rows with an ``id`` and ``claims``); each row's
    fragment is bound as ``f`` by ``bind_fragment`` (which may create it)."""
    return """
WITH s, v
CALL {
  UNWIND $fragments AS fr
  UNWIND fr.claims AS c
  MATCH (dead:Node {statement_key: """ + _C["key"] + """})
  WHERE dead:Claim AND dead.status IN """ + RETIRED + """
    AND (dead)<-[:CORRECTS]-(:Correction)
  OPTIONAL MATCH (dead)<-[:SUPERSEDES]-(rep:Claim)
  WITH """ + _C["key"] + """ AS key, collect(rep.id) AS rep_ids
  RETURN collect({key: key, rep_id: rep_ids[0]}) AS fates
}
WITH s, v, fates, [x IN fates | x.key] AS fate_keys
CALL {
  WITH s, v, fate_keys
  UNWIND $fragments AS fr
  """ + bind_fragment + """
  WITH f, fr, fate_keys
  UNWIND [c IN fr.claims WHERE NOT """ + _C["key"] + """ IN fate_keys] AS c
  CREATE (cl:Claim:Node {""" + born("'proposed'") + """, """ + _CLAIM_PROPS + """})
  CREATE (cl)-[:SUPPORTED_BY {role: 'evidence'}]->(f)
  RETURN count(cl) AS n_fresh
}
CALL {
  WITH fates, fate_keys
  UNWIND $fragments AS fr
  UNWIND [c IN fr.claims WHERE """ + _C["key"] + """ IN fate_keys] AS c
  MATCH (f:Node {id: fr.id}) WHERE f:SourceFragment
  WITH c, f, [x IN fates WHERE x.key = """ + _C["key"] + """ | x.rep_id] AS rep_ids
  OPTIONAL MATCH (r:Node {id: rep_ids[0]}) WHERE r:Claim
  CREATE (cl:Claim:Node {""" + _REINGESTED + """, """ + _CLAIM_PROPS + """})
  CREATE (cl)-[:SUPPORTED_BY {role: 'evidence'}]->(f)
  WITH cl, r
  CALL {
    WITH cl, r
    WITH cl, r WHERE r IS NOT NULL
    CREATE (r)-[:SUPERSEDES {reason: 'reingested'}]->(cl)
    RETURN count(*) AS linked
  }
  RETURN collect({id: cl.id, status: cl.status}) AS created
}
"""


# Conflicts found for the new claims (conflicts.py) are raised or joined in the same query:
# $raised names both.
_RAISE = ("WITH s, v, created " + RAISE + "WITH s, v, created, raised + joined AS raised "
          + LINK)


# The version's fragments, each with its claims ($fragments: FragmentCells). A key a row
# lacks reads as null and is not stored: only a message has a speaker, only a file a page or
# a section. A message's index in its conversation counts on from the messages before this
# version (``v.first_message``).
_CREATE_FRAGMENTS_AND_CLAIMS = _create_claims(
    "CREATE (v)-[:HAS_FRAGMENT]->(f:SourceFragment:Node {id: fr.id, seq: fr.seq, "
    "text: fr.text, start: fr.start, end: fr.end, origin_type: s.origin_type, "
    "origin_name: s.origin_name, source_id: s.id, version_id: v.id, "
    "extraction: fr.extraction, created_at: $now, speaker: fr.speaker, "
    "said_at: fr.said_at, message_index: v.first_message + fr.message_offset, "
    "page: fr.page, page_end: fr.page_end, section: fr.section})")


_VERSION_PROPS = (
    "text:$text, content_hash:$content_hash, length:$length, model_calls:$model_calls, "
    "created_at:$now, media_type:$media_type, file_size:$file_size, file_hash:$file_hash, "
    "file_name:$file_name, file_data:$file_data")


def _as_planned(param: str, var: str, count: str) -> str:
    """A CALL counting, as ``count``, the claims listed in ``$param`` (each an id, a revision
    and n_users) that are still as planned: current, at that revision, used by that many
    decisions. A guard after it wants the count to be the list's size. Its names start with
    ``var``, so two of them stand in one query without meeting."""
    return f"""
CALL {{
  UNWIND ${param} AS {var}_plan
  MATCH ({var}:Node {{id: {var}_plan.id}})
  WHERE {var}:Claim AND {var}.revision = {var}_plan.revision AND {var}.status IN {CURRENT}
  WITH {var}, {var}_plan, size([({var})<-[{var}u:USED_CLAIM]-(:Decision) | {var}u])
    AS n_{var}_users
  WHERE n_{var}_users = {var}_plan.n_users
  RETURN count({var}) AS {count}
}}"""


# A newer statement by the same speaker supersedes the older one at once (a workspace's
# latest_wins, rule 11), recorded as a supersede correction: the claims it supersedes must
# be as planned (current, at the revision and with the users the relabel read), and the
# conflict over their fact, if it was open before this write, still open. Put after GUARD.
_POLICY_GUARD = """
""" + _as_planned("policy_losers", "pl", "ok_losers") + """
CALL {
  UNWIND [pr IN $policy WHERE pr.before] AS pr
  MATCH (px:Node {id: pr.conflict_id}) WHERE px:Conflict AND px.status <> 'open'
  RETURN count(px) AS closed_before
}
WITH ok_losers, closed_before
WHERE ok_losers = size($policy_losers) AND closed_before = 0
"""


# After RAISE: every current claim of the older statement is superseded by the newer claim
# (a correction by 'policy' CORRECTS each), and the conflict over their fact (raised by this
# write, or open from before) is resolved by keeping the newer claim, exactly as a
# reviewer's keep writes it (conflicts.keep), when no other value of it is held any more;
# otherwise it stays open over the values that are.
_POLICY = """
WITH *
CALL {
  UNWIND $policy AS pr
  OPTIONAL MATCH (pi:Node {id: pr.conflict_id}) WHERE pi:Conflict AND pi.status = 'open'
  OPTIONAL MATCH (pq:Node {key: pr.conflict_key}) WHERE pq:Conflict AND pq.status = 'open'
  WITH pr, CASE WHEN pi IS NULL THEN pq ELSE pi END AS sx
  WHERE sx IS NOT NULL
  MATCH (pk:Node {id: pr.keep_id}) WHERE pk:Claim AND pk.status IN """ + CURRENT + """
  CREATE (pc:Correction:Node {id: pr.correction_id, claim_id: pr.loser_id,
      key: pr.resolution_key, statement: pk.statement, reason: pr.reason,
      reviewer: 'policy', kind: 'supersede', replacement_id: pk.id, outcome: pr.outcome,
      created_at: $now})
  WITH pc, pk, pr, sx
  CALL {
    WITH pc, pk, pr
    UNWIND pr.losers AS lid
    MATCH (pl:Node {id: lid}) WHERE pl:Claim AND pl.status IN """ + CURRENT + """
    SET """ + change("pl", "'superseded'") + """, pl.revision = pl.revision + 1
    CREATE (pc)-[:CORRECTS]->(pl)
    CREATE (pk)-[:SUPERSEDES {reason: 'conflict'}]->(pl)
    RETURN count(pl) AS n_policy
  }
  WITH pc, pk, pr, sx
""" + LIVE_SIDES + """
  WITH pc, pk, pr, sx, pr.may_close AND n_live < 2 AS closes
  SET sx.revision = sx.revision + 1
  FOREACH (_ IN CASE WHEN closes THEN [1] ELSE [] END |
    SET """ + change("sx", "'resolved'") + """, sx.resolved_at = $now,
        sx.resolved_by = 'policy', sx.resolution = 'keep', sx.kept_claim_id = pk.id,
        sx.correction_id = pc.id, sx.resolution_key = pr.resolution_key
    CREATE (pc)-[:RESOLVES]->(sx))
  CREATE (:AuditEvent:Node {id: pr.audit_id, actor: $audit_actor, at: $now,
      subject_id: sx.id, detail: pr.audit_detail,
      kind: CASE WHEN closes THEN 'conflict.resolved' ELSE 'conflict.side_superseded' END})
  RETURN count(pc) AS n_policy_rows
}
""" + FLAG_AND_HOLD + """
WITH *
""" + SETTLE


def _sent(p: Mapping[str, object], fragments: list[FragmentCells] | list[ClaimsOf],
          ) -> dict[str, object]:
    """The write's parameters: its claims go inside ``fragments``, not beside them."""
    return {**{k: val for k, val in p.items() if k != "claims"}, "fragments": fragments}


_CREATE_SOURCE = (
    "MATCH (w:Workspace) "
    "CREATE (s:Source:Node {id:$source_id, kind:$kind, title:$title, "
    "origin_type:$origin_type, origin_name:$origin_name, created_at:$now, revision:1, "
    "latest_version:1, messages:$message_count}) "
    "CREATE (s)-[:HAS_VERSION]->(v:SourceVersion:Node {id:$version_id, version:1, "
    "first_message: CASE WHEN $message_count IS NULL THEN null ELSE 0 END, "
    + _VERSION_PROPS + "}) "
    + _CREATE_FRAGMENTS_AND_CLAIMS + _RAISE)


async def create_source(g: Graph, p: VersionWrite) -> VersionWritten:
    rows = await g.write(
        _CREATE_SOURCE + "WITH s, v, created, raised " + CREATE_AUDIT
        + " RETURN s.id AS source_id, v.version AS version, created, raised",
        _sent(p, fragment_cells(p["fragments"], p["claims"])),
    )
    return _VERSION_WRITTEN.one(rows[0])


# A version retires the source's claims whose quote it no longer holds ($retire, planned by
# versions.py): each must still be as planned (revision, current, users), like the region
# the guard before it checks, or nothing is written.
_RETIRE_GUARD = _as_planned("retire", "rc", "ok_retire") + """
WITH ok_retire WHERE ok_retire = size($retire)
"""


# Superseded by the new version's claim that states the same thing differently, or
# withdrawn (rejected, nothing replaces it); either way retired_by the new version.
_RETIRE = """
WITH s, v, created
CALL {
  WITH v
  UNWIND $retire AS r
  MATCH (rc:Node {id: r.id}) WHERE rc:Claim
  SET """ + change("rc", "r.status") + """, rc.revision = rc.revision + 1, rc.retired_by = v.id
  WITH rc, r
  OPTIONAL MATCH (nc:Node {id: r.superseded_by}) WHERE nc:Claim
  FOREACH (_ IN CASE WHEN nc IS NULL THEN [] ELSE [1] END |
    CREATE (nc)-[:SUPERSEDES {reason: 'new_version'}]->(rc))
  RETURN count(rc) AS n_retired
}
"""


# The next version of a source: a conversation's counts on from its messages so far.
_NEXT_VERSION = (
    "MATCH (s:Node {id:$source_id}) WHERE s:Source "
    "WITH s, s.messages AS first_message "
    "SET s.latest_version = s.latest_version + 1, s.revision = s.revision + 1, "
    "s.title = coalesce($title, s.title), s.messages = first_message + $message_count "
    "WITH s, first_message "
    "CREATE (s)-[:HAS_VERSION]->(v:SourceVersion:Node {id:$version_id, "
    "version:s.latest_version, first_message:first_message, " + _VERSION_PROPS + "}) ")


async def add_version(g: Graph, p: NewVersionWrite) -> VersionWritten | None:
    """Append a version; None when the source does not exist (or was removed meanwhile) or
    when what it retires (and their region) changed since it was planned."""
    rows = await g.write(
        GUARD + _RETIRE_GUARD + _NEXT_VERSION
        + _CREATE_FRAGMENTS_AND_CLAIMS + _RETIRE + _RAISE + "WITH s, v, created, raised "
        + SETTLE + "WITH s, v, created, raised " + FLAG_AND_HOLD
        + "WITH s, v, created, raised " + CREATE_AUDIT + " WITH s, v, created, raised "
        + CREATE_AUDITS
        + " RETURN s.id AS source_id, v.version AS version, created, raised",
        _sent(p, fragment_cells(p["fragments"], p["claims"])),
    )
    return _VERSION_WRITTEN.first(rows)


_MESSAGES_WRITTEN_ROW = of(MessagesWritten)


_MESSAGES_WRITTEN = (
    "s.id AS source_id, v.version AS version, created, raised, s.revision AS revision, "
    "s.latest_version AS latest_version, s.messages AS message_count, "
    "v.first_message AS first_message, v.created_at AS created_at")


async def create_conversation(g: Graph, p: MessagesWrite) -> MessagesWritten | None:
    """A new conversation with its first messages, and what a latest_wins workspace
    supersedes at once; None when the source id is taken (two creates racing for one
    named conversation: the loser appends) or what it supersedes changed since planned."""
    policy = bool(p["policy"])
    rows = await g.write(
        (GUARD + _POLICY_GUARD if policy else "")
        + "OPTIONAL MATCH (taken:Node {id:$source_id}) WITH count(taken) AS n_taken "
        "WHERE n_taken = 0 "
        + _CREATE_SOURCE + (_POLICY if policy else "")
        + "WITH s, v, created, raised " + CREATE_AUDIT
        + " RETURN " + _MESSAGES_WRITTEN,
        _sent(p, fragment_cells(p["fragments"], p["claims"])),
    )
    return _MESSAGES_WRITTEN_ROW.first(rows)


async def append_messages(g: Graph, p: MessagesWrite) -> MessagesWritten | None:
    """The messages as the conversation's next version (the earlier ones are not written
    again), and what a latest_wins workspace supersedes at once; None when the source is
    gone or what it supersedes changed since planned."""
    # Without a supersession to make (nearly every append), the guard and the policy's
    # clauses are left out: an append then costs what a text source's write costs.
    policy = bool(p["policy"])
    rows = await g.write(
        (GUARD + _POLICY_GUARD if policy else "") + _NEXT_VERSION
        + _CREATE_FRAGMENTS_AND_CLAIMS + _RAISE + (_POLICY if policy else "")
        + "WITH s, v, created, raised " + CREATE_AUDIT
        + " RETURN " + _MESSAGES_WRITTEN,
        _sent(p, fragment_cells(p["fragments"], p["claims"])),
    )
    return _MESSAGES_WRITTEN_ROW.first(rows)


# Claims extracted later, each row's fragment found by its id ($fragments: ClaimsOf).
_ADD_CLAIMS = _create_claims("MATCH (f:Node {id: fr.id}) WHERE f:SourceFragment")


async def add_claims(g: Graph, p: ClaimsWrite) -> ClaimsWritten | None:
    """Store claims extracted later; None if another extraction got to these fragments first."""
    rows = await g.write(
        "MATCH (s:Node {id:$source_id})-[:HAS_VERSION]->(v:SourceVersion {id:$version_id}) "
        "WHERE s:Source "
        "OPTIONAL MATCH (v)-[:HAS_FRAGMENT]->(f:SourceFragment) "
        f"WHERE f.id IN $fragment_ids AND f.extraction IN {PENDING} "
        "WITH s, v, count(f) AS still_pending WHERE still_pending = size($fragment_ids) "
        "CALL { WITH v UNWIND $fragment_updates AS u "
        "  MATCH (v)-[:HAS_FRAGMENT]->(f:SourceFragment {id:u.id}) SET f.extraction = u.extraction "
        "  RETURN count(*) AS n_updated } "
        + _ADD_CLAIMS + _RAISE
        + "WITH s, v, created, raised " + CREATE_AUDIT
        + " RETURN s.id AS source_id, created, raised",
        _sent(p, claims_of(p["claims"])),
    )
    return _CLAIMS_WRITTEN.first(rows)
