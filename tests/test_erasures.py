"""Forget, provably (docs/rules.md, rule 22): an erasure is previewed, then applied as one
guarded write; afterwards the erased words are in no node or edge of the workspace graph and
in no answer (now, as of an earlier time, or an export), the rest of each text still slices
exactly at its offsets, and what rested on an erased claim is re-checked as for a
retraction. Against the real app and FalkorDB."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import redis
from fastapi.testclient import TestClient
from mcp import Client
from pydantic import SecretStr

from afterhack.runtime.services import Services
from afterhack.store.client import Graph
from afterhack.store.erasure_words import EDGE_TEXT, PLANNED_TEXT, RECORD_TEXT, SOURCE_TEXT
from afterhack.store.invariants import check_sources, check_workspace
from afterhack.store.properties import EDGE_PROPERTIES, NODE_PROPERTIES
from tests.support.api import (
    add_source,
    app_client,
    claim_named,
    new_workspace,
    read_json,
    run_agent,
)
from tests.support.commands import command
from tests.support.erasure import answers, graph_strings, holders
from tests.support.graphs import statuses, with_graph
from tests.support.mcp import call, server_for, store_workspace
from tests.support.settings import EMBED_INLINE, make_settings

NUMBER = "0170 4455667"
CHAT = [
    {"speaker": "Ana", "text": "Hello everyone, I will lead the launch."},
    {"speaker": "Ana", "text": f"My phone number is {NUMBER}."},
    {"speaker": "Ben", "text": "The launch is planned for June 12."},
]
CONTACTS = (f"Contacts for the launch. Ana can be reached at {NUMBER}. "
            "The venue is the Harbour Hall. Doors open at 9 am.")


def _chat(client: TestClient, ws: str, messages: list[dict[str, str]] | None = None,
          title: str = "Launch chat") -> dict[str, Any]:
    r = client.post(f"/api/workspaces/{ws}/sources",
                    json={"title": title, "messages": messages or CHAT})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def preview(client: TestClient, ws: str, target: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/workspaces/{ws}/erasures/preview", json={"target": target})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def erase(client: TestClient, ws: str, target: dict[str, Any], *,
          reason: str = "Said by mistake.") -> dict[str, Any]:
    """Preview, then apply: an erasure as a reviewer makes one. The applied record."""
    p = preview(client, ws, target)
    r = client.post(f"/api/workspaces/{ws}/erasures",
                    json={"target": target, "impact_token": p["impact_token"],
                          "reason": reason})
    assert r.status_code == 201, r.text
    assert r.json()["status"] == "applied"
    record: dict[str, Any] = r.json()["erasure"]
    return record


def whole(url: str, ws: str) -> None:
    """Every invariant of the workspace holds, sources included (each version's fragments
    tile its text, every quote slices it at its offsets)."""
    async def check(g: Graph) -> list[str]:
        return [*await check_workspace(g), *await check_sources(g)]

    assert with_graph(url, ws, check) == []


def quotes_slice(client: TestClient, ws: str, source_id: str) -> dict[str, str]:
    """Each claim of a source with its quote, checked to be its version's text at its
    offsets."""
    source = read_json(client, f"/api/workspaces/{ws}/sources/{source_id}")
    texts = {v["id"]: v["text"] for v in source["versions"]}
    out: dict[str, str] = {}
    for c in read_json(client, f"/api/workspaces/{ws}/claims", status="all",
                       limit=1000)["items"]:
        if c["source_id"] != source_id:
            continue
        claim = read_json(client, f"/api/workspaces/{ws}/claims/{c['id']}")
        [ev] = claim["evidence"]
        version = next(v for v in source["versions"]
                       if any(f["id"] == ev["fragment_id"] for f in v["fragments"]))
        text = texts[version["id"]]
        assert text[claim["quote_start"]:claim["quote_end"]] == claim["evidence_quote"]
        out[claim["statement"]] = claim["evidence_quote"]
    return out


def test_the_story(client: TestClient, falkordb: str) -> None:
    """Ana says her number in a chat, a document quotes it, a run cites it; erasing the
    string leaves it in no answer (now or as of before), no graph property and no export;
    the decision needs review; the document's other claims keep exact quotes."""
    ws = new_workspace(client, "story")
    chat = _chat(client, ws)
    doc = add_source(client, ws, CONTACTS, title="Contacts")
    run = run_agent(client, ws, f"Contact Ana at {NUMBER} about the launch")
    [action] = run["actions"]
    cited = {c["id"] for p in run["decision"]["premises"] for c in p["claims"]}
    said = claim_named(chat, f"My phone number is {NUMBER}.")
    quoted = claim_named(doc, f"Ana can be reached at {NUMBER}.")
    assert {said["id"], quoted["id"]} <= cited
    before = int(time.time() * 1000)
    assert NUMBER in answers(client, ws) and holders(falkordb, ws, NUMBER)

    p = preview(client, ws, {"text": NUMBER})
    assert {c["id"] for c in p["goes"]["claims"]} == {said["id"], quoted["id"]}
    assert [f["decision_id"] for f in p["flag"]] == [run["decision"]["id"]]
    assert [h["action_id"] for h in p["hold"]] == [action["id"]]
    assert p["counts"]["versions"] == 2 and p["counts"]["messages"] == 1
    assert NUMBER not in p["impact_token"]
    record = erase(client, ws, {"text": NUMBER}, reason=f"Ana's number {NUMBER} by mistake")

    # No trace: no string of the graph, no answer now or as of before, no export.
    assert holders(falkordb, ws, NUMBER) == []
    assert NUMBER not in answers(client, ws)
    assert NUMBER not in answers(client, ws, as_of=before)
    assert NUMBER not in json.dumps(record) and record["reason"] == (
        "Ana's number [erased] by mistake")
    # The decision lost both premises: it needs review, naming the erasure.
    decision = read_json(client, f"/api/workspaces/{ws}/decisions/{run['decision']['id']}")
    assert decision["status"] == "needs_review"
    assert record["held"] == [action["id"]]
    assert read_json(client, f"/api/workspaces/{ws}/actions/{action['id']}")["status"] == "held"
    assert decision["review_reason"]["type"] == "erasure"
    assert decision["review_reason"]["erasure_id"] == record["id"]
    # Where the claims stood, the graph says when and by whom they were erased.
    for cid in (said["id"], quoted["id"]):
        claim = read_json(client, f"/api/workspaces/{ws}/claims/{cid}")
        assert claim["status"] == "erased"
        assert claim["statement"].startswith("Erased on ") and "by local" in claim["statement"]
        assert claim["erasure"] == {"id": record["id"], "status": "applied",
                                    "at": record["applied_at"], "by": "local"}
    # The rest of each text stays, exactly: every quote slices its version at its offsets.
    kept = quotes_slice(client, ws, doc["source"]["id"])
    assert kept["The venue is the Harbour Hall."] == "The venue is the Harbour Hall."
    assert kept["Doors open at 9 am."] == "Doors open at 9 am."
    contacts = read_json(client, f"/api/workspaces/{ws}/sources/{doc['source']['id']}")
    assert contacts["versions"][0]["text"] == CONTACTS.replace(NUMBER, "[erased]")
    quotes_slice(client, ws, chat["source"]["id"])
    whole(falkordb, ws)
    # Not found by search any more, by words or by meaning.
    found = read_json(client, f"/api/workspaces/{ws}/claims", q="Ana phone number reached")
    assert not {said["id"], quoted["id"]} & {c["id"] for c in found["items"]}
    # The audit records the erasure, without what it erased.
    audit = read_json(client, f"/api/workspaces/{ws}/audit")["items"]
    applied = [e for e in audit if e["kind"] == "erasure.applied"]
    assert len(applied) == 1 and applied[0]["subject_id"] == record["id"]
    # The record says the disk is still to be rewritten (the scrubber marks it clean).
    assert record["disk"] == "pending" and record["disk_clean_at"] is None
    # The same apply again is a repeat, and changes nothing.
    again = client.post(f"/api/workspaces/{ws}/erasures",
                        json={"target": {"text": NUMBER}, "impact_token": p["impact_token"]})
    assert again.status_code == 200 and again.json()["status"] == "already_applied"
    assert again.json()["erasure"]["id"] == record["id"]


