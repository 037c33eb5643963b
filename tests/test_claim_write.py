"""A claim crosses to the store as a list of fields: each field lands on its own property."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient

from afterhack.records.audit import audit_params
from afterhack.records.clock import now_ms
from afterhack.records.ids import new_id
from afterhack.store import source_writes
from afterhack.store.client import Store
from afterhack.store.names import graph_name
from afterhack.store.source_params import NO_FILE, NewClaim, VersionWrite

TEXT = "Alpha. The launch moved from May 2 to June 12 after review."


def _new_claim(fragment_id: str) -> NewClaim:
    # Every field distinct from every other of its type, so a swap in the order shows.
    quote = "The launch moved from May 2 to June 12 after review."
    start = TEXT.index(quote)
    return {"id": new_id(), "fragment_id": fragment_id,
            "statement": "The launch moved to June 12.", "key": "the launch moved to june 12",
            "terms": "launch move june 12", "quote": quote, "quote_start": start,
            "quote_end": start + len(quote), "confidence": 0.75, "extracted_by": "by-test",
            "valid_from": 1_000, "valid_until": 2_000, "said_by": "Ana", "said_at": 3_000}


def test_each_field_of_a_written_claim_lands_on_its_own_property(
        client: TestClient, ws: str, falkordb: str) -> None:
    async def go() -> dict[str, Any]:
        store = Store(falkordb)
        g = store.graph(graph_name(ws))
        try:
            sid, fid = new_id(), new_id()
            claim = _new_claim(fid)
            p: VersionWrite = {
                "source_id": sid, "version_id": new_id(), "kind": "text", "title": "t",
                "message_count": None, **NO_FILE,
                "origin_type": "document", "origin_name": "t", "text": TEXT,
                "content_hash": "h", "length": len(TEXT),
                "fragments": [{"id": fid, "seq": 0, "text": TEXT, "start": 0,
                               "end": len(TEXT), "extraction": "done"}],
                "claims": [claim], "conflicts": [], "members": [], "links": [],
                "model_calls": "[]",
                **audit_params("source.created", "test", sid, {})}
            await source_writes.create_source(g, p)
            rows = await g.read(
                "MATCH (c:Claim {id: $id})-[:SUPPORTED_BY]->(f:SourceFragment) "
                "RETURN properties(c) AS c, f.id AS fragment", {"id": claim["id"]})
            return {"claim": claim, **rows[0]}
        finally:
            await store.close()

    got = asyncio.run(go())
    claim, c = got["claim"], got["c"]
    assert got["fragment"] == claim["fragment_id"] == c["fragment_id"]
    assert (c["statement"], c["statement_key"], c["evidence_quote"]) == (
        claim["statement"], claim["key"], claim["quote"])
    assert (c["quote_start"], c["quote_end"]) == (claim["quote_start"], claim["quote_end"])
    assert (c["valid_from"], c["valid_until"]) == (claim["valid_from"], claim["valid_until"])
    assert (c["said_by"], c["said_at"]) == (claim["said_by"], claim["said_at"])
    assert (c["confidence"], c["extracted_by"]) == (0.75, "by-test")
    assert c["terms"] == claim["terms"].split(" ")
    assert c["vector_pending"] is True and c.get("embedding") is None
    assert c["status"] == "proposed" and c["created_at"] <= now_ms()
