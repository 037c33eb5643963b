"""Read the region a correction (or a rejection) affects, and write a repair in ONE query.

The write is guarded: it re-checks, inside the query, every revision the repair was computed
from (the claim, each decision of the region and how many decisions and actions hang off it,
their actions, the claims they cite, the decisions they build on). If anything moved, the
query writes nothing and returns no row, so the caller answers 409 instead of repairing from
a stale picture. FalkorDB runs each query atomically, so a crash leaves all or nothing.
"""

from __future__ import annotations

from typing import Any

from afterhack.store.client import Graph
from afterhack.support import ActionInfo, DecisionInfo, Snapshot, Up, Use

_MAX_DEPTH = 100_000


async def claim_state(g: Graph, claim_id: str) -> dict[str, Any] | None:
    """A claim's status and revision, for telling a client what it is now (claim_region reads
    it together with its region)."""
    rows = await g.read(
        "MATCH (c:Claim {id:$id}) RETURN c.status AS status, c.revision AS revision",
        {"id": claim_id},
    )
    return rows.first()


# One level of the region: each decision with everything the relabel and the guard read
# (its premises' claims, the decisions it builds on, its actions and the decisions each of
# them requires) and the ids of the decisions that depend on it (the next level).
# FalkorDB returns null for a pattern comprehension nested in another one, so the decisions
# an action requires are collected by OPTIONAL MATCH instead.
_LEVEL = """
MATCH (d:Decision) WHERE d.id IN $ids
OPTIONAL MATCH (d)<-[:REQUIRES]-(a:Action)
OPTIONAL MATCH (a)-[:REQUIRES]->(y:Decision)
WITH d, a, collect(y.id) AS required
WITH d, collect(CASE WHEN a IS NULL THEN NULL ELSE {id: a.id, description: a.description,
    status: a.status, revision: a.revision, decision_ids: required} END) AS actions
RETURN d.id AS id, d.title AS title, d.status AS status, d.revision AS revision,
  [(d)-[u:USED_CLAIM]->(c:Claim) | {claim_id: c.id, premise: u.premise,
    status: c.status, source_id: c.source_id, revision: c.revision}] AS uses,
  [(d)-[:DEPENDS_ON]->(x:Decision) | {id: x.id, status: x.status,
    revision: x.revision}] AS ups,
  actions,
  size([(d)<-[e:DEPENDS_ON]-(:Decision) | e]) AS n_dependents,
  [(d)<-[:DEPENDS_ON]-(z:Decision) | z.id] AS dependent_ids
"""


# The claim and the first level of its region in one round trip: the decisions that use it,
# read exactly as _LEVEL reads a level.
_CLAIM_AND_USERS = """
MATCH (c:Claim {id: $id})
OPTIONAL MATCH (c)<-[:USED_CLAIM]-(d:Decision)
WITH DISTINCT c, d
OPTIONAL MATCH (d)<-[:REQUIRES]-(a:Action)
OPTIONAL MATCH (a)-[:REQUIRES]->(y:Decision)
WITH c, d, a, collect(y.id) AS required
WITH c, d, collect(CASE WHEN a IS NULL THEN NULL ELSE {id: a.id, description: a.description,
    status: a.status, revision: a.revision, decision_ids: required} END) AS actions
RETURN c.id AS claim_id, c.status AS claim_status, c.revision AS claim_revision,
  c.source_id AS claim_source_id, c.statement AS claim_statement,
  size([(c)<-[cu:USED_CLAIM]-(:Decision) | cu]) AS n_users,
  d.id AS id, d.title AS title, d.status AS status, d.revision AS revision,
  [(d)-[u:USED_CLAIM]->(uc:Claim) | {claim_id: uc.id, premise: u.premise,
    status: uc.status, source_id: uc.source_id, revision: uc.revision}] AS uses,
  [(d)-[:DEPENDS_ON]->(x:Decision) | {id: x.id, status: x.status,
    revision: x.revision}] AS ups,
  actions,
  size([(d)<-[e:DEPENDS_ON]-(:Decision) | e]) AS n_dependents,
  [(d)<-[:DEPENDS_ON]-(z:Decision) | z.id] AS dependent_ids
"""


