"""Sources, their versions and fragments, and the claims extracted with them.

A version is written in ONE query together with its fragments, kept claims and audit
event, so a crash leaves the source either whole or absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict

from afterhack.errors import SourceNotFound
from afterhack.model.pages import After
from afterhack.model.sources import (
    CreatedClaim,
    FragmentRow,
    PendingFragments,
    SourceRow,
    SourceView,
    VersionView,
)
from afterhack.model.vocab import FragmentExtraction, RetiredStatus, SourceKind
from afterhack.store.audit import CREATE_AUDIT, CREATE_AUDITS, AuditEvent, AuditParams
from afterhack.store.client import Graph
from afterhack.store.conflicts import LINK, RAISE, SETTLE, ConflictRow, LinkRow, Settle
from afterhack.store.cypher import CURRENT, PENDING, RETIRED
from afterhack.store.guard import FLAG_AND_HOLD, GUARD, GuardParams, Repair
from afterhack.store.history import born, change
from afterhack.store.keyset import after_params
from afterhack.store.rows import of


class NewFragment(TypedDict):
    id: str
    seq: int
    text: str
    start: int
    end: int
    extraction: FragmentExtraction
    # A conversation's message (docs/rules.md, rule 11): who said it, when, and its place
    # among the messages this version adds (the write turns it into the conversation's
    # index). A file's fragment: the PDF page or the heading it falls under. Absent for
    # pasted text, so a text source's rows carry none of these keys.
    speaker: NotRequired[str]
    said_at: NotRequired[int]
    message_offset: NotRequired[int]
    page: NotRequired[int]
    section: NotRequired[str]


class NewClaim(TypedDict):
    """A claim that passed the quote rules, to be written with its fragment."""

    id: str
    fragment_id: str
    statement: str
    key: str  # its statement key (evidence.statement_key)
    quote: str
    quote_start: int  # code points into the version text
    quote_end: int
    confidence: float
    extracted_by: str
    terms: str  # its search terms, space-separated (search.joined_terms)
    v: NotRequired[list[float]]  # its vector, when ingest embedded it (else it is pending)
    valid_from: int | None  # when what it says holds, where it says so (validity.py)
    valid_until: int | None
    said_by: str | None  # a message's speaker and time (None for documents)
    said_at: int | None


class FileFields(TypedDict):
    """A file's original, kept on the version it was read into (None for text)."""

    media_type: str | None
    file_size: int | None
    file_hash: str | None  # sha256:<hex> of the original bytes
    file_name: str | None
    file_data: str | None  # the original bytes, base64


NO_FILE = FileFields(media_type=None, file_size=None, file_hash=None, file_name=None,
                     file_data=None)


class PolicyRow(TypedDict):
    """A newer statement by the same speaker superseding an older one at once, under a
    workspace's ``latest_wins`` (conflicts.plan_latest_wins): the conflict with ``key`` is
    resolved by keeping ``keep_id``, recorded as a policy's supersede correction."""

    key: str
    conflict_id: str  # the conflict this write raises for the pair (if none was open)
    keep_id: str
    correction_id: str
    resolution_key: str
    loser_id: str  # the conflict's older side, which the correction names
    losers: list[str]  # every current claim of the older statement
    reason: str
    outcome: str  # JSON: what it flagged and held


class LoserRow(TypedDict):
    """A claim a policy supersedes, as planned: still current at this revision, used by as
    many decisions."""

    id: str
    revision: int
    n_users: int


class VersionWrite(AuditParams, FileFields):
    """A source's new version (or first one) with its fragments and kept claims."""

    source_id: str
    version_id: str
    kind: SourceKind
    title: str | None
    origin_type: str
    origin_name: str | None
    text: str
    content_hash: str
    length: int
    message_count: int | None  # a conversation's messages in this version
    fragments: list[NewFragment]
    claims: list[NewClaim]
    model_calls: str  # JSON: the ModelCallRecord list
    conflicts: list[ConflictRow]  # to raise between new claims and current ones
    links: list[LinkRow]  # new claims and the current ones stating their fact in other words


class PolicyWrite(GuardParams, Repair):
    """What a ``latest_wins`` workspace supersedes in the same write (empty lists when
    nothing): guarded like a repair, then the conflicts resolved, the flags and holds."""

    policy: list[PolicyRow]
    policy_losers: list[LoserRow]
    policy_audits: list[AuditEvent]
    # The other open conflicts of the statements it supersedes, settled by its resolutions.
    settles: list[Settle]


