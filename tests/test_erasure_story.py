"""The story of issue 43 end to end, in the real app process with its own embedded FalkorDB:
Ana says her number in a chat, a document quotes it, an agent run cites it. Erasing the
string (preview, then apply with ``?wait=disk``) leaves it in no answer (now, as of before,
exports), no graph property, no byte under the data directory (once the record says
``disk: "clean"``, and again after the app and its FalkorDB start anew) and no line of the
app's log; the decision that cited it needs review; the document's other claims keep quotes
that slice their version exactly.

The snapshot's strings are written uncompressed so a search of bytes sees what they hold
(tests/support/bytescan.py says why).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import redis

from tests.support.api import add_source, claim_named, new_workspace, read_json, run_agent
from tests.support.bytescan import scan
from tests.support.commands import command
from tests.support.erasure import answers, holders
from tests.support.procs import AppProcess

NUMBER = "0171 9988776"
CHAT = [{"speaker": "Ana", "text": "Hello everyone, I will lead the launch."},
        {"speaker": "Ana", "text": f"My phone number is {NUMBER}."},
        {"speaker": "Ben", "text": "The launch is planned for June 12."}]
CONTACTS = (f"Contacts for the launch. Ana can be reached at {NUMBER}. "
            "The venue is the Harbour Hall. Doors open at 9 am.")
ENV = {"OPENAI_BASE_URL": "", "AFTERHACK_ADMIN_KEY": "", "AFTERHACK_REQUIRE_KEYS": "false",
       "AFTERHACK_EMBEDDING_WORKER": "false"}


def _uncompressed_snapshots(data: Path) -> None:
    url = (data / "falkordb.url").read_text()
    with redis.Redis(unix_socket_path=url.removeprefix("unix://")) as c:
        command(c, "CONFIG", "SET", "rdbcompression", "no")


def _quotes_slice(http: httpx.Client, ws: str, source_id: str) -> dict[str, str]:
    source = read_json(http, f"/api/workspaces/{ws}/sources/{source_id}")
    by_fragment = {f["id"]: v["text"] for v in source["versions"] for f in v["fragments"]}
    out: dict[str, str] = {}
    for c in read_json(http, f"/api/workspaces/{ws}/claims", status="all",
                       limit=1000)["items"]:
        if c["source_id"] != source_id or c["status"] == "erased":
            continue
        claim = read_json(http, f"/api/workspaces/{ws}/claims/{c['id']}")
        [ev] = claim["evidence"]
        text = by_fragment[ev["fragment_id"]]
        assert text[claim["quote_start"]:claim["quote_end"]] == claim["evidence_quote"]
        out[claim["statement"]] = claim["evidence_quote"]
    return out


def _erase(http: httpx.Client, ws: str) -> dict[str, Any]:
    target = {"text": NUMBER}
    p = http.post(f"/api/workspaces/{ws}/erasures/preview", json={"target": target})
    assert p.status_code == 200, p.text
    r = http.post(f"/api/workspaces/{ws}/erasures", params={"wait": "disk"},
                  json={"target": target, "impact_token": p.json()["impact_token"],
                        "reason": "Ana's number, said by mistake."})
    assert r.status_code == 201, r.text
    record: dict[str, Any] = r.json()["erasure"]
    return record


def test_anas_number_is_forgotten_in_every_answer_file_and_log(tmp_path: Path) -> None:
    data, log = tmp_path / "data", tmp_path / "app.log"
    with AppProcess(ENV, data_dir=data, log_path=log, log_level="info") as app, \
            httpx.Client(base_url=app.base_url, timeout=120) as http:
        _uncompressed_snapshots(data)
        url = (data / "falkordb.url").read_text()
        ws = new_workspace(http, "launch")
        r = http.post(f"/api/workspaces/{ws}/sources", json={"title": "Launch chat",
                                                              "messages": CHAT})
        assert r.status_code == 201, r.text
        said = claim_named(r.json(), f"My phone number is {NUMBER}.")
        doc = add_source(http, ws, CONTACTS, title="Contacts")
        quoted = claim_named(doc, f"Ana can be reached at {NUMBER}.")
        run = run_agent(http, ws, f"Contact Ana at {NUMBER} about the launch")
        cited = {c["id"] for p in run["decision"]["premises"] for c in p["claims"]}
        assert {said["id"], quoted["id"]} <= cited
        [action] = run["actions"]
        before = int(time.time() * 1000)
        # Everywhere first: answers, the graph, the files.
        assert NUMBER in answers(http, ws) and holders(url, ws, NUMBER)
        assert scan(data, NUMBER) != []

        record = _erase(http, ws)

        assert record["disk"] == "clean" and record["disk_clean_at"] >= record["applied_at"]
        assert NUMBER not in answers(http, ws)
        assert NUMBER not in answers(http, ws, as_of=before)
        assert holders(url, ws, NUMBER) == []
        assert scan(data, NUMBER) == [], [str(h) for h in scan(data, NUMBER)]
        decision = read_json(http, f"/api/workspaces/{ws}/decisions/{run['decision']['id']}")
        assert decision["status"] == "needs_review"
        assert read_json(http, f"/api/workspaces/{ws}/actions/{action['id']}")["status"] == (
            "held")
        kept = _quotes_slice(http, ws, doc["source"]["id"])
        assert kept["The venue is the Harbour Hall."] == "The venue is the Harbour Hall."
        assert kept["Doors open at 9 am."] == "Doors open at 9 am."
        _quotes_slice(http, ws, r.json()["source"]["id"])
    # Started anew on the same data directory: still no byte of it, and the memory answers.
    assert scan(data, NUMBER) == []
    with AppProcess(ENV, data_dir=data, log_path=tmp_path / "app2.log",
                    log_level="info") as app, \
            httpx.Client(base_url=app.base_url, timeout=120) as http:
        assert scan(data, NUMBER) == []
        assert NUMBER not in answers(http, ws)
        again = read_json(http, f"/api/workspaces/{ws}/erasures/{record['id']}")
        assert again["disk"] == "clean"
        found = read_json(http, f"/api/workspaces/{ws}/claims", q="Harbour Hall")
        assert "The venue is the Harbour Hall." in [c["statement"] for c in found["items"]]
    for path in (log, tmp_path / "app2.log"):
        text = path.read_text(errors="replace")
        assert "Started server process" in text
        assert NUMBER not in text and NUMBER.replace(" ", "%20") not in text
