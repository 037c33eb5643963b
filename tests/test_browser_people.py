"""What a person meets in the UI, in Debian's Chromium (headless, via playwright-core) against
the real app on the embedded FalkorDB, at 1280×800 and 390×844 (800×1000 for the strip):

- a PDF added through the file picker becomes a file source with its claims, and a large file
  shows its upload in bytes, then the server reading it;
- a chain of two corrections and a conflict's resolution: the decision's panel names the
  claim that holds now; a correction's card says its kind in one word;
- two conflicts in one conversation are two marks, each its own button; a premise that holds
  says it is in an open conflict;
- no node's heading runs past its box;
- at 800×1000 nothing lies under the History strip, and a selected box is never cut at the
  canvas's edge.

The workspaces are made through the API as a user would; web/e2e/people.mjs checks the DOM.
Screenshots in test-artifacts/people/."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from tests.support.api import (
    add_source,
    claim_named,
    correct_claim,
    new_workspace,
    resolve_conflict,
    run_agent,
)
from tests.support.browser import chromium, drive, fresh_dir
from tests.support.files import pdf_file
from tests.support.procs import AppProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

JUNE12 = "The product launch is planned for June 12."
JUNE19 = "The product launch is planned for June 19."
JUNE26 = "The product launch is planned for June 26."
JUNE30 = "The product launch is planned for June 30."
BUDGET = "The event budget is 40,000 euros."


def _chain(c: httpx.Client) -> dict[str, str]:
    """A plan resting on June 12, corrected to June 19, which is then corrected to June 26;
    then a memo says June 30, and the reviewer keeps it (a conflict's resolution)."""
    ws = new_workspace(c, "A chain of corrections")
    added = add_source(c, ws, f"{JUNE12} The keynote speaker is Dana Reyes.", title="Launch plan")
    decision = run_agent(c, ws, "Plan the launch event")["decision"]["id"]
    first = correct_claim(c, ws, claim_named(added, JUNE12)["id"], JUNE19)
    correct_claim(c, ws, first["replacement"]["id"], JUNE26)
    memo = add_source(c, ws, JUNE30, title="Venue memo")
    [conflict] = memo["conflicts"]
    _, resolved = resolve_conflict(c, ws, conflict["id"], keep=claim_named(memo, JUNE30)["id"],
                                   reason="The venue memo is the latest word.")
    assert resolved.status_code == 201, resolved.text
    return {"id": ws, "decision": decision, "current": JUNE30}


def _two_conflicts(c: httpx.Client) -> dict[str, object]:
    """A plan's budget and keynote speaker, then two people in one conversation each giving
    one of them another value: two facts in dispute, two conflicts."""
    ws = new_workspace(c, "Two conflicts")
    add_source(c, ws, f"{BUDGET} The keynote speaker is Dana Reyes.", title="Budget plan")
    decision = run_agent(c, ws, "Plan the event budget")["decision"]["id"]
    r = c.post(f"/api/workspaces/{ws}/sources", json={"title": "Budget chat", "messages": [
        {"speaker": "Ana", "text": "The event budget is 45,000 euros."}]})
    assert r.status_code == 201, r.text
    chat = r.json()["source"]["id"]
    r = c.post(f"/api/workspaces/{ws}/sources/{chat}/messages", json={"messages": [
        {"speaker": "Bob", "text": "The keynote speaker is Maria Lopez."}]})
    assert r.status_code == 201, r.text
    listed = c.get(f"/api/workspaces/{ws}/conflicts").json()["items"]
    open_ = [k["id"] for k in listed if k["status"] == "open"]
    assert len(open_) >= 2, listed
    return {"id": ws, "decision": decision, "conflicts": open_}


def test_people_meet_files_chains_conflicts_and_a_layout_that_fits(tmp_path: Path,
                                                                     artifacts: Path) -> None:
    browser = chromium()
    out = fresh_dir(artifacts / "people")
    pdf = tmp_path / "offices.pdf"
    pdf.write_bytes(pdf_file())
    # A large file: about 900 kB of words with no sentence in them, so the server reads it
    # quickly and the upload is what takes time (the browser's upload is throttled).
    big = tmp_path / "inventory.txt"
    big.write_text(("valves gaskets flanges crates pallets " * 24_000), encoding="utf-8")
    env = {"AFTERHACK_FALKORDB_URL": ""}
    with AppProcess(env, data_dir=tmp_path / "data", log_path=tmp_path / "app.log") as app:
        with httpx.Client(base_url=app.base_url, timeout=120) as c:
            files = [new_workspace(c, "Files 1280"), new_workspace(c, "Files 390")]
            story = {
                "files": files,
                "pdf": str(pdf), "big": str(big), "big_bytes": big.stat().st_size,
                "chain": _chain(c),
                "conflicts": _two_conflicts(c),
            }
        drive("people", base_url=app.base_url, browser=browser, out=out, timeout_s=600,
              STORY=json.dumps(story))
        with httpx.Client(base_url=app.base_url, timeout=60) as c:
            for ws in files:
                sources = c.get(f"/api/workspaces/{ws}/sources").json()["items"]
                assert {s["title"] for s in sources} >= {"offices"}, sources
                pdf_source = next(s for s in sources if s["title"] == "offices")
                assert pdf_source["kind"] == "file"
    shots = sorted(p.name for p in out.glob("*.png"))
    assert not any("FAILED" in s for s in shots), shots
