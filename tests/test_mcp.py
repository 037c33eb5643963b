"""The MCP tools, driven with the SDK's own client: in-process and over real HTTP (/mcp on a
running app), plus one stdio round trip. The evidence gate must hold across separate calls."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import TextContent
from pydantic import SecretStr
from starlette.requests import Request

from afterhack.access import Caller, key_resolver
from afterhack.agents.gate import NO_ANSWER_TITLE
from afterhack.agents.run import get_run_view
from afterhack.client import Client as ApiClient
from afterhack.config import Settings
from afterhack.mcpserver import (
    AfterhackMCP,
    create_mcp_server,
    fixed_key_caller,
    http_caller,
)
from afterhack.model.graph import GraphView
from afterhack.runtime.services import Services, build_services
from afterhack.store.client import Store
from afterhack.store.export import snapshot_graph
from afterhack.store.workspaces import workspace_graph
from tests.support.conflicts import june_memo
from tests.support.erasure import holders
from tests.support.fakellm import FakeLLM, Reply
from tests.support.mcp import call, fail, server_for, store_workspace
from tests.support.procs import AppProcess
from tests.support.settings import make_settings
from tests.support.texts import JUNE, KEYNOTE

INVENTED = str(uuid.uuid4())

TOOLS = {"start_run", "search_claims", "get_claim_sources", "submit_proposal", "add_source",
         "get_claim", "preview_correction", "apply_correction", "get_impact",
         "list_conflicts", "preview_conflict_resolution", "resolve_conflict", "remember",
         "forget"}


@pytest.fixture(params=["in-process", "http"])
def target(request: pytest.FixtureRequest, services: Services) -> AfterhackMCP | str:
    if request.param == "http":
        app: AppProcess = request.getfixturevalue("running_app")
        return app.base_url + "/mcp"
    return server_for(services)


async def test_tools_listed_with_hints(services: Services) -> None:
    async with Client(server_for(services)) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
    assert set(tools) == TOOLS
    for t in tools.values():
        assert "workspace_id" in t.input_schema["required"], t.name
    hints = {"preview_correction": "read_only_hint", "get_impact": "read_only_hint",
             "apply_correction": "destructive_hint", "list_conflicts": "read_only_hint",
             "resolve_conflict": "destructive_hint", "forget": "destructive_hint"}
    for name, hint in hints.items():
        annotations = tools[name].annotations
        assert annotations is not None and getattr(annotations, hint) is True, (name, hint)


async def test_conflicts_over_mcp(target: AfterhackMCP | str, services: Services) -> None:
    ws = await store_workspace(services)
    async with Client(target) as c:
        march = await call(c, "add_source", workspace_id=ws, title="March", text=JUNE)
        april = await call(c, "add_source", workspace_id=ws, title="April",
                           text="The launch moves to June 19.")
        (raised,) = april["conflicts"]
        listed = await call(c, "list_conflicts", workspace_id=ws)
        assert [k["id"] for k in listed["items"]] == [raised["id"]]
        # An outside agent sees the dispute in its search, and citing both sides without
        # premises gives one premise per fact, for a reviewer to settle.
        run = (await call(c, "start_run", workspace_id=ws, task="When is the launch?"))["run_id"]
        hits = await call(c, "search_claims", workspace_id=ws, run_id=run, query="launch")
        assert {h["claim_id"]: h["open_conflict_ids"] for h in hits} == {
            march["claims"][0]["id"]: [raised["id"]], april["claims"][0]["id"]: [raised["id"]]}
        ids = [h["claim_id"] for h in hits]
        await call(c, "get_claim_sources", workspace_id=ws, run_id=run, claim_ids=ids)
        view = await call(c, "submit_proposal", workspace_id=ws, run_id=run,
                          answer="June 19", claim_ids=[april["claims"][0]["id"]])
        assert view["decision"]["status"] == "needs_review" and view["actions"] == []
        assert view["decision"]["review_reason"]["type"] == "sources_disagree"
        keep = march["claims"][0]["id"]
        preview = await call(c, "preview_conflict_resolution", workspace_id=ws,
                             conflict_id=raised["id"], keep=keep)
        assert [x["claim_id"] for x in preview["supersede"]] == [april["claims"][0]["id"]]
        done = await call(c, "resolve_conflict", workspace_id=ws, conflict_id=raised["id"],
                          keep=keep, reason="The venue confirmed June 12.",
                          conflict_revision=preview["revisions"]["conflict_revision"],
                          impact_token=preview["revisions"]["impact_token"])
        assert done["status"] == "applied" and done["conflict"]["status"] == "resolved"
        err = await fail(c, "preview_conflict_resolution", workspace_id=ws,
                         conflict_id=raised["id"], keep=keep)
        assert err["code"] == "conflict_closed"


async def test_list_conflicts_pages_by_cursor(services: Services) -> None:
    ws = await store_workspace(services)
    async with Client(server_for(services)) as c:
        # Three facts, each given another day by the second source: three disputes.
        for month, day in (("March", 12), ("April", 19)):
            await call(c, "add_source", workspace_id=ws, title=month, text=june_memo(3, day))
        whole = await call(c, "list_conflicts", workspace_id=ws)
        assert len(whole["items"]) == 3 and whole["total"] == 3 and whole["next_cursor"] is None
        first = await call(c, "list_conflicts", workspace_id=ws, limit=2)
        assert first["next_cursor"] and len(first["items"]) == 2
        rest = await call(c, "list_conflicts", workspace_id=ws, limit=2,
                          cursor=first["next_cursor"])
        assert rest["next_cursor"] is None
        assert [k["id"] for k in first["items"] + rest["items"]] == [
            k["id"] for k in whole["items"]]
        err = await fail(c, "list_conflicts", workspace_id=ws, cursor="not-a-cursor")
        assert err["code"] == "invalid_cursor"


async def test_gate_holds_across_separate_calls(target: AfterhackMCP | str,
                                                services: Services) -> None:
    ws = await store_workspace(services)
    async with Client(target) as c:
        added = await call(c, "add_source", workspace_id=ws, title="Plan",
                           text=f"{JUNE} {KEYNOTE}")
        ids = {x["statement"]: x["id"] for x in added["claims"]}
        june, keynote = ids[JUNE], ids[KEYNOTE]

        # Searched but never retrieved: a search hit is not evidence.
        run = (await call(c, "start_run", workspace_id=ws, task="When is the launch?"))["run_id"]
        hits = await call(c, "search_claims", workspace_id=ws, run_id=run, query="launch")
        assert hits == [{"claim_id": june, "statement": JUNE, "status": "proposed",
                         "open_conflict_ids": []}]
        view = await call(c, "submit_proposal", workspace_id=ws, run_id=run,
                          answer="June 12", claim_ids=[june])
        assert view["decision"]["status"] == "needs_review"
        assert view["decision"]["title"] == NO_ANSWER_TITLE
        assert view["actions"] == []
        assert view["handoffs"][0]["dropped"] == [{"claim_id": june, "reason": "not_retrieved"}]

        # Searched and retrieved in this run: cited. An invented id and a claim this run
        # never searched are dropped, with the reason.
        run = (await call(c, "start_run", workspace_id=ws, task="Plan the launch"))["run_id"]
        await call(c, "search_claims", workspace_id=ws, run_id=run, query="launch")
        sources = await call(c, "get_claim_sources", workspace_id=ws, run_id=run,
                             claim_ids=[june])
        frag = sources[0]["fragments"][0]
        assert frag["text"][frag["quote_start"] - frag["start"]:
                            frag["quote_end"] - frag["start"]] == JUNE
        view = await call(c, "submit_proposal", workspace_id=ws, run_id=run, answer="June 12",
                          claim_ids=[june, INVENTED, keynote], proposed_actions=["Book the hall"])
        decision = view["decision"]
        assert decision["status"] == "draft"
        assert [x["id"] for p in decision["premises"] for x in p["claims"]] == [june]
        assert [a["description"] for a in view["actions"]] == ["Book the hall"]
        reasons = {d["claim_id"]: d["reason"] for d in view["handoffs"][0]["dropped"]}
        assert reasons == {INVENTED: "unknown", keynote: "not_searched"}
        names = [t["name"] for t in view["handoffs"][0]["tool_calls"]]
        assert names == ["search_claims", "get_claim_sources", "submit_proposal"]
        # The same RunView as GET /agent-runs/{id}.
        assert view == json.loads(json.dumps(
            await get_run_view(workspace_graph(services.store, ws), run)))

        # A concluded run refuses further calls.
        for name, args in (("search_claims", {"query": "launch"}),
                           ("get_claim_sources", {"claim_ids": [june]}),
                           ("submit_proposal", {"answer": "x", "claim_ids": [june]})):
            err = await fail(c, name, workspace_id=ws, run_id=run, **args)
            assert err["code"] == "agent_run_closed", name

        # Evidence is per run: an id remembered from the last run is not evidence in this one.
        run = (await call(c, "start_run", workspace_id=ws, task="When is the launch?"))["run_id"]
        view = await call(c, "submit_proposal", workspace_id=ws, run_id=run, answer="June 12",
                          claim_ids=[june])
        assert view["decision"]["title"] == NO_ANSWER_TITLE
        assert view["handoffs"][0]["dropped"] == [{"claim_id": june, "reason": "not_searched"}]

        err = await fail(c, "search_claims", workspace_id=ws, run_id=INVENTED, query="x")
        assert err["code"] == "agent_run_not_found"


async def test_errors_carry_the_canonical_code(services: Services) -> None:
    ws = await store_workspace(services)
    async with Client(server_for(services)) as c:
        claim = (await call(c, "add_source", workspace_id=ws, title="Plan", text=JUNE))["claims"][0]
        err = await fail(c, "start_run", workspace_id=ws, task="   ")
        assert err["code"] == "invalid_request" and err["details"]["errors"][0]["loc"] == ["task"]
        err = await fail(c, "get_claim", workspace_id=ws, claim_id=INVENTED)
        assert err["code"] == "claim_not_found"
        err = await fail(c, "get_claim", workspace_id="not-a-uuid", claim_id=claim["id"])
        assert err["code"] == "workspace_not_found"

        preview = await call(c, "preview_correction", workspace_id=ws, claim_id=claim["id"],
                             statement="The product launch is planned for June 19.")
        # The impact set changes between preview and apply: a new decision now uses the claim.
        run = (await call(c, "start_run", workspace_id=ws, task="Plan the launch"))["run_id"]
        await call(c, "search_claims", workspace_id=ws, run_id=run, query="launch")
        await call(c, "get_claim_sources", workspace_id=ws, run_id=run, claim_ids=[claim["id"]])
        await call(c, "submit_proposal", workspace_id=ws, run_id=run, answer="x",
                   claim_ids=[claim["id"]])
        err = await fail(c, "apply_correction", workspace_id=ws, claim_id=claim["id"],
                         statement="The product launch is planned for June 19.",
                         claim_revision=preview["revisions"]["claim_revision"],
                         impact_token=preview["revisions"]["impact_token"])
        assert err["code"] == "stale_correction_preview"
        assert err["details"]["seen"]["impact_token"] == preview["revisions"]["impact_token"]

        # Strict types, as over HTTP: true is no revision, 0 is no flag; nothing changes.
        preview = await call(c, "preview_correction", workspace_id=ws, claim_id=claim["id"],
                             statement="The product launch is planned for June 19.")
        assert preview["revisions"]["claim_revision"] == 1
        g = workspace_graph(services.store, ws)
        before = await snapshot_graph(g)
        err = await fail(c, "apply_correction", workspace_id=ws, claim_id=claim["id"],
                         statement="The product launch is planned for June 19.",
                         claim_revision=True, impact_token=preview["revisions"]["impact_token"])
        assert err["code"] == "invalid_request"
        assert err["details"]["errors"][0]["loc"] == ["claim_revision"]
        revisions = {"conflict_revision": 1, "impact_token": "imp_x"}
        for tool, extra in (("preview_conflict_resolution", {}), ("resolve_conflict", revisions)):
            err = await fail(c, tool, workspace_id=ws, conflict_id=INVENTED, dismiss=0, **extra)
            assert err["code"] == "invalid_request", err
            assert err["details"]["errors"][0]["loc"] == ["dismiss"], err
        err = await fail(c, "get_claim", workspace_id=ws, claim_id=claim["id"],
                         as_of="\uff11\uff12\uff13")
        assert err["code"] == "invalid_request"
        assert await snapshot_graph(g) == before


async def test_get_impact_is_the_preview_without_a_statement(services: Services) -> None:
    ws = await store_workspace(services)
    g = workspace_graph(services.store, ws)
    async with Client(server_for(services)) as c:
        claim = (await call(c, "add_source", workspace_id=ws, title="Plan", text=JUNE))["claims"][0]
        run = (await call(c, "start_run", workspace_id=ws, task="Plan the launch"))["run_id"]
        await call(c, "search_claims", workspace_id=ws, run_id=run, query="launch")
        await call(c, "get_claim_sources", workspace_id=ws, run_id=run, claim_ids=[claim["id"]])
        view = await call(c, "submit_proposal", workspace_id=ws, run_id=run, answer="x",
                          claim_ids=[claim["id"]], proposed_actions=["Plan the launch"])
        before = await snapshot_graph(g)
        impact = await call(c, "get_impact", workspace_id=ws, claim_id=claim["id"])
        assert await snapshot_graph(g) == before
        preview = await call(c, "preview_correction", workspace_id=ws, claim_id=claim["id"],
                             statement="Another date.")
    assert impact["correctable"] is True
    for k in ("flag", "hold", "stay", "revisions"):
        assert impact[k] == preview[k], k
    assert [f["decision_id"] for f in impact["flag"]] == [view["decision"]["id"]]
    assert [h["action_id"] for h in impact["hold"]] == [view["actions"][0]["id"]]


async def test_keys_and_roles_as_over_http(services: Services) -> None:
    ws = await store_workspace(services, "mine")
    other = await store_workspace(services, "theirs")
    async with Client(server_for(services)) as c:
        claim = (await call(c, "add_source", workspace_id=ws, title="Plan", text=JUNE))["claims"][0]

    scoped = Caller(actor="agent-key", role="agent", workspace_id=ws)
    async with Client(server_for(services, scoped)) as c:
        assert (await call(c, "get_claim", workspace_id=ws, claim_id=claim["id"]))["id"]
        # Another workspace looks exactly like one that does not exist.
        foreign = await fail(c, "get_claim", workspace_id=other, claim_id=claim["id"])
        missing = INVENTED
        absent = await fail(c, "get_claim", workspace_id=missing, claim_id=claim["id"])
        assert foreign["code"] == absent["code"] == "workspace_not_found"
        assert foreign["message"] == absent["message"]
        assert foreign["details"] == {"id": other} and absent["details"] == {"id": missing}
        # An agent key may run agents but not correct.
        err = await fail(c, "preview_correction", workspace_id=ws, claim_id=claim["id"],
                         statement="x")
        assert err["code"] == "forbidden"

    reader = Caller(actor="reader-key", role="reader", workspace_id=ws)
    async with Client(server_for(services, reader)) as c:
        assert (await fail(c, "start_run", workspace_id=ws, task="x"))["code"] == "forbidden"
        assert (await fail(c, "add_source", workspace_id=ws, title="t", text="x"))["code"] \
            == "forbidden"

    keyed = make_settings(falkordb_url="unused", admin_key=SecretStr("s3cret"))
    for key, code in ((None, "unauthorized"), ("wrong", "unauthorized"), ("s3cret", None)):
        server = create_mcp_server(lambda: services,
                                   fixed_key_caller(key_resolver(keyed, lambda: services.store),
                                                    key))
        async with Client(server) as c:
            r = await c.call_tool("get_claim", {"workspace_id": ws, "claim_id": claim["id"]})
            assert isinstance(r.content[0], TextContent), r.content
            got = json.loads(r.content[0].text)
            assert (got["error"]["code"] if r.is_error else None) == code


async def test_http_caller_prefers_the_api_key_check_then_the_bearer_key(
        services: Services) -> None:
    keyed = make_settings(falkordb_url="unused", admin_key=SecretStr("s3cret"))
    source = http_caller(key_resolver(keyed, lambda: services.store))

    def request(auth: str | None, caller: Caller | None = None) -> Request:
        headers = [(b"authorization", auth.encode())] if auth else []
        return Request({"type": "http", "headers": headers,
                        "state": {"caller": caller} if caller else {}})

    set_by_api = Caller(actor="k1", role="reviewer", workspace_id=str(uuid.uuid4()))
    assert await source(request(None, set_by_api)) == set_by_api
    assert (await source(request("Bearer s3cret"))).role == "admin"
    from afterhack.errors import Unauthorized

    with pytest.raises(Unauthorized):
        await source(request("Bearer nope"))


def _story(api: ApiClient) -> dict[str, str]:
    """The same small world in a fresh workspace: two decisions rest on the June claim (one
    through the other), one does not."""
    ws = api.create_workspace("parity")["id"]
    api.workspace = ws
    june = api.add_source(JUNE, title="Launch plan")["claims"][0]["id"]
    api.add_source(KEYNOTE, title="Speakers")
    plan = api.run_agent("Plan the launch event")["decision"]
    assert plan is not None
    first = plan["id"]
    api.run_agent("Book the keynote speaker")
    api.run_agent("Prepare the launch party", builds_on=[first])
    return {"ws": ws, "june": june}


def _shape(graph: GraphView) -> tuple[list[Any], list[Any]]:
    key = {n["id"]: (n["type"], n["label"], n["status"]) for n in graph["nodes"]}
    edges = sorted((e["type"], key[e["source"]], key[e["target"]]) for e in graph["edges"])
    return sorted(key.values()), edges


async def test_a_correction_through_mcp_equals_one_through_http(running_app: AppProcess) -> None:
    fixed = "The product launch is planned for June 19."
    with ApiClient(running_app.base_url) as api:
        over_mcp, over_http = _story(api), _story(api)
        async with Client(running_app.base_url + "/mcp") as c:
            preview = await call(c, "preview_correction", workspace_id=over_mcp["ws"],
                                 claim_id=over_mcp["june"], statement=fixed)
            applied = await call(c, "apply_correction", workspace_id=over_mcp["ws"],
                                 claim_id=over_mcp["june"], statement=fixed,
                                 claim_revision=preview["revisions"]["claim_revision"],
                                 impact_token=preview["revisions"]["impact_token"])
            again = await call(c, "apply_correction", workspace_id=over_mcp["ws"],
                               claim_id=over_mcp["june"], statement=fixed,
                               claim_revision=preview["revisions"]["claim_revision"],
                               impact_token=preview["revisions"]["impact_token"])
        http_preview = api.preview_correction(over_http["june"], fixed,
                                              workspace=over_http["ws"])
        http_applied = api.apply_preview(http_preview, workspace=over_http["ws"])
        mcp_graph = api.graph(workspace=over_mcp["ws"])
        http_graph = api.graph(workspace=over_http["ws"])
    assert applied["status"] == "applied" and again["status"] == "already_applied"
    assert len(applied["flagged"]) == len(http_applied["flagged"]) == 2
    assert len(applied["held"]) == len(http_applied["held"]) == 2
    nodes, edges = _shape(mcp_graph)
    assert (nodes, edges) == _shape(http_graph)
    statuses = sorted((t, s) for t, _, s in nodes if t in ("decision", "action"))
    assert statuses == [("action", "held"), ("action", "held"), ("action", "proposed"),
                        ("decision", "draft"), ("decision", "needs_review"),
                        ("decision", "needs_review")]
    assert {e[0] for e in edges} == {"SUPPORTS", "INFORMS", "ENABLES", "CORRECTS", "REPLACES"}


async def test_stdio_round_trip(falkordb: str, services: Services) -> None:
    ws = await store_workspace(services)
    env = {**os.environ, "AFTERHACK_FALKORDB_URL": falkordb, "OPENAI_BASE_URL": "",
           "AFTERHACK_ADMIN_KEY": ""}
    params = StdioServerParameters(command=sys.executable, args=["-m", "afterhack.cli", "mcp"],
                                   env=env)
    async with Client(params) as c:
        assert {t.name for t in (await c.list_tools()).tools} == TOOLS
        added = await call(c, "add_source", workspace_id=ws, title="Plan", text=JUNE)
        got = await call(c, "get_claim", workspace_id=ws, claim_id=added["claims"][0]["id"])
    assert got["statement"] == JUNE and got["origin"]["type"] == "document"


async def test_the_coordinator_is_gated_again_and_its_failure_closes_the_run(
        services: Services, gateway_settings: Settings, fakellm: FakeLLM) -> None:
    """The Coordinator behind submit_proposal is the configured model (here a scripted one
    over real HTTP): what it cites is gated again with the run's persisted evidence."""
    ws = await store_workspace(services)
    async with Client(server_for(services)) as c:  # offline extraction for the story
        added = await call(c, "add_source", workspace_id=ws, title="Plan",
                           text=f"{JUNE} {KEYNOTE}")
    ids = {x["statement"]: x["id"] for x in added["claims"]}
    june, keynote = ids[JUNE], ids[KEYNOTE]

    def coordinator(body: dict[str, Any]) -> Reply:
        payload = json.loads(body["messages"][-1]["content"])
        assert [e["claim_id"] for e in payload["evidence"]] == [june]  # only gated evidence
        return Reply.json({"title": "Launch", "summary": "June 12",
                           "claim_ids": [june, keynote, INVENTED],
                           "premises": [{"statement": "date", "claim_ids": [june, INVENTED]}],
                           "actions": [{"description": "Book the hall"}]})

    fakellm.on_request(coordinator)
    assert gateway_settings.falkordb_url
    store = Store(gateway_settings.falkordb_url)
    gated_services = build_services(gateway_settings, store)
    try:
        async with Client(server_for(gated_services)) as c:
            run = (await call(c, "start_run", workspace_id=ws, task="Plan the launch"))["run_id"]
            await call(c, "search_claims", workspace_id=ws, run_id=run, query="launch")
            await call(c, "get_claim_sources", workspace_id=ws, run_id=run, claim_ids=[june])
            view = await call(c, "submit_proposal", workspace_id=ws, run_id=run, answer="x",
                              claim_ids=[june])
            assert [(p["premise"], [x["id"] for x in p["claims"]])
                    for p in view["decision"]["premises"]] == [("date", [june])]
            assert [a["description"] for a in view["actions"]] == ["Book the hall"]
            second = {d["claim_id"]: d["reason"] for d in view["handoffs"][1]["dropped"]}
            assert second == {keynote: "not_searched", INVENTED: "unknown"}
            assert [m["role"] for m in view["run"]["model_calls"]] == ["coordinator", "run"]

            fakellm.on_request(lambda _body: Reply.error(500, "down"))
            run = (await call(c, "start_run", workspace_id=ws, task="Plan the launch"))["run_id"]
            await call(c, "search_claims", workspace_id=ws, run_id=run, query="launch")
            await call(c, "get_claim_sources", workspace_id=ws, run_id=run, claim_ids=[june])
            err = await fail(c, "submit_proposal", workspace_id=ws, run_id=run, answer="x",
                             claim_ids=[june])
            assert err["code"] == "llm_gateway_unavailable" and err["details"]["run_id"] == run
            err = await fail(c, "search_claims", workspace_id=ws, run_id=run, query="launch")
            assert err["code"] == "agent_run_closed" and err["details"]["status"] == "failed"
        failed = await get_run_view(workspace_graph(store, ws), run)
        assert failed["run"]["status"] == "failed" and failed["decision"] is None
        assert failed["handoffs"][0]["retrieved_claim_ids"] == [june]
    finally:
        await gated_services.aclose()
        await store.close()


