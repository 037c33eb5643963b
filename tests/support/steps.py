"""Random steps on a workspace through the API, for the property tests of reads as of a
time: ingests, new versions, agent runs, corrections, conflict resolutions, reviews and
changes to actions. A step the workspace refuses (a stale preview, a transition not
allowed) is still a step: it must change nothing, now or as of any time."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import strategies as st

from tests.support.conflicts import claims_of

SENTENCES = (
    "The product launch is planned for June 12.",
    "The launch moves to June 19.",
    "The launch venue is the Grand Hotel.",
    "The launch venue is the Park Pavilion.",
    "The keynote speaker is Maria Lopez.",
    "The keynote speaker is John Smith.",
    "The launch budget is 5000 dollars.",
    "The launch budget is 7000 dollars.",
)
TASKS = ("Plan the launch event", "When is the launch?", "Who is the keynote speaker?",
         "Where is the launch venue?")

memos = st.lists(st.sampled_from(SENTENCES), min_size=1, max_size=3, unique=True).map(" ".join)
steps = st.one_of(
    st.tuples(st.just("ingest"), memos),
    st.tuples(st.just("version"), st.integers(0, 9), memos),
    st.tuples(st.just("run"), st.sampled_from(TASKS)),
    st.tuples(st.just("correct"), st.integers(0, 99), st.sampled_from(["replace", "retract"])),
    st.tuples(st.just("resolve"), st.integers(0, 9), st.sampled_from(["keep0", "keep1",
                                                                       "dismiss"])),
    st.tuples(st.just("review"), st.integers(0, 9), st.sampled_from(["accept", "reject"])),
    st.tuples(st.just("act"), st.integers(0, 9),
              st.sampled_from(["approve", "done", "cancel", "release"])),
)


def pick(items: list[Any], i: int) -> Any:
    return items[i % len(items)] if items else None


def step(client: TestClient, ws: str, what: tuple[Any, ...]) -> None:
    """One step (see the module)."""
    base = f"/api/workspaces/{ws}"
    kind = what[0]
    if kind == "ingest":
        client.post(base + "/sources", json={"title": "Memo", "text": what[1]})
    elif kind == "version":
        src = pick([n for n in client.get(base + "/graph").json()["nodes"]
                    if n["type"] == "source"], what[1])
        if src is not None:
            client.post(base + "/sources", json={"source_id": src["id"], "text": what[2]})
    elif kind == "run":
        client.post(base + "/agent-runs", json={"task": what[1]})
    elif kind == "correct":
        claim = pick(client.get(base + "/claims").json()["items"], what[1])
        if claim is not None:
            path = f"{base}/claims/{claim['id']}/corrections"
            body = {"statement": "A reviewer says the launch date is June 30.",
                    "kind": what[2]}
            p = client.post(path + "/preview", json=body)
            if p.status_code == 200:
                rev = p.json()["revisions"]
                client.post(path, json={**body, "claim_revision": rev["claim_revision"],
                                        "impact_token": rev["impact_token"]})
    elif kind == "resolve":
        k = pick(client.get(base + "/conflicts?status=open").json()["items"], what[1])
        if k is not None:
            choice: dict[str, Any] = ({"dismiss": True} if what[2] == "dismiss"
                                      else {"keep": claims_of(k)[int(what[2][-1])]["id"]})
            p = client.post(f"{base}/conflicts/{k['id']}/preview", json=choice)
            if p.status_code == 200:
                rev = p.json()["revisions"]
                client.post(f"{base}/conflicts/{k['id']}/resolve", json={
                    **choice, "conflict_revision": rev["conflict_revision"],
                    "impact_token": rev["impact_token"]})
    elif kind == "review":
        d = pick(client.get(base + "/decisions").json()["items"], what[1])
        if d is not None:
            client.patch(f"{base}/decisions/{d['id']}",
                         json={"op": what[2], "revision": d["revision"]})
    else:
        a = pick(client.get(base + "/actions").json()["items"], what[1])
        if a is not None:
            client.patch(f"{base}/actions/{a['id']}",
                         json={"op": what[2], "revision": a["revision"]})
