"""Read the region a correction (or a rejection) affects, and write a repair in ONE query.

The write is guarded: it re-checks, inside the query, every revision the repair was computed
from (the claim, each decision of the region and how many decisions and actions hang off it,
their actions, the claims they cite, the decisions they build on). If anything moved, the
query writes nothing and returns no row, so the caller answers 409 instead of repairing from
a stale picture. FalkorDB runs each query atomically, so a crash leaves all or nothing.
"""

from __future__ import annotations

from typing import Any

from afterhack.errors import WorkspaceNotFound
from afterhack.model.region import ActionInfo, DecisionInfo, Snapshot, Up, Use
from afterhack.store.client import Graph, GraphMissing

_MAX_DEPTH = 100_000


async def claim_state(g: Graph, claim_id: str) -> dict[str, Any] | None:
    """A claim's status and revision, for telling a client what it is now (claim_region reads
    it together with its region)."""
    rows = await g.read(
        "MATCH (c:Claim {id:$id}) RETURN c.status AS status, c.revision AS revision",
        {"id": claim_id},
    )
    return rows.first()


# How each decision of the region is read: its properties and every edge at it with the
# node at the other end, in two comprehensions. ``out``: [type, id, status, revision,
# premise, source_id], a use (USED_CLAIM to a claim) or an upstream decision (DEPENDS_ON).
# ``into``: [type, id, status, revision, description, n_required], a dependent (DEPENDS_ON)
# or an action (REQUIRES, with how many decisions it requires). A self-loop comes once in
# each, so it counts as its own upstream and dependent, as the guard counts it.
# Written as one-hop paths of a variable-length pattern (``*0..1`` with the empty path
# filtered out): FalkorDB walks those by adjacency, where a fixed one-hop pattern is a
# matrix product with a fixed cost of its own. The region query ran in 0.10 ms instead of
# 0.15 at 10k claims. Parallel edges each come back (a decision may cite one claim under
# two premises); tests/test_store_quirks.py pins both. An action's decisions outside the
# region are not read (only the region's can fall); when a held action requires more than
# the region's, decisions.action_decisions reads them for the preview.
_DECISION = """d.id AS id, d.title AS title, d.status AS status, d.revision AS revision,
  [p = (d)-[*0..1]->(n) WHERE length(p) = 1 | [type(relationships(p)[0]), n.id, n.status,
    n.revision, relationships(p)[0].premise, n.source_id]] AS out,
  [q = (d)<-[*0..1]-(m) WHERE length(q) = 1 | [type(relationships(q)[0]), m.id, m.status,
    m.revision, m.description,
    CASE WHEN type(relationships(q)[0]) = 'REQUIRES' THEN outdegree(m, 'REQUIRES') END]] AS into
"""

# Two levels of the region for a walk that goes on past the first query: the decisions
# $ids and those depending on them (one hop: no more paths than edges; a decision read
# before comes back and is skipped).
_TWO_LEVELS = ("MATCH (s:Decision) WHERE s.id IN $ids\n"
               "MATCH (s)<-[:DEPENDS_ON*0..1]-(d)\nWITH DISTINCT d\nRETURN " + _DECISION)

# The claim and the first two levels of its region: the decisions using it and those
# depending on them, in one variable-length step over both edge types (only a decision uses
# a claim, and only a decision depends on one: names.EDGE_ENDS, which restore refuses to
# break and the invariants check), with no label checked (each check is a matrix operation
# of its own). Two hops enumerate no more paths than users times dependents, and read four
# regions in five of the benchmark's in this one round trip; more hops enumerate every path
# through a diamond (seconds on a lattice), so deeper levels are read by _walk, two levels
# a query. The claim's number of users is not read here: it is the count of the region's
# uses of the claim (claim_region).
_CLAIM_AND_REGION = """MATCH (c:Claim {id: $id})
OPTIONAL MATCH (c)<-[:USED_CLAIM|DEPENDS_ON*1..2]-(d)
WITH DISTINCT c, d
RETURN c.id AS claim_id, c.status AS claim_status, c.revision AS claim_revision,
  c.source_id AS claim_source_id, c.statement AS claim_statement,
  """ + _DECISION

