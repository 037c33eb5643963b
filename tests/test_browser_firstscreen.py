"""A new user's first screens in Debian's Chromium (headless, via playwright-core) against the
real app on the embedded FalkorDB.

The workspaces are made here through the API as a user would (three sources, the same
question asked twice and a plan, three corrections: seven claims; the same with a fourth
source that disagrees, its conflict open; one whose conflict was raised and then dismissed)
and one is bulk-loaded past the graph view's limit. web/e2e/firstscreen.mjs checks from the
DOM: at 1280×800 every node drawn whole inside the canvas; at 800×1000 the canvas keeps half
the height, a node selected too; at 390×844 the memory as a list of decisions, premises and
claims with their quotes, in type people read; the two decisions from one question told
apart everywhere; the past read the same in the graph and the Conflicts tab; the cut workspace
saying how much is drawn out of how much and narrowing to a decision. Screenshots in
test-artifacts/firstscreen/."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from tests.support.browser import chromium, drive, fresh_dir
from tests.support.graphs import load
from tests.support.procs import AppProcess
from tests.support.worlds import FIRST_QUESTION, dismiss_conflict, first_world, over_the_limit

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# What the graph view draws of each kind at most (the API's default limit).
GRAPH_LIMIT = 5000


def test_first_screens_read_at_three_sizes(tmp_path: Path, artifacts: Path) -> None:
    browser = chromium()
    out = fresh_dir(artifacts / "firstscreen")
    env = {"AFTERHACK_FALKORDB_URL": ""}  # the embedded FalkorDB, as the README's run command
    with AppProcess(env, data_dir=tmp_path / "data", log_path=tmp_path / "app.log") as app:
        corrections = first_world(app.base_url, "First steps")
        conflict = first_world(app.base_url, "First steps, sources disagree", conflict=True)
        history = first_world(app.base_url, "First steps, settled", conflict=True)
        assert history["conflict_id"]
        dismiss_conflict(app.base_url, history["id"], history["conflict_id"])

        graph = httpx.get(f"{app.base_url}/api/workspaces/{corrections['id']}/graph").json()
        kinds = [n["type"] for n in graph["nodes"]]
        assert (kinds.count("source"), kinds.count("correction"), kinds.count("claim")) == (3, 3, 7)
        assert [n["label"] for n in graph["nodes"] if n["id"] in corrections["decisions"]] \
            == [FIRST_QUESTION, FIRST_QUESTION]

        claims = GRAPH_LIMIT + 300
        big = httpx.post(app.base_url + "/api/workspaces", json={"name": "Crates"}).json()
        world = over_the_limit(claims)
        load((tmp_path / "data" / "falkordb.url").read_text(), big["id"], **world)
        cut = httpx.get(f"{app.base_url}/api/workspaces/{big['id']}/graph").json()
        assert cut["truncated"] is True
        assert {t["type"]: (t["drawn"], t["total"]) for t in cut["totals"]}["claim"] \
            == (GRAPH_LIMIT, claims)
        drawn = {n["id"] for n in cut["nodes"]}
        undrawn = next(c for c in world["claims"] if c["id"] not in drawn)

        story = {
            "question": FIRST_QUESTION,
            "corrections": corrections, "conflict": conflict, "history": history,
            "big": {"id": big["id"], "says": f"Drawing {GRAPH_LIMIT:,} of {claims:,} claims",
                    "undrawn_id": undrawn["id"], "undrawn_statement": undrawn["statement"]},
        }
        drive("firstscreen", base_url=app.base_url, browser=browser, out=out, timeout_s=600,
              STORY=json.dumps(story))
    shots = sorted(p.name for p in out.glob("*.png"))
    assert not any("FAILED" in s for s in shots), shots
    for label in ("corrections", "conflict"):
        for size in ("1280x800", "800x1000", "800x1000-selected", "390x844", "390x844-older"):
            assert f"{label}-{size}.png" in shots, shots
    for name in ("history-1280x800-1-raised", "history-390x844-1-raised",
                 "limit-1280x800-1-strip", "limit-1280x800-3-around"):
        assert f"{name}.png" in shots, shots
