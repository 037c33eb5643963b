"""Read the region a correction (or a rejection) affects, as a Snapshot of named records.

One query reads the claim and the first two levels of its region; deeper levels are read two
a query from where it stopped, so any depth is read, each decision once. The write that
repairs the region is guarded by what this read saw (store/guard.py).
"""

from __future__ import annotations

from typing import NamedTuple, TypedDict

from afterhack.errors import WorkspaceNotFound
from afterhack.model.region import (
    ActionInfo,
    DecisionInfo,
    RegionClaim,
    Snapshot,
    Twin,
    Up,
    Use,
)
from afterhack.model.vocab import ACTION_STATUSES, ClaimStatus, EdgeType, as_word
from afterhack.store.client import Graph, GraphMissing, Row
from afterhack.store.workspaces import IN_READY_WORKSPACE, check_ready

_MAX_DEPTH = 100_000


class ClaimState(TypedDict):
    status: ClaimStatus
    revision: int


async def claim_state(g: Graph, claim_id: str) -> ClaimState | None:
    """A claim's status and revision, for telling a client what it is now (claim_region reads
    it together with its region)."""
    rows = await g.read(
        "MATCH (c:Node {id:$id}) WHERE c:Claim RETURN c.status AS status, "
        "c.revision AS revision",
        {"id": claim_id},
    )
    row = rows.first()
    return None if row is None else ClaimState(status=row["status"], revision=row["revision"])


class _Incoming(NamedTuple):
    """An edge into a region decision and the node it comes from."""

    type: EdgeType  # DEPENDS_ON (a dependent decision) or REQUIRES (an action)
    id: str
    status: str
    revision: int
    description: str | None  # an action's
    n_required: int | None  # an action's: how many decisions it requires


# How each decision of the region is read: its properties and every edge at it with the node
# at the other end, in two comprehensions whose lists are laid out as the records they become.
# ``out``: [type, *Use] for a USED_CLAIM edge; a DEPENDS_ON edge fills Up (Use's first
# three: the decision, its status and revision). ``into``: an _Incoming. A self-loop comes
# once in each, so it counts as its own upstream and dependent, as the guard counts it.
# Written as one-hop paths of a variable-length pattern (``*0..1`` with the empty path
# filtered out): FalkorDB walks those by adjacency, where a fixed one-hop pattern is a
# matrix product with a fixed cost of its own. Parallel edges each come back (a decision may
# cite one claim under two premises); tests/test_store_quirks.py pins both. An action's
# decisions outside the region are not read (only the region's can fall); when a held
# action requires more than the region's, decisions.action_decisions reads them.
_OUT = {"claim_id": "n.id", "status": "n.status", "revision": "n.revision",
        "premise": "relationships(p)[0].premise", "source_id": "n.source_id"}
_INTO = {"type": "type(relationships(q)[0])", "id": "m.id", "status": "m.status",
         "revision": "m.revision", "description": "m.description",
         "n_required": "CASE WHEN type(relationships(q)[0]) = 'REQUIRES' "
                       "THEN outdegree(m, 'REQUIRES') END"}
# The decision's own properties, each read as the DecisionInfo field of its name.
_PROPERTIES = ("id", "title", "status", "revision")
assert tuple(_OUT) == Use._fields and Up._fields[1:] == Use._fields[1:3]
assert tuple(_INTO) == _Incoming._fields
assert set(_PROPERTIES) | {"uses", "ups", "action_ids", "n_dependents"} == set(
    DecisionInfo.__dataclass_fields__)

_DECISION = (", ".join(f"d.{k} AS {k}" for k in _PROPERTIES) + ",\n"
             "  [p = (d)-[*0..1]->(n) WHERE length(p) = 1 | [type(relationships(p)[0]), "
             + ", ".join(_OUT.values()) + "]] AS out,\n"
             "  [q = (d)<-[*0..1]-(m) WHERE length(q) = 1 | ["
             + ", ".join(_INTO.values()) + "]] AS into\n")

# Two levels of the region for a walk that goes on past the first query: the decisions
# $ids and those depending on them (one hop: no more paths than edges; a decision read
# before comes back and is skipped).
_TWO_LEVELS = ("MATCH (s:Node) WHERE s:Decision AND s.id IN $ids\n"
               "MATCH (s)<-[:DEPENDS_ON*0..1]-(d)\nWITH DISTINCT d\nRETURN " + _DECISION)

