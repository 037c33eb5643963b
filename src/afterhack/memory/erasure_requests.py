"""A speaker asks the memory to forget something they said (docs/rules.md, rule 22).

A message read as a request (rules/forget_request.py: an imperative of forgetting, in
English, German or Chinese) names what is to go; the speaker's own current claims that
the object names are found through the search every claim is found by (its words, then
its meaning; retrieval/hybrid.py), restricted to what that speaker said. In one write they
are withheld (no search, list or run finds or cites them) and an erasure request naming
them is recorded for a reviewer, who applies it (memory/erasure.py) or declines it (each
claim is what it was before). Under the workspace's ``forget_requests: apply`` the request
is applied at once. The request message itself is kept: it names what to forget, it does
not hold it.

A key that may not erase (an agent's) files the same kind of request for a target it names
(``file_request``, the MCP tool ``forget``): the claims erasing it would erase are withheld
until a reviewer decides.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from afterhack.errors import (
    AfterhackError,
    ErasureClosed,
    InvalidRequest,
    NothingToErase,
    StaleErasurePreview,
)
from afterhack.memory import erasure
from afterhack.model.erasures import ErasureRecord, ErasureTarget
from afterhack.model.vocab import (
    CURRENT_CLAIM,
    ClaimStatus,
    ForgetRequests,
    SearchMode,
    SupportPolicy,
)
from afterhack.records.audit import audit_event
from afterhack.records.clock import now_ms
from afterhack.records.ids import new_id
from afterhack.retrieval import hybrid, search
from afterhack.rules import redaction
from afterhack.rules.forget_request import ForgetRequest, read_request
from afterhack.store import erasure_reads as reads
from afterhack.store import erasure_records as records
from afterhack.store.client import Graph

if TYPE_CHECKING:
    from afterhack.retrieval.vectors import Vectors

log = logging.getLogger("afterhack")

# How many hits of the search are read for the speaker's claims among them.
_SEARCH_DEPTH = 50
# Found by meaning alone (no word in common), a claim is named only this near to the
# nearest of the speaker's (as the offline Analyst takes hits by meaning).
_MEANING_MARGIN = 0.02
_CURRENT: list[ClaimStatus] = sorted(CURRENT_CLAIM)
# Who applies a request under ``forget_requests: apply``: the workspace's setting.
POLICY = "policy"


@dataclass(frozen=True)
class SaidRequest:
    """A message that asks to forget: who said it, where, and what it asks."""

    source_id: str
    message_index: int
    speaker: str
    fragment_ids: frozenset[str]  # the request message's own (its claims are not named)
    asks: ForgetRequest


def requests_in(source_id: str, first_index: int, messages: Sequence[tuple[str, str]],
                fragments: Sequence[tuple[int | None, str]]) -> list[SaidRequest]:
    """The messages (speaker, text; indexed from ``first_index``) that ask to forget, each
    with its own fragments (``fragments``: each one's message offset and id)."""
    asking = {i: asks for i, (_, text) in enumerate(messages)
              if (asks := read_request(text)) is not None}
    if not asking:
        return []
    own: dict[int, set[str]] = {i: set() for i in asking}
    for offset, fid in fragments:
        if offset in own:
            own[offset].add(fid)
    return [SaidRequest(source_id, first_index + i, messages[i][0], frozenset(own[i]), asks)
            for i, asks in asking.items()]


async def named_claims(g: Graph, r: SaidRequest, vectors: Vectors | None) -> list[str]:
    """The speaker's own current claims that the request's object names: those holding the
    most of its words, or when none holds any, those nearest it in meaning. The two
    rankings are asked apart: fused, the request's own sentence (which holds its words)
    would outrank by meaning every claim worded otherwise."""
    by_words = await _own(g, r, vectors, "text")
    wanted = set(search.plan(r.asks.words).terms)
    held = {i: len(wanted & set(c["terms"] or [])) for i, (c, _) in by_words.items()}
    best = max(held.values(), default=0)
    if best > 0:
        return sorted(i for i, n in held.items() if n == best)
    by_meaning = await _own(g, r, vectors, "vector")
    near = [(d, i) for i, (_, d) in by_meaning.items() if d is not None]
    if not near:
        return []
    nearest = min(d for d, _ in near)
    return sorted(i for d, i in near if d <= nearest + _MEANING_MARGIN)


async def _own(g: Graph, r: SaidRequest, vectors: Vectors | None, mode: SearchMode
               ) -> dict[str, tuple[reads.SaidClaim, float | None]]:
    """The hits of one ranking that the speaker said (not in the request itself), each with
    its distance in meaning (None when found by its words)."""
    found = await hybrid.search_claims(
        g, hybrid.ClaimQuery(r.asks.words, _CURRENT, limit=_SEARCH_DEPTH, mode=mode,
                             neighbours=False), vectors)
    hits = {h["id"]: h for h in found["items"]}
    out: dict[str, tuple[reads.SaidClaim, float | None]] = {}
    for c in await reads.said_claims(g, list(hits)):
        if (c["said_by"] == r.speaker and c["fragment_id"] not in r.fragment_ids
                and c["status"] in CURRENT_CLAIM):
            by = hits[c["id"]].get("found_by")
            out[c["id"]] = (c, by["vector_distance"] if by is not None else None)
    return out


async def raise_requests(g: Graph, said: Sequence[SaidRequest], *, vectors: Vectors | None,
                         forget: ForgetRequests, policy: SupportPolicy,
                         after: erasure.AfterErasure | None = None) -> list[ErasureRecord]:
    """Each request that names claims: withheld and recorded (and under ``apply``, applied
    at once). A request that names none of the speaker's claims raises nothing."""
    out: list[ErasureRecord] = []
    for r in said:
        ids = await named_claims(g, r, vectors)
        if not ids:
            continue
        request_id = await _withhold(g, r, ids)
        if request_id is None:
            continue
        record = await records.get_erasure(g, request_id)
        if forget == "apply":
            try:
                record = await apply_request(g, request_id, actor=POLICY, policy=policy,
                                             reason="Applied at once: the workspace applies "
                                                    "a speaker's request to forget.")
            except AfterhackError as exc:
                # The messages are written and the claims withheld: the request waits for a
                # reviewer rather than the append failing after its write.
                log.warning("erasure request %s left for a reviewer: %s", request_id,
                            exc.code)
            else:
                if after is not None:
                    after()
        out.append(record)
    return out


async def _withhold(g: Graph, r: SaidRequest, ids: list[str], attempts: int = 3
                    ) -> str | None:
    for _ in range(attempts):
        rows = await reads.said_claims(g, ids)
        claims = [c for c in rows if c["status"] in CURRENT_CLAIM]
        if not claims:
            return None
        request_id = new_id()
        now = now_ms()
        named = sorted(c["id"] for c in claims)
        if await records.raise_request(g, {
                "id": request_id, "source_id": r.source_id, "message_index": r.message_index,
                "requested_by": r.speaker, "reason": None, "claim_ids": named,
                "claims": [{"id": c["id"], "revision": c["revision"]} for c in claims]},
                now, [audit_event("erasure.requested", r.speaker, request_id, {
                    "source_id": r.source_id, "message_index": r.message_index,
                    "claims": named, "language": r.asks.language}, at=now)]):
            return request_id
    return None


async def file_request(g: Graph, target: ErasureTarget, *, actor: str, reason: str | None,
                       policy: SupportPolicy) -> ErasureRecord:
    """A request to forget ``target`` filed by a caller who may not erase (an agent's key,
    on behalf of the person it talks to): the current claims that erasing the target would
    erase are withheld at once, as a speaker's request withholds its claims, and a reviewer
    applies the request (they are erased) or declines it (each is what it was). A target
    that names no current claim files nothing (``nothing_to_erase``): words held outside
    claims are a reviewer's to erase. The reason is kept without the claims' words."""
    if target["kind"] == "request":
        raise InvalidRequest("A request is applied or declined by a reviewer; name what to "
                             "forget instead.", field="request_id")
    erasure.check_target(target)
    for _ in range(3):
        p = await erasure.plan(g, target, policy=policy)
        claims = sorted((c for c in p.erased if c["status"] in CURRENT_CLAIM),
                        key=lambda c: c["id"])
        if not claims:
            raise NothingToErase("Nothing the target names is a current claim: a reviewer "
                                 "can erase the words themselves.")
        words = redaction.needles([target["text"], *(c["statement"] for c in claims),
                                   *(c["evidence_quote"] for c in claims)])
        request_id, now = new_id(), now_ms()
        named = [c["id"] for c in claims]
        if await records.raise_request(g, {
                "id": request_id, "source_id": None, "message_index": None,
                "requested_by": actor, "claim_ids": named,
                "reason": redaction.scrub(reason, words) if reason is not None else None,
                "claims": [{"id": c["id"], "revision": c["revision"]} for c in claims]},
                now, [audit_event("erasure.requested", actor, request_id,
                                  {"kind": target["kind"], "claims": named}, at=now)]):
            return await records.get_erasure(g, request_id)
    raise StaleErasurePreview("What this request reaches kept changing; file it again.")


def request_target(request_id: str) -> ErasureTarget:
    return {"kind": "request", "source_id": None, "version_id": None, "message_index": None,
            "claim_id": None, "speaker": None, "text": None, "request_id": request_id}


async def apply_request(g: Graph, request_id: str, *, actor: str, policy: SupportPolicy,
                        reason: str | None, attempts: int = 3) -> ErasureRecord:
    """A request applied now, as a reviewer would (preview, then apply on what it saw)."""
    target = request_target(request_id)
    for _ in range(attempts):
        preview = await erasure.preview_erasure(g, target, policy=policy)
        try:
            _, record = await erasure.apply_erasure(
                g, target, impact_token_seen=preview["impact_token"], reason=reason,
                actor=actor, policy=policy)
            return record
        except StaleErasurePreview:
            continue
    raise StaleErasurePreview("What this request reaches kept changing; apply it again.")


async def decline_request(g: Graph, request_id: str, *, actor: str, reason: str | None
                          ) -> ErasureRecord:
    """A request declined: the claims it withheld are what they were before."""
    row = await records.get_row(g, request_id)
    if row["status"] != "requested":
        raise ErasureClosed(erasure_id=request_id, status=row["status"])
    now = now_ms()
    if not await records.decline(g, request_id, row["revision"] or 1, actor, reason, now, [
            audit_event("erasure.declined", actor, request_id,
                        {"claims": list(row["claim_ids"] or [])}, at=now)]):
        current = await records.get_row(g, request_id)
        raise ErasureClosed(erasure_id=request_id, status=current["status"])
    return await records.get_erasure(g, request_id)
