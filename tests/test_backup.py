"""Export, PROV-JSON export, delete and restore on the real FalkorDB: export → delete →
restore gives back the same graph node for node and edge for edge, under the same id."""

from __future__ import annotations

import base64
import json
import threading
import time
import uuid
from collections.abc import Mapping
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prov.model import ProvDocument

from afterhack.memory.prov import prov_time
from afterhack.store import admin
from afterhack.store.client import Graph
from afterhack.store.names import REGISTRY_GRAPH, graph_name
from tests.support.api import run_agent
from tests.support.conflicts import claims_of
from tests.support.errors import assert_canonical_error
from tests.support.files import pdf_file
from tests.support.graphs import graph_names, load, snapshot, violations, with_graph
from tests.support.texts import JULY, JUNE

SAID = 1_780_000_000_000


def _indexes(url: str, ws: str) -> list[str]:
    """The workspace graph's indexes and constraints, as comparable strings. (Not the vector
    index: vectors are derived and left out of an export; a restored workspace is embedded
    again, with its index, by the vector worker.)"""

    async def read(g: Graph) -> list[str]:
        rows = await g.read("CALL db.indexes() YIELD label, properties, types "
                            "RETURN label, [p IN properties WHERE p <> 'embedding'] AS "
                            "properties, types")
        for r in rows:
            r["types"].pop("embedding", None)
        cons = await admin.list_constraints(g.store, g.name)
        return sorted(json.dumps(x, sort_keys=True, default=str)
                      for x in [*rows, *[{k: c[k] for k in ("type", "label", "properties")}
                                         for c in cons]])

    return with_graph(url, ws, read)


def _canon(snap: Mapping[str, Any]) -> dict[str, list[str]]:
    return {k: sorted(json.dumps(x, sort_keys=True) for x in snap[k]) for k in ("nodes", "edges")}