# Put before _CLAIM_AND_REGION, it makes the same query prove the workspace is ready, so a
# request need not spend a round trip reading the workspace first.
_IN_READY_WORKSPACE = "MATCH (:Workspace {id: $ws, ready: true})\n"
# The first query of a preview through the API ($id, $ws); the benchmark times it too.
CLAIM_REGION_IN_WORKSPACE = _IN_READY_WORKSPACE + _CLAIM_AND_REGION


async def claim_region(g: Graph, claim_id: str, *, workspace_id: str | None = None
                       ) -> tuple[dict[str, Any] | None, Snapshot]:
    """The claim (None if there is no such claim) and its whole region, as a Snapshot.

    One query reads the claim and two levels of its region; each further two levels cost
    one more (see _walk). With ``workspace_id`` (the workspace whose graph ``g`` is), that
    query also checks the workspace is ready and raises WorkspaceNotFound if it is not.
    """
    if workspace_id is None:
        rows = await g.read(_CLAIM_AND_REGION, {"id": claim_id})
    else:
        try:
            rows = await g.read(CLAIM_REGION_IN_WORKSPACE,
                                {"id": claim_id, "ws": workspace_id})
        except GraphMissing:
            raise WorkspaceNotFound(workspace_id) from None
        if not rows and not await g.read(_IN_READY_WORKSPACE + "RETURN 1 AS ready",
                                         {"ws": workspace_id}):
            raise WorkspaceNotFound(workspace_id)
    if not rows:
        return None, Snapshot(decisions={}, actions={})
    first = rows[0]
    decisions: dict[str, DecisionInfo] = {}
    actions: dict[str, ActionInfo] = {}
    more: dict[str, None] = {}
    for r in rows:
        if r["id"] is not None:
            more.update(dict.fromkeys(_add_decision(r, decisions, actions)))
    # Every decision using the claim is in the region, so its uses of the claim are all of
    # them: the number the apply guard re-checks.
    n_users = sum(u.claim_id == claim_id for d in decisions.values() for u in d.uses)
    claim = {"id": first["claim_id"], "status": first["claim_status"],
             "revision": first["claim_revision"], "source_id": first["claim_source_id"],
             "statement": first["claim_statement"], "n_users": n_users}
    await _walk(g, [i for i in more if i not in decisions], decisions, actions)
    return claim, Snapshot(decisions=decisions, actions=actions)


async def load_region(g: Graph, start: list[str]) -> Snapshot:
    """The start decisions and everything that depends on them, at any depth, as a Snapshot."""
    snap = Snapshot(decisions={}, actions={})
    await _walk(g, start, snap.decisions, snap.actions)
    return snap


async def _walk(g: Graph, start: list[str], decisions: dict[str, DecisionInfo],
                actions: dict[str, ActionInfo]) -> None:
    """Adds the start decisions and all that depend on them to the region read so far.

    Breadth-first, one query per two levels that reads their decisions whole and names the
    next: no LIMIT, no path enumeration past one hop (a longer var-length pattern
    enumerates paths, exponential in diamonds), and a cycle ends the walk because a
    decision is expanded once. The region's dicts are filled in place, so an action
    required by decisions read in several queries gathers all of them.
    """
    seen = {**dict.fromkeys(decisions), **dict.fromkeys(start)}
    frontier = list(dict.fromkeys(start))
    for _ in range(_MAX_DEPTH):
        if not frontier:
            break
        rows = await g.read(_TWO_LEVELS, {"ids": frontier})
        found: list[str] = []
        for r in rows:
            if r["id"] in decisions:
                continue  # reached again through a diamond or a cycle
            seen[r["id"]] = None
            found += _add_decision(r, decisions, actions)
        frontier = [i for i in dict.fromkeys(found) if i not in seen]
        seen.update(dict.fromkeys(frontier))