async def test_two_racing_submits_conclude_the_run_once(services: Services) -> None:
    ws = await store_workspace(services)
    g = workspace_graph(services.store, ws)
    async with Client(server_for(services)) as c:
        june = (await call(c, "add_source", workspace_id=ws, title="Plan",
                           text=JUNE))["claims"][0]["id"]
        run = (await call(c, "start_run", workspace_id=ws, task="Plan the launch"))["run_id"]
        await call(c, "search_claims", workspace_id=ws, run_id=run, query="launch")
        await call(c, "get_claim_sources", workspace_id=ws, run_id=run, claim_ids=[june])
        open_view = await get_run_view(g, run)
        assert open_view["run"]["status"] == "open" and open_view["decision"] is None
        args = {"workspace_id": ws, "run_id": run, "answer": "x", "claim_ids": [june]}
        results = await asyncio.gather(c.call_tool("submit_proposal", args),
                                       c.call_tool("submit_proposal", args))
    assert sorted(r.is_error for r in results) == [False, True]
    loser = next(r for r in results if r.is_error)
    assert loser.structured_content["error"]["code"] == "agent_run_closed"
    rows = await g.read("MATCH (:AgentRun {id:$id})-[:PRODUCED]->(d:Decision) "
                        "RETURN count(d) AS n", {"id": run})
    assert rows.scalar() == 1


