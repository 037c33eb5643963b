"""The two-memo story through the UI in Debian's Chromium (headless, via playwright-core)
against the real app on the embedded FalkorDB, at 1280×800, 800×1000 and 390×844.

web/e2e/conflicts.mjs makes a workspace per size through the UI, adds the March memo, plans
the launch, adds the April memo and checks the dashed edge between the two dates and the
conflict in the panel (both quotes side by side, sources, dates in words); asks "When is the
launch?" (needs review, sources disagree, no action); keeps June 19 with the preview drawn on
the graph; applies (June 12 superseded, the plan flagged with its reason in words, its action
held; outcome and before/after in view); a fresh run cites June 19 only. Screenshots of every
step land in test-artifacts/conflicts/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import chromium, drive, fresh_dir
from tests.support.procs import AppProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = ("1280x800", "800x1000", "390x844")


def test_two_memos_disagree_in_chromium(tmp_path: Path, artifacts: Path) -> None:
    browser = chromium()
    out = fresh_dir(artifacts / "conflicts")
    env = {"AFTERHACK_FALKORDB_URL": ""}  # the embedded FalkorDB, as the README's run command
    with AppProcess(env, data_dir=tmp_path / "data", log_path=tmp_path / "app.log") as app:
        drive("conflicts", base_url=app.base_url, browser=browser, out=out, timeout_s=600)
    shots = sorted(p.name for p in out.glob("*.png"))
    assert not any(s.startswith("FAILED") for s in shots), shots
    for size in SIZES:
        steps = [s for s in shots if s.startswith(size)]
        assert len(steps) == 10, (size, steps)
