"""``as_of`` everywhere a reader asks (docs/rules.md, rule 10): the CLI's ``graph --as-of`` and
``ask --as-of``, the Python client, and MCP's search_claims and get_claim."""

from __future__ import annotations

from typing import Any

from mcp import Client as McpClient
from typer.testing import CliRunner

from afterhack.cli.main import app as cli
from afterhack.client import Client
from afterhack.records.clock import now_ms
from afterhack.runtime.services import Services
from tests.support.cli import WIDE
from tests.support.mcp import call, server_for, store_workspace
from tests.support.moments import moment
from tests.support.procs import AppProcess
from tests.support.texts import JUNE

FIXED = "The product launch is planned for June 30."
DAY = 86_400_000


def test_cli_and_client_read_the_past(running_app: AppProcess) -> None:
    runner = CliRunner()
    url = ["--url", running_app.base_url]
    with Client(running_app.base_url) as api:
        ws = api.create_workspace("as of")["id"]
        api.workspace = ws
        claim = api.add_source(JUNE, title="plan")["claims"][0]
        run = api.run_agent("Plan the launch event")
        assert run["decision"] is not None
        before = moment()
        api.apply_preview(api.preview_correction(claim["id"], FIXED), reason="moved")
        assert api.get_claim(claim["id"])["status"] == "superseded"
        assert api.get_claim(claim["id"], as_of=before)["status"] == "proposed"
        assert [c["id"] for c in api.search_claims("launch", as_of=before)["items"]] == [
            claim["id"]]
        d = api.get_decision(run["decision"]["id"], as_of=before)
        assert d["status"] == "draft" and d["support"]["premises"][0]["holds_now"]
        now = api.get_decision(run["decision"]["id"])
        assert now["status"] == "needs_review"
        assert now["support"]["premises"][0]["fell"][0]["by"] == "correction"
        assert api.get_action(run["actions"][0]["id"], as_of=before)["status"] == "proposed"
        assert api.list_conflicts(status="all", as_of=before)["items"] == []
        past = api.graph(as_of=before)
        assert {n["status"] for n in past["nodes"] if n["type"] == "claim"} == {"proposed"}
        kinds = [e["kind"] for e in api.timeline()["events"]]
        assert kinds == ["source_added", "run", "correction"]

    env = {**WIDE, "AFTERHACK_WORKSPACE": ws}
    out = runner.invoke(cli, ["graph", "--as-of", str(before), *url], env=env)
    assert out.exit_code == 0, out.output
    assert f"claim [proposed] {JUNE}" in out.output
    assert "decision [draft] Plan the launch event" in out.output
    assert "action [proposed]" in out.output and FIXED not in out.output
    out = runner.invoke(cli, ["graph", *url], env=env)
    assert f"claim [superseded] {JUNE}" in out.output
    out = runner.invoke(cli, ["graph", "--as-of", "last tuesday", *url], env=env)
    assert out.exit_code == 1 and "invalid_request" in out.output
    when = now_ms() + DAY
    out = runner.invoke(cli, ["ask", "When is the launch?", "--as-of", str(when), *url],
                        env=env)
    assert out.exit_code == 0, out.output
    with Client(running_app.base_url, workspace=ws) as api:
        latest = api.list_runs(limit=1)["items"][0]
        assert api.get_run(latest["id"])["run"]["valid_at"] == when


async def test_mcp_search_and_get_claim_as_of(services: Services) -> None:
    ws = await store_workspace(services)
    async with McpClient(server_for(services)) as c:
        await call(c, "add_source", workspace_id=ws, title="Spring",
                   text="The launch venue is the Grand Hotel until June 1, 2999.")
        await call(c, "add_source", workspace_id=ws, title="Summer",
                   text="From June 1, 2999 the launch venue is the Park Pavilion.")
        run = (await call(c, "start_run", workspace_id=ws, task="Where?"))["run_id"]

        async def venues(**when: Any) -> list[str]:
            hits = await call(c, "search_claims", workspace_id=ws, run_id=run,
                              query="launch venue", **when)
            return sorted(h["statement"].split(" the ")[-1] for h in hits)

        assert await venues() == ["Grand Hotel until June 1, 2999.",
                                  "Park Pavilion."]
        assert await venues(as_of="2999-05-01") == ["Grand Hotel until June 1, 2999."]
        assert await venues(as_of="2999-06-02") == ["Park Pavilion."]

        march = await call(c, "add_source", workspace_id=ws, title="March", text=JUNE)
        claim: dict[str, Any] = march["claims"][0]
        before = moment()
        preview = await call(c, "preview_correction", workspace_id=ws, claim_id=claim["id"],
                             statement=FIXED)
        await call(c, "apply_correction", workspace_id=ws, claim_id=claim["id"],
                   statement=FIXED, claim_revision=preview["revisions"]["claim_revision"],
                   impact_token=preview["revisions"]["impact_token"])
        then = await call(c, "get_claim", workspace_id=ws, claim_id=claim["id"],
                          as_of=str(before))
        assert then["status"] == "proposed" and then["corrections"] == []
        now = await call(c, "get_claim", workspace_id=ws, claim_id=claim["id"])
        assert now["status"] == "superseded" and len(now["corrections"]) == 1