class RetireRow(TypedDict):
    """A claim of the source that the new version no longer holds (versions.py plans it):
    retired as planned if it is still as planned (revision, current, users)."""

    id: str
    revision: int
    n_users: int
    status: RetiredStatus
    superseded_by: str | None  # the new version's claim that states it differently
    statement: str
    statement_key: str


class NewVersionWrite(VersionWrite, GuardParams, Repair):
    """A new version, with what it retires and the relabel of that, guarded like a repair."""

    retire: list[RetireRow]
    audits: list[AuditEvent]
    settles: list[Settle]  # the conflicts of the statements it retires are settled by it


class MessagesWrite(VersionWrite, PolicyWrite):
    """A conversation, or the messages appended to one, with what ``latest_wins`` supersedes
    at once."""


class FragmentUpdate(TypedDict):
    id: str
    extraction: FragmentExtraction


class ClaimsWrite(AuditParams):
    """Claims extracted later from fragments of the latest version that failed or were
    skipped."""

    source_id: str
    version_id: str
    fragment_ids: list[str]
    fragment_updates: list[FragmentUpdate]
    claims: list[NewClaim]
    conflicts: list[ConflictRow]
    links: list[LinkRow]


class VersionWritten(TypedDict):
    source_id: str
    version: int
    created: list[CreatedClaim]  # only those that did not start as proposed
    raised: list[str]  # the conflicts raised


class MessagesWritten(VersionWritten):
    """A conversation's version as written: what its answer shows without reading it back."""

    revision: int
    latest_version: int
    message_count: int
    first_message: int
    created_at: int


class ClaimsWritten(TypedDict):
    source_id: str
    created: list[CreatedClaim]
    raised: list[str]


class SourceClaim(TypedDict):
    """A current claim of a source, as a new version is checked against it."""

    id: str
    statement: str
    statement_key: str
    evidence_quote: str | None
    revision: int

_SOURCE = of(SourceRow)
_VERSION_WRITTEN = of(VersionWritten)
_CLAIMS_WRITTEN = of(ClaimsWritten)
_SOURCE_CLAIM = of(SourceClaim)
_FRAGMENT = of(FragmentRow)
_VERSION = of(VersionView)

_VERSION_FIELDS = (
    "v.id AS id, v.version AS version, v.content_hash AS content_hash, "
    "v.created_at AS created_at, v.length AS length"
)

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


# Conflicts found for the new claims (conflicts.py) are raised in the same query: $raised.
_RAISE = "WITH s, v, created " + RAISE + "WITH s, v, created, raised " + LINK

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
    "page: fr.page, section: fr.section})")

_VERSION_PROPS = (
    "text:$text, content_hash:$content_hash, length:$length, model_calls:$model_calls, "
    "created_at:$now, media_type:$media_type, file_size:$file_size, file_hash:$file_hash, "
    "file_name:$file_name, file_data:$file_data")

# A newer statement by the same speaker supersedes the older one at once (a workspace's
# latest_wins, rule 11), recorded as a conflict resolution: the claims it supersedes must
# be as planned (current, at the revision and with the users the relabel read), and the
# conflict of the pair, if one was raised before, still open. Put after GUARD.
_POLICY_GUARD = """
CALL {
  UNWIND $policy_losers AS lo
  MATCH (pl:Node {id: lo.id})
  WHERE pl:Claim AND pl.revision = lo.revision AND pl.status IN """ + CURRENT + """
  WITH pl, lo, size([(pl)<-[plu:USED_CLAIM]-(:Decision) | plu]) AS n_pl_users
  WHERE n_pl_users = lo.n_users
  RETURN count(pl) AS ok_losers
}
CALL {
  UNWIND $policy AS pr
  MATCH (px:Node {key: pr.key}) WHERE px:Conflict AND px.status <> 'open'
  RETURN count(px) AS closed_pairs
}
WITH ok_losers, closed_pairs
WHERE ok_losers = size($policy_losers) AND closed_pairs = 0
"""

