from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient

from tests.support.api import add_source
from tests.support.errors import assert_canonical_error
from tests.support.texts import JUNE


def test_backoff_finds_the_launch_claim(client: TestClient, ws: str) -> None:
    add_source(client, ws,
               JUNE + " The venue is Hall 7 in Berlin. Catering is booked for 200 guests.")
    r = client.get(f"/api/workspaces/{ws}/claims", params={"q": "launch date for the product"})
    assert r.status_code == 200
    body = r.json()
    assert body["search"]["backed_off"] is True
    assert body["items"][0]["statement"] == JUNE
    assert "date" not in body["search"]["terms"] and "for" not in body["search"]["terms"]


def test_phrase_that_matches_does_not_back_off(client: TestClient, ws: str) -> None:
    add_source(client, ws, JUNE + " The venue is Hall 7 in Berlin.")
    body = client.get(f"/api/workspaces/{ws}/claims",
                      params={"q": "product launch", "neighbours": "false"}).json()
    assert body["search"]["backed_off"] is False
    assert [c["statement"] for c in body["items"]] == [JUNE]
    # A claim holds every word asked: it is what the search names, alone.
    items = client.get(f"/api/workspaces/{ws}/claims", params={"q": "product launch"}).json()[
        "items"]
    assert [c["statement"] for c in items] == [JUNE]
    # No claim holds them all ("plans" is in none): by default the first hits bring the
    # sentences around them along, marked as such.
    items = client.get(f"/api/workspaces/{ws}/claims",
                       params={"q": "product launch plans", "mode": "text"}).json()["items"]
    assert [c["statement"] for c in items] == [JUNE, "The venue is Hall 7 in Berlin."]
    assert items[1]["found_by"] == {"match": "neighbour", "text": False,
                                    "vector_distance": None, "neighbour_of": items[0]["id"]}


@pytest.mark.parametrize("q", ["$(", "'", '"', "launch-date", "-", "|", "((", "@statement:x",
                               "*", "%%", "\\", "~launch", "{", "launch\"date", "$", "[1 TO 2]"])
def test_hostile_queries_never_error(client: TestClient, ws: str, q: str) -> None:
    add_source(client, ws, JUNE)
    r = client.get(f"/api/workspaces/{ws}/claims", params={"q": q})
    assert r.status_code == 200, r.text
    if "launch" in q:
        assert [c["statement"] for c in r.json()["items"]] == [JUNE]


def test_ranked_by_relevance(client: TestClient, ws: str) -> None:
    add_source(client, ws, "The launch venue is Hall 7. The launch of the launch party is on "
                           "June 12. Berlin has good weather.")
    items = client.get(f"/api/workspaces/{ws}/claims", params={"q": "launch party"}).json()["items"]
    assert items[0]["statement"].startswith("The launch of the launch party")


def test_status_filter_and_validation(client: TestClient, ws: str) -> None:
    add_source(client, ws, JUNE)
    assert len(client.get(f"/api/workspaces/{ws}/claims").json()["items"]) == 1
    r = client.get(f"/api/workspaces/{ws}/claims", params={"status": "superseded"})
    assert r.json()["items"] == []
    r = client.get(f"/api/workspaces/{ws}/claims", params={"status": "proposed,accepted"})
    assert len(r.json()["items"]) == 1
    assert_canonical_error(
        client.get(f"/api/workspaces/{ws}/claims", params={"status": "bogus"}), 422)


def test_claim_evidence_highlights_exact_words_with_emoji(client: TestClient, ws: str) -> None:
    text = "🚀🚀 Kick-off! 👩‍👩‍👧 party. The café opens on June 12 in Köln. Then e\u0301clair time."
    out = add_source(client, ws, text)
    claim = next(c for c in out["claims"] if "café" in c["statement"])
    assert text[claim["quote_start"] : claim["quote_end"]] == claim["evidence_quote"]
    detail = client.get(f"/api/workspaces/{ws}/claims/{claim['id']}").json()
    ev = detail["evidence"][0]
    marked = [s["text"] for s in ev["segments"] if s["highlight"]]
    assert marked == ["The café opens on June 12 in Köln."]
    assert "".join(s["text"] for s in ev["segments"]) == ev["text"]
    assert detail["origin"]["type"] == "document" and detail["origin"]["name"] == "Plan"
    assert detail["confidence_kind"] == "quote_match"
    assert detail["superseded_by"] is None and detail["corrections"] == []
    assert detail["replacement_chain"] == [
        {"id": claim["id"], "statement": claim["statement"], "status": "proposed"}]


def test_unknown_claim_is_404(client: TestClient, ws: str) -> None:
    r = client.get(f"/api/workspaces/{ws}/claims/{uuid.uuid4()}")
    assert_canonical_error(r, 404)
    assert r.json()["error"]["code"] == "claim_not_found"


def test_duplicate_claims_in_one_source_are_dropped(client: TestClient, ws: str) -> None:
    out = add_source(client, ws, JUNE + " " + JUNE + " THE PRODUCT LAUNCH IS PLANNED FOR JUNE 12.")
    assert len(out["claims"]) == 1
    assert out["dropped"] == {"duplicate": 2}


def test_skipped_extraction_can_run_later(client: TestClient, ws: str) -> None:
    r = client.post(f"/api/workspaces/{ws}/sources",
                    json={"title": "t", "text": JUNE, "extract": False})
    assert r.status_code == 201 and r.json()["claims"] == []
    sid = r.json()["source"]["id"]
    assert r.json()["source"]["versions"][0]["fragments"][0]["extraction"] == "skipped"
    out = client.post(f"/api/workspaces/{ws}/sources/{sid}/extract").json()
    assert [c["statement"] for c in out["claims"]] == [JUNE]
    assert out["source"]["versions"][0]["fragments"][0]["extraction"] == "done"
    again = client.post(f"/api/workspaces/{ws}/sources/{sid}/extract").json()
    assert again["claims"] == []
    assert len(client.get(f"/api/workspaces/{ws}/claims").json()["items"]) == 1
    assert client.post(f"/api/workspaces/{ws}/sources/{uuid.uuid4()}/extract").status_code == 404
