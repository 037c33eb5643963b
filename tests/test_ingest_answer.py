"""An ingest's answer is encoded by the schema its status names (api/routes/sources.py), not
validated against the union first: it must say exactly what validating it would have said,
for every status, with conflicts, retirements and previews in it."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from afterhack.model.sources import IngestResult

UNION: TypeAdapter[Any] = TypeAdapter(IngestResult)

MARCH = "The product launch is planned for June 12. The budget is 40,000 euros."
APRIL = "The product launch is planned for June 19. The budget is 40,000 euros."


def _as_validated(body: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(UNION.dump_json(UNION.validate_python(body)))
    return out


def test_every_ingest_answer_is_what_validation_would_give(client: TestClient, ws: str) -> None:
    url = f"/api/workspaces/{ws}/sources"
    seen: dict[str, dict[str, Any]] = {}

    def post(payload: dict[str, Any], code: int) -> dict[str, Any]:
        r = client.post(url, json=payload)
        assert r.status_code == code, r.text
        body: dict[str, Any] = r.json()
        assert body == _as_validated(body), body["status"]
        seen[body["status"]] = body
        return body

    first = post({"title": "March memo", "text": MARCH}, 201)
    sid = first["source"]["id"]
    post({"title": "April memo", "text": APRIL, "preview": True}, 200)
    post({"title": "April memo", "text": APRIL}, 201)
    post({"title": "March memo", "text": MARCH, "source_id": sid}, 200)
    post({"title": "March memo", "text": "The budget is 40,000 euros.", "source_id": sid}, 201)
    skipped = post({"title": "later", "text": "The office moves to Lyon in May.",
                    "extract": False}, 201)
    r = client.post(f"{url}/{skipped['source']['id']}/extract")
    assert r.status_code == 200 and r.json() == _as_validated(r.json())

    assert set(seen) == {"created", "preview", "unchanged", "versioned"}
    assert seen["preview"]["conflicts"] and seen["preview"]["source"] is None
    assert seen["versioned"]["retired"], seen["versioned"]
    assert first["claims"] and all(c["status"] == "proposed" for c in first["claims"])
