"""The whole journey in Debian's Chromium (headless, via playwright-core) against the real
app on the embedded FalkorDB. Screenshots land in test-artifacts/e2e/."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from afterhack.api.app import STATIC_DIR
from tests.support.graphs import load
from tests.support.procs import AppProcess
from tests.support.worlds import big_world

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"


def test_journey_in_chromium(tmp_path: Path, artifacts: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "Chromium is missing: scripts/test installs Debian's chromium package"
    assert (WEB / "node_modules" / "playwright-core").is_dir(), "run scripts/test (npm ci)"
    assert (STATIC_DIR / "index.html").exists(), "the UI is not built: run scripts/test"
    out = artifacts / "e2e"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = {"AFTERHACK_FALKORDB_URL": ""}  # the embedded FalkorDB, as the README's run command
    with AppProcess(env, data_dir=tmp_path / "data", log_path=tmp_path / "app.log") as app:
        big = httpx.post(app.base_url + "/api/workspaces", json={"name": "2,000 nodes"}).json()
        url = (tmp_path / "data" / "falkordb.url").read_text()
        load(url, big["id"], **big_world())
        result = subprocess.run(
            ["node", "e2e/journey.mjs"], cwd=WEB, capture_output=True, text=True, timeout=300,
            env={**os.environ, "BASE_URL": app.base_url, "CHROMIUM_PATH": chromium,
                 "ARTIFACTS_DIR": str(out), "BIG_WS": big["id"]})
        (out / "journey.log").write_text(result.stdout + result.stderr)
        print(result.stdout)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    shots = sorted(p.name for p in out.glob("*.png"))
    assert len(shots) >= 8, shots
    assert not any(s.startswith("FAILED") for s in shots)
