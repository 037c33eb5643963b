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
from afterhack.store.client import Graph, GraphMissing
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


# How each decision of the region is read: everything the relabel and the guard read (its
# premises' claims, the decisions it builds on, its actions and the decisions each of them
# requires) and the ids of the decisions that depend on it, one per DEPENDS_ON edge (so
# their count is the in-degree the guard re-checks). FalkorDB returns null for a pattern
# comprehension nested in another one, so the decisions an action requires are collected
# by OPTIONAL MATCH instead. Expects rows of `d` (null allowed) and carries `keep`
# (variables with their trailing comma) to the RETURN.
_DECISION_WHOLE = """
OPTIONAL MATCH (d)<-[:REQUIRES]-(a:Action)
OPTIONAL MATCH (a)-[:REQUIRES]->(y:Decision)
WITH {keep}d, a, collect(y.id) AS required
WITH {keep}d, collect(CASE WHEN a IS NULL THEN NULL ELSE {{id: a.id,
    description: a.description, status: a.status, revision: a.revision,
    decision_ids: required}} END) AS actions
RETURN {returns}d.id AS id, d.title AS title, d.status AS status, d.revision AS revision,
  [(d)-[u:USED_CLAIM]->(uc:Claim) | {{claim_id: uc.id, premise: u.premise,
    status: uc.status, source_id: uc.source_id, revision: uc.revision}}] AS uses,
  [(d)-[:DEPENDS_ON]->(x:Decision) | {{id: x.id, status: x.status,
    revision: x.revision}}] AS ups,
  actions,
  [(d)<-[:DEPENDS_ON]-(z:Decision) | z.id] AS dependent_ids
"""

# One level of the region (the decisions $ids), for a walk that goes on past the first
# query.
_LEVEL = "MATCH (d:Decision) WHERE d.id IN $ids\n" + _DECISION_WHOLE.format(
    keep="", returns="")

# Levels of dependents the first query walks itself, past the decisions using the claim.
# Each level walked costs FalkorDB ~0.1 ms even when empty, a further query ~0.5 ms: with
# one, four regions in five of the benchmark's are read in one round trip (with none, only
# half; with three, 96% but every preview pays 0.2 ms more). Deeper regions go on level
# by level from where it stopped, so any depth is read whole.
_UNROLLED_LEVELS = 1


def _claim_and_region(levels: int) -> str:
    """The claim, how many decisions use it, and those decisions plus `levels` levels of
    their dependents, breadth-first by id (a node taken from a collected list cannot start
    a pattern in FalkorDB, an id looked up in the index can)."""
    q = ["MATCH (c:Claim {id: $id})",
         "OPTIONAL MATCH (c)<-[cu:USED_CLAIM]-(u:Decision)",
         "WITH c, count(cu) AS n_users, collect(DISTINCT u.id) AS l0"]
    seen = "l0"
    for lv in range(1, levels + 1):
        carry = "c, n_users, " + ", ".join(f"l{j}" for j in range(lv))
        q += [f"UNWIND (CASE WHEN l{lv - 1} = [] THEN [null] ELSE l{lv - 1} END) AS p{lv}",
              f"OPTIONAL MATCH (:Decision {{id: p{lv}}})<-[:DEPENDS_ON]-(x{lv}:Decision)",
              f"WITH {carry}, collect(DISTINCT x{lv}.id) AS new{lv}",
              # Parenthesised: FalkorDB reads `NOT i IN a + b` as `(NOT i IN a) + b`.
              f"WITH {carry}, [i IN new{lv} WHERE NOT (i IN ({seen}))] AS l{lv}"]
        seen = f"{seen} + l{lv}"
    q += [f"WITH c, n_users, {seen} AS ids",
          "UNWIND (CASE WHEN ids = [] THEN [null] ELSE ids END) AS i",
          "OPTIONAL MATCH (d:Decision {id: i})"]
    return "\n".join(q) + _DECISION_WHOLE.format(
        keep="c, n_users, ",
        returns="c.id AS claim_id, c.status AS claim_status, c.revision AS claim_revision,\n"
                "  c.source_id AS claim_source_id, c.statement AS claim_statement, n_users,\n"
                "  ")


_CLAIM_AND_REGION = _claim_and_region(_UNROLLED_LEVELS)

# Put before _CLAIM_AND_REGION, it makes the same query prove the workspace is ready, so a
# request need not spend a round trip reading the workspace first.
_IN_READY_WORKSPACE = "MATCH (:Workspace {id: $ws, ready: true})\n"
# The first query of a preview through the API ($id, $ws); the benchmark times it too.
CLAIM_REGION_IN_WORKSPACE = _IN_READY_WORKSPACE + _CLAIM_AND_REGION


async def claim_region(g: Graph, claim_id: str, *, workspace_id: str | None = None
                       ) -> tuple[dict[str, Any] | None, Snapshot]:
    """The claim (None if there is no such claim) and its whole region, as a Snapshot.

    One query reads the claim and its region to a depth of _UNROLLED_LEVELS dependents;
    each further level costs one more (see load_region). With ``workspace_id`` (the
    workspace whose graph ``g`` is), that query also checks the workspace is ready and
    raises WorkspaceNotFound if it is not.
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
    claim = {"id": first["claim_id"], "status": first["claim_status"],
             "revision": first["claim_revision"], "source_id": first["claim_source_id"],
             "statement": first["claim_statement"], "n_users": first["n_users"]}
    decisions: dict[str, DecisionInfo] = {}
    actions: dict[str, ActionInfo] = {}
    for r in rows:
        if r["id"] is not None:
            _add_decision(r, decisions, actions)
    seen = dict.fromkeys(decisions)
    more = list(dict.fromkeys(i for d in rows if d["id"] is not None
                              for i in d["dependent_ids"] if i not in seen))
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
        n_dependents=len(r["dependent_ids"]))


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