def test_a_claim_erased_by_its_span_keeps_its_neighbours(client: TestClient,
                                                          falkordb: str) -> None:
    ws = new_workspace(client, "claim")
    doc = add_source(client, ws, CONTACTS, title="Contacts")
    quoted = claim_named(doc, f"Ana can be reached at {NUMBER}.")
    record = erase(client, ws, {"claim_id": quoted["id"]})
    assert record["claim_ids"] == [quoted["id"]] and record["counts"]["spans"] == 1
    source = read_json(client, f"/api/workspaces/{ws}/sources/{doc['source']['id']}")
    assert source["versions"][0]["text"] == (
        "Contacts for the launch. [erased] The venue is the Harbour Hall. Doors open at 9 am.")
    assert holders(falkordb, ws, "Ana can be reached") == []
    kept = quotes_slice(client, ws, doc["source"]["id"])
    assert "The venue is the Harbour Hall." in kept
    whole(falkordb, ws)
    # An erased claim cannot be erased again: nothing of it is left.
    p = preview(client, ws, {"claim_id": quoted["id"]})
    assert p["goes"]["claims"] == [] and p["counts"]["spans"] == 0
    r = client.post(f"/api/workspaces/{ws}/erasures", json={
        "target": {"claim_id": quoted["id"]}, "impact_token": p["impact_token"]})
    assert r.status_code == 422 and r.json()["error"]["code"] == "nothing_to_erase"


