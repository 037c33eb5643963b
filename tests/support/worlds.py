"""Workspaces the browser tests open: a small one built through the API as a user would
(the offline model reads the sentences, agent runs make the decisions and actions), and a
large one bulk-loaded in the shape of a real one."""

from __future__ import annotations

import random
import uuid
from typing import Any, TypedDict

import httpx

from tests.support.api import add_source, correct_claim, new_workspace, resolve_conflict, run_agent
from tests.support.timing import until


class GraphNode(TypedDict):
    id: str
    type: str
    label: str


class LaunchWorld(TypedDict):
    id: str
    nodes: list[GraphNode]
    edges: list[dict[str, str]]


def big_world(n: int = 2000) -> dict[str, list[dict[str, Any]]]:
    """About n nodes in the product view: sources, claims, decisions, actions."""
    rng = random.Random(5)
    sources = [{"id": str(uuid.uuid4()), "title": f"Doc {i}"} for i in range(n // 20)]
    claims = [{"id": str(uuid.uuid4()), "statement": f"Fact {i} is recorded.",
               "source_id": rng.choice(sources)["id"]} for i in range(n // 2)]
    decisions = [{"id": str(uuid.uuid4()), "title": f"Decision {i}",
                  "premises": {"p": [c["id"] for c in rng.sample(claims, 3)]}}
                 for i in range(n // 4)]
    actions = [{"id": str(uuid.uuid4()), "description": f"Action {i}",
                "decision_ids": [d["id"]]} for i, d in enumerate(decisions[: n // 5])]
    return {"sources": sources, "claims": claims, "decisions": decisions, "actions": actions}


LAUNCH_SOURCES = {
    "Launch plan": (
        "The product launch is planned for June 12. The launch venue is the Berlin Congress "
        "Hall. The keynote speaker is Dana Smith. The launch budget is 40,000 euros. Doors "
        "open at 9 am."),
    "Marketing brief": (
        "The campaign starts two weeks before the launch. The press release goes out on "
        "June 5. The target audience is small engineering teams. The launch video is two "
        "minutes long."),
    "Ops notes": (
        "The support team needs three extra people for launch week. The status page must be "
        "updated before the launch. On-call rotations start on June 10. The database is "
        "backed up nightly."),
    "Travel notes": (
        "The team travels to Berlin by train. Hotel rooms are booked near the venue. Travel "
        "costs are covered by the events budget."),
    "Sales memo": (
        "Early customers get a 20 percent discount. The pricing page changes on launch day. "
        "Partners receive a briefing one week before the launch."),
}

LAUNCH_TASKS = ["Plan the launch event", "Book the keynote speaker", "Prepare the press release",
                "Staff the support team for launch week", "Update the pricing page",
                "Schedule the on-call rotations", "Record the launch video",
                "Book the hotel rooms near the venue", "Summarise the travel costs"]
# Builds on the press release decision, so a correction under that one makes it fall too.
LAUNCH_BUILDS_ON = ("Brief the partners", "Prepare the press release")


def launch_world(base_url: str, name: str = "Launch, 40 nodes") -> LaunchWorld:
    """A launch workspace of 40 product-view nodes, made through the HTTP API."""
    with httpx.Client(base_url=base_url, timeout=60) as c:
        ws = new_workspace(c, name)
        for title, text in LAUNCH_SOURCES.items():
            add_source(c, ws, text, title=title)
        # The runs search by words and meaning: once every claim has its vector, each run
        # finds the same claims however busy the machine (else what a run cites, and so the
        # graph's size, would follow the vector worker's pace).
        until(lambda: c.get(f"/api/workspaces/{ws}/embeddings").json()["pending"] == 0,
              timeout_s=300, what="every claim of the launch world embedded")
        decisions = {task: run_agent(c, ws, task)["decision"]["id"] for task in LAUNCH_TASKS}
        task, upstream = LAUNCH_BUILDS_ON
        run_agent(c, ws, task, builds_on=[decisions[upstream]])
        graph = c.get(f"/api/workspaces/{ws}/graph").json()
    return {"id": ws, "nodes": graph["nodes"], "edges": graph["edges"]}


def node_id(world: LaunchWorld, label: str) -> str:
    return next(n["id"] for n in world["nodes"] if n["label"] == label)


# A new user's first workspace: three sources, the same question asked twice and a plan, three
# corrections (seven claims in all); with ``conflict``, a fourth source that disagrees on the
# date, left open.
FIRST_SOURCES = {
    "Launch plan": ("The product launch is planned for June 12. "
                    "The launch venue is the Grand Hotel."),
    "Budget memo": "The event budget is 40,000 euros.",
    "Speaker note": "The keynote speaker is Dana Reyes.",
}
FIRST_QUESTION = "When is the launch, and when should the press release go out?"
FIRST_CORRECTIONS = {
    "The launch venue is the Grand Hotel.": "The launch venue is the Park Pavilion.",
    "The event budget is 40,000 euros.": "The event budget is 45,000 euros.",
    "The keynote speaker is Dana Reyes.": "The keynote speaker is Maria Lopez.",
}
APRIL_MEMO = "Launch update, April. The launch moves to June 19."


class FirstWorld(TypedDict):
    id: str
    decisions: list[str]  # the two from the same question, oldest first
    conflict_id: str | None


def first_world(base_url: str, name: str, *, conflict: bool = False) -> FirstWorld:
    """The workspace of issue 37's first screen, made through the HTTP API."""
    with httpx.Client(base_url=base_url, timeout=60) as c:
        ws = new_workspace(c, name)
        claims: dict[str, str] = {}
        for title, text in FIRST_SOURCES.items():
            added = add_source(c, ws, text, title=title)
            claims.update({x["statement"]: x["id"] for x in added["claims"]})
        run_agent(c, ws, "Plan the launch event")
        twice = [run_agent(c, ws, FIRST_QUESTION)["decision"]["id"] for _ in range(2)]
        for old, new in FIRST_CORRECTIONS.items():
            correct_claim(c, ws, claims[old], new, reason="Checked with the organisers.")
        conflict_id = None
        if conflict:
            add_source(c, ws, APRIL_MEMO, title="April memo")
            listed = c.get(f"/api/workspaces/{ws}/conflicts", params={"status": "open"})
            [open_] = listed.json()["items"]
            conflict_id = open_["id"]
    return {"id": ws, "decisions": twice, "conflict_id": conflict_id}


def dismiss_conflict(base_url: str, ws: str, conflict_id: str) -> None:
    """Settles a conflict as a reviewer would: both claims can be true."""
    with httpx.Client(base_url=base_url, timeout=60) as c:
        _, r = resolve_conflict(c, ws, conflict_id, dismiss=True,
                                reason="Both dates hold: one is the press day.")
        assert r.status_code == 201, r.text


def over_the_limit(claims: int, sources: int = 20,
                   decisions: int = 30) -> dict[str, list[dict[str, Any]]]:
    """More claims than the graph draws at once, with decisions resting on the first ones."""
    rng = random.Random(11)
    srcs = [{"id": str(uuid.uuid4()), "title": f"Ledger {i}"} for i in range(sources)]
    rows = [{"id": str(uuid.uuid4()), "statement": f"Crate {i} is stored in hall {i % 40}.",
             "source_id": srcs[i % sources]["id"]} for i in range(claims)]
    made = [{"id": str(uuid.uuid4()), "title": f"Move the crates, batch {i}",
             "premises": {"p": [c["id"] for c in rng.sample(rows[: claims // 2], 3)]}}
            for i in range(decisions)]
    return {"sources": srcs, "claims": rows, "decisions": made, "actions": []}
