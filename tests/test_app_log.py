"""The app's log holds nothing a caller sent: a secret sent in a source, in a conversation's
messages, as the words searched (in a query string), as an agent's task, to the MCP tools,
and where an id goes, is nowhere in the log of the real app process at INFO, while the log
does hold a line for each of those requests (api/accesslog.py). Served by ``afterhack
serve`` and by an operator's own uvicorn alike: uvicorn's own access log, which writes
query strings, is off under both.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote, quote_plus

import httpx
import pytest
from mcp import Client

from tests.support.mcp import call
from tests.support.procs import AppProcess

SECRET = "Ana's number is +49 151 2345 6789"
# How the secret could be written: as sent, URL-encoded (a path or a query string), and
# its most telling part alone.
FORMS = (SECRET, quote(SECRET), quote_plus(SECRET), "2345 6789", "2345%206789", "2345+6789")


def _drive(base: str) -> str:
    with httpx.Client(base_url=base + "/api", timeout=60) as c:
        ws = c.post("/workspaces", json={"name": f"notes: {SECRET}"}).json()["id"]
        r = c.post(f"/workspaces/{ws}/sources",
                   json={"title": f"Contacts {SECRET}", "text": f"The launch is on June 12. "
                                                              f"{SECRET}."})
        assert r.status_code == 201, r.text
        r = c.post(f"/workspaces/{ws}/sources", json={
            "title": "Chat", "messages": [{"speaker": "Ana", "text": f"By the way, {SECRET}."}]})
        assert r.status_code == 201, r.text
        assert c.get(f"/workspaces/{ws}/claims", params={"q": SECRET}).status_code == 200
        assert c.get(f"/workspaces/{ws}/graph", params={"q": SECRET}).status_code in (200, 422)
        r = c.post(f"/workspaces/{ws}/agent-runs", json={"task": f"Call Ana: {SECRET}"})
        assert r.status_code == 201, r.text
        # Where an id goes, and a body that is refused.
        assert c.get(f"/workspaces/{ws}/claims/{quote(SECRET)}").status_code == 404
        assert c.get(f"/workspaces/{quote(SECRET)}/claims").status_code == 404
        assert c.post(f"/workspaces/{ws}/sources", json={"text": SECRET, "title": 5}
                      ).status_code == 422
    return str(ws)


async def _mcp(base: str, ws: str) -> None:
    async with Client(base + "/mcp") as c:
        run = (await call(c, "start_run", workspace_id=ws, task=f"Find {SECRET}"))["run_id"]
        await call(c, "search_claims", workspace_id=ws, run_id=run, query=SECRET)
        await call(c, "remember", workspace_id=ws, conversation="Chat", speaker="Ana",
                   text=f"Again: {SECRET}")


@pytest.mark.parametrize("http", [None, "h11"])
async def test_what_callers_send_is_not_in_the_log(falkordb: str, tmp_path: Path,
                                                   http: str | None) -> None:
    log = tmp_path / "app.log"
    env = {"AFTERHACK_FALKORDB_URL": falkordb, "OPENAI_BASE_URL": "",
           "AFTERHACK_ADMIN_KEY": "", "AFTERHACK_REQUIRE_KEYS": "false",
           "AFTERHACK_EMBEDDING_WORKER": "false"}
    with AppProcess(env, data_dir=tmp_path / "data", log_path=log, http=http,
                    log_level="info") as app:
        ws = _drive(app.base_url)
        await _mcp(app.base_url, ws)
        r = httpx.delete(f"{app.base_url}/api/workspaces/{ws}", params={"wait": "disk"},
                         timeout=120)
        assert r.status_code == 200 and r.json()["disk"] == "clean"
    text = log.read_text(errors="replace")
    found = [f for f in FORMS if f in text]
    assert found == [], [line for line in text.splitlines() if any(f in line for f in FORMS)]
    assert "Started server process" in text  # the log is the one the app wrote
    if http is not None:
        # Under an operator's own uvicorn the app's access lines go to the
        # ``afterhack.access`` logger, which uvicorn's log set-up does not print.
        return
    # The requests were logged, by the route each matched.
    for line in ("POST /api/workspaces/{ws}/sources 201", "GET /api/workspaces/{ws}/claims 200",
                 "GET /api/workspaces/{ws}/claims/{claim_id} 404",
                 "POST /api/workspaces/{ws}/agent-runs 201", "DELETE /api/workspaces/{ws} 200"):
        assert re.search(re.escape(line) + r" \d+\.\d ms", text), (line, text[-3000:])
    assert "POST /mcp" in text