def test_a_message_a_speaker_a_version_and_a_source(client: TestClient, falkordb: str) -> None:
    ws = new_workspace(client, "kinds")
    chat = _chat(client, ws)
    sid = chat["source"]["id"]
    more = client.post(f"/api/workspaces/{ws}/sources/{sid}/messages", json={"messages": [
        {"speaker": "Ana", "text": "The budget is 45,000 euros."},
        {"speaker": "Ben", "text": "Doors open at 9 am."}]})
    assert more.status_code == 201, more.text

    one = erase(client, ws, {"source_id": sid, "message_index": 1})
    assert one["counts"]["messages"] == 1 and one["counts"]["claims"] == 1
    assert holders(falkordb, ws, NUMBER) == []
    assert holders(falkordb, ws, "Hello everyone") != []
    whole(falkordb, ws)

    ana = erase(client, ws, {"speaker": "Ana"})
    # The message already erased has nothing left: her other two go now.
    assert ana["counts"]["messages"] == 2
    assert holders(falkordb, ws, "Hello everyone") == []
    assert holders(falkordb, ws, "45,000 euros") == []
    assert holders(falkordb, ws, "June 12") != []  # Ben's words stay
    transcript = read_json(client, f"/api/workspaces/{ws}/sources/{sid}")
    first = transcript["versions"][0]
    assert first["text"] == "[erased]\n\n[erased]\n\nThe launch is planned for June 12."
    assert [f["speaker"] for f in first["fragments"]] == ["Ana", "Ana", "Ben"]
    whole(falkordb, ws)

    doc = add_source(client, ws, CONTACTS, title="Contacts")
    v2 = add_source(client, ws, CONTACTS + " Parking is free.", title="Contacts",
                    source_id=doc["source"]["id"])
    versions = read_json(client, f"/api/workspaces/{ws}/sources/{doc['source']['id']}")
    first_id = next(v["id"] for v in versions["versions"] if v["version"] == 1)
    erase(client, ws, {"source_id": doc["source"]["id"], "version_id": first_id})
    after = read_json(client, f"/api/workspaces/{ws}/sources/{doc['source']['id']}")
    by_version = {v["version"]: v["text"] for v in after["versions"]}
    assert "Harbour Hall" not in by_version[1] and "Harbour Hall" in by_version[2]
    assert v2["version"] == 2
    whole(falkordb, ws)

    all_of_it = erase(client, ws, {"source_id": doc["source"]["id"]})
    assert all_of_it["counts"]["versions"] == 1  # version 1 had nothing left
    assert holders(falkordb, ws, "Harbour Hall") == []
    whole(falkordb, ws)


def test_wait_disk_answers_with_the_record_read_after_the_wait(client: TestClient) -> None:
    ws = new_workspace(client, "wait")
    doc = add_source(client, ws, CONTACTS, title="Contacts")
    target = {"claim_id": doc["claims"][0]["id"]}
    p = preview(client, ws, target)
    r = client.post(f"/api/workspaces/{ws}/erasures", params={"wait": "disk"},
                    json={"target": target, "impact_token": p["impact_token"]})
    assert r.status_code == 201, r.text
    assert r.json()["erasure"]["disk"] in ("pending", "clean")
    bad = client.post(f"/api/workspaces/{ws}/erasures", params={"wait": "soon"},
                      json={"target": target, "impact_token": p["impact_token"]})
    assert bad.status_code == 422