# After RAISE: each pair's conflict (raised by this write, or open from before) is resolved
# by keeping the newer claim, exactly as a reviewer's keep writes it (conflicts.keep), with
# 'policy' as the reviewer; every current claim of the older statement is superseded by it.
_POLICY = """
WITH *
CALL {
  UNWIND $policy AS pr
  MATCH (px:Node {key: pr.key}) WHERE px:Conflict AND px.status = 'open'
  MATCH (pk:Node {id: pr.keep_id}) WHERE pk:Claim AND pk.status IN """ + CURRENT + """
  SET """ + change("px", "'resolved'") + """, px.revision = px.revision + 1,
      px.resolved_at = $now, px.resolved_by = 'policy', px.resolution = 'keep',
      px.kept_claim_id = pk.id, px.correction_id = pr.correction_id,
      px.resolution_key = pr.resolution_key
  CREATE (pc:Correction:Node {id: pr.correction_id, claim_id: pr.loser_id,
      key: pr.resolution_key, statement: pk.statement, reason: pr.reason,
      reviewer: 'policy', kind: 'supersede', replacement_id: pk.id, outcome: pr.outcome,
      created_at: $now})-[:RESOLVES]->(px)
  WITH pc, pk, pr
  UNWIND pr.losers AS lid
  MATCH (pl:Node {id: lid}) WHERE pl:Claim AND pl.status IN """ + CURRENT + """
  SET """ + change("pl", "'superseded'") + """, pl.revision = pl.revision + 1
  CREATE (pc)-[:CORRECTS]->(pl)
  CREATE (pk)-[:SUPERSEDES {reason: 'conflict'}]->(pl)
  RETURN count(pl) AS n_policy
}
""" + FLAG_AND_HOLD + """
WITH *
FOREACH (a IN $policy_audits | CREATE (:AuditEvent:Node {id:a.id, kind:a.kind,
  actor:a.actor, at:a.at, subject_id:a.subject_id, detail:a.detail}))
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
_RETIRE_GUARD = """
CALL {
  UNWIND $retire AS r
  MATCH (rc:Node {id: r.id})
  WHERE rc:Claim AND rc.revision = r.revision AND rc.status IN """ + CURRENT + """
  WITH rc, r, size([(rc)<-[ru:USED_CLAIM]-(:Decision) | ru]) AS n_rc_users
  WHERE n_rc_users = r.n_users
  RETURN count(rc) AS ok_retire
}
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
        + _CREATE_FRAGMENTS_AND_CLAIMS + _RETIRE + "WITH s, v, created " + SETTLE
        + "WITH s, v, created " + FLAG_AND_HOLD + _RAISE
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


_SOURCE_FIELDS = (
    "s.id AS id, coalesce(s.kind, 'text') AS kind, s.title AS title, "
    "s.origin_type AS origin_type, s.origin_name AS origin_name, s.created_at AS created_at, "
    "s.revision AS revision, s.latest_version AS latest_version, "
    "s.messages AS message_count")


async def find_source(g: Graph, source_id: str) -> SourceRow | None:
    rows = await g.read(
        f"MATCH (s:Node {{id:$id}}) WHERE s:Source RETURN {_SOURCE_FIELDS}",
        {"id": source_id},
    )
    return _SOURCE.first(rows)


class KeptFile(TypedDict):
    media_type: str
    file_name: str | None
    file_data: str  # base64


_KEPT_FILE = of(KeptFile)


async def version_file(g: Graph, source_id: str, version_id: str) -> KeptFile | None:
    """The original file a version was read from; None for a version that holds none."""
    rows = await g.read(
        "MATCH (v:Node {id:$version_id}) WHERE v:SourceVersion AND v.file_data IS NOT NULL "
        "MATCH (s:Node {id:$id})-[:HAS_VERSION]->(v) WHERE s:Source "
        "RETURN v.media_type AS media_type, v.file_name AS file_name, "
        "v.file_data AS file_data", {"id": source_id, "version_id": version_id})
    return _KEPT_FILE.first(rows)


async def find_conversation(g: Graph, title: str) -> SourceRow | None:
    """The oldest conversation with this title."""
    rows = await g.read(
        "MATCH (s:Source) WHERE s.kind = 'conversation' AND s.title = $title "
        f"RETURN {_SOURCE_FIELDS} ORDER BY s.created_at, s.id LIMIT 1",
        {"title": title},
    )
    return _SOURCE.first(rows)


_FILE_FIELDS = ("v.media_type AS media_type, v.file_size AS file_size, "
                "v.file_hash AS file_hash, v.file_name AS file_name")
_FRAGMENT_FIELDS = (
    "v.id AS version_id, f.id AS id, f.seq AS seq, f.text AS text, f.start AS start, "
    "f.end AS end, f.extraction AS extraction, f.speaker AS speaker, f.said_at AS said_at, "
    "f.message_index AS message_index, f.page AS page, f.section AS section")


