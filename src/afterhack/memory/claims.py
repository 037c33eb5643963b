"""Claims as users and agents see them: search (hybrid.py) and the evidence of one claim."""

from __future__ import annotations

from collections.abc import Iterable

from afterhack.errors import InvalidRequest
from afterhack.model.claims import (
    ClaimConflictView,
    ClaimDetailRow,
    ClaimLinks,
    ClaimRef,
    ClaimSearch,
    ClaimView,
    EvidenceItem,
    FragmentRow,
    Origin,
)
from afterhack.model.vocab import CLAIM_STATUSES, CURRENT_CLAIM, ClaimStatus
from afterhack.retrieval import hybrid
from afterhack.retrieval.hybrid import ClaimQuery
from afterhack.retrieval.vectors import Vectors
from afterhack.rules import evidence
from afterhack.store import claims as store_claims
from afterhack.store import conflicts as store_conflicts
from afterhack.store.client import Graph, concurrently

_STATUS: dict[str, ClaimStatus] = {s: s for s in CLAIM_STATUSES}


def parse_statuses(values: Iterable[str] | None) -> list[ClaimStatus]:
    """Status filter from the query string; without one, only current claims are returned."""
    wanted: list[str] = []
    for v in values or ():
        wanted.extend(p.strip() for p in v.split(",") if p.strip())
    if not wanted:
        return [s for s in CLAIM_STATUSES if s in CURRENT_CLAIM]
    if "all" in wanted:
        return list(CLAIM_STATUSES)
    bad = [w for w in wanted if w not in _STATUS]
    if bad:
        raise InvalidRequest(f"Unknown claim status: {', '.join(bad)}.", allowed=CLAIM_STATUSES)
    return [_STATUS[w] for w in dict.fromkeys(wanted)]


async def search_claims(g: Graph, query: ClaimQuery, vectors: Vectors | None = None,
                        workspace_id: str | None = None) -> ClaimSearch:
    """Claims by words and meaning (hybrid.py), each naming its open conflicts once; with
    ``as_of``, as they were then; a search at a time (``valid_at``, by default ``as_of``)
    finds only the claims valid then. With ``workspace_id``, the search checks that the
    workspace is ready in one of its own reads."""
    found = await hybrid.search_claims(g, query, vectors, workspace_id)
    for it in found["items"]:
        it["open_conflict_ids"] = sorted(set(it.get("open_conflict_ids") or []))
    return found


def _evidence_item(f: FragmentRow) -> EvidenceItem:
    text = f["text"] or ""
    if f["correction_id"] is not None:
        # A reviewer's fragment is its own text: the quote is all of it.
        qs, qe = 0, len(text)
        local_s, local_e = 0, len(text)
    else:
        qs, qe = f["quote_start"], f["quote_end"]
        local_s, local_e = qs - f["start"], qe - f["start"]
    return {
        "fragment_id": f["fragment_id"],
        "text": text,
        "start": f["start"],
        "end": f["end"],
        "role": f["role"],
        "origin_type": f["origin_type"],
        "origin_name": f["origin_name"],
        "source_id": f["source_id"],
        "source_title": f["source_title"],
        "version": f["version"],
        "correction_id": f["correction_id"],
        "quote_start": qs,
        "quote_end": qe,
        "segments": [{"text": s.text, "highlight": s.highlight}
                     for s in evidence.highlight_segments(text, local_s, local_e)],
        "speaker": f["speaker"],
        "said_at": f["said_at"],
        "message_index": f["message_index"],
        "page": f["page"],
        "page_end": f["page_end"],
        "section": f["section"],
        "media_type": f["media_type"],
    }


async def claim_sources(g: Graph, ids: list[str]) -> dict[str, list[EvidenceItem]]:
    by_claim: dict[str, list[EvidenceItem]] = {i: [] for i in ids}
    for f in await store_claims.claim_fragments(g, ids):
        by_claim.setdefault(f["claim_id"], []).append(_evidence_item(f))
    return by_claim


async def get_claim(g: Graph, claim_id: str, *, as_of: int | None = None) -> ClaimView:
    """The claim with its evidence; with ``as_of``, as it was then (404 if it did not exist
    yet): its status, corrections, replacements, users and open conflicts then."""
    # Independent reads of a claim that exists: at once, not one after another.
    row: ClaimDetailRow
    links: ClaimLinks
    sources: dict[str, list[EvidenceItem]]
    chain: list[ClaimRef]
    open_conflicts: list[ClaimConflictView]
    row = await store_claims.get_claim_row(g, claim_id, as_of)
    links, sources, chain, open_conflicts = await concurrently(
        store_claims.claim_links(g, claim_id, as_of), claim_sources(g, [claim_id]),
        store_claims.replacement_chain(g, claim_id, as_of),
        store_conflicts.open_conflicts_of_claim(g, claim_id, as_of))
    ev = sources[claim_id]
    first = ev[0] if ev else None
    origin: Origin | None = None
    if first is not None:
        origin = {
            "type": first["origin_type"],
            "name": first["origin_name"],
            "source_id": first["source_id"] or first["correction_id"],
            "source_title": first["source_title"],
            "version": first["version"],
        }
    return {
        **row,
        "origin": origin,
        "evidence": ev,
        "corrections": links["corrections"],
        "superseded_by": links["superseded_by"][0] if links["superseded_by"] else None,
        "supersedes": links["supersedes"],
        "replacement_chain": chain,
        "used_by": links["used_by"],
        "conflicts": open_conflicts,
    }
