"""The Python client covers the whole HTTP API: every route is a method, and keys, export
and restore, files, conversations, as-of reads and every list work against a running app."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute

from afterhack.api.app import ROUTERS
from afterhack.client import AsyncClient, Client, ConflictError, NotFoundError
from afterhack.client._client import _Endpoints, endpoint
from afterhack.client.runs import AgentRuns
from afterhack.model.sources import IngestResult
from tests.support.procs import AppProcess
from tests.support.texts import JUNE, JUNE19, KEYNOTE, VENUE

ROOT = Path(__file__).resolve().parent.parent


def _source_id(added: IngestResult) -> str:
    assert added["source"] is not None
    return added["source"]["id"]


def test_every_route_of_the_api_is_a_client_method() -> None:
    routes = {f"{m} {r.path.removeprefix('/api')}" for router in ROUTERS for r in router.routes
              if isinstance(r, APIRoute) for m in r.methods or ()}
    declared = {e.route for e in vars(_Endpoints).values() if isinstance(e, endpoint)}
    assert routes - declared == set()


def test_keys_are_made_listed_and_revoked(running_app: AppProcess) -> None:
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("keys")["id"]
        made = c.create_key("reader", "dashboard")
        assert made["key"] and made["role"] == "reader" and made["revoked_at"] is None
        [listed] = c.list_keys()["items"]
        assert listed["id"] == made["id"] and "key" not in listed
        revoked = c.revoke_key(made["id"])
        assert revoked["revoked_at"] is not None
        assert [k["revoked_at"] for k in c.items(c.list_keys)] == [revoked["revoked_at"]]
        with pytest.raises(NotFoundError):
            c.revoke_key("no-such-key")


def test_export_then_restore_gives_the_workspace_back(running_app: AppProcess) -> None:
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("export")["id"]
        claim = c.add_source(JUNE, title="Plan")["claims"][0]
        doc = c.export_workspace()
        assert doc["format"] == "afterhack-export/1" and doc["workspace"]["id"] == c.workspace
        prov = c.export_prov()
        assert "entity" in prov
        with pytest.raises(ConflictError) as exists:
            c.restore_workspace(doc)
        assert exists.value.code == "workspace_exists"
        c.delete_workspace()
        assert c.restore_workspace(doc)["id"] == c.workspace
        assert c.get_claim(claim["id"])["statement"] == JUNE


def test_a_file_comes_back_byte_for_byte(running_app: AppProcess) -> None:
    data = (ROOT / "examples" / "launch-notes.md").read_bytes()
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("files")["id"]
        source = c.add_file(data, "launch-notes.md")["source"]
        assert source is not None
        version = c.get_source(source["id"])["versions"][-1]
        assert version["media_type"] == "text/markdown"
        assert c.get_file(source["id"], version["id"]) == data


def test_every_list_walks_page_after_page(running_app: AppProcess) -> None:
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("pages")["id"]
        texts = [JUNE, VENUE, KEYNOTE]
        sources = [_source_id(c.add_source(t, title=f"Memo {i}")) for i, t in enumerate(texts)]
        chat = _source_id(c.add_conversation([{"speaker": "Ana", "text": JUNE19}], title="Chat"))
        c.append_messages(chat, [{"speaker": "Ben", "text": KEYNOTE}])
        c.run_agent("Book the venue")
        c.run_agent("Confirm the keynote speaker")
        c.add_source("The launch venue is the Harbour Hall.", title="Memo 3")  # a 2nd conflict
        # One a page, walked to the end, is the whole list as one page gives it.
        lists: dict[str, Callable[..., Mapping[str, Any]]] = {
            "sources": c.list_sources, "claims": c.search_claims, "runs": c.list_runs,
            "decisions": c.list_decisions, "actions": c.list_actions,
            "conflicts": c.list_conflicts, "audit": c.audit}
        for name, list_page in lists.items():
            whole = [x["id"] for x in list_page(limit=1000)["items"]]
            assert len(whole) >= 2, name
            assert [x["id"] for x in c.items(list_page, limit=1)] == whole, name
            assert len(list(c.pages(list_page, limit=1))) == len(whole), name
        assert [s["id"] for s in c.items(c.list_sources, limit=2)][:3] == sources
        ranked = [x["id"] for x in c.search_claims("launch", limit=1000)["items"]]
        assert [x["id"] for x in c.items(c.search_claims, q="launch", limit=1)] == ranked
        assert c.workspace in {w["id"] for w in c.items(c.list_workspaces, limit=2)}


async def test_the_async_client_walks_lists_and_reads_as_of(running_app: AppProcess) -> None:
    async with AsyncClient(running_app.base_url) as c:
        c.workspace = (await c.create_workspace("async pages"))["id"]
        june = (await c.add_source(JUNE, title="Plan"))["claims"][0]
        await c.add_source(JUNE19, title="Memo")
        before = int(time.time() * 1000)
        while int(time.time() * 1000) <= before:  # what follows is stamped after it
            pass
        [conflict] = [x async for x in c.items(c.list_conflicts, limit=1)]
        preview = await c.preview_conflict_resolution(conflict["id"], keep=june["id"])
        await c.apply_resolution(preview)
        assert [x async for x in c.items(c.list_conflicts)] == []
        [then] = [x async for x in c.items(c.list_conflicts, as_of=before)]
        assert then["id"] == conflict["id"] and then["status"] == "open"
        assert (await c.get_conflict(conflict["id"], as_of=before))["status"] == "open"
        assert (await c.get_conflict(conflict["id"]))["status"] == "resolved"
        sources = [s async for s in c.items(c.list_sources, limit=1)]
        assert len(sources) == 2


async def test_an_outside_agents_run_is_gated(running_app: AppProcess) -> None:
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("runs")["id"]
        plan = c.add_source(f"{JUNE} {VENUE}", title="Plan")["claims"]
        ws = c.workspace
    runs = AgentRuns(running_app.base_url, workspace=ws)
    run = await runs.start("Where and when is the launch?")
    hits = await runs.search(run["run_id"], "launch")
    assert {h["claim_id"] for h in hits} == {k["id"] for k in plan}
    read = hits[0]["claim_id"]
    [sources] = await runs.read(run["run_id"], [read])
    assert sources["fragments"] and sources["claim_id"] == read
    unread = next(h["claim_id"] for h in hits if h["claim_id"] != read)
    view = await runs.submit(run["run_id"], "June 12, at the venue.", [read, unread])
    assert view["decision"] is not None
    cited = [k["id"] for p in view["decision"]["premises"] for k in p["claims"]]
    assert cited == [read]
    dropped = [d for h in view["handoffs"] for d in h["dropped"]]
    assert {"claim_id": unread, "reason": "not_retrieved"} in dropped
    with pytest.raises(ConflictError) as closed:
        await runs.search(run["run_id"], "launch")
    assert closed.value.code == "agent_run_closed" and closed.value.status == 409
    remembered = await runs.remember("Launch chat", "Ana", "The launch moves to June 19.")
    assert remembered["claims"][0]["said_by"] == "Ana"


def test_erasures_are_previewed_applied_listed_and_declined(running_app: AppProcess) -> None:
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("erasures")["id"]
        claim = c.add_source(f"{JUNE} The door code is 4417-AB.", title="Plan")["claims"][1]
        preview = c.preview_erasure(text="4417-AB")
        assert preview["counts"]["claims"] == 1
        applied = c.apply_erasure(text="4417-AB", impact_token=preview["impact_token"],
                                  reason="a secret", wait_for_disk=True)
        assert applied["status"] == "applied"
        assert applied["erasure"]["disk"] in ("pending", "clean")  # the scrubber's own time
        assert applied["erasure"]["claim_ids"] == [claim["id"]]
        assert c.get_erasure(applied["erasure"]["id"])["reason"] == "a secret"
        # A speaker's request to forget waits for a reviewer, who may decline it.
        chat = _source_id(c.add_conversation(
            [{"speaker": "Ana", "text": "My phone number is 555-0142."}], title="Chat"))
        c.append_messages(chat, [{"speaker": "Ana", "text": "Please forget my phone number."}])
        [request] = c.items(c.list_erasures, status="requested")
        declined = c.decline_erasure(request["id"], reason="kept for the contract")
        assert declined["status"] == "declined"
        assert {e["status"] for e in c.items(c.list_erasures, limit=1)} == {"applied",
                                                                             "declined"}
        assert c.set_forget_requests("apply")["forget_requests"] == "apply"