async def get_source(g: Graph, source_id: str, *, latest_only: bool = False) -> SourceView:
    """The source with its versions (with ``latest_only``, its latest version alone: what
    an append to a long conversation answers)."""
    src = await find_source(g, source_id)
    if src is None:
        raise SourceNotFound(source_id)
    # The versions are chosen before their fragments are read (WITH): a long conversation
    # has a version per append, and its latest alone is one append's messages.
    which = ("MATCH (s:Node {id:$id})-[:HAS_VERSION]->(v:SourceVersion) WHERE s:Source "
             + ("AND v.version = s.latest_version " if latest_only else "") + "WITH v ")
    versions = await g.read(
        which + f"RETURN {_VERSION_FIELDS}, v.text AS text, {_FILE_FIELDS} ORDER BY v.version",
        {"id": source_id},
    )
    frags = await g.read(
        which + "MATCH (v)-[:HAS_FRAGMENT]->(f:SourceFragment) "
        f"RETURN {_FRAGMENT_FIELDS} ORDER BY v.version, f.seq",
        {"id": source_id},
    )
    by_version: dict[str, list[FragmentRow]] = {}
    for f in frags:
        by_version.setdefault(f["version_id"], []).append(_FRAGMENT.one(f))
    views = [_VERSION.one({**v, "fragments": by_version.get(v["id"], [])}) for v in versions]
    return {**src, "versions": views}


async def list_sources(g: Graph, *, limit: int, offset: int,
                       after: After | None = None) -> list[SourceRow]:
    """Sources oldest first; with ``after``, those after that position (paging.py)."""
    rows = await g.read(
        "MATCH (s:Source) WHERE $at_after IS NULL OR s.created_at > $at_after "
        "OR (s.created_at = $at_after AND s.id > $id_after) "
        f"RETURN {_SOURCE_FIELDS} "
        "ORDER BY s.created_at, s.id SKIP $offset LIMIT $limit",
        {"limit": limit, "offset": offset, **after_params(after)},
    )
    return _SOURCE.all(rows)


async def count_sources(g: Graph) -> int:
    return int((await g.read("MATCH (s:Source) RETURN count(s) AS n")).scalar() or 0)


async def existing_claim_keys(g: Graph, source_id: str) -> set[str]:
    """Statement keys of the source's current claims, for duplicate detection."""
    rows = await g.read(
        f"MATCH (c:Claim {{source_id:$id}}) WHERE c.status IN {CURRENT} "
        "RETURN collect(DISTINCT c.statement_key) AS keys",
        {"id": source_id},
    )
    return set(rows.scalar() or [])


async def current_claims(g: Graph, source_id: str) -> list[SourceClaim]:
    rows = await g.read(
        f"MATCH (c:Claim {{source_id:$id}}) WHERE c.status IN {CURRENT} "
        "RETURN c.id AS id, c.statement AS statement, c.statement_key AS statement_key, "
        "c.evidence_quote AS evidence_quote, c.revision AS revision ORDER BY c.quote_start, c.id",
        {"id": source_id},
    )
    return _SOURCE_CLAIM.all(rows)


async def keys_held_elsewhere(g: Graph, keys: list[str], source_id: str) -> set[str]:
    """Which statement keys a current claim of another source also states."""
    if not keys:
        return set()
    rows = await g.read(
        "UNWIND $keys AS k MATCH (c:Node {statement_key: k}) "
        f"WHERE c:Claim AND c.status IN {CURRENT} AND c.source_id <> $id "
        "RETURN DISTINCT k AS key", {"keys": keys, "id": source_id})
    return {r["key"] for r in rows}


async def latest_hash(g: Graph, source_id: str) -> str | None:
    rows = await g.read(
        "MATCH (s:Node {id:$id})-[:HAS_VERSION]->(v:SourceVersion) "
        "WHERE s:Source AND v.version = s.latest_version RETURN v.content_hash AS h",
        {"id": source_id},
    )
    value = rows.scalar()
    return None if value is None else str(value)


async def pending_fragments(g: Graph, source_id: str) -> PendingFragments | None:
    """The latest version and its fragments whose extraction failed or never ran."""
    rows = await g.read(
        "MATCH (s:Node {id:$id})-[:HAS_VERSION]->(v:SourceVersion) "
        "WHERE s:Source AND v.version = s.latest_version "
        "OPTIONAL MATCH (v)-[:HAS_FRAGMENT]->(f:SourceFragment) "
        f"WHERE f.extraction IN {PENDING} "
        "WITH v, f ORDER BY f.seq "
        "RETURN v.id AS version_id, collect(f {.id, .seq, .text, .start, .end, .speaker, "
        ".said_at, .message_index, .page, .section}) AS fragments",
        {"id": source_id},
    )
    row = rows.first()
    if row is None:
        return None
    # A map projection of a missing OPTIONAL MATCH row is a map of nulls.
    return {"version_id": row["version_id"],
            "fragments": [f for f in row["fragments"] if f["id"] is not None]}


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
