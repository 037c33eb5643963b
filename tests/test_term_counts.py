"""The term counts search weighs words by (store/terms.py), on the real FalkorDB: kept in the
writes that make claims, equal to counting the claims, giving the same BM25 ranking as the
plain formula over the same claims, rebuilt for a graph that has none, never exported."""

from __future__ import annotations

import math
from typing import Any

import pytest
from fastapi.testclient import TestClient

from afterhack import hybrid, ranking, search
from afterhack.model.vocab import CURRENT_CLAIM
from afterhack.store import claims as store_claims
from afterhack.store import terms
from afterhack.store.client import Graph
from tests.support.graphs import with_graph

TEXT = ("The launch is in Berlin. The launch of the rocket is soon. The rocket is big. "
        "Zeppelins fly over the launch site in Berlin. Anna leads the launch team. "
        "The venue in Berlin holds 200 guests.")


def _add(client: TestClient, ws: str, text: str, title: str = "Plan") -> list[dict[str, Any]]:
    r = client.post(f"/api/workspaces/{ws}/sources", json={"title": title, "text": text})
    assert r.status_code == 201, r.text
    return list(r.json()["claims"])


async def _claims(g: Graph) -> list[dict[str, Any]]:
    rows = await g.read("MATCH (c:Claim) RETURN c.id AS id, c.terms AS terms, "
                        "c.status AS status, c.created_at AS created_at")
    return [dict(r) for r in rows]


async def _stored_counts(g: Graph) -> dict[str, int]:
    rows = await g.read("MATCH (t:Term) RETURN t.key AS k, t.df AS df")
    return {r["k"]: r["df"] for r in rows}


def _counted(claims: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {terms.ALL: len(claims)}
    for c in claims:
        for t in c["terms"]:
            out[t] = out.get(t, 0) + 1
    return out


def test_counts_follow_every_write_of_claims(client: TestClient, ws: str, falkordb: str) -> None:
    made = _add(client, ws, TEXT)
    _add(client, ws, "The rocket launch moved to Berlin.", title="Update")
    # A correction's replacement is a claim too.
    target = next(c for c in made if c["statement"].startswith("The rocket is big"))
    r = client.post(f"/api/workspaces/{ws}/claims/{target['id']}/corrections/preview",
                    json={"kind": "replace", "statement": "The rocket is huge."})
    assert r.status_code == 200, r.text
    revisions = r.json()["revisions"]
    r = client.post(f"/api/workspaces/{ws}/claims/{target['id']}/corrections",
                    json={"kind": "replace", "statement": "The rocket is huge.",
                          "claim_revision": revisions["claim_revision"],
                          "impact_token": revisions["impact_token"]})
    assert r.status_code in (200, 201), r.text

    async def check(g: Graph) -> None:
        claims = await _claims(g)
        assert any(c["status"] == "superseded" for c in claims)
        assert await _stored_counts(g) == _counted(claims)
        n, df = await terms.document_frequencies(g, ["launch", "huge", "nowhere"])
        assert n == len(claims)
        assert df == {"launch": sum("launch" in c["terms"] for c in claims), "huge": 1,
                      "nowhere": 0}

    with_graph(falkordb, ws, check)


def _plain_bm25(claims: list[dict[str, Any]], query: list[str], limit: int,
                cap: int) -> list[str]:
    """The formula written out over every claim (no index, no budget): each query term held
    by any claim weighs its idf; a claim scores the weights of the terms it holds, scaled by
    its length against the mean length of the current claims found. Found: those holding a
    term that brings claims in (ranking.via_terms: the terms held by fewer than ``cap``)."""
    n = len(claims)
    df = {t: sum(t in c["terms"] for c in claims) for t in query}
    idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items() if d}
    via = ranking.via_terms(df, cap)
    found = [c for c in claims
             if c["status"] in CURRENT_CLAIM and any(t in c["terms"] for t in via)]
    if not found:
        return []
    mean = sum(len(c["terms"]) for c in found) / len(found)
    order = sorted(idf, key=lambda t: (df[t], t))

    def score(c: dict[str, Any]) -> float:
        held = 0.0
        for t in order:
            if t in c["terms"]:
                held += idf[t]
        return held * (ranking.K1 + 1) / (
            1 + ranking.K1 * (1 - ranking.B + ranking.B * len(c["terms"]) / mean))

    found.sort(key=lambda c: (-score(c), c["created_at"], c["id"]))
    return [c["id"] for c in found[:limit]]


