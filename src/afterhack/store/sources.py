"""Reading sources: a source with its versions and fragments, the list, what a version
kept of a file, and what ingest needs to know before it writes (store/source_writes.py
writes them; store/source_params.py names what travels)."""

from __future__ import annotations

from afterhack.errors import SourceNotFound
from afterhack.model.pages import After
from afterhack.model.sources import (
    FragmentRow,
    PendingFragments,
    SourceRow,
    SourceView,
    VersionView,
)
from afterhack.store.client import Graph
from afterhack.store.cypher import CURRENT, PENDING
from afterhack.store.keyset import after_params
from afterhack.store.rows import of
from afterhack.store.source_params import (
    VERSION_FIELDS,
    KeptFile,
    SourceClaim,
)

_SOURCE = of(SourceRow)


_SOURCE_CLAIM = of(SourceClaim)


_FRAGMENT = of(FragmentRow)


_VERSION = of(VersionView)


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


async def last_said(g: Graph, source_id: str, speaker: str) -> str | None:
    """The text of the latest message this speaker said in a conversation (its last
    fragment, for a message split in several), or None."""
    rows = await g.read(
        "MATCH (s:Node {id:$id})-[:HAS_VERSION]->(:SourceVersion)-[:HAS_FRAGMENT]->"
        "(f:SourceFragment) WHERE s:Source AND f.speaker = $speaker "
        "RETURN f.text AS text ORDER BY f.message_index DESC, f.seq DESC LIMIT 1",
        {"id": source_id, "speaker": speaker})
    text = rows.scalar()
    return text if isinstance(text, str) else None


async def find_file_source(g: Graph, file_hash: str) -> str | None:
    """The oldest file source whose latest version was read from a file with this hash:
    the same bytes sent again, under whatever name."""
    rows = await g.read(
        "MATCH (s:Source)-[:HAS_VERSION]->(v:SourceVersion) WHERE s.kind = 'file' "
        "AND v.version = s.latest_version AND v.file_hash = $hash "
        "RETURN s.id AS id ORDER BY s.created_at, s.id LIMIT 1", {"hash": file_hash})
    found = rows.scalar()
    return None if found is None else str(found)


_FILE_FIELDS = ("v.media_type AS media_type, v.file_size AS file_size, "
                "v.file_hash AS file_hash, v.file_name AS file_name")


_FRAGMENT_FIELDS = (
    "v.id AS version_id, f.id AS id, f.seq AS seq, f.text AS text, f.start AS start, "
    "f.end AS end, f.extraction AS extraction, f.speaker AS speaker, f.said_at AS said_at, "
    "f.message_index AS message_index, f.page AS page, f.page_end AS page_end, "
    "f.section AS section")


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
        which + f"RETURN {VERSION_FIELDS}, v.text AS text, {_FILE_FIELDS} ORDER BY v.version",
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
        ".said_at, .message_index, .page, .page_end, .section}) AS fragments",
        {"id": source_id},
    )
    row = rows.first()
    if row is None:
        return None
    # A map projection of a missing OPTIONAL MATCH row is a map of nulls.
    return {"version_id": row["version_id"],
            "fragments": [f for f in row["fragments"] if f["id"] is not None]}