def _rich_workspace(client: TestClient, falkordb: str) -> str:
    """Every kind of node and edge the API writes, plus a bulk-loaded part for size."""
    ws = client.post("/api/workspaces", json={"name": "Rich ✓ \"quoted\""}).json()["id"]
    src = client.post(f"/api/workspaces/{ws}/sources", json={
        "title": "Launch plan", "text": JUNE + " The caterer is Bella Foods. 🚀 Badges are blue."})
    assert src.status_code == 201, src.text
    body = src.json()
    claim = next(c for c in body["claims"] if "June" in c["statement"])
    client.post(f"/api/workspaces/{ws}/sources", json={
        "source_id": body["source"]["id"],
        "text": JUNE + " The caterer is Bella Foods. 🚀 Badges are blue. The venue is the "
                       "harbour hall."})
    run = run_agent(client, ws, "Plan the launch event")
    client.post(f"/api/workspaces/{ws}/agent-runs", json={
        "task": "Schedule the caterer", "builds_on": [run["decision"]["id"]]})
    preview = client.post(f"/api/workspaces/{ws}/claims/{claim['id']}/corrections/preview",
                          json={"statement": JULY}).json()
    r = client.post(f"/api/workspaces/{ws}/claims/{claim['id']}/corrections", json={
        "statement": JULY, "reason": "The venue moved it.", "reviewer": "Ana",
        "claim_revision": preview["revisions"]["claim_revision"],
        "impact_token": preview["revisions"]["impact_token"]})
    assert r.status_code == 201, r.text
    badge = next(c for c in body["claims"] if "Badges" in c["statement"])
    preview = client.post(f"/api/workspaces/{ws}/claims/{badge['id']}/corrections/preview",
                          json={"kind": "retract"}).json()
    r = client.post(f"/api/workspaces/{ws}/claims/{badge['id']}/corrections", json={
        "kind": "retract", "reason": "Nobody decided that.",
        "claim_revision": preview["revisions"]["claim_revision"],
        "impact_token": preview["revisions"]["impact_token"]})
    assert r.status_code == 201, r.text
    # The mistake again, re-ingested: born superseded.
    client.post(f"/api/workspaces/{ws}/sources", json={"title": "Old memo", "text": JUNE})
    # Another memo disagrees with the corrected date: a conflict, resolved by keeping the
    # reviewer's claim, and another one left open.
    other = client.post(f"/api/workspaces/{ws}/sources", json={
        "title": "Update", "text": "The product launch moves to June 30. "
                                   "The caterer is Green Plate."}).json()
    assert len(other["conflicts"]) == 2, other
    dated = next(k for k in other["conflicts"] if k["kind"] == "date")
    keep = next(c["id"] for c in claims_of(dated) if c["statement"] == JULY)
    base = f"/api/workspaces/{ws}/conflicts/{dated['id']}"
    preview = client.post(base + "/preview", json={"keep": keep}).json()
    r = client.post(base + "/resolve", json={
        "keep": keep, "reason": "The reviewer's date stands.",
        "conflict_revision": preview["revisions"]["conflict_revision"],
        "impact_token": preview["revisions"]["impact_token"]})
    assert r.status_code == 201, r.text
    # What was said, by whom, when, and a file with its original (rule 11); under
    # latest_wins a speaker's newer statement superseded the older one.
    assert client.patch(f"/api/workspaces/{ws}", json={"updates": "latest_wins"}
                        ).status_code == 200
    chat = client.post(f"/api/workspaces/{ws}/sources", json={"title": "Office chat", "messages": [
        {"speaker": "Ana", "text": "My office is in Berlin.", "at": SAID},
        {"speaker": "Ben", "text": "The badge office opens at 9 am.", "at": SAID + 1000}]})
    assert chat.status_code == 201, chat.text
    moved = client.post(f"/api/workspaces/{ws}/sources/{chat.json()['source']['id']}/messages",
                        json={"messages": [{"speaker": "Ana", "text": "My office is in Munich.",
                                            "at": SAID + 60_000}]})
    assert moved.status_code == 201 and moved.json()["retired"], moved.text
    report = client.post(f"/api/workspaces/{ws}/sources/files",
                         files={"file": ("report.pdf", pdf_file(), "application/pdf")})
    assert report.status_code == 201, report.text
    sources = [{"id": str(uuid.uuid4()), "title": f"bulk {i}"} for i in range(30)]
    claims = [{"id": str(uuid.uuid4()), "statement": f"Fact number {i} holds.",
               "source_id": sources[i % 30]["id"]} for i in range(3000)]
    decisions = [{"id": str(uuid.uuid4()), "title": f"D{i}",
                  "premises": {"p": [claims[i]["id"], claims[i + 1]["id"]]}}
                 for i in range(0, 2000, 2)]
    actions = [{"id": str(uuid.uuid4()), "description": f"A{i}",
                "decision_ids": [decisions[i]["id"]]} for i in range(500)]
    load(falkordb, ws, sources=sources, claims=claims, decisions=decisions, actions=actions)
    return str(ws)


@pytest.fixture(scope="module")
def exported(client: TestClient, falkordb: str) -> dict[str, Any]:
    ws = _rich_workspace(client, falkordb)
    before = snapshot(falkordb, ws)
    indexes = _indexes(falkordb, ws)
    r = client.get(f"/api/workspaces/{ws}/export")
    assert r.status_code == 200, r.text
    return {"ws": ws, "before": before, "indexes": indexes, "doc": r.json(),
            "prov": client.get(f"/api/workspaces/{ws}/export", params={"format": "prov"})}


def test_export_holds_every_node_and_edge(exported: dict[str, Any]) -> None:
    doc = exported["doc"]
    assert doc["format"] == "afterhack-export/1"
    assert doc["workspace"]["id"] == exported["ws"]
    assert set(doc) == {"format", "workspace", "nodes", "edges"}
    assert _canon(doc) == _canon(exported["before"])
    labels = {n["labels"][0] for n in doc["nodes"]}
    assert labels >= {"Workspace", "Source", "SourceVersion", "SourceFragment", "Claim",
                      "Correction", "AgentRun", "Handoff", "Decision", "Action", "AuditEvent",
                      "Conflict"}
    assert {e["type"] for e in doc["edges"]} >= {
        "HAS_VERSION", "HAS_FRAGMENT", "SUPPORTED_BY", "CORRECTS", "SUPERSEDES", "HAS_HANDOFF",
        "PRODUCED", "USED_CLAIM", "DEPENDS_ON", "REQUIRES", "BETWEEN", "RESOLVES"}
    # Speakers, times and a file's original travel in the export (rule 11).
    props = [n["properties"] for n in doc["nodes"]]
    assert {p.get("speaker") for p in props} >= {"Ana", "Ben"}
    assert any(p.get("said_by") == "Ana" and p.get("said_at") == SAID for p in props)
    [kept_file] = [p for p in props if "file_data" in p]
    assert base64.b64decode(str(kept_file["file_data"])) == pdf_file()
    assert kept_file["media_type"] == "application/pdf"
    assert doc["workspace"]["updates"] == "latest_wins"
    # Every status with its history (rule 10): the API's nodes carry both lists.
    kept = [n["properties"] for n in doc["nodes"]
            if n["labels"][0] in ("Claim", "Decision", "Action", "Conflict")]
    assert all(len(p["status_history"]) == len(p["status_since"]) >= 1 for p in kept)
    assert any(len(p["status_history"]) > 1 for p in kept)


