"""Erasing through the UI (docs/rules.md, rule 22), in Debian's Chromium (headless, via
playwright-core) against the real app on the embedded FalkorDB, with keys on.

web/e2e/erasures.mjs, at 1280×800 and 390×844, each size on a workspace of its own: a
conversation in which Ana gives her phone number, and a decision made on it; the message is
erased from the transcript through the preview (what goes, what needs review), and then the
claim reads "Erased on …, by …" in the graph and its panel, the decision needs review because
of the erasure, and the number is nowhere on the page. Ana's "please forget my home address"
is listed for review with the claim it names, and applied from there. An agent's key is
refused erasing, and the panel says so in words. Screenshots land in
test-artifacts/erasures/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import TypedDict

import httpx
import pytest

from afterhack.api.app import STATIC_DIR
from tests.support.procs import AppProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WEB = Path(__file__).resolve().parent.parent / "web"
ADMIN = "erasures-browser-admin-key"
PHONE = "+351 912 345 678"
ADDRESS = "Rua das Flores 27"
SIZES = ("1280x800", "390x844")


class Story(TypedDict):
    """One workspace of the story, as the browser script reads it (STORY)."""

    workspace: str
    size: str
    chat_id: str
    chat_title: str
    phone: str
    phone_claim: str
    decision: str
    address: str
    address_chat: str
    address_claim: str
    request: str
    request_text: str
    agent_key: str


def make_story(api: str, size: str) -> Story:
    """A workspace: Ana's number said in a chat, a decision made on it, and a request of
    hers to forget her address, raised by the message that asks it."""
    auth = {"Authorization": f"Bearer {ADMIN}"}
    with httpx.Client(base_url=api, headers=auth, timeout=120) as c:
        ws = c.post("/workspaces", json={"name": f"Erase {size}"}).json()["id"]
        chat = c.post(f"/workspaces/{ws}/sources", json={"title": "Team chat", "messages": [
            {"speaker": "Ana", "text": f"My phone number is {PHONE}."},
            {"speaker": "Ben", "text": "The launch is planned for June 12."},
            {"speaker": "Ana", "text": "The budget is 40,000 euros."},
        ]})
        assert chat.status_code == 201, chat.text
        phone = next(k for k in chat.json()["claims"] if PHONE in k["statement"])
        run = c.post(f"/workspaces/{ws}/agent-runs", json={"task": "Call Ana on her phone"})
        assert run.status_code == 201, run.text
        decision = run.json()["decision"]
        cited = {k["id"] for p in decision["premises"] for k in p["claims"]}
        assert phone["id"] in cited, decision
        said = c.post(f"/workspaces/{ws}/sources", json={"title": "Ana's notes", "messages": [
            {"speaker": "Ana", "text": f"My home address is {ADDRESS}, Porto."},
        ]})
        assert said.status_code == 201, said.text
        address = next(k for k in said.json()["claims"] if ADDRESS in k["statement"])
        notes_id = said.json()["source"]["id"]
        asked = c.post(f"/workspaces/{ws}/sources/{notes_id}/messages", json={"messages": [
            {"speaker": "Ana", "text": "Please forget my home address."}]})
        assert asked.status_code == 201, asked.text
        requests = asked.json()["erasures"]
        assert [r["claim_ids"] for r in requests] == [[address["id"]]], requests
        key = c.post(f"/workspaces/{ws}/keys", json={"role": "agent", "name": "an agent"})
        assert key.status_code == 201, key.text
    return Story(workspace=ws, size=size, chat_id=chat.json()["source"]["id"],
                 chat_title="Team chat", phone=PHONE, phone_claim=phone["id"],
                 decision=decision["id"], address=ADDRESS, address_chat=notes_id,
                 address_claim=address["id"], request=requests[0]["id"],
                 request_text="Please forget my home address.", agent_key=key.json()["key"])


def test_erase_a_message_and_apply_a_request_to_forget(tmp_path: Path, artifacts: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "Chromium is missing: scripts/test installs Debian's chromium package"
    assert (WEB / "node_modules" / "playwright-core").is_dir(), "run scripts/test (npm ci)"
    assert (STATIC_DIR / "index.html").exists(), "the UI is not built: run scripts/test"
    out = artifacts / "erasures"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    with AppProcess({"AFTERHACK_FALKORDB_URL": "", "AFTERHACK_ADMIN_KEY": ADMIN},
                    data_dir=tmp_path / "data", log_path=tmp_path / "app.log") as app:
        stories = [make_story(app.base_url + "/api", size) for size in SIZES]
        result = subprocess.run(
            ["node", "e2e/erasures.mjs"], cwd=WEB, capture_output=True, text=True,
            timeout=900, env={**os.environ, "BASE_URL": app.base_url, "CHROMIUM_PATH": chromium,
                              "ARTIFACTS_DIR": str(out), "AFTERHACK_API_KEY": ADMIN,
                              "STORIES": json.dumps(stories)})
        (out / "erasures.log").write_text(result.stdout + result.stderr)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-4000:]
        # What the browser did, read back from the API: the message and the request are
        # erased, the decision needs review because of the erasure.
        auth = {"Authorization": f"Bearer {ADMIN}"}
        for story in stories:
            base = f"{app.base_url}/api/workspaces/{story['workspace']}"
            done = httpx.get(f"{base}/erasures?status=applied", headers=auth).json()["items"]
            assert sorted(e["target"]["kind"] for e in done) == ["message", "request"], done
            claim = httpx.get(f"{base}/claims/{story['phone_claim']}", headers=auth).json()
            assert claim["status"] == "erased" and PHONE not in json.dumps(claim)
            decision = httpx.get(f"{base}/decisions/{story['decision']}", headers=auth).json()
            assert decision["status"] == "needs_review"
            assert decision["review_reason"]["type"] == "erasure"
    shots = sorted(p.name for p in out.glob("*.png"))
    for size in SIZES:
        for step in ("1-preview", "2-outcome", "3-erased-claim", "4-decision", "5-request",
                     "6-request-applied"):
            assert f"erasures-{size}-{step}.png" in shots, shots
    assert "erasures-agent-refused.png" in shots, shots
