"""The same fact in other words through the UI in Debian's Chromium (headless, via
playwright-core) against the real app on the embedded FalkorDB, at 1280×800 and 390×844.

web/e2e/otherwords.mjs adds memo A ("The product launch is planned for June 12.") and notes B
("Marketing confirmed the launch on June 12."), asks when the launch is, and starts correcting
A to June 19: the preview shows B under "Also says this, in other words" with its quote, its
source and the value read, can leave it out and take it back; apply corrects both, and a fresh
run cites June 19 only. Then three memos (Alice and the steering minutes September 15, Bob
October 1): one conflict over the fact, two values, Alice's and the minutes' one side; keeping
September 15 supersedes Bob's, and no conflict is left. Screenshots of every step land in
test-artifacts/otherwords/."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from afterhack.api.app import STATIC_DIR
from tests.support.procs import AppProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WEB = Path(__file__).resolve().parent.parent / "web"
SIZES = ("1280x800", "390x844")
STEPS = 7


def test_the_fact_in_other_words_in_chromium(tmp_path: Path, artifacts: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "Chromium is missing: scripts/test installs Debian's chromium package"
    assert (WEB / "node_modules" / "playwright-core").is_dir(), "run scripts/test (npm ci)"
    assert (STATIC_DIR / "index.html").exists(), "the UI is not built: run scripts/test"
    out = artifacts / "otherwords"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = {"AFTERHACK_FALKORDB_URL": ""}  # the embedded FalkorDB, as the README's run command
    with AppProcess(env, data_dir=tmp_path / "data", log_path=tmp_path / "app.log") as app:
        result = subprocess.run(
            ["node", "e2e/otherwords.mjs"], cwd=WEB, capture_output=True, text=True,
            timeout=600, env={**os.environ, "BASE_URL": app.base_url,
                              "CHROMIUM_PATH": chromium, "ARTIFACTS_DIR": str(out)})
        (out / "otherwords.log").write_text(result.stdout + result.stderr)
        print(result.stdout)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-4000:]
    shots = sorted(p.name for p in out.glob("*.png"))
    assert not any(s.startswith("FAILED") for s in shots), shots
    for size in SIZES:
        steps = [s for s in shots if s.startswith(size)]
        assert len(steps) == STEPS, (size, steps)