async def test_an_open_run_left_too_long_expires(services: Services) -> None:
    ws = await store_workspace(services)
    g = workspace_graph(services.store, ws)
    ttl_s = services.settings.agent_run_open_ttl_s
    async with Client(server_for(services)) as c:
        await call(c, "add_source", workspace_id=ws, title="Plan", text=JUNE)
        fresh = (await call(c, "start_run", workspace_id=ws, task="When?"))["run_id"]
        old = (await call(c, "start_run", workspace_id=ws, task="When, long ago?"))["run_id"]
        # As if the agent had walked away from this run just over the limit ago.
        await g.write("MATCH (r:AgentRun {id:$id}) SET r.created_at = r.created_at - $ms",
                      {"id": old, "ms": ttl_s * 1000 + 1000})

        for tool, args in (("search_claims", {"query": "launch"}),
                           ("submit_proposal", {"answer": "June", "claim_ids": []})):
            err = await fail(c, tool, workspace_id=ws, run_id=old, **args)
            assert err["code"] == "agent_run_closed" and err["details"]["status"] == "expired"
        # The run within its time is untouched.
        assert await call(c, "search_claims", workspace_id=ws, run_id=fresh, query="launch")

    view = await get_run_view(g, old)
    assert view["run"]["status"] == "expired" and view["run"]["error"] == "expired"
    rows = await g.read("MATCH (e:AuditEvent {subject_id:$id}) RETURN e.kind AS kind "
                        "ORDER BY e.at", {"id": old})
    assert [r["kind"] for r in rows] == ["agent_run.started", "agent_run.expired"]


