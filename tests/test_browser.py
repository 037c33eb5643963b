"""The whole journey in Debian's Chromium (headless, via playwright-core) against the real
app on the embedded FalkorDB. Screenshots land in test-artifacts/e2e/."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.support.browser import chromium, drive, fresh_dir
from tests.support.graphs import load
from tests.support.procs import AppProcess
from tests.support.worlds import big_world

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_journey_in_chromium(tmp_path: Path, artifacts: Path) -> None:
    browser = chromium()
    out = fresh_dir(artifacts / "e2e")
    env = {"AFTERHACK_FALKORDB_URL": ""}  # the embedded FalkorDB, as the README's run command
    with AppProcess(env, data_dir=tmp_path / "data", log_path=tmp_path / "app.log") as app:
        big = httpx.post(app.base_url + "/api/workspaces", json={"name": "2,000 nodes"}).json()
        url = (tmp_path / "data" / "falkordb.url").read_text()
        load(url, big["id"], **big_world())
        drive("journey", base_url=app.base_url, browser=browser, out=out, timeout_s=300,
              BIG_WS=big["id"])
    shots = sorted(p.name for p in out.glob("*.png"))
    assert len(shots) >= 8, shots
    assert not any(s.startswith("FAILED") for s in shots)