def test_prov_export_is_valid_prov_json_of_the_chain(exported: dict[str, Any]) -> None:
    r = exported["prov"]
    assert r.status_code == 200, r.text
    doc = r.json()
    parsed = ProvDocument.deserialize(content=json.dumps(doc), format="json")
    assert parsed.get_records()  # the prov library reads it back
    declared = {kind: set(doc.get(kind, {})) for kind in ("entity", "activity", "agent")}
    every = set().union(*declared.values())
    refs = {"prov:entity": "entity", "prov:activity": "activity", "prov:agent": "agent",
            "prov:generatedEntity": "entity", "prov:usedEntity": "entity",
            "prov:specificEntity": "entity", "prov:generalEntity": "entity"}
    for kind in ("wasDerivedFrom", "wasGeneratedBy", "used", "wasAttributedTo",
                 "wasInvalidatedBy", "wasAssociatedWith", "specializationOf"):
        assert doc.get(kind), kind
        for rid, rel in doc[kind].items():
            assert rid.startswith("_:")
            for key, want in refs.items():
                if key in rel:
                    assert rel[key] in declared[want], (kind, key, rel[key])
    assert all(i.startswith("ah:") for i in every)
    types = {e["prov:type"]["$"] for e in doc["entity"].values()}
    assert {"ah:Source", "ah:SourceVersion", "ah:SourceFragment", "ah:Claim",
            "ah:Correction", "ah:Decision", "ah:Action"} <= types
    assert {a["prov:type"]["$"] for a in doc["activity"].values()} == {
        "ah:Extraction", "ah:AgentRun", "ah:Correcting"}
    # The corrected claim was invalidated by the correcting activity, and its replacement
    # is a revision of it attributed to the reviewer.
    nodes = {n["properties"]["id"]: n for n in exported["doc"]["nodes"]}
    corr = next(n["properties"] for n in nodes.values()
                if n["labels"] == ["Correction"] and n["properties"]["kind"] == "replace")
    old, rep = f"ah:claim-{corr['claim_id']}", f"ah:claim-{corr['replacement_id']}"
    assert any(x["prov:entity"] == old and x.get("prov:activity") == f"ah:correcting-{corr['id']}"
               for x in doc["wasInvalidatedBy"].values())
    assert any(x["prov:generatedEntity"] == rep and x["prov:usedEntity"] == old
               and x.get("prov:type", {}).get("$") == "prov:Revision"
               for x in doc["wasDerivedFrom"].values())
    assert "ah:reviewer-Ana" in declared["agent"]
    # Generation and invalidation carry their times: the corrected claim was invalidated
    # when its history says it was superseded, each claim retired by a conflict's
    # resolution by that resolution, and every retired claim has its time.
    old_props = nodes[corr["claim_id"]]["properties"]
    retired_at = old_props["status_since"][old_props["status_history"].index("superseded")]
    when = {x["prov:entity"]: x for x in doc["wasInvalidatedBy"].values()}
    assert when[old]["prov:time"] == prov_time(retired_at)
    assert when[old]["prov:activity"] == f"ah:correcting-{corr['id']}"
    retired = [i for i, n in nodes.items() if n["labels"] == ["Claim"]
               and n["properties"]["status"] in ("superseded", "rejected")]
    assert retired and all("prov:time" in when[f"ah:claim-{i}"] for i in retired)
    resolution = next(n["properties"] for n in nodes.values()
                      if n["labels"] == ["Correction"] and n["properties"]["kind"] == "supersede")
    assert any(x.get("prov:activity") == f"ah:correcting-{resolution['id']}"
               for x in when.values())
    claim_entities = [e for e in doc["entity"].values() if e["prov:type"]["$"] == "ah:Claim"]
    assert all("ah:status_history" in e for e in claim_entities)
    # Who said what, when (rule 11): a message is its speaker's, a claim from it names
    # them and the time; a file's version carries its type, name, size and hash (not its
    # bytes); a policy's resolution is a software agent's.
    said = next(e for e in claim_entities if e["prov:value"] == "My office is in Munich.")
    assert said["ah:said_by"] == "Ana" and said["ah:said_at"] == prov_time(SAID + 60_000)
    speakers = {r["prov:agent"] for r in doc["wasAttributedTo"].values()
                if r["prov:entity"].startswith("ah:sourcefragment-")}
    assert speakers == {"ah:speaker-Ana", "ah:speaker-Ben"}
    assert doc["agent"]["ah:speaker-Ana"]["prov:type"]["$"] == "prov:Person"
    assert doc["agent"]["ah:policy-latest_wins"]["prov:type"]["$"] == "prov:SoftwareAgent"
    [pdf_version] = [e for e in doc["entity"].values() if e.get("ah:media_type")]
    assert pdf_version["ah:file_name"] == "report.pdf"
    assert pdf_version["ah:file_size"] == len(pdf_file())
    assert "ah:file_data" not in pdf_version
    pages = {e.get("ah:page") for e in doc["entity"].values()
             if e["prov:type"]["$"] == "ah:SourceFragment"}
    assert {1, 2} <= pages


