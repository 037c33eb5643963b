"""A conversation reads as a transcript (docs/rules.md, rule 11), in Debian's Chromium
(headless, via playwright-core) against the real app on the embedded FalkorDB.

web/e2e/conversation.mjs opens a conversation made through the API at 1280×800 and 390×844:
its source panel lists each message with its speaker and time, in order, none running off
the screen; a claim's evidence is its message, whole, with the quote highlighted inside it.
Screenshots land in test-artifacts/conversation/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from afterhack.api.app import STATIC_DIR
from tests.support.procs import AppProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WEB = Path(__file__).resolve().parent.parent / "web"
MESSAGES = [
    {"speaker": "Ana Ferreira", "text": "Morning all. The launch is on June 12.",
     "at": "2026-05-28T09:00:00Z"},
    {"speaker": "Ben", "text": "Thanks. The venue is the Grand Hotel in Lisbon, and the "
                               "keynote speaker is Maria Lopez.", "at": "2026-05-28T09:02:00Z"},
    {"speaker": "Ana Ferreira", "text": "The budget is 12,000 euros.",
     "at": "2026-05-28T09:05:00Z"},
]


def test_a_conversation_reads_as_a_transcript_with_the_quote_highlighted(
        tmp_path: Path, artifacts: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "Chromium is missing: scripts/test installs Debian's chromium package"
    assert (WEB / "node_modules" / "playwright-core").is_dir(), "run scripts/test (npm ci)"
    assert (STATIC_DIR / "index.html").exists(), "the UI is not built: run scripts/test"
    out = artifacts / "conversation"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    with AppProcess({"AFTERHACK_FALKORDB_URL": ""}, data_dir=tmp_path / "data",
                    log_path=tmp_path / "app.log") as app:
        api = app.base_url + "/api"
        ws = httpx.post(api + "/workspaces", json={"name": "Launch chat"}).json()["id"]
        made = httpx.post(f"{api}/workspaces/{ws}/sources",
                          json={"title": "Launch chat", "messages": MESSAGES[:2]}, timeout=60)
        assert made.status_code == 201, made.text
        source_id = made.json()["source"]["id"]
        more = httpx.post(f"{api}/workspaces/{ws}/sources/{source_id}/messages",
                          json={"messages": MESSAGES[2:]}, timeout=60)
        assert more.status_code == 201, more.text
        venue = next(c for c in made.json()["claims"] if "Grand Hotel" in c["statement"])
        story = {"workspace": ws, "source_id": source_id, "title": "Launch chat",
                 "messages": [{"speaker": m["speaker"], "text": m["text"]} for m in MESSAGES],
                 "claim_id": venue["id"], "statement": venue["statement"],
                 "quote": venue["evidence_quote"], "speaker": "Ben",
                 "message": MESSAGES[1]["text"]}
        result = subprocess.run(
            ["node", "e2e/conversation.mjs"], cwd=WEB, capture_output=True, text=True,
            timeout=600, env={**os.environ, "BASE_URL": app.base_url, "CHROMIUM_PATH": chromium,
                              "ARTIFACTS_DIR": str(out), "STORY": json.dumps(story)})
        (out / "conversation.log").write_text(result.stdout + result.stderr)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-4000:]
    shots = sorted(p.name for p in out.glob("*.png"))
    for size in ("1280x800", "390x844"):
        for step in ("1-transcript", "2-evidence"):
            assert f"conversation-{size}-{step}.png" in shots, shots
