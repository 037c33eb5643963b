"""The time control in Debian's Chromium (headless, via playwright-core) against the real
app on the embedded FalkorDB (docs/rules.md, rule 10): moving it to just before a correction
shows the old claim current and the decision in good standing, at 1280×800, 800×1000 and 390×844.

web/e2e/time.mjs drives the page; the story is made through the API here: a memo, a plan
resting on it, a correction of one of its claims. Screenshots land in test-artifacts/time/."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from tests.support.api import add_source, claim_named, correct_claim, new_workspace, run_agent
from tests.support.browser import chromium, drive, fresh_dir
from tests.support.procs import AppProcess
from tests.support.texts import MARCH, VENUE

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_time_control_shows_the_memory_before_a_correction(tmp_path: Path,
                                                                artifacts: Path) -> None:
    browser = chromium()
    out = fresh_dir(artifacts / "time")
    with AppProcess({"AFTERHACK_FALKORDB_URL": ""}, data_dir=tmp_path / "data",
                    log_path=tmp_path / "app.log") as app, \
            httpx.Client(base_url=app.base_url, timeout=30) as api:
        ws = new_workspace(api, "Launch, over time")
        claim = claim_named(add_source(api, ws, MARCH, title="March memo"), VENUE)
        run = run_agent(api, ws, "Plan the launch event")
        applied = correct_claim(api, ws, claim["id"], "The launch venue is the Park Pavilion.",
                                reason="The hotel cancelled.")
        assert applied["flagged"] == [run["decision"]["id"]], applied
        story = {"workspace": ws, "claim_id": claim["id"],
                 "decision_id": run["decision"]["id"],
                 "replacement_id": applied["replacement"]["id"]}
        drive("time", base_url=app.base_url, browser=browser, out=out, timeout_s=300,
              STORY=json.dumps(story))
    shots = sorted(p.name for p in out.glob("*.png"))
    for size in ("1280x800", "800x1000", "390x844"):
        for step in ("1-history", "2-before-correction", "3-now"):
            assert f"time-{size}-{step}.png" in shots, shots
    assert not any("FAILED" in s for s in shots), shots