def test_export_delete_restore_gives_back_the_same_graph(
    client: TestClient, exported: dict[str, Any], falkordb: str
) -> None:
    ws, doc = exported["ws"], exported["doc"]
    r = client.delete(f"/api/workspaces/{ws}")
    assert r.status_code == 200 and r.json()["id"] == ws and r.json()["disk"] in (
        "pending", "clean")
    assert_canonical_error(client.get(f"/api/workspaces/{ws}"), 404)
    assert graph_name(ws) not in graph_names(falkordb)
    assert_canonical_error(client.delete(f"/api/workspaces/{ws}"), 404)

    r = client.post("/api/workspaces/restore", json=doc)
    assert r.status_code == 201, r.text
    assert r.json() == doc["workspace"]
    assert _canon(snapshot(falkordb, ws)) == _canon(exported["before"])
    # The vector index comes back with the first vectors the worker writes (an export
    # carries none), a moment after the restore answers: wait for it, bounded.
    deadline = time.monotonic() + 120
    while (_indexes(falkordb, ws) != exported["indexes"]
           and time.monotonic() < deadline):
        time.sleep(0.2)
    assert _indexes(falkordb, ws) == exported["indexes"]
    assert ws in [w["id"] for w in client.get("/api/workspaces",
                                              params={"limit": 1000}).json()["items"]]
    assert violations(falkordb, ws) == []
    # Its history came with it: as of its creation, nothing of what came later is there.
    first = min(n["properties"]["created_at"] for n in doc["nodes"]
                if n["labels"] == ["Claim"])
    early = client.get(f"/api/workspaces/{ws}/claims",
                       params={"as_of": first, "status": "all", "limit": 1000}).json()["items"]
    assert early and all(c["status"] == "proposed" and c["created_at"] <= first for c in early)
    # It works as a workspace again: full-text search and a correction preview.
    hits = client.get(f"/api/workspaces/{ws}/claims", params={"q": "caterer"}).json()["items"]
    # Both caterers match the word equally; which comes first is not what this checks.
    bella = next(h for h in hits if "Bella Foods" in h["statement"])
    preview = client.post(f"/api/workspaces/{ws}/claims/{bella['id']}/corrections/preview",
                          json={"statement": "The caterer is Nordic Bites."})
    assert preview.status_code == 200, preview.text
    # And again: the id is taken now.
    r = client.post("/api/workspaces/restore", json=doc)
    assert_canonical_error(r, 409)
    assert r.json()["error"]["code"] == "workspace_exists"


