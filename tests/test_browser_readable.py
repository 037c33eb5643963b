"""A first screen people can read, at a laptop, a narrow window and a phone size, in Debian's
Chromium (headless, via playwright-core) against the real app on the embedded FalkorDB.

web/e2e/readable.mjs opens a 40-node workspace (made through the API) and a 400-node one
(bulk-loaded) at 1280×800, 800×1000 and 390×844 and checks from the DOM: no sideways scroll,
the canvas keeps 60 % of the width at 1280, node text at least 11 px at first load, legend
and minimap on no node, the API key button on screen; then corrects a claim at each size and
checks the preview's result, the outcome and the before/after cards are in view, the reasons
read as words, and the run that made the decision shows its new status. Screenshots of each
screen land in test-artifacts/readable/."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import httpx
import pytest

from tests.support.browser import chromium, drive, fresh_dir
from tests.support.graphs import load
from tests.support.procs import AppProcess
from tests.support.worlds import big_world, launch_world, node_id

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_every_screen_reads_at_three_sizes(tmp_path: Path, artifacts: Path) -> None:
    browser = chromium()
    out = fresh_dir(artifacts / "readable")
    env = {"AFTERHACK_FALKORDB_URL": ""}  # the embedded FalkorDB, as the README's run command
    with AppProcess(env, data_dir=tmp_path / "data", log_path=tmp_path / "app.log") as app:
        small = launch_world(app.base_url)
        assert len(small["nodes"]) == 40, sorted(n["type"] for n in small["nodes"])
        big = httpx.post(app.base_url + "/api/workspaces", json={"name": "400 nodes"}).json()
        load((tmp_path / "data" / "falkordb.url").read_text(), big["id"], **big_world(400))
        big_nodes = httpx.get(f"{app.base_url}/api/workspaces/{big['id']}/graph").json()["nodes"]
        assert len(big_nodes) == 400

        def fix(size: list[int], statement: str, corrected: str,
                **extra: object) -> dict[str, object]:
            return {"size": size, "workspace": small["id"], "claim_id": node_id(small, statement),
                    "search": statement, "corrected": corrected, **extra}

        corrections = [
            # Its decision loses its only claim; the decision built on it falls too.
            fix([1280, 800], "The press release goes out on June 5.",
                "The press release goes out on June 6.",
                expect_reasons=["lost its last claim: “The press release goes out on June 5.” "
                                "from Marketing brief",
                                "It builds on “Prepare the press release”, which fell"],
                run_task="Prepare the press release"),
            fix([800, 1000], "On-call rotations start on June 10.",
                "On-call rotations start on June 11.",
                expect_reasons=["lost its last claim: “On-call rotations start on June 10.” "
                                "from Ops notes"]),
            # A decision rests on every distinct fact it cites (one premise each, issue 19):
            # the keynote decision also cited the hotel sentence, so it falls with it.
            fix([390, 844], "Hotel rooms are booked near the venue.",
                "Hotel rooms are booked near the airport.",
                expect_reasons=["Premise “Hotel rooms are booked near the venue.” lost its last "
                                "claim"]),
            # A claim nothing uses: folded on the first screen, found with the search box.
            fix([390, 844], "The database is backed up nightly.",
                "The database is backed up every hour.", nothing=True),
        ]
        drive("readable", base_url=app.base_url, browser=browser, out=out, timeout_s=600,
              WORKSPACES=json.dumps([{"id": small["id"], "label": "40 nodes"},
                                     {"id": big["id"], "label": "400 nodes"}]),
              CORRECTIONS=json.dumps(corrections), MISSING_WS=str(uuid.uuid4()))
    shots = sorted(p.name for p in out.glob("*.png"))
    for label in ("40-nodes", "400-nodes"):
        for size in ("1280x800", "800x1000", "390x844"):
            assert f"{label}-{size}.png" in shots, shots
    assert not any(s.startswith("FAILED") for s in shots), shots