async def claim_region(g: Graph, claim_id: str) -> tuple[dict[str, Any] | None, Snapshot]:
    """The claim (None if there is no such claim) and its whole region, as a Snapshot.

    The claim and the decisions using it come back in one query; each further level of
    dependents costs one more (see load_region).
    """
    rows = await g.read(_CLAIM_AND_USERS, {"id": claim_id})
    if not rows:
        return None, Snapshot(decisions={}, actions={})
    first = rows[0]
    claim = {"id": first["claim_id"], "status": first["claim_status"],
             "revision": first["claim_revision"], "source_id": first["claim_source_id"],
             "statement": first["claim_statement"], "n_users": first["n_users"]}
    decisions: dict[str, DecisionInfo] = {}
    actions: dict[str, ActionInfo] = {}
    nxt: dict[str, None] = {}
    for r in rows:
        if r["id"] is None:
            continue
        _add_decision(r, decisions, actions)
        nxt.update((i, None) for i in r["dependent_ids"])
    seen = dict.fromkeys(decisions)
    more = [i for i in nxt if i not in seen]
    if more:
        rest = await load_region(g, more, seen=seen)
        decisions.update(rest.decisions)
        actions.update(rest.actions)
    return claim, Snapshot(decisions=decisions, actions=actions)


async def load_region(g: Graph, start: list[str],
                      seen: dict[str, None] | None = None) -> Snapshot:
    """The start decisions and everything that depends on them, at any depth, as a Snapshot.

    Walked breadth-first, one query per level that reads the level's decisions whole and
    names the next level: no LIMIT, no path enumeration (a var-length pattern enumerates
    paths, exponential in diamonds), and a cycle ends the walk because visited decisions
    are never expanded twice.
    """
    seen = {**(seen or {}), **dict.fromkeys(start)}
    frontier = list(dict.fromkeys(start))
    decisions: dict[str, DecisionInfo] = {}
    actions: dict[str, ActionInfo] = {}
    for _ in range(_MAX_DEPTH):
        if not frontier:
            break
        rows = await g.read(_LEVEL, {"ids": frontier})
        nxt: dict[str, None] = {}
        for r in rows:
            _add_decision(r, decisions, actions)
            nxt.update((i, None) for i in r["dependent_ids"] if i not in seen)
        seen.update(nxt)
        frontier = list(nxt)
    return Snapshot(decisions=decisions, actions=actions)


def _add_decision(r: dict[str, Any], decisions: dict[str, DecisionInfo],
                  actions: dict[str, ActionInfo]) -> None:
    uses = sorted((Use(u["claim_id"], u["premise"], u["status"], u["source_id"], u["revision"])
                   for u in r["uses"]), key=lambda u: (u.premise, u.claim_id))
    ups = sorted((Up(u["id"], u["status"], u["revision"]) for u in r["ups"]),
                 key=lambda u: u.decision_id)
    for a in r["actions"]:
        actions[a["id"]] = ActionInfo(a["id"], a["description"], a["status"], a["revision"],
                                      tuple(sorted(a["decision_ids"])))
    decisions[r["id"]] = DecisionInfo(
        id=r["id"], title=r["title"], status=r["status"], revision=r["revision"],
        uses=uses, ups=ups, action_ids=sorted(a["id"] for a in r["actions"]),
        n_dependents=r["n_dependents"])


async def action_decisions(g: Graph, action_ids: list[str]) -> dict[str, list[str]]:
    if not action_ids:
        return {}
    rows = await g.read(
        "MATCH (a:Action)-[:REQUIRES]->(y:Decision) WHERE a.id IN $ids "
        "RETURN a.id AS id, collect(y.id) AS decision_ids",
        {"ids": action_ids})
    return {r["id"]: list(r["decision_ids"]) for r in rows}


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