# The claim and the first two levels of its region: the decisions using it and those
# depending on them, in one variable-length step over both edge types (only a decision uses
# a claim, and only a decision depends on one: vocab.EDGE_ENDS, which restore refuses to
# break and the invariants check), with no label checked (each check is a matrix operation
# of its own). Two hops enumerate no more paths than users times dependents, and read most
# regions whole in this one round trip; more hops enumerate every path through a diamond
# (exponential in a lattice), so deeper levels are read by _walk, two levels a query. The
# claim's number of users is not read here: it is the count of the region's uses of the
# claim (claim_region). A correction refutes the statement, not one copy of it (docs/rules.md,
# rule 4): the current claims with the claim's statement key (its twins, found through that
# key's range index) are read with it, and the region is every twin's too; so are the
# statements a check linked to the claim as stating the same fact in other words (SAME_FACT,
# which joins only claims: memory/checks.py), current ones only, through a one-hop path of
# a ``*0..1`` pattern (a fixed one-hop pattern cost every preview a tenth of a millisecond
# more, links or not). A twin's links are read apart, when there are twins (same_fact_keys).
_CLAIM_AND_REGION = """MATCH (c:Node {id: $id}) WHERE c:Claim
OPTIONAL MATCH (t:Node {statement_key: c.statement_key})
WHERE t:Claim AND t.status IN ['proposed', 'accepted'] AND t.id <> c.id
WITH c, collect(t) AS twins,
  [q = (c)-[:SAME_FACT*0..1]-(o) WHERE length(q) = 1
   AND o.status IN ['proposed', 'accepted'] | o.statement_key] AS same_fact_keys
UNWIND [c] + twins AS x
OPTIONAL MATCH (x)<-[:USED_CLAIM|DEPENDS_ON*1..2]-(d)
WITH DISTINCT c, twins, same_fact_keys, d
RETURN c.id AS claim_id, c.status AS claim_status, c.revision AS claim_revision,
  c.source_id AS claim_source_id, c.statement AS claim_statement,
  c.statement_key AS claim_key,
  [t IN twins | [t.id, t.status, t.revision, t.source_id]] AS claim_twins,
  same_fact_keys AS claim_same_fact_keys,
  """ + _DECISION

# The first query of a preview through the API ($id, $ws); the benchmark times it too.
CLAIM_REGION_IN_WORKSPACE = IN_READY_WORKSPACE + _CLAIM_AND_REGION