def _add_decision(r: dict[str, Any], decisions: dict[str, DecisionInfo],
                  actions: dict[str, ActionInfo]) -> list[str]:
    """Adds the decision of row ``r`` (and its actions); returns the ids of its dependents."""
    did = r["id"]
    uses: list[Use] = []
    ups: list[Up] = []
    dependents: list[str] = []
    action_ids: list[str] = []  # one per REQUIRES edge, as the guard counts them
    for kind, nid, status, revision, premise, source in r["out"]:
        if kind == "USED_CLAIM":
            uses.append(Use(nid, premise, status, source, revision))
        elif kind == "DEPENDS_ON":
            ups.append(Up(nid, status, revision))
    for kind, nid, status, revision, description, n_required in r["into"]:
        if kind == "DEPENDS_ON":
            dependents.append(nid)
        elif kind == "REQUIRES":
            action_ids.append(nid)
            known = actions[nid].decision_ids if nid in actions else ()
            actions[nid] = ActionInfo(nid, description, status, revision,
                                      tuple(sorted({*known, did})), n_required)
    uses.sort(key=lambda u: (u.premise, u.claim_id))
    ups.sort(key=lambda u: u.decision_id)
    action_ids.sort()
    decisions[did] = DecisionInfo(id=did, title=r["title"], status=r["status"],
                                  revision=r["revision"], uses=uses, ups=ups,
                                  action_ids=action_ids, n_dependents=len(dependents))
    return dependents


def guard_rows(snap: Snapshot) -> dict[str, Any]:
    """Everything the repair was computed from, in the shape the guard below checks."""
    decisions = [{"id": d.id, "revision": d.revision, "n_dependents": d.n_dependents,
                  "n_actions": len(d.action_ids)} for d in snap.decisions.values()]
    actions = [{"id": a.id, "revision": a.revision} for a in snap.actions.values()]
    claims: dict[str, int] = {}
    ups: dict[str, int] = {}
    for d in snap.decisions.values():
        for u in d.uses:
            claims[u.claim_id] = u.revision
        for up in d.ups:
            if up.decision_id not in snap.decisions:
                ups[up.decision_id] = up.revision
    return {
        "g_decisions": sorted(decisions, key=lambda x: x["id"]),
        "g_actions": sorted(actions, key=lambda x: x["id"]),
        "g_claims": [{"id": k, "revision": v} for k, v in sorted(claims.items())],
        "g_ups": [{"id": k, "revision": v} for k, v in sorted(ups.items())],
    }


# The guard: each list must match entirely, or the WHERE leaves no row and nothing is written.
GUARD = """
CALL {
  UNWIND $g_decisions AS want
  MATCH (gd:Decision {id: want.id})
  WITH gd, want, size([(gd)<-[e:DEPENDS_ON]-(:Decision) | e]) AS n_dep,
       size([(gd)<-[r:REQUIRES]-(:Action) | r]) AS n_act
  WHERE gd.revision = want.revision AND n_dep = want.n_dependents AND n_act = want.n_actions
  RETURN count(gd) AS ok_decisions
}
CALL {
  UNWIND $g_actions AS want
  MATCH (ga:Action {id: want.id}) WHERE ga.revision = want.revision
  RETURN count(ga) AS ok_actions
}
CALL {
  UNWIND $g_claims AS want
  MATCH (gc:Claim {id: want.id}) WHERE gc.revision = want.revision
  RETURN count(gc) AS ok_claims
}
CALL {
  UNWIND $g_ups AS want
  MATCH (gu:Decision {id: want.id}) WHERE gu.revision = want.revision
  RETURN count(gu) AS ok_ups
}
WITH ok_decisions, ok_actions, ok_claims, ok_ups
WHERE ok_decisions = size($g_decisions) AND ok_actions = size($g_actions)
  AND ok_claims = size($g_claims) AND ok_ups = size($g_ups)
"""

# Flags and holds computed from the guarded snapshot; $flags: [{id, reason}], $holds: [id].
FLAG_AND_HOLD = """
WITH *
CALL {
  UNWIND $flags AS f
  MATCH (fd:Decision {id: f.id})
  SET fd.status = 'needs_review', fd.revision = fd.revision + 1, fd.review_reason = f.reason
  RETURN count(fd) AS n_flagged
}
CALL {
  UNWIND $holds AS h
  MATCH (ha:Action {id: h})
  SET ha.held_from = ha.status, ha.status = 'held', ha.revision = ha.revision + 1
  RETURN count(ha) AS n_held
}
"""
