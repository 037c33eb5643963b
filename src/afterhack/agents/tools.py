"""The Analyst's three tools, bound to one run's Evidence so the server records what it saw."""

from __future__ import annotations

from afterhack.agents.gate import Evidence
from afterhack.memory import claims
from afterhack.model.chat import ToolSpec
from afterhack.model.claims import FoundBy
from afterhack.model.runs import ClaimSources, SearchHit, ToolCallLog
from afterhack.model.vocab import CLAIM_STATUSES, CURRENT_CLAIM
from afterhack.retrieval.hybrid import ClaimQuery
from afterhack.retrieval.vectors import Vectors
from afterhack.store import claims as store_claims
from afterhack.store.client import Graph

SEARCH_LIMIT = 10
_CURRENT = [s for s in CLAIM_STATUSES if s in CURRENT_CLAIM]
_MAX_IDS_PER_CALL = 50

TOOL_SPECS: list[ToolSpec] = [
    {"type": "function", "function": {
        "name": "search_claims",
        "description": "Search the workspace's current claims. Returns ids, statements and "
                       "the open conflicts each is in (sources that disagree); a search hit "
                       "is not evidence until its sources are retrieved.",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}},
                       "required": ["query"]},
    }},
    {"type": "function", "function": {
        "name": "get_claim_sources",
        "description": "Retrieve the source fragments (exact quoted text and origin) behind "
                       "claims found by search_claims in this run.",
        "parameters": {"type": "object", "properties": {
            "claim_ids": {"type": "array", "items": {"type": "string"}}},
            "required": ["claim_ids"]},
    }},
    {"type": "function", "function": {
        "name": "submit_proposal",
        "description": "Finish: the answer and the claim ids it rests on (only claims whose "
                       "sources you retrieved), optional premises and proposed actions.",
        "parameters": {"type": "object", "properties": {
            "answer": {"type": "string"},
            "claim_ids": {"type": "array", "items": {"type": "string"}},
            "premises": {"type": "array", "items": {"type": "object", "properties": {
                "statement": {"type": "string"},
                "claim_ids": {"type": "array", "items": {"type": "string"}}}}},
            "proposed_actions": {"type": "array", "items": {"type": "string"}}},
            "required": ["answer", "claim_ids"]},
    }},
]
TOOL_NAMES = tuple(t["function"]["name"] for t in TOOL_SPECS)


class RunTools:
    def __init__(self, g: Graph, evidence: Evidence, vectors: Vectors | None = None, *,
                 valid_at: int | None = None) -> None:
        self.g = g
        self.evidence = evidence
        self.vectors = vectors
        # The time the task is about: searches find only the claims valid then.
        self.valid_at = valid_at
        self.calls: list[ToolCallLog] = []
        # How each hit was found (by words, and by meaning at what distance): the offline
        # Analyst weighs meaning-only hits with it; a model sees only the tool's result.
        self.found_by: dict[str, FoundBy] = {}

    async def search_claims(self, query: object) -> list[SearchHit]:
        q = query if isinstance(query, str) else ""
        # Words and meaning (hybrid): a claim found only by meaning is a hit like any other,
        # and like any other must have its sources retrieved before it can be cited. Without
        # neighbours: each hit is a candidate citation, so each must match the query itself.
        found = await claims.search_claims(
            self.g, ClaimQuery(q[:2000], _CURRENT, limit=SEARCH_LIMIT, neighbours=False,
                               valid_at=self.valid_at), self.vectors)
        # Each hit names the open conflicts it is in: the agent should not pick a side.
        hits: list[SearchHit] = [
            {"claim_id": c["id"], "statement": c["statement"], "status": c["status"],
             "open_conflict_ids": c["open_conflict_ids"]}
            for c in found["items"]]
        self.found_by.update({c["id"]: c["found_by"] for c in found["items"]
                              if "found_by" in c})
        ids = [h["claim_id"] for h in hits]
        self.evidence.saw(ids)
        self.calls.append({"name": "search_claims", "arguments": {"query": q[:2000]},
                           "claim_ids": ids, "backed_off": found["search"]["backed_off"]})
        return hits

    async def get_claim_sources(self, claim_ids: object) -> list[ClaimSources]:
        ids = [i for i in claim_ids if isinstance(i, str)] if isinstance(claim_ids, list) else []
        ids = list(dict.fromkeys(ids))[:_MAX_IDS_PER_CALL]
        rows = await store_claims.find_claims(self.g, ids) if ids else {}
        current = [i for i in ids if i in rows and rows[i]["status"] in CURRENT_CLAIM]
        by_claim = await claims.claim_sources(self.g, current) if current else {}
        out: list[ClaimSources] = []
        got: list[str] = []
        for i in ids:
            frags = by_claim.get(i, [])
            if frags:
                got.append(i)
            out.append({
                "claim_id": i,
                "status": rows[i]["status"] if i in rows else "not_found",
                "fragments": [
                    {"fragment_id": f["fragment_id"], "text": f["text"],
                     "origin_type": f["origin_type"], "origin_name": f["origin_name"],
                     "quote_start": f["quote_start"], "quote_end": f["quote_end"],
                     "start": f["start"], "end": f["end"]}
                    for f in frags
                ],
            })
        # Only a current claim whose fragments were actually returned counts as retrieved.
        self.evidence.read(got)
        self.calls.append({"name": "get_claim_sources", "arguments": {"claim_ids": [*ids]},
                           "claim_ids": got})
        return out