async def claim_region(g: Graph, claim_id: str, *, workspace_id: str | None = None
                       ) -> tuple[RegionClaim | None, Snapshot]:
    """The claim (None if there is no such claim), its current twins, and the whole region
    of all of them, as a Snapshot.

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
        if not rows:  # no such claim, or no such workspace
            await check_ready(g, workspace_id)
    if not rows:
        return None, Snapshot(decisions={}, actions={})
    first = rows[0]
    decisions: dict[str, DecisionInfo] = {}
    actions: dict[str, ActionInfo] = {}
    more: dict[str, None] = {}
    for r in rows:
        if r["id"] is not None:
            more.update(dict.fromkeys(_add_decision(r, decisions, actions)))
    await _walk(g, [i for i in more if i not in decisions], decisions, actions)

    # Every decision using the claim (or a twin) is in the region, so its uses of it are all
    # of them: the numbers the apply guard re-checks.
    def n_users(cid: str) -> int:
        return sum(u.claim_id == cid for d in decisions.values() for u in d.uses)

    twins = sorted((Twin(id=t[0], status=t[1], revision=t[2], source_id=t[3],
                         n_users=n_users(t[0])) for t in first["claim_twins"]),
                   key=lambda t: t["id"])
    linked = set(first["claim_same_fact_keys"])
    if twins:
        linked |= await same_fact_keys(g, [t["id"] for t in twins])
    linked.discard(first["claim_key"])
    claim = RegionClaim(id=first["claim_id"], status=first["claim_status"],
                        revision=first["claim_revision"], source_id=first["claim_source_id"],
                        statement=first["claim_statement"], statement_key=first["claim_key"],
                        n_users=n_users(claim_id), twins=twins,
                        same_fact_keys=sorted(linked))
    return claim, Snapshot(decisions=decisions, actions=actions)


class StatementClaim(TypedDict):
    """A current claim of a statement read with its region: as a Twin, with its words."""

    id: str
    status: ClaimStatus
    revision: int
    source_id: str | None
    statement_key: str
    statement: str
    evidence_quote: str | None
    n_users: int


# The current claims of the statements $keys and the first two levels of their region, as
# _CLAIM_AND_REGION reads a claim's (deeper levels by _walk).
_STATEMENTS_AND_REGION = """UNWIND $keys AS k
MATCH (t:Node {statement_key: k}) WHERE t:Claim AND t.status IN ['proposed', 'accepted']
WITH collect(t) AS ts
UNWIND ts AS x
OPTIONAL MATCH (x)<-[:USED_CLAIM|DEPENDS_ON*1..2]-(d)
WITH DISTINCT ts, d
RETURN [t IN ts | [t.id, t.status, t.revision, t.source_id, t.statement_key, t.statement,
  t.evidence_quote]] AS claims,
  """ + _DECISION


async def statements_region(g: Graph, keys: list[str], snap: Snapshot
                            ) -> list[StatementClaim]:
    """The current claims of the statements ``keys``, and their region added to ``snap``
    (each decision once); each claim with how many decisions use it."""
    if not keys:
        return []
    rows = await g.read(_STATEMENTS_AND_REGION, {"keys": keys})
    if not rows:
        return []
    more: dict[str, None] = {}
    for r in rows:
        if r["id"] is not None and r["id"] not in snap.decisions:
            more.update(dict.fromkeys(_add_decision(r, snap.decisions, snap.actions)))
    await _walk(g, [i for i in more if i not in snap.decisions], snap.decisions,
                snap.actions)
    out = [StatementClaim(id=t[0], status=t[1], revision=t[2], source_id=t[3],
                          statement_key=t[4], statement=t[5], evidence_quote=t[6],
                          n_users=sum(u.claim_id == t[0] for d in snap.decisions.values()
                                      for u in d.uses))
           for t in rows[0]["claims"]]
    return sorted(out, key=lambda c: (c["statement_key"], c["id"]))


async def same_fact_keys(g: Graph, claim_ids: list[str]) -> set[str]:
    """The statement keys of the current claims linked to these as stating the same fact
    in other words."""
    rows = await g.read(
        "MATCH (c:Node) WHERE c:Claim AND c.id IN $ids WITH c "
        "MATCH (c)-[:SAME_FACT]-(o) WHERE o.status IN ['proposed', 'accepted'] "
        "RETURN DISTINCT o.statement_key AS key", {"ids": claim_ids})
    return {str(r["key"]) for r in rows}


async def decisions_using(g: Graph, claim_ids: list[str]) -> list[str]:
    if not claim_ids:
        return []
    rows = await g.read("MATCH (c:Node)<-[:USED_CLAIM]-(d:Decision) WHERE c:Claim "
                        "AND c.id IN $ids "
                        "RETURN DISTINCT d.id AS id ORDER BY id", {"ids": claim_ids})
    return [r["id"] for r in rows]


class ClaimBrief(NamedTuple):
    statement: str
    evidence_quote: str | None
    source_title: str | None


async def claim_briefs(g: Graph, claim_ids: list[str]) -> dict[str, ClaimBrief]:
    """Each claim's statement, quote and the title of its source, in one read."""
    if not claim_ids:
        return {}
    rows = await g.read("MATCH (c:Node) WHERE c:Claim AND c.id IN $ids WITH c "
                        "OPTIONAL MATCH (s:Node {id: c.source_id}) WHERE s:Source "
                        "RETURN c.id AS id, c.statement AS statement, "
                        "c.evidence_quote AS quote, s.title AS title", {"ids": claim_ids})
    return {r["id"]: ClaimBrief(r["statement"], r["quote"], r["title"]) for r in rows}


async def source_titles(g: Graph, source_ids: list[str]) -> dict[str, str | None]:
    if not source_ids:
        return {}
    rows = await g.read("MATCH (s:Node) WHERE s:Source AND s.id IN $ids "
                        "RETURN s.id AS id, s.title AS title",
                        {"ids": source_ids})
    return {r["id"]: r["title"] for r in rows}


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


def _add_decision(r: Row, decisions: dict[str, DecisionInfo],
                  actions: dict[str, ActionInfo]) -> list[str]:
    """Adds the decision of row ``r`` (and its actions); returns the ids of its dependents."""
    did = r["id"]
    uses: list[Use] = []
    ups: list[Up] = []
    dependents: list[str] = []
    action_ids: list[str] = []  # one per REQUIRES edge, as the guard counts them
    for edge in r["out"]:
        if edge[0] == "USED_CLAIM":
            uses.append(Use._make(edge[1:]))
        elif edge[0] == "DEPENDS_ON":
            ups.append(Up._make(edge[1:4]))
    for e in map(_Incoming._make, r["into"]):
        if e.type == "DEPENDS_ON":
            dependents.append(e.id)
        elif e.type == "REQUIRES":
            action_ids.append(e.id)
            known = actions[e.id].decision_ids if e.id in actions else ()
            actions[e.id] = ActionInfo(id=e.id, description=e.description or "",
                                       status=as_word(ACTION_STATUSES, e.status),
                                       revision=e.revision,
                                       decision_ids=tuple(sorted({*known, did})),
                                       n_required=e.n_required or 0)
    uses.sort(key=lambda u: (u.premise, u.claim_id))
    ups.sort(key=lambda u: u.decision_id)
    action_ids.sort()
    decisions[did] = DecisionInfo(id=did, title=r["title"], status=r["status"],
                                  revision=r["revision"], uses=uses, ups=ups,
                                  action_ids=action_ids, n_dependents=len(dependents))
    return dependents