@pytest.mark.parametrize("cap", [store_claims.TERM_COUNT_CAP, 3])
def test_ranking_equals_the_plain_formula(client: TestClient, ws: str, falkordb: str,
                                          cap: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # With a cap of 3, "berlin" and "launch" are common: they score, but bring nothing in.
    monkeypatch.setattr(store_claims, "TERM_COUNT_CAP", cap)
    _add(client, ws, TEXT)
    _add(client, ws, "Berlin rocket guests fly soon. The team in Berlin is big.", title="More")
    queries = ["launch Berlin", "rocket team", "zeppelins launch Berlin site",
               "guests venue 200", "big", "nothing matches this"]

    async def check(g: Graph) -> None:
        claims = await _claims(g)
        for q in queries:
            words = list(search.plan(q).terms)
            got = await hybrid.text_ranking(g, words, list(CURRENT_CLAIM), 50)
            assert [r["id"] for r in got] == _plain_bm25(claims, words, 50, cap), q

    with_graph(falkordb, ws, check)


def test_a_graph_without_counts_gets_them_back(client: TestClient, ws: str,
                                               falkordb: str) -> None:
    _add(client, ws, TEXT)

    async def check(g: Graph) -> None:
        before = await _stored_counts(g)
        words = ["launch", "berlin"]
        ranked = [r["id"] for r in await hybrid.text_ranking(g, words, list(CURRENT_CLAIM), 20)]
        # A graph written before counts existed: claims with terms, no Term nodes, no index.
        await g.write("MATCH (t:Term) DELETE t")
        await g.write("DROP INDEX FOR (t:Term) ON (t.key)")
        assert not await terms.counts_agree(g)
        assert await hybrid.text_ranking(g, words, list(CURRENT_CLAIM), 20) == []
        assert await terms.ensure_counts(g) is True
        assert await _stored_counts(g) == before
        indexed = await g.read("CALL db.indexes() YIELD label, properties "
                               "WHERE label = 'Term' RETURN properties AS p")
        assert [r["p"] for r in indexed] == [["key"]]
        assert [r["id"] for r in
                await hybrid.text_ranking(g, words, list(CURRENT_CLAIM), 20)] == ranked
        # Counts that agree are left alone.
        assert await terms.ensure_counts(g) is False
        # A wrong count is noticed too (here: one claim too many).
        await g.write("MATCH (t:Term {key: $all}) SET t.df = t.df + 1", {"all": terms.ALL})
        assert await terms.ensure_counts(g) is True
        assert await _stored_counts(g) == before

    with_graph(falkordb, ws, check)


def test_start_up_rebuilds_missing_counts(client: TestClient, ws: str, falkordb: str) -> None:
    _add(client, ws, TEXT)

    async def drop(g: Graph) -> dict[str, int]:
        before = await _stored_counts(g)
        await g.write("MATCH (t:Term) DELETE t")
        return before

    before = with_graph(falkordb, ws, drop)

    async def start_up(g: Graph) -> dict[str, int]:
        assert await terms.ensure_counts_everywhere(g.store) >= 1
        return await _stored_counts(g)

    assert with_graph(falkordb, ws, start_up) == before


def test_counts_are_not_exported_and_a_restore_counts_again(client: TestClient, ws: str,
                                                            falkordb: str) -> None:
    _add(client, ws, TEXT)
    before = with_graph(falkordb, ws, _stored_counts)
    r = client.get(f"/api/workspaces/{ws}/export")
    assert r.status_code == 200, r.text
    export = r.json()
    assert export["nodes"] and not any("Term" in n["labels"] for n in export["nodes"])
    assert client.delete(f"/api/workspaces/{ws}").status_code == 204
    r = client.post("/api/workspaces/restore", json=export)
    assert r.status_code == 201, r.text
    assert with_graph(falkordb, ws, _stored_counts) == before
    items = client.get(f"/api/workspaces/{ws}/claims",
                       params={"q": "zeppelins", "mode": "text",
                               "neighbours": "false"}).json()["items"]
    assert [i["statement"] for i in items] == ["Zeppelins fly over the launch site in Berlin."]