def test_racing_restores_of_one_export_have_one_winner(client: TestClient,
                                                       falkordb: str) -> None:
    ws = client.post("/api/workspaces", json={"name": "race"}).json()["id"]
    client.post(f"/api/workspaces/{ws}/sources", json={"title": "t", "text": JUNE})
    doc = client.get(f"/api/workspaces/{ws}/export").json()
    assert client.delete(f"/api/workspaces/{ws}").status_code == 200
    statuses: list[int] = []

    def go() -> None:
        statuses.append(client.post("/api/workspaces/restore", json=doc).status_code)

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [201, 409, 409, 409]
    assert _canon(snapshot(falkordb, ws)) == _canon(doc)


def _mutations(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    def changed(**kw: Any) -> dict[str, Any]:
        return {**json.loads(json.dumps(doc)), **kw}

    nodes, edges = doc["nodes"], doc["edges"]
    claim = next(n for n in nodes if n["labels"] == ["Claim"])
    ws_node = next(n for n in nodes if n["labels"] == ["Workspace"])
    return {
        "unknown label": changed(nodes=[*nodes, {"labels": ["Claim`) DETACH DELETE (x"],
                                                "properties": {"id": "x"}}]),
        "two labels": changed(nodes=[*nodes, {"labels": ["Claim", "Source"],
                                             "properties": {"id": "y"}}]),
        "repeated id": changed(nodes=[*nodes, claim]),
        "no id": changed(nodes=[*nodes, {"labels": ["Claim"], "properties": {"x": 1}}]),
        "dangling edge": changed(edges=[*edges, {"type": "SUPPORTED_BY", "source": "nope",
                                                 "target": claim["properties"]["id"],
                                                 "properties": {}}]),
        "edge type": changed(edges=[{**edges[0], "type": "X]->() DETACH DELETE (n"}]),
        # The region read follows DEPENDS_ON without checking labels: a claim may not be
        # a decision's dependent.
        "edge ends": changed(edges=[*edges, {"type": "DEPENDS_ON",
                                             "source": claim["properties"]["id"],
                                             "target": claim["properties"]["id"],
                                             "properties": {}}]),
        "property name": changed(nodes=[*nodes[:-1], {"labels": nodes[-1]["labels"],
                                                      "properties": {**nodes[-1]["properties"],
                                                                     "a b": 1}}]),
        "map value": changed(nodes=[*nodes[:-1], {"labels": nodes[-1]["labels"],
                                                  "properties": {**nodes[-1]["properties"],
                                                                 "m": {"k": 1}}}]),
        "no workspace node": changed(nodes=[n for n in nodes if n is not ws_node]),
        "other workspace id": changed(workspace={**doc["workspace"], "id": str(uuid.uuid4())}),
        "not a uuid": changed(workspace={**doc["workspace"], "id": "../registry"}),
        "wrong format": changed(format="afterhack-export/2"),
    }


def test_a_bad_export_is_422_and_creates_nothing(client: TestClient, falkordb: str) -> None:
    ws = client.post("/api/workspaces", json={"name": "bad"}).json()["id"]
    client.post(f"/api/workspaces/{ws}/sources", json={"title": "t", "text": JUNE})
    doc = client.get(f"/api/workspaces/{ws}/export").json()
    assert client.delete(f"/api/workspaces/{ws}").status_code == 200
    graphs = graph_names(falkordb)
    for name, bad in _mutations(doc).items():
        r = client.post("/api/workspaces/restore", json=bad)
        assert r.status_code == 422, (name, r.text)
        assert_canonical_error(r, 422)
    nan = json.dumps(doc).replace('"confidence": 1.0', '"confidence": NaN', 1).encode()
    assert b'NaN' in nan
    r = client.post("/api/workspaces/restore", content=nan,
                    headers={"content-type": "application/json"})
    assert_canonical_error(r, 422)
    assert graph_names(falkordb) == graphs
    assert client.post("/api/workspaces/restore", json=doc).status_code == 201


def test_registry_is_not_exportable(client: TestClient) -> None:
    for ws in (REGISTRY_GRAPH, "not-a-uuid", str(uuid.uuid4())):
        assert_canonical_error(client.get(f"/api/workspaces/{ws}/export"), 404)
        assert_canonical_error(client.delete(f"/api/workspaces/{ws}"), 404)
