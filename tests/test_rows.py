"""Rows become records at the store's edge (store/rows.py): a row of the wrong shape fails
there, by name, and a right one passes through untouched."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from afterhack.model.claims import ClaimRow, QuotedClaim
from afterhack.model.graph import ClaimNodeRow
from afterhack.store import claims as store_claims
from afterhack.store.client import Graph
from afterhack.store.rows import RowShapeError, of
from tests.support.api import add_source
from tests.support.graphs import with_graph

CLAIM_NODE: dict[str, Any] = {"id": "c1", "statement": "s", "status": "proposed",
                              "confidence_kind": "quote_match", "source_id": "s1",
                              "revision": 1, "replaces": []}
CLAIM: dict[str, Any] = {"id": "c1", "statement": "s", "status": "proposed",
                         "confidence": 1.0, "confidence_kind": "quote_match",
                         "source_id": "s1", "revision": 1, "created_at": 5}


def test_a_row_of_the_record_passes_as_it_is() -> None:
    row = dict(CLAIM_NODE)
    assert of(ClaimNodeRow).one(row) is row
    assert of(ClaimNodeRow).all([row, row]) == [row, row]
    assert of(ClaimNodeRow).first([]) is None


def test_a_missing_or_unexpected_key_is_named() -> None:
    with pytest.raises(RowShapeError) as missing:
        of(ClaimNodeRow).one({k: v for k, v in CLAIM_NODE.items() if k != "replaces"})
    assert (missing.value.record, missing.value.missing, missing.value.unexpected) == (
        "ClaimNodeRow", ["replaces"], [])
    with pytest.raises(RowShapeError) as extra:
        of(ClaimNodeRow).one({**CLAIM_NODE, "replaced": []})
    assert (extra.value.missing, extra.value.unexpected) == ([], ["replaced"])
    assert "ClaimNodeRow" in str(extra.value) and "replaced" in str(extra.value)


def test_not_required_keys_may_be_there_or_not() -> None:
    # Declared NotRequired under postponed annotations, which the class itself reads as
    # required: the converter reads the resolved annotations.
    claims = of(ClaimRow)
    assert claims.one(dict(CLAIM)) == CLAIM
    assert claims.one({**CLAIM, "score": 1.5, "open_conflict_ids": []})["score"] == 1.5
    with pytest.raises(RowShapeError):
        claims.one({**CLAIM, "scores": 1.5})
    with pytest.raises(RowShapeError):
        claims.one({k: v for k, v in CLAIM.items() if k != "created_at"})


def test_a_query_that_drifts_from_its_record_fails_at_its_read(
        client: TestClient, ws: str, falkordb: str, monkeypatch: pytest.MonkeyPatch) -> None:
    added = add_source(client, ws, "The launch is on June 12.", title="t")
    claim_id = added["claims"][0]["id"]

    async def read(g: Graph) -> dict[str, QuotedClaim]:
        return await store_claims.find_claims(g, [claim_id])

    assert claim_id in with_graph(falkordb, ws, read)
    monkeypatch.setattr(store_claims, "CLAIM_FIELDS",
                        store_claims.CLAIM_FIELDS.replace("AS revision", "AS rev"))
    with pytest.raises(RowShapeError) as err:
        with_graph(falkordb, ws, read)
    assert (err.value.record, err.value.missing, err.value.unexpected) == (
        "QuotedClaim", ["revision"], ["rev"])