def test_a_stale_preview_is_refused_and_changes_nothing(client: TestClient,
                                                        falkordb: str) -> None:
    ws = new_workspace(client, "stale")
    _chat(client, ws)
    p = preview(client, ws, {"text": NUMBER})
    # The same number said again after the preview: the preview did not see it.
    add_source(client, ws, f"Ana's desk phone is {NUMBER}.", title="Desk")
    before = graph_strings(falkordb, ws)
    r = client.post(f"/api/workspaces/{ws}/erasures",
                    json={"target": {"text": NUMBER}, "impact_token": p["impact_token"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_erasure_preview"
    assert sorted(graph_strings(falkordb, ws)) == sorted(before)
    erase(client, ws, {"text": NUMBER})
    assert holders(falkordb, ws, NUMBER) == []


def test_an_alternative_from_another_source_keeps_the_decision(client: TestClient,
                                                               falkordb: str) -> None:
    """Re-checked exactly as a retraction: a premise with another source's claim stands."""
    ws = new_workspace(client, "alternative")
    chat = _chat(client, ws, [CHAT[2]])
    add_source(client, ws, "Launch plan. The launch is planned for June 12.", title="Plan")
    run = run_agent(client, ws, "When is the launch planned?")
    [premise] = run["decision"]["premises"]
    assert len(premise["claims"]) == 2
    said = claim_named(chat, "The launch is planned for June 12.")
    record = erase(client, ws, {"claim_id": said["id"]})
    assert record["flagged"] == []
    assert statuses(falkordb, ws)[run["decision"]["id"]] == "draft"
    # The plan still says it: the premise keeps its name, and the chat lost its words.
    decision = read_json(client, f"/api/workspaces/{ws}/decisions/{run['decision']['id']}")
    assert [p["premise"] for p in decision["premises"]] == [premise["premise"]]
    chat_text = read_json(client, f"/api/workspaces/{ws}/sources/{chat['source']['id']}")
    assert chat_text["versions"][0]["text"] == "[erased]"
    whole(falkordb, ws)


def test_a_conflict_with_an_erased_side_closes(client: TestClient, falkordb: str) -> None:
    ws = new_workspace(client, "conflict")
    add_source(client, ws, "The launch is planned for June 12.", title="Plan")
    memo = add_source(client, ws, "The launch is planned for June 19.", title="Memo")
    [conflict] = memo["conflicts"]
    record = erase(client, ws, {"source_id": memo["source"]["id"]})
    assert record["conflicts"] == [conflict["id"]]
    closed = read_json(client, f"/api/workspaces/{ws}/conflicts/{conflict['id']}")
    assert closed["status"] == "resolved"
    assert closed["settled_by"]["kind"] == "erasure"
    assert closed["settled_by"]["id"] == record["id"]
    assert "June 19" not in json.dumps(closed)
    assert "June 19" not in answers(client, ws)
    whole(falkordb, ws)


def test_a_dispute_over_more_values_stays_open_without_the_erased_one(
        client: TestClient, falkordb: str) -> None:
    """Erasing one value of a dispute over three leaves a dispute over the two others
    still stated, its reason said again without the erased value."""
    ws = new_workspace(client, "dispute")
    add_source(client, ws, "The launch is planned for June 12.", title="Plan")
    add_source(client, ws, "The launch is planned for June 19.", title="Memo")
    late = add_source(client, ws, "The launch is planned for June 26.", title="Late memo")
    [conflict] = late["conflicts"]
    before = read_json(client, f"/api/workspaces/{ws}/conflicts/{conflict['id']}")
    assert before["n_sides"] == 3
    p = preview(client, ws, {"source_id": late["source"]["id"]})
    assert p["closes"] == []
    record = erase(client, ws, {"source_id": late["source"]["id"]})
    assert record["conflicts"] == []
    after = read_json(client, f"/api/workspaces/{ws}/conflicts/{conflict['id']}")
    assert after["status"] == "open" and after["revision"] > before["revision"]
    assert "June 26" not in json.dumps(after)
    assert "June 26" not in answers(client, ws)
    whole(falkordb, ws)
    # The two values left still make it a dispute: erasing another settles it.
    memo = next(s for s in read_json(client, f"/api/workspaces/{ws}/sources")["items"]
                if s["title"] == "Memo")
    record = erase(client, ws, {"source_id": memo["id"]})
    assert record["conflicts"] == [conflict["id"]]
    closed = read_json(client, f"/api/workspaces/{ws}/conflicts/{conflict['id']}")
    assert closed["status"] == "resolved" and closed["settled_by"]["kind"] == "erasure"
    whole(falkordb, ws)


def test_an_original_file_holding_the_words_goes(client: TestClient, falkordb: str) -> None:
    ws = new_workspace(client, "file")
    r = client.post(f"/api/workspaces/{ws}/sources/files",
                    files={"file": (f"contacts {NUMBER}.md", CONTACTS.encode(),
                                    "text/markdown")})
    assert r.status_code == 201, r.text
    sid, vid = r.json()["source"]["id"], r.json()["source"]["versions"][0]["id"]
    assert client.get(f"/api/workspaces/{ws}/sources/{sid}/versions/{vid}/file"
                      ).status_code == 200
    p = preview(client, ws, {"text": NUMBER})
    assert [v["file"] for v in p["goes"]["versions"]] == [True]
    record = erase(client, ws, {"text": NUMBER})
    assert record["counts"]["files"] == 1
    gone = client.get(f"/api/workspaces/{ws}/sources/{sid}/versions/{vid}/file")
    assert gone.status_code == 404
    # Its name held the string too: the title, the origin and the file's name lose it.
    source = read_json(client, f"/api/workspaces/{ws}/sources/{sid}")
    assert source["title"] == "contacts [erased]"
    assert source["versions"][0]["file_name"] == "contacts [erased].md"
    assert holders(falkordb, ws, NUMBER) == []
    whole(falkordb, ws)


def test_a_reviewers_text_holding_the_string_loses_it(client: TestClient,
                                                     falkordb: str) -> None:
    """A correction's own fragment is a text like a version's: its replacement claim is
    erased, and the correction's key (a digest of its words) goes."""
    ws = new_workspace(client, "reviewer")
    doc = add_source(client, ws, "The hotline is 0800 111 222.", title="Hotline")
    [claim] = doc["claims"]
    p = client.post(f"/api/workspaces/{ws}/claims/{claim['id']}/corrections/preview",
                    json={"statement": f"The hotline is {NUMBER}."}).json()
    applied = client.post(f"/api/workspaces/{ws}/claims/{claim['id']}/corrections", json={
        "statement": f"The hotline is {NUMBER}.", "reason": f"{NUMBER} is Ana's",
        "claim_revision": p["revisions"]["claim_revision"],
        "impact_token": p["revisions"]["impact_token"]})
    assert applied.status_code == 201, applied.text
    replacement = applied.json()["replacement"]["id"]
    key_before = with_graph(falkordb, ws, _correction_keys)
    record = erase(client, ws, {"text": NUMBER})
    assert record["claim_ids"] == [replacement]
    assert holders(falkordb, ws, NUMBER) == []
    assert with_graph(falkordb, ws, _correction_keys) != key_before
    correction = read_json(client, f"/api/workspaces/{ws}/corrections/"
                                   f"{applied.json()['correction']['id']}")
    # Its text loses the string; its statement repeated the erased claim's, which goes whole.
    assert correction["fragment"]["text"] == "The hotline is [erased]."
    assert correction["statement"] == "[erased]"
    whole(falkordb, ws)


async def _correction_keys(g: Graph) -> list[str]:
    rows = await g.read("MATCH (k:Correction) RETURN k.key AS key")
    return [str(r["key"]) for r in rows]


def test_targets_are_checked(client: TestClient) -> None:
    ws = new_workspace(client, "targets")
    chat = _chat(client, ws)
    url = f"/api/workspaces/{ws}/erasures/preview"
    for bad in ({}, {"text": "abc"}, {"text": "    "}, {"claim_id": chat["claims"][0]["id"],
                                                         "speaker": "Ana"},
                {"version_id": chat["source"]["versions"][0]["id"]},
                {"message_index": 0}, {"source_id": chat["source"]["id"], "message_index": -1},
                {"source_id": chat["source"]["id"], "message_index": True}):
        r = client.post(url, json={"target": bad})
        assert r.status_code == 422, (bad, r.text)
    unknown = "00000000-0000-4000-8000-000000000000"
    for target, code in (({"source_id": unknown}, "source_not_found"),
                         ({"claim_id": unknown}, "claim_not_found"),
                         ({"request_id": unknown}, "erasure_not_found"),
                         ({"source_id": chat["source"]["id"], "version_id": unknown},
                          "version_not_found"),
                         ({"source_id": chat["source"]["id"], "message_index": 99},
                          "message_not_found")):
        r = client.post(url, json={"target": target})
        assert r.status_code == 404 and r.json()["error"]["code"] == code, r.text
    assert client.get(f"/api/workspaces/{ws}/erasures/{unknown}").status_code == 404


def test_erasures_are_listed_in_pages(client: TestClient) -> None:
    ws = new_workspace(client, "pages")
    doc = add_source(client, ws, CONTACTS, title="Contacts")
    ids = [erase(client, ws, {"claim_id": c["id"]})["id"] for c in doc["claims"]]
    first = read_json(client, f"/api/workspaces/{ws}/erasures", limit=2)
    assert first["total"] == len(ids) and len(first["items"]) == 2
    rest = read_json(client, f"/api/workspaces/{ws}/erasures", limit=2,
                     cursor=first["next_cursor"])
    listed = [e["id"] for e in first["items"] + rest["items"]]
    assert sorted(listed) == sorted(ids) and len(set(listed)) == len(ids)
    assert read_json(client, f"/api/workspaces/{ws}/erasures", status="requested")["total"] == 0
    bad = client.get(f"/api/workspaces/{ws}/erasures", params={"cursor": "nope"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_cursor"


def _said(client: TestClient, ws: str, source_id: str, speaker: str,
          text: str) -> dict[str, Any]:
    r = client.post(f"/api/workspaces/{ws}/sources/{source_id}/messages",
                    json={"messages": [{"speaker": speaker, "text": text}]})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def _visible(client: TestClient, ws: str, claim_id: str, words: str) -> dict[str, bool]:
    """Where a claim can be found: the claim list, a search, and an agent run's citations."""
    listed = read_json(client, f"/api/workspaces/{ws}/claims", limit=1000)["items"]
    found = read_json(client, f"/api/workspaces/{ws}/claims", q=words)["items"]
    run = run_agent(client, ws, f"What is {words}?")
    return {"listed": claim_id in {c["id"] for c in listed},
            "found": claim_id in {c["id"] for c in found},
            "cited": claim_id in {c["id"] for p in run["decision"]["premises"]
                                  for c in p["claims"]}}


def test_please_forget_my_withholds_at_once_and_applies_on_review(
        client: TestClient, falkordb: str) -> None:
    """Acceptance: a "please forget my ..." message withholds the claim at once, and lists
    a request that applies on review."""
    ws = new_workspace(client, "request")
    chat = _chat(client, ws)
    sid = chat["source"]["id"]
    said = claim_named(chat, f"My phone number is {NUMBER}.")
    assert all(_visible(client, ws, said["id"], "Ana's phone number").values())
    earlier = run_agent(client, ws, "What is Ana's phone number?")["decision"]
    assert said["id"] in {c["id"] for p in earlier["premises"] for c in p["claims"]}

    asked = _said(client, ws, sid, "Ana", "Please forget my phone number.")
    [request] = asked["erasures"]
    assert request["status"] == "requested" and request["claim_ids"] == [said["id"]]
    assert request["requested_by"] == "Ana" and request["target"]["message_index"] == 3
    # Withheld at once: not listed, not found, not cited.
    assert not any(_visible(client, ws, said["id"], "Ana's phone number").values())
    withheld = read_json(client, f"/api/workspaces/{ws}/claims/{said['id']}")
    assert withheld["status"] == "withheld"
    assert withheld["erasure"]["id"] == request["id"]
    waiting = read_json(client, f"/api/workspaces/{ws}/erasures", status="requested")
    assert [e["id"] for e in waiting["items"]] == [request["id"]]
    # What was decided on it stands until a reviewer decides; applied, it is re-checked.
    assert statuses(falkordb, ws)[earlier["id"]] == "draft"
    whole(falkordb, ws)

    record = erase(client, ws, {"request_id": request["id"]}, reason="Ana asked.")
    assert record["id"] == request["id"] and record["status"] == "applied"
    assert record["claim_ids"] == [said["id"]]
    assert earlier["id"] in record["flagged"]
    assert statuses(falkordb, ws)[earlier["id"]] == "needs_review"
    assert holders(falkordb, ws, NUMBER) == []
    # The request message is kept: it holds no secret.
    assert holders(falkordb, ws, "Please forget my phone number.") != []
    assert read_json(client, f"/api/workspaces/{ws}/erasures",
                     status="requested")["items"] == []
    whole(falkordb, ws)


def test_a_declined_request_gives_the_claims_back(client: TestClient, falkordb: str) -> None:
    ws = new_workspace(client, "decline")
    chat = _chat(client, ws)
    said = claim_named(chat, f"My phone number is {NUMBER}.")
    [request] = _said(client, ws, chat["source"]["id"], "Ana",
                      "Vergiss bitte meine Telefonnummer.")["erasures"]
    # No German word of the request is in the claim: it is found by meaning.
    assert request["claim_ids"] == [said["id"]]
    r = client.post(f"/api/workspaces/{ws}/erasures/{request['id']}/decline",
                    json={"reason": "Needed for the launch."})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "declined" and r.json()["declined_by"] == "local"
    back = read_json(client, f"/api/workspaces/{ws}/claims/{said['id']}")
    assert back["status"] == "proposed" and back["erasure"] is None
    assert back["statement"] == f"My phone number is {NUMBER}."
    assert all(_visible(client, ws, said["id"], "Ana's phone number").values())
    again = client.post(f"/api/workspaces/{ws}/erasures/{request['id']}/decline", json={})
    assert again.status_code == 409 and again.json()["error"]["code"] == "erasure_closed"
    p = client.post(f"/api/workspaces/{ws}/erasures/preview",
                    json={"target": {"request_id": request["id"]}})
    assert p.status_code == 409 and p.json()["error"]["code"] == "erasure_closed"
    whole(falkordb, ws)


def test_requests_in_three_languages_name_only_the_speakers_own_claims(
        client: TestClient) -> None:
    ws = new_workspace(client, "languages")
    chat = _chat(client, ws, [
        {"speaker": "Ana", "text": f"My phone number is {NUMBER}."},
        {"speaker": "Ben", "text": "My phone number is 0171 9988776."},
        {"speaker": "Li", "text": "我的电话号码是13800138000。"},
        {"speaker": "Ana", "text": "Don't forget my phone number."},
        {"speaker": "Ana", "text": "Remove the old banner from the website."}])
    assert chat["erasures"] == []  # not asked to forget: a negation, another listener
    ben = claim_named(chat, "My phone number is 0171 9988776.")
    li = claim_named(chat, "我的电话号码是13800138000。")
    sid = chat["source"]["id"]
    [asked] = _said(client, ws, sid, "Ben", "Could you please delete my phone number?"
                    )["erasures"]
    assert asked["claim_ids"] == [ben["id"]]
    [asked] = _said(client, ws, sid, "Li", "请忘记我的电话号码。")["erasures"]
    assert asked["claim_ids"] == [li["id"]]
    # A request that names none of its speaker's claims raises nothing.
    assert _said(client, ws, sid, "Carla", "Please forget my address.")["erasures"] == []


def test_forget_requests_apply_erases_at_once(client: TestClient, falkordb: str) -> None:
    ws = new_workspace(client, "at once")
    r = client.patch(f"/api/workspaces/{ws}", json={"forget_requests": "apply"})
    assert r.status_code == 200 and r.json()["forget_requests"] == "apply"
    assert r.json()["updates"] == "review"
    chat = _chat(client, ws)
    [record] = _said(client, ws, chat["source"]["id"], "Ana",
                     "Please forget my phone number.")["erasures"]
    assert record["status"] == "applied" and record["applied_by"] == "policy"
    assert holders(falkordb, ws, NUMBER) == []
    whole(falkordb, ws)
    bad = client.patch(f"/api/workspaces/{ws}", json={"forget_requests": "later"})
    assert bad.status_code == 422
    assert client.patch(f"/api/workspaces/{ws}", json={}).status_code == 422


# The string properties that hold no words anyone said or wrote: ids, statuses and kinds
# of the vocabulary, names of models, roles and actors, hashes the erasure rewrites itself,
# and JSON of ids. Everything else is looked through by an erasure (store/erasures.py).
NOT_WORDS: dict[str, set[str]] = {
    "Workspace": {"id", "name", "updates", "forget_requests"},
    "Source": {"id", "kind", "origin_type"},
    "SourceVersion": {"id", "content_hash", "media_type", "file_hash", "file_data"},
    "SourceFragment": {"id", "origin_type", "source_id", "version_id", "extraction"},
    "Claim": {"id", "status_history", "status", "confidence_kind", "source_id", "version_id",
              "fragment_id", "extracted_by", "retired_by", "erasure_id", "erasure_by",
              "withheld_from"},
    "Correction": {"id", "claim_id", "key", "kind", "replacement_id", "outcome"},
    "Conflict": {"id", "status_history", "key", "status", "kind", "detected_by",
                 "resolution", "kept_claim_id", "correction_id", "resolution_key",
                 "newer_claim_id", "settled_kind", "settled_id"},
    "AgentRun": {"id", "status", "model", "builds_on", "started_by", "searched_claim_ids",
                 "retrieved_claim_ids"},
    "Handoff": {"id", "from_role", "to_role", "searched_claim_ids", "retrieved_claim_ids",
                "dropped_claim_ids"},
    "Decision": {"id", "status_history", "status", "run_id"},
    "Action": {"id", "status_history", "status", "held_from"},
    "AuditEvent": {"id", "kind", "actor", "subject_id"},
    "Erasure": {"id", "status", "kind", "source_id", "version_id", "claim_id", "request_id",
                "requested_by", "applied_by", "declined_by", "key", "counts", "claim_ids",
                "flagged", "held", "conflicts", "disk"},
    "SUPPORTED_BY": {"role"}, "SUPERSEDES": {"reason"},
    "BETWEEN": {"side"},  # the id of the claim that named the side
}


def test_every_string_a_graph_keeps_is_looked_through_or_holds_no_words() -> None:
    """A property the app starts writing must be placed: among what an erasure scrubs, or
    among what holds no words."""
    for label, props in {**NODE_PROPERTIES, **EDGE_PROPERTIES}.items():
        strings = {p for p, t in props.items() if t in ("str", "str_list")}
        looked = (set(RECORD_TEXT.get(label, ())) | set(SOURCE_TEXT.get(label, ()))
                  | set(PLANNED_TEXT.get(label, ())) | set(EDGE_TEXT.get(label, ())))
        assert looked <= strings, (label, looked - strings)
        assert not looked & NOT_WORDS.get(label, set()), label
        assert strings == looked | NOT_WORDS.get(label, set()), (label, strings ^ (
            looked | NOT_WORDS.get(label, set())))


def test_only_reviewer_and_admin_keys_erase(falkordb: str, tmp_path: Path) -> None:
    admin = {"Authorization": "Bearer erase-admin-key"}
    settings = make_settings(falkordb_url=falkordb, data_dir=tmp_path,
                             admin_key=SecretStr("erase-admin-key"), **EMBED_INLINE)
    with app_client(settings) as keyed:
        ws = new_workspace(keyed, "keys", headers=admin)
        keys = {}
        for role in ("reader", "agent", "reviewer"):
            r = keyed.post(f"/api/workspaces/{ws}/keys", json={"role": role, "name": role},
                           headers=admin)
            keys[role] = {"Authorization": f"Bearer {r.json()['key']}"}
        # An agent records the conversation, and the speaker's request: it is raised.
        chat = keyed.post(f"/api/workspaces/{ws}/sources", headers=keys["agent"],
                          json={"title": "Chat", "messages": [
                              *CHAT, {"speaker": "Ana", "text": "Please forget my phone number."}]})
        assert chat.status_code == 201, chat.text
        [request] = chat.json()["erasures"]
        target = {"target": {"request_id": request["id"]}}
        for role in ("reader", "agent"):
            r = keyed.post(f"/api/workspaces/{ws}/erasures/preview", json=target,
                           headers=keys[role])
            assert r.status_code == 403 and r.json()["error"]["details"]["permission"] == "erase"
            r = keyed.post(f"/api/workspaces/{ws}/erasures/{request['id']}/decline", json={},
                           headers=keys[role])
            assert r.status_code == 403
        listed = keyed.get(f"/api/workspaces/{ws}/erasures", headers=keys["reader"])
        assert listed.status_code == 200 and listed.json()["total"] == 1
        p = keyed.post(f"/api/workspaces/{ws}/erasures/preview", json=target,
                       headers=keys["reviewer"])
        assert p.status_code == 200, p.text
        apply = {**target, "impact_token": p.json()["impact_token"]}
        r = keyed.post(f"/api/workspaces/{ws}/erasures", json=apply, headers=keys["agent"])
        assert r.status_code == 403
        r = keyed.post(f"/api/workspaces/{ws}/erasures", json=apply, headers=keys["reviewer"])
        assert r.status_code == 201 and r.json()["erasure"]["applied_by"] == "reviewer"
        assert holders(falkordb, ws, NUMBER) == []


def test_the_slow_query_log_forgets_the_words_too(client: TestClient, falkordb: str) -> None:
    """FalkorDB keeps its slowest recent queries with their parameters: an erasure empties
    the workspace graph's log."""
    ws = new_workspace(client, "slowlog")
    add_source(client, ws, CONTACTS, title="Contacts")
    graph = "ws_" + ws.replace("-", "")
    r = redis.Redis.from_url(falkordb, decode_responses=True)
    try:
        command(r, "GRAPH.RO_QUERY", graph,
                f'CYPHER t="{NUMBER}" UNWIND range(1, 300000) AS i WITH i WHERE $t <> "" '
                "RETURN count(i)")
        assert NUMBER in json.dumps(command(r, "GRAPH.SLOWLOG", graph))
        erase(client, ws, {"text": NUMBER})
        assert NUMBER not in json.dumps(command(r, "GRAPH.SLOWLOG", graph))
    finally:
        r.close()


async def test_an_agent_that_remembers_a_request_raises_it(services: Services) -> None:
    """Over MCP, ``remember`` records the message as the API does: the request is raised."""
    ws = await store_workspace(services)
    async with Client(server_for(services)) as c:
        await call(c, "remember", workspace_id=ws, conversation="Support", speaker="Ana",
                   text=f"My phone number is {NUMBER}.")
        out = await call(c, "remember", workspace_id=ws, conversation="Support",
                         speaker="Ana", text="Please forget my phone number.")
    [request] = out["erasures"]
    assert request["status"] == "requested" and len(request["claim_ids"]) == 1


def test_an_export_after_erasures_restores_whole(client: TestClient, falkordb: str) -> None:
    """Erased and withheld claims, requests and records are part of the workspace: an
    export after them restores as it was, and holds none of the erased words."""
    ws = new_workspace(client, "restore")
    chat = _chat(client, ws)
    add_source(client, ws, CONTACTS, title="Contacts")
    applied = erase(client, ws, {"text": NUMBER})
    [waiting] = _said(client, ws, chat["source"]["id"], "Ben",
                      "Please forget what I said about the launch.")["erasures"]
    assert waiting["status"] == "requested"
    # Exported once the disk is clean: a record exported pending is restored pending, and
    # the next rewrite of FalkorDB's files marks it clean, between the restore and the
    # export that is compared with this one.
    for _ in range(6000):
        if read_json(client, f"/api/workspaces/{ws}/erasures/{applied['id']}")["disk"] == "clean":
            break
        time.sleep(0.02)
    doc = read_json(client, f"/api/workspaces/{ws}/export")
    assert NUMBER not in json.dumps(doc)
    assert client.delete(f"/api/workspaces/{ws}").status_code == 200
    r = client.post("/api/workspaces/restore", json=doc)
    assert r.status_code == 201, r.text
    again = read_json(client, f"/api/workspaces/{ws}/export")
    assert again["nodes"] == doc["nodes"] and again["edges"] == doc["edges"]
    whole(falkordb, ws)
    declined = client.post(f"/api/workspaces/{ws}/erasures/{waiting['id']}/decline", json={})
    assert declined.status_code == 200, declined.text
    whole(falkordb, ws)


def test_cuts_in_one_long_version_move_everything_after_them_exactly(
        client: TestClient, falkordb: str) -> None:
    """The plan reads only the fragments a span cuts; the apply query moves the rest of the
    version. Three cuts of different lengths in one version of many messages, then a
    message and a claim further on: every message that lost nothing reads as before, every
    quote still slices its text, and the fragments still tile it."""
    ws = new_workspace(client, "long version")
    said = [{"speaker": "Ben", "text": f"The stand {i} is in hall {i % 7}."} for i in range(40)]
    for i, who in ((3, "Ana"), (11, "Chen"), (20, "Ana")):
        said[i] = {"speaker": who, "text": f"Call {who} on {NUMBER} about stand {i}."}
    chat = _chat(client, ws, said, title="Fair chat")
    sid = chat["source"]["id"]

    def messages() -> dict[int, str]:
        source = read_json(client, f"/api/workspaces/{ws}/sources/{sid}")
        return {f["message_index"]: f["text"] for v in source["versions"]
                for f in v["fragments"]}

    before = messages()
    quotes = quotes_slice(client, ws, sid)
    record = erase(client, ws, {"text": NUMBER})
    assert record["counts"]["spans"] == 3 and record["counts"]["fragments"] == 3
    after = messages()
    assert {i for i in before if after[i] != before[i]} == {3, 11, 20}
    assert after[11] == "Call Chen on [erased] about stand 11."
    kept = {k: v for k, v in quotes_slice(client, ws, sid).items()
            if not k.startswith("Erased on ")}
    assert {k: v for k, v in quotes.items() if NUMBER not in v} == kept
    whole(falkordb, ws)

    erase(client, ws, {"source_id": sid, "message_index": 25})
    stand = claim_named(chat, "The stand 30 is in hall 2.")
    erase(client, ws, {"claim_id": stand["id"]})
    last = messages()
    assert last[25] == "[erased]" and last[30] == "[erased]"
    assert {i: t for i, t in last.items() if i not in (3, 11, 20, 25, 30)} == {
        i: t for i, t in before.items() if i not in (3, 11, 20, 25, 30)}
    assert {k: v for k, v in quotes_slice(client, ws, sid).items()
            if not k.startswith("Erased on ")} == {
        k: v for k, v in kept.items() if k not in ("The stand 25 is in hall 4.",
                                                   "The stand 30 is in hall 2.")}
    whole(falkordb, ws)
