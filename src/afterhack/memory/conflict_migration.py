"""Conflicts raised as pairs, before a conflict was a dispute over one fact, joined into one
conflict per fact (docs/decisions/0046-a-dispute-per-fact.md).

At start-up, every workspace's open conflicts that still hold a claim without a side are
read with the open conflicts their statements are in; those of one kind that share a
statement are one fact's, and go into the oldest of them (a dispute already, if one is
among them): each statement gets the side of its value (rules/disputes.value_of: claims
giving one value share a side), the statements the survivor lacks join it, and the others
close as settled ``merged`` into it. Each step is one guarded write
(store/conflict_migration.py), so a crash leaves every step whole or absent, and running it
again finds only what is left. A read as of a moment before a step shows the pairs that
were open then.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from afterhack.model.vocab import ConflictKind
from afterhack.records.clock import now_ms
from afterhack.records.ids import new_id
from afterhack.rules.disputes import value_of
from afterhack.store import conflict_migration as store_migration
from afterhack.store.client import Graph, GraphMissing, Store
from afterhack.store.conflict_migration import MergeWrite, OpenConflict, SideRow
from afterhack.store.workspaces import listed_ids, workspace_graph

log = logging.getLogger(__name__)

# Who the migration's writes name.
ACTOR = "dispute-migration"
NOTE = "Joined into one conflict over the fact"
# How many pairs one step closes: a fact with thousands of pairs is joined in steps.
STEP = 500
_ROUNDS = 5


def groups(conflicts: Sequence[OpenConflict]) -> list[list[OpenConflict]]:
    """The conflicts over one fact, together: of one kind, sharing a statement (through
    others), the oldest first."""
    parent = list(range(len(conflicts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    seen: dict[tuple[str, str], int] = {}
    for i, k in enumerate(conflicts):
        for m in k["members"]:
            j = seen.setdefault((k["kind"], m["key"]), i)
            parent[root(i)] = root(j)
    out: dict[int, list[OpenConflict]] = {}
    for i, k in enumerate(conflicts):
        out.setdefault(root(i), []).append(k)
    return [sorted(g, key=lambda k: (k["created_at"], k["id"])) for g in out.values()]


def _old(k: OpenConflict) -> bool:
    return any(m["side"] is None for m in k["members"])


@dataclass
class _Sides:
    kind: ConflictKind
    side_of: dict[str, str] = field(default_factory=dict)  # statement key -> side
    by_value: dict[str, str] = field(default_factory=dict)  # value in words -> side

    def place(self, claim_id: str, key: str, statement: str, said_by: str | None,
              side: str | None) -> str:
        value = value_of(statement, self.kind, said_by)
        if side is None:
            side = self.by_value.get(value, claim_id) if value is not None else claim_id
        if value is not None:
            self.by_value.setdefault(value, side)
        self.side_of[key] = side
        return side


def plan(group: Sequence[OpenConflict], now: int) -> list[MergeWrite]:
    """The steps that join a group of conflicts over one fact into its survivor: the oldest
    dispute among them (sides on every claim), else the oldest."""
    if not any(_old(k) for k in group):
        return []
    survivor = next((k for k in group if not _old(k)), group[0])
    sides = _Sides(survivor["kind"])
    for m in survivor["members"]:  # the sides it names first
        if m["side"] is not None:
            sides.place(m["claim_id"], m["key"], m["statement"], m["said_by"], m["side"])
    own: list[SideRow] = []
    for m in survivor["members"]:
        if m["side"] is None and m["key"] not in sides.side_of:
            own.append({"claim_id": m["claim_id"], "side": sides.place(
                m["claim_id"], m["key"], m["statement"], m["said_by"], None)})
    others = [k for k in group if k["id"] != survivor["id"]]
    steps: list[MergeWrite] = []
    for start in range(0, max(len(others), 1), STEP):
        chunk = others[start:start + STEP]
        joins: list[SideRow] = []
        for k in chunk:
            for m in k["members"]:
                if m["key"] not in sides.side_of:
                    joins.append({"claim_id": m["claim_id"], "side": sides.place(
                        m["claim_id"], m["key"], m["statement"], m["said_by"], None)})
        merged = [k["id"] for k in chunk]
        steps.append(MergeWrite(
            survivor=survivor["id"], sides=own if start == 0 else [], joins=joins,
            merged=merged, n_sides=len(set(sides.side_of.values())),
            n_claims=len(sides.side_of), now=now, actor=ACTOR, note=NOTE,
            audit_id=new_id(), audit_detail=json.dumps({"merged": merged}, sort_keys=True),
            settle_detail=json.dumps({"settled_by": {"kind": "merged", "id": survivor["id"],
                                                     "note": NOTE}}, sort_keys=True)))
    return steps


async def migrate(g: Graph) -> int:
    """Join a workspace's pairs into disputes; how many steps were written. A step whose
    conflicts moved meanwhile (another process migrating, a resolution) writes nothing, and
    the rest is read and planned again."""
    written = 0
    for _ in range(_ROUNDS):
        old = await store_migration.pairs(g)
        if not old:
            return written
        keys = sorted({m["key"] for k in old for m in k["members"]})
        around = await store_migration.open_of_keys(g, keys)
        clean = True
        for group in groups(around):
            for step in plan(group, now_ms()):
                if not await store_migration.merge(g, step):
                    clean = False
                    break
                written += 1
        if clean:
            return written
    return written


async def migrate_everywhere(store: Store) -> int:
    """At start-up, every workspace (most have no pair: one read each); the steps written."""
    total = 0
    for ws in await listed_ids(store):
        try:
            total += await migrate(workspace_graph(store, ws))
        except GraphMissing:
            continue  # registered but its graph is gone: listing skips it as well
    if total:
        log.info("joined pairwise conflicts into disputes in %d step(s)", total)
    return total