NUMBER = "0170 4455667"


async def test_an_agent_key_files_a_request_to_forget_and_a_reviewer_applies_it(
        services: Services, falkordb: str) -> None:
    ws = await store_workspace(services)
    async with Client(server_for(services)) as c:
        said = await call(c, "remember", workspace_id=ws, conversation="Support",
                          speaker="Ana", text=f"My phone number is {NUMBER}.")
        await call(c, "remember", workspace_id=ws, conversation="Support", speaker="Ben",
                   text="The venue is the Harbour Hall.")
    (number,) = said["claims"]

    agent = Caller(actor="agent-key", role="agent", workspace_id=ws)
    async with Client(server_for(services, agent)) as c:
        filed = await call(c, "forget", workspace_id=ws, text=NUMBER,
                           reason=f"Ana asked me to forget {NUMBER}.")
        assert filed["status"] == "requested" and filed["preview"] is None
        request = filed["erasure"]
        assert request["status"] == "requested" and request["claim_ids"] == [number["id"]]
        assert request["requested_by"] == "agent-key"
        assert request["reason"] == "Ana asked me to forget [erased]."
        # Withheld at once: the agent's own search no longer finds it.
        run = (await call(c, "start_run", workspace_id=ws, task="Ana's number"))["run_id"]
        hits = await call(c, "search_claims", workspace_id=ws, run_id=run,
                          query="phone number")
        assert number["id"] not in {h["claim_id"] for h in hits}
        # An agent's key files; it does not apply, and a request is a reviewer's to apply.
        for args in ({"text": "Harbour Hall", "impact_token": "era_x"},
                     {"request_id": request["id"]}):
            assert (await fail(c, "forget", workspace_id=ws, **args))["code"] == "forbidden"
        # Words no current claim holds are a reviewer's to erase.
        again = await fail(c, "forget", workspace_id=ws, text=NUMBER)
        assert again["code"] == "nothing_to_erase"
        bad = await fail(c, "forget", workspace_id=ws, text=NUMBER, speaker="Ana")
        assert bad["code"] == "invalid_request"
    assert await asyncio.to_thread(holders, falkordb, ws, NUMBER) != []

    reviewer = Caller(actor="reviewer-key", role="reviewer", workspace_id=ws)
    async with Client(server_for(services, reviewer)) as c:
        shown = await call(c, "forget", workspace_id=ws, request_id=request["id"])
        assert shown["status"] == "preview" and shown["erasure"] is None
        assert [x["id"] for x in shown["preview"]["goes"]["claims"]] == [number["id"]]
        token = shown["preview"]["impact_token"]
        done = await call(c, "forget", workspace_id=ws, request_id=request["id"],
                          impact_token=token)
        assert done["status"] == "applied" and done["erasure"]["id"] == request["id"]
        assert done["erasure"]["applied_by"] == "reviewer-key"
        repeat = await call(c, "forget", workspace_id=ws, request_id=request["id"],
                            impact_token=token)
        assert repeat["status"] == "already_applied"
    assert await asyncio.to_thread(holders, falkordb, ws, NUMBER) == []

    reader = Caller(actor="reader-key", role="reader", workspace_id=ws)
    async with Client(server_for(services, reader)) as c:
        denied = await fail(c, "forget", workspace_id=ws, text="Harbour Hall")
        assert denied["code"] == "forbidden"


async def test_forget_previews_then_applies_over_http(running_app: AppProcess,
                                                      falkordb: str) -> None:
    with ApiClient(running_app.base_url) as api:
        ws = api.create_workspace("forget over mcp")["id"]
        api.add_source(f"Ana can be reached at {NUMBER}. The venue is the Harbour Hall.",
                       title="Contacts", workspace=ws)
    async with Client(running_app.base_url + "/mcp") as c:
        shown = await call(c, "forget", workspace_id=ws, text=NUMBER)
        assert shown["status"] == "preview" and shown["preview"]["counts"]["spans"] == 1
        assert await asyncio.to_thread(holders, falkordb, ws, NUMBER) != []
        stale = await fail(c, "forget", workspace_id=ws, text=NUMBER, impact_token="era_0")
        assert stale["code"] == "stale_erasure_preview"
        done = await call(c, "forget", workspace_id=ws, text=NUMBER, reason="By mistake.",
                          impact_token=shown["preview"]["impact_token"])
        assert done["status"] == "applied" and done["erasure"]["counts"]["spans"] == 1
    assert await asyncio.to_thread(holders, falkordb, ws, NUMBER) == []
