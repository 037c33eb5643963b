"""Steps through the HTTP API as a user takes them (add a source, run the agent, correct a
claim, settle a conflict), each checking the status the API documents for it.

They take the in-process test client or an ``httpx.Client`` on a served app alike: the two
come from different HTTP libraries (starlette's test client is built on its own), so the
steps ask only for what both offer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

from fastapi.testclient import TestClient

from afterhack.app import create_app
from afterhack.config import Settings
from tests.support import LOCAL


class HttpResponse(Protocol):
    @property
    def status_code(self) -> int: ...

    @property
    def text(self) -> str: ...

    def json(self, **kwargs: Any) -> Any: ...


class Http(Protocol):
    def get(self, url: str, *, params: Mapping[str, Any] | None = None) -> HttpResponse: ...

    def post(self, url: str, *, json: Any = None,
             headers: Mapping[str, str] | None = None) -> HttpResponse: ...


def app_client(settings: Settings) -> TestClient:
    """The app in this process on ``settings``, as a local client talks to it; a failure
    inside answers as it would over the wire (a 500), not as an exception in the test."""
    return TestClient(create_app(settings), raise_server_exceptions=False, base_url=LOCAL)


def read_json(http: Http, path: str, **params: Any) -> Any:
    """The answer of a read that must succeed."""
    r = http.get(path, params=params)
    assert r.status_code == 200, (path, params, r.text)
    return r.json()


def new_workspace(http: Http, name: str = "test",
                  headers: Mapping[str, str] | None = None) -> str:
    r = http.post("/api/workspaces", json={"name": name}, headers=headers)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def add_source(http: Http, ws: str, text: str, *, title: str = "Plan",
               **fields: Any) -> dict[str, Any]:
    """The ingest answer; ``fields`` are the request's other fields (``source_id`` for a new
    version, ``preview``, ``extract``)."""
    r = http.post(f"/api/workspaces/{ws}/sources", json={"title": title, "text": text, **fields})
    assert r.status_code in (200, 201), r.text
    body: dict[str, Any] = r.json()
    # Nothing written (a preview, or the same text again) is a 200; anything written a 201.
    assert r.status_code == (200 if body["status"] in ("unchanged", "preview") else 201), body
    return body


def claim_named(body: Mapping[str, Any], statement: str) -> dict[str, Any]:
    """The claim of an ingest answer that says ``statement``."""
    found: dict[str, Any] = next(c for c in body["claims"] if c["statement"] == statement)
    return found


def run_agent(http: Http, ws: str, task: str, **fields: Any) -> dict[str, Any]:
    """The run's view: its decision, actions and handoffs."""
    r = http.post(f"/api/workspaces/{ws}/agent-runs", json={"task": task, **fields})
    assert r.status_code == 201, r.text
    view: dict[str, Any] = r.json()
    return view


def cited(view: Mapping[str, Any]) -> list[str]:
    """The ids of the claims a run's decision rests on, premise by premise."""
    return [c["id"] for p in view["decision"]["premises"] for c in p["claims"]]


def preview_correction(http: Http, ws: str, claim_id: str, statement: str, *,
                       kind: str = "replace") -> dict[str, Any]:
    r = http.post(f"/api/workspaces/{ws}/claims/{claim_id}/corrections/preview",
                  json={"statement": statement, "kind": kind})
    assert r.status_code == 200, r.text
    preview: dict[str, Any] = r.json()
    return preview


def apply_correction(http: Http, ws: str, claim_id: str, statement: str,
                     preview: Mapping[str, Any], *, kind: str = "replace",
                     **fields: Any) -> HttpResponse:
    """The correction applied on the revisions ``preview`` saw; the answer unchecked, as
    the tests of a refusal need it. ``fields``: the request's others (``reason``)."""
    return http.post(f"/api/workspaces/{ws}/claims/{claim_id}/corrections", json={
        "statement": statement, "kind": kind,
        "claim_revision": preview["revisions"]["claim_revision"],
        "impact_token": preview["revisions"]["impact_token"], **fields})


def correct_claim(http: Http, ws: str, claim_id: str, statement: str, *,
                  kind: str = "replace", **fields: Any) -> dict[str, Any]:
    """Preview, then apply: a correction as a user makes one. The applied correction."""
    preview = preview_correction(http, ws, claim_id, statement, kind=kind)
    r = apply_correction(http, ws, claim_id, statement, preview, kind=kind, **fields)
    assert r.status_code == 201, r.text
    applied: dict[str, Any] = r.json()
    return applied


def resolve_conflict(http: Http, ws: str, conflict_id: str, *,
                     reason: str = "The April memo is the latest word.",
                     resolution: Mapping[str, Any] | None = None,
                     **choice: Any) -> tuple[dict[str, Any], HttpResponse]:
    """Preview, then resolve with ``choice`` (``keep`` or ``dismiss``): the preview and the
    resolution's answer, unchecked. ``resolution``: what only the resolution carries
    (``valid_times``)."""
    base = f"/api/workspaces/{ws}/conflicts/{conflict_id}"
    p = http.post(base + "/preview", json=choice)
    assert p.status_code == 200, p.text
    preview: dict[str, Any] = p.json()
    r = http.post(base + "/resolve", json={
        **choice, "reason": reason,
        "conflict_revision": preview["revisions"]["conflict_revision"],
        "impact_token": preview["revisions"]["impact_token"], **(resolution or {})})
    return preview, r


def fill_path(template: str, ws: str, other: str) -> str:
    """A route's path template with ``ws`` for the workspace and ``other`` for every other
    parameter."""
    return re.sub(r"\{[^}]+\}", other, template.replace("{ws}", ws))
