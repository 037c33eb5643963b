"""Workspaces the browser tests open: a small one built through the API as a user would
(the offline model reads the sentences, agent runs make the decisions and actions), and a
large one bulk-loaded in the shape of a real one."""

from __future__ import annotations

import random
import uuid
from typing import Any, TypedDict

import httpx


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
    with httpx.Client(base_url=base_url + "/api", timeout=60) as c:
        ws = c.post("/workspaces", json={"name": name}).json()["id"]
        for title, text in LAUNCH_SOURCES.items():
            added = c.post(f"/workspaces/{ws}/sources", json={"title": title, "text": text})
            added.raise_for_status()
        decisions: dict[str, str] = {}
        for task in LAUNCH_TASKS:
            run = c.post(f"/workspaces/{ws}/agent-runs", json={"task": task})
            run.raise_for_status()
            decisions[task] = run.json()["decision"]["id"]
        task, upstream = LAUNCH_BUILDS_ON
        c.post(f"/workspaces/{ws}/agent-runs",
               json={"task": task, "builds_on": [decisions[upstream]]}).raise_for_status()
        graph = c.get(f"/workspaces/{ws}/graph").json()
    return {"id": ws, "nodes": graph["nodes"], "edges": graph["edges"]}


def node_id(world: LaunchWorld, label: str) -> str:
    return next(n["id"] for n in world["nodes"] if n["label"] == label)
