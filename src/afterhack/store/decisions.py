"""Decisions and actions: reads (now, or as of a time: store/moment.py), and the
reviewer's compare-and-set changes.

Every change carries the revision the client saw; the write goes through only if it is
still the current one and the transition is allowed, checked inside the same query.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Literal, TypedDict

from afterhack.errors import ActionNotFound, DecisionNotFound
from afterhack.model.decisions import (
    ActionRecord,
    DecisionLink,
    DecisionRef,
    DecisionView,
    PremiseClaim,
)
from afterhack.model.pages import After
from afterhack.model.region import Stamps
from afterhack.model.vocab import OPEN_ACTION, ActionStatus, DecisionStatus
from afterhack.model.writes import AuditEvent, Repair
from afterhack.store.asof_decisions import claims_then, support_at
from afterhack.store.audit import CREATE_AUDITS
from afterhack.store.client import Graph, Row
from afterhack.store.cypher import CURRENT, GOOD, cypher_list
from afterhack.store.guard import FLAG_AND_HOLD, GUARD, guard_params
from afterhack.store.history import change
from afterhack.store.keyset import after_params
from afterhack.store.moment import NOW, At, Moment, both, where
from afterhack.store.rows import of


def _action(at: At) -> str:
    """An action ``a`` as its record reads it (without its decisions), at the moment."""
    return ("{id: a.id, description: a.description, "
            f"status: {at.status('a')}, revision: a.revision, created_at: a.created_at, "
            f"held_from: {at.held_from('a')}}}")


def _link(var: str, at: At) -> str:
    return f"{{id: {var}.id, title: {var}.title, status: {at.status(var)}}}"


@cache
def _decision_return(at: At) -> str:
    """Returns the decision ``d`` at the moment, with its premises' claims, the decisions it
    builds on and that build on it, and its actions (as of a time, those that existed then).
    Why it was flagged is kept only for its latest flag (``changed_since``: see
    ``get_decision``)."""
    return (
        "RETURN d {.id, .title, .summary, .revision, .created_at, .run_id, .premise_order, "
        ".review_reason, .support_history, .support_until} AS d, "
        f"{at.status('d')} AS status, {at.changed_since('d')} AS changed_since, "
        "[(d)-[u:USED_CLAIM]->(c:Claim) | {premise: u.premise, id: c.id, "
        f"  statement: c.statement, status: {at.status('c')}, source_id: c.source_id}}] AS uses, "
        f"[(d)-[:DEPENDS_ON]->(x:Decision){where(at.exists('x'))} | {_link('x', at)}] "
        "AS depends_on, "
        f"[(d)<-[:DEPENDS_ON]-(y:Decision){where(at.exists('y'))} | {_link('y', at)}] "
        "AS dependents, "
        f"[(d)<-[:REQUIRES]-(a:Action){where(at.exists('a'))} | {_action(at)}] AS actions")


class _Fields(TypedDict):
    id: str
    title: str
    summary: str
    revision: int
    created_at: int
    run_id: str | None
    premise_order: str | None  # JSON: the premises' labels in order
    review_reason: str | None  # JSON of a ReviewReason
    support_history: list[str] | None
    support_until: list[int] | None


class _Use(PremiseClaim):
    premise: str


class _ActionRow(TypedDict):
    id: str
    description: str
    status: ActionStatus
    revision: int
    created_at: int
    held_from: ActionStatus | None


class _DecisionRow(TypedDict):
    d: _Fields
    status: DecisionStatus
    changed_since: bool
    uses: list[_Use]
    depends_on: list[DecisionLink]
    dependents: list[DecisionLink]
    actions: list[_ActionRow]


_DECISION_ROW = of(_DecisionRow)
_FIELDS = of(_Fields)
_USE = of(_Use)
_ACTION_ROW = of(_ActionRow)
_LINK = of(DecisionLink)
_ACTION = of(ActionRecord)
_REF = of(DecisionRef)


def _decision_row(row: Row) -> _DecisionRow:
    """A row of ``_decision_return`` as its record, each map inside it checked too."""
    return _DECISION_ROW.one({
        **row, "d": _FIELDS.one(row["d"]), "uses": _USE.all(row["uses"]),
        "depends_on": _LINK.all(row["depends_on"]), "dependents": _LINK.all(row["dependents"]),
        "actions": _ACTION_ROW.all(row["actions"])})


def _action_record(a: _ActionRow, decision_ids: list[str]) -> ActionRecord:
    return _ACTION.one({**a, "decision_ids": sorted(decision_ids)})


# Restores held actions of decision d whose required decisions are all in good standing.
RESTORE_HELD = (
    "CALL { WITH d "
    "  OPTIONAL MATCH (d)<-[:REQUIRES]-(a:Action {status:'held'}) "
    "  OPTIONAL MATCH (a)-[:REQUIRES]->(x:Decision) "
    "  WITH a, collect(x.status) AS ds "
    f"  WHERE a IS NOT NULL AND all(s IN ds WHERE s IN {GOOD}) "
    "  SET " + change("a", "coalesce(a.held_from, 'proposed')") + ", a.held_from = null, "
    "      a.revision = a.revision + 1 "
    "  RETURN collect(a.id) AS restored } "
)


class NewUse(TypedDict):
    claim_id: str
    premise: str


async def action_decisions(g: Graph, action_ids: list[str]) -> dict[str, list[str]]:
    """Every decision each action requires, inside the region or not."""
    if not action_ids:
        return {}
    rows = await g.read(
        "MATCH (a:Node)-[:REQUIRES]->(y:Decision) WHERE a:Action AND a.id IN $ids "
        "RETURN a.id AS id, collect(y.id) AS decision_ids",
        {"ids": action_ids})
    return {r["id"]: list(r["decision_ids"]) for r in rows}


# Ends accept and reconfirm alike: held actions come back, the audit event is written.
_ACCEPTED_TAIL = "WITH d " + RESTORE_HELD + "WITH d, restored " + CREATE_AUDITS + " RETURN restored"


def _view(row: _DecisionRow, uses: Sequence[_Use], order: Sequence[str],
          required: dict[str, list[str]]) -> DecisionView:
    d = row["d"]
    groups: dict[str, list[PremiseClaim]] = {}
    for u in sorted(uses, key=lambda u: u["id"]):
        groups.setdefault(u["premise"], []).append(PremiseClaim(
            id=u["id"], statement=u["statement"], status=u["status"], source_id=u["source_id"]))
    labels = [p for p in order if p in groups] + sorted(p for p in groups if p not in order)
    # A pattern comprehension nested in another comes back null in FalkorDB, so each
    # action's decisions are read apart (``required``).
    actions = [_action_record(a, required.get(a["id"], []))
               for a in sorted(row["actions"], key=lambda a: (a["created_at"], a["id"]))]
    # Why it was flagged is kept only for its latest flag: as of a time before its status
    # last changed, it is not known.
    reason = d["review_reason"] if not row["changed_since"] else None
    return DecisionView(
        id=d["id"], title=d["title"], summary=d["summary"], status=row["status"],
        revision=d["revision"], created_at=d["created_at"], run_id=d["run_id"],
        review_reason=json.loads(reason) if reason else None,
        premises=[{"premise": p, "claims": groups[p]} for p in labels],
        depends_on=sorted(row["depends_on"], key=lambda x: x["id"]),
        dependents=sorted(row["dependents"], key=lambda x: x["id"]),
        actions=actions)


async def _decision_views(g: Graph, rows: Sequence[Row], m: Moment) -> list[DecisionView]:
    """The rows' decisions. As of a time, a decision re-confirmed since rested on other
    claims then: the premises it had then are read from what it keeps of them."""
    read = [_decision_row(r) for r in rows]
    required = await action_decisions(g, [a["id"] for r in read for a in r["actions"]])
    out: list[DecisionView] = []
    for r in read:
        uses: Sequence[_Use] = r["uses"]
        order: list[str] = json.loads(r["d"]["premise_order"] or "[]")
        then = None if m.as_of is None else support_at(r["d"], m.as_of)
        if then is not None and m.as_of is not None:
            order, was = then
            claims = await claims_then(g, sorted({u["claim_id"] for u in was}), m.as_of)
            uses = [_USE.one({**claims[u["claim_id"]], "premise": u["premise"]})
                    for u in was if u["claim_id"] in claims]
        out.append(_view(r, uses, order, required))
    return out


async def find_decisions(g: Graph, ids: list[str]) -> dict[str, DecisionRef]:
    rows = await g.read(
        "MATCH (d:Node) WHERE d:Decision AND d.id IN $ids RETURN d.id AS id, d.status AS status, "
        "d.revision AS revision, d.title AS title",
        {"ids": ids},
    )
    return {r["id"]: r for r in _REF.all(rows)}


@cache
def _one(at: At) -> str:
    return f"MATCH (d:Node {{id:$id}}) WHERE d:Decision{both(at.exists('d'))} " \
        + _decision_return(at)


async def get_decision(g: Graph, decision_id: str, as_of: int | None = None) -> DecisionView:
    """The decision now, or as it was at ``as_of`` (DecisionNotFound if it did not exist
    yet)."""
    m = Moment(as_of)
    rows = await g.read(_one(m.at), m.params(id=decision_id))
    if not rows:
        raise DecisionNotFound(decision_id, None if m.now
                               else "No decision with that id at that time.")
    return (await _decision_views(g, rows, m))[0]


async def list_decisions(g: Graph, statuses: Sequence[DecisionStatus] | None, *, limit: int,
                         offset: int, after: After | None = None) -> list[DecisionView]:
    """Decisions newest first; with ``after``, those after that position (paging.py)."""
    rows = await g.read(
        "MATCH (d:Decision) WHERE ($statuses IS NULL OR d.status IN $statuses) "
        "AND ($at_after IS NULL OR d.created_at < $at_after "
        "OR (d.created_at = $at_after AND d.id > $id_after)) "
        "WITH d ORDER BY d.created_at DESC, d.id SKIP $offset LIMIT $limit "
        + _decision_return(NOW),
        {"statuses": statuses, "limit": limit, "offset": offset, **after_params(after)},
    )
    return await _decision_views(g, rows, Moment())


async def count_decisions(g: Graph, statuses: Sequence[DecisionStatus] | None) -> int:
    rows = await g.read("MATCH (d:Decision) WHERE $statuses IS NULL OR d.status IN $statuses "
                        "RETURN count(d) AS n", {"statuses": statuses})
    return int(rows.scalar() or 0)


@cache
def _action_return(at: At) -> str:
    return f"RETURN {_action(at)} AS a, [(a)-[:REQUIRES]->(x:Decision) | x.id] AS ds"


async def list_actions(g: Graph, statuses: Sequence[ActionStatus] | None, *, limit: int,
                       after: After | None = None) -> list[ActionRecord]:
    """Actions newest first; with ``after``, those after that position (paging.py)."""
    rows = await g.read(
        "MATCH (a:Action) WHERE ($statuses IS NULL OR a.status IN $statuses) "
        "AND ($at_after IS NULL OR a.created_at < $at_after "
        "OR (a.created_at = $at_after AND a.id > $id_after)) "
        "WITH a ORDER BY a.created_at DESC, a.id LIMIT $limit "
        # Sorted on values taken before the record is projected under the node's name,
        # which FalkorDB sorts wrongly on two keys (docs/falkordb.md).
        "WITH a, a.created_at AS at_, a.id AS id_ "
        f"{_action_return(NOW)} ORDER BY at_ DESC, id_",
        {"statuses": statuses, "limit": limit, **after_params(after)})
    return [_action_record(_ACTION_ROW.one(r["a"]), r["ds"]) for r in rows]


async def count_actions(g: Graph, statuses: Sequence[ActionStatus] | None) -> int:
    rows = await g.read("MATCH (a:Action) WHERE $statuses IS NULL OR a.status IN $statuses "
                        "RETURN count(a) AS n", {"statuses": statuses})
    return int(rows.scalar() or 0)


@cache
def _action_one(at: At) -> str:
    return (f"MATCH (a:Node {{id:$id}}) WHERE a:Action{both(at.exists('a'))} "
            + _action_return(at))


async def get_action(g: Graph, action_id: str, as_of: int | None = None) -> ActionRecord:
    """The action now, or as it was at ``as_of`` (ActionNotFound if it did not exist yet)."""
    m = Moment(as_of)
    row = (await g.read(_action_one(m.at), m.params(id=action_id))).first()
    if row is None:
        raise ActionNotFound(action_id, None if m.now else "No action with that id at that time.")
    return _action_record(_ACTION_ROW.one(row["a"]), row["ds"])


async def action_decision_statuses(g: Graph, action_id: str) -> list[DecisionStatus]:
    rows = await g.read(
        "MATCH (a:Node {id:$id})-[:REQUIRES]->(d:Decision) WHERE a:Action "
        "RETURN collect(d.status) AS s",
        {"id": action_id})
    return list(rows.scalar() or [])


async def set_action_status(g: Graph, action_id: str, *, revision: int,
                            allowed_from: Sequence[ActionStatus],
                            to: ActionStatus | Literal["released"], needs_good_standing: bool,
                            audits: list[AuditEvent], now: int) -> bool:
    """CAS an action's status; the query re-checks the transition and its decisions.
    ``released``: back to the status it was held from."""
    rows = await g.write(
        "MATCH (a:Node {id:$id}) WHERE a:Action AND a.revision = $revision "
        "AND a.status IN $from "
        "WITH a, [(a)-[:REQUIRES]->(x:Decision) | x.status] AS ds "
        f"WHERE NOT $needs_good_standing OR all(s IN ds WHERE s IN {GOOD}) "
        "SET " + change("a", "CASE WHEN $to = 'released' THEN coalesce(a.held_from, "
                        "'proposed') ELSE $to END") + ", "
        "    a.held_from = null, a.revision = a.revision + 1 "
        "WITH a " + CREATE_AUDITS + " RETURN a.id AS id",
        {"id": action_id, "revision": revision, "from": list(allowed_from), "to": to,
         "needs_good_standing": needs_good_standing, "audits": audits, "now": now},
    )
    return bool(rows)


async def accept_decision(g: Graph, decision_id: str, *, revision: int,
                          allowed_from: Sequence[DecisionStatus],
                          audits: list[AuditEvent], now: int) -> list[str] | None:
    """Put a decision in good standing if every premise has a current claim; the held
    actions it restored, or None if refused."""
    rows = await g.write(
        "MATCH (d:Node {id:$id}) WHERE d:Decision AND d.revision = $revision "
        "AND d.status IN $from "
        "OPTIONAL MATCH (d)-[u:USED_CLAIM]->(c:Claim) "
        "WITH d, collect(DISTINCT u.premise) AS premises, "
        f"  collect(DISTINCT CASE WHEN c.status IN {CURRENT} "
        "    THEN u.premise END) AS held "
        "WITH d, premises, held, [(d)-[:DEPENDS_ON]->(x:Decision) | x.status] AS ups "
        "WHERE size(premises) > 0 AND size(held) = size(premises) "
        f"AND all(s IN ups WHERE s IN {GOOD}) "
        "SET " + change("d", "'accepted'") + ", d.revision = d.revision + 1, "
        "d.review_reason = null "
        + _ACCEPTED_TAIL,
        {"id": decision_id, "revision": revision, "from": list(allowed_from), "audits": audits,
         "now": now},
    )
    row = rows.first()
    return None if row is None else list(row["restored"])


async def reconfirm_decision(g: Graph, decision_id: str, *, revision: int,
                             allowed_from: Sequence[DecisionStatus], uses: list[NewUse],
                             premise_order: list[str],
                             audits: list[AuditEvent], now: int) -> list[str] | None:
    """Replace a decision's support with current, fragment-backed claims and accept it; the
    held actions it restored, or None if refused."""
    claim_ids = list(dict.fromkeys(u["claim_id"] for u in uses))
    # What it rested on until now is kept on it (support_history, with the time it ended in
    # support_until), so a read as of an earlier time shows the premises it had then. Read
    # at the revision the write is guarded on, so it is exactly what the write replaces.
    was = (await g.read(
        "MATCH (d:Node {id:$id}) WHERE d:Decision AND d.revision = $revision "
        "RETURN d.premise_order AS premise_order, "
        "[(d)-[u:USED_CLAIM]->(c:Claim) | [u.premise, c.id]] AS uses",
        {"id": decision_id, "revision": revision})).first()
    if was is None:
        return None
    previous = json.dumps({
        "premise_order": json.loads(was["premise_order"] or "[]"),
        "uses": [{"premise": p, "claim_id": c} for p, c in sorted(was["uses"])]},
        sort_keys=True)
    rows = await g.write(
        "MATCH (d:Node {id:$id}) WHERE d:Decision AND d.revision = $revision "
        "AND d.status IN $from "
        "OPTIONAL MATCH (d)-[:DEPENDS_ON]->(x:Decision) "
        "WITH d, collect(x.status) AS ups "
        f"OPTIONAL MATCH (c:Node) WHERE c:Claim AND c.id IN $claim_ids "
        f"AND c.status IN {CURRENT} "
        "AND (c)-[:SUPPORTED_BY]->(:SourceFragment) "
        "WITH d, ups, count(DISTINCT c) AS ok "
        f"WHERE ok = size($claim_ids) AND all(s IN ups WHERE s IN {GOOD}) "
        "OPTIONAL MATCH (d)-[old:USED_CLAIM]->() DELETE old "
        "WITH DISTINCT d "
        "CALL { WITH d UNWIND $uses AS u MATCH (c:Node {id:u.claim_id}) WHERE c:Claim "
        "  CREATE (d)-[:USED_CLAIM {premise:u.premise}]->(c) RETURN count(*) AS n } "
        "SET " + change("d", "'accepted'") + ", d.revision = d.revision + 1, "
        "    d.review_reason = null, d.premise_order = $premise_order, "
        "    d.support_history = coalesce(d.support_history, []) + [$previous], "
        "    d.support_until = coalesce(d.support_until, []) + [$now] "
        + _ACCEPTED_TAIL,
        {"id": decision_id, "revision": revision, "from": list(allowed_from),
         "claim_ids": claim_ids, "uses": uses, "premise_order": json.dumps(premise_order),
         "audits": audits, "now": now, "previous": previous},
    )
    row = rows.first()
    return None if row is None else list(row["restored"])


# Rejects decision $id, cancels its own open (or held) actions; then the guard's flags and
# holds of its dependents follow in the same query.
_REJECT = f"""
MATCH (d:Node {{id: $id}}) WHERE d:Decision AND d.revision = $revision
  AND d.status IN $from
SET {change("d", "'rejected'")}, d.revision = d.revision + 1, d.review_reason = $reason
WITH d
CALL {{
  WITH d
  MATCH (d)<-[:REQUIRES]-(a:Action) WHERE a.status IN {cypher_list([*OPEN_ACTION, "held"])}
  SET {change("a", "'cancelled'")}, a.held_from = null, a.revision = a.revision + 1
  RETURN count(a) AS n_cancelled
}}
WITH d
"""


async def reject_decision(g: Graph, decision_id: str, *, revision: int,
                          allowed_from: Sequence[DecisionStatus], reason: str, stamps: Stamps,
                          repair: Repair, audits: list[AuditEvent], now: int) -> bool:
    """Reject a decision and repair what depended on it, if its region is still as
    ``stamps`` says; False if it moved (or the decision did)."""
    rows = await g.write(
        GUARD + _REJECT + FLAG_AND_HOLD + "WITH d " + CREATE_AUDITS + " RETURN d.id AS id",
        {**guard_params(stamps), **repair, "id": decision_id, "revision": revision,
         "from": list(allowed_from), "reason": reason, "audits": audits, "now": now})
    return bool(rows)
