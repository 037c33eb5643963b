"""The time control in Debian's Chromium (headless, via playwright-core) against the real
app on the embedded FalkorDB (docs/rules.md, rule 10): moving it to just before a correction
shows the old claim current and the decision in good standing, at 1280×800, 800×1000 and 390×844.

web/e2e/time.mjs drives the page; the story is made through the API here: a memo, a plan
resting on it, a correction of one of its claims. Screenshots land in test-artifacts/time/."""

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
MARCH = ("The product launch is planned for June 12. "
         "The launch venue is the Grand Hotel.")
VENUE = "The launch venue is the Grand Hotel."


def test_the_time_control_shows_the_memory_before_a_correction(tmp_path: Path,
                                                                artifacts: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "Chromium is missing: scripts/test installs Debian's chromium package"
    assert (WEB / "node_modules" / "playwright-core").is_dir(), "run scripts/test (npm ci)"
    assert (STATIC_DIR / "index.html").exists(), "the UI is not built: run scripts/test"
    out = artifacts / "time"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    with AppProcess({"AFTERHACK_FALKORDB_URL": ""}, data_dir=tmp_path / "data",
                    log_path=tmp_path / "app.log") as app, \
            httpx.Client(base_url=app.base_url + "/api", timeout=30) as api:
        ws = api.post("/workspaces", json={"name": "Launch, over time"}).json()["id"]
        memo = api.post(f"/workspaces/{ws}/sources",
                        json={"title": "March memo", "text": MARCH}).json()
        claim = next(c for c in memo["claims"] if c["statement"] == VENUE)
        run = api.post(f"/workspaces/{ws}/agent-runs",
                       json={"task": "Plan the launch event"}).json()
        fixed = "The launch venue is the Park Pavilion."
        base = f"/workspaces/{ws}/claims/{claim['id']}/corrections"
        preview = api.post(base + "/preview", json={"statement": fixed}).json()
        applied = api.post(base, json={
            "statement": fixed, "reason": "The hotel cancelled.",
            "claim_revision": preview["revisions"]["claim_revision"],
            "impact_token": preview["revisions"]["impact_token"]}).json()
        assert applied["flagged"] == [run["decision"]["id"]], applied
        story = {"workspace": ws, "claim_id": claim["id"],
                 "decision_id": run["decision"]["id"],
                 "replacement_id": applied["replacement"]["id"]}
        result = subprocess.run(
            ["node", "e2e/time.mjs"], cwd=WEB, capture_output=True, text=True, timeout=300,
            env={**os.environ, "BASE_URL": app.base_url, "CHROMIUM_PATH": chromium,
                 "ARTIFACTS_DIR": str(out), "STORY": json.dumps(story)})
        (out / "time.log").write_text(result.stdout + result.stderr)
        print(result.stdout)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    shots = sorted(p.name for p in out.glob("*.png"))
    for size in ("1280x800", "800x1000", "390x844"):
        for step in ("1-history", "2-before-correction", "3-now"):
            assert f"time-{size}-{step}.png" in shots, shots
    assert not any("FAILED" in s for s in shots), shots
