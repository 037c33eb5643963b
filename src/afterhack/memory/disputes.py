"""A conflict is a dispute over one fact, not a pair of claims (docs/rules.md, rule 9).

The judge finds pairs: a new claim and a current one that give the same fact different
values. This module places them: a pair one of whose claims is already in an open conflict
of that kind puts the other in it (a new value on a side of its own, a value it already
has on that value's side), and a pair in none raises a new conflict with the two as its
first sides, which the next pairs of the same write join. A claim a check found to restate
a claim of an open conflict in other words joins it on that claim's side. What is read for
it is the conflicts the pairs' own statements are in (store.conflicts.memberships), never
the other claims of a conflict: a write costs what its own claims cost, however large the
dispute has grown.

Reads come back as the store keeps them (one claim per statement, each naming its side)
and are shown as sides, the newest value first, each with its value in words.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from afterhack.model.conflicts import (
    ConflictClaim,
    ConflictRecord,
    ConflictSide,
    StoredConflict,
)
from afterhack.model.vocab import ConflictKind
from afterhack.model.writes import ConflictRow, LinkRow, MemberRow
from afterhack.records.ids import new_id
from afterhack.rules.disputes import value_of
from afterhack.store import conflicts as store_conflicts
from afterhack.store.client import Graph
from afterhack.store.conflicts import Membership


@dataclass(frozen=True)
class Stated:
    """A claim a check compared: what it says, its statement key, who said it."""

    statement: str
    key: str
    said_by: str | None = None


def dispute_key(anchor_key: str, kind: ConflictKind) -> str:
    """The key of a new conflict over the fact a statement gives a value of this kind: two
    writes that find the same claim disputed at once raise one conflict, not two (the
    second one's claims join the first's)."""
    raw = json.dumps([anchor_key, kind], ensure_ascii=False).encode()
    return "cfd_" + hashlib.sha256(raw).hexdigest()[:32]


def shared(by_key: Mapping[str, Sequence[Membership]], a: str, b: str) -> bool:
    """Whether two statements are both in one open or dismissed conflict: such a pair is
    not judged again (a dismissed dispute's values all hold)."""
    mine = {m["conflict_id"] for m in by_key.get(a, ())}
    return any(m["conflict_id"] in mine for m in by_key.get(b, ()))


def by_key(found: Iterable[Membership]) -> dict[str, list[Membership]]:
    out: dict[str, list[Membership]] = {}
    for m in found:
        out.setdefault(m["key"], []).append(m)
    return out


@dataclass
class _Target:
    """An open conflict claims are placed in: one from before, or raised by this write."""

    id: str
    key: str
    kind: ConflictKind
    side_of: dict[str, str] = field(default_factory=dict)  # statement key -> side
    values: dict[str, str] = field(default_factory=dict)  # value in words -> side


@dataclass
class Placement:
    """What a write raises and joins: new conflicts (a pair each), the claims that join a
    conflict, and for each pair the conflict its claims went to."""

    disputes: list[ConflictRow] = field(default_factory=list)
    members: list[MemberRow] = field(default_factory=list)
    target_of: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)


@dataclass
class _Placing:
    stated: Mapping[str, Stated]
    links: dict[str, list[str]]
    slots: dict[str, list[_Target]]  # statement key -> the open conflicts it is in
    out: Placement = field(default_factory=Placement)

    def value(self, claim_id: str, kind: ConflictKind) -> str | None:
        s = self.stated.get(claim_id)
        return None if s is None else value_of(s.statement, kind, s.said_by)

    def side(self, claim_id: str, t: _Target) -> tuple[str, bool]:
        """The side of ``t`` a claim goes on, and whether it is a new one: the side of a
        claim of ``t`` it restates in other words, else of its value, else its own."""
        for other in self.links.get(claim_id, ()):
            o = self.stated.get(other)
            if o is not None and o.key in t.side_of:
                return t.side_of[o.key], False
        value = self.value(claim_id, t.kind)
        if value is not None and value in t.values:
            return t.values[value], False
        if value is not None:
            t.values[value] = claim_id
        return claim_id, True

    def put(self, claim_id: str, t: _Target, pair: ConflictRow, against: str) -> None:
        s = self.stated.get(claim_id)
        if s is None or s.key in t.side_of:
            return
        side, fresh = self.side(claim_id, t)
        t.side_of[s.key] = side
        self.slots.setdefault(s.key, []).append(t)
        self.out.members.append(MemberRow(
            conflict_id=t.id, conflict_key=t.key, claim_id=claim_id, side=side,
            new_side=fresh, newer_id=pair["newer_id"], same_speaker=pair["same_speaker"],
            # Ids and the kind only: a reason quotes values, which an erasure must find.
            audit_id=new_id(), audit_detail=json.dumps(
                {"claim_id": claim_id, "side": side, "against": against,
                 "kind": pair["kind"]}, sort_keys=True)))

    def target(self, pair: ConflictRow, keys: Sequence[str]) -> _Target | None:
        for k in keys:
            for t in self.slots.get(k, ()):
                if t.kind == pair["kind"]:
                    return t
        return None


def place(pairs: Sequence[ConflictRow], links: Sequence[LinkRow],
          stated: Mapping[str, Stated], found: Iterable[Membership]) -> Placement:
    """Where the pairs a check found go (see the module); pure. ``stated`` names every
    claim of ``pairs`` and ``links``; ``found`` is what the store read of their
    statements' conflicts."""
    linked: dict[str, list[str]] = {}
    for lk in links:
        linked.setdefault(lk["new_id"], []).append(lk["old_id"])
        linked.setdefault(lk["old_id"], []).append(lk["new_id"])
    slots: dict[str, list[_Target]] = {}
    known: dict[str, _Target] = {}
    for m in found:
        if m["status"] != "open":
            continue
        t = known.setdefault(m["conflict_id"], _Target(m["conflict_id"], m["conflict_key"],
                                                       m["kind"]))
        t.side_of[m["key"]] = m["side"]
        if t not in slots.get(m["key"], []):
            slots.setdefault(m["key"], []).append(t)
    p = _Placing(stated, linked, slots)
    for t in known.values():
        for key, side in t.side_of.items():
            member = next((i for i, s in stated.items() if s.key == key), None)
            value = None if member is None else p.value(member, t.kind)
            if value is not None:
                t.values.setdefault(value, side)
    for pair in pairs:
        new, old = stated.get(pair["new_id"]), stated.get(pair["old_id"])
        if new is None or old is None:
            continue
        found_t = p.target(pair, [old.key, new.key])
        t = found_t or _Target(new_id(), dispute_key(old.key, pair["kind"]), pair["kind"])
        if found_t is None:
            p.out.disputes.append({**pair, "id": t.id, "key": t.key})
        p.put(pair["old_id"], t, pair, pair["new_id"])
        p.put(pair["new_id"], t, pair, pair["old_id"])
        p.out.target_of[(pair["new_id"], pair["old_id"])] = (t.id, t.key)
    _restated(p, links)
    return p.out


def _restated(p: _Placing, links: Sequence[LinkRow]) -> None:
    """A new claim restating, in other words, a claim of an open conflict joins it on that
    claim's side."""
    for lk in links:
        new, old = p.stated.get(lk["new_id"]), p.stated.get(lk["old_id"])
        if new is None or old is None:
            continue
        for t in list(p.slots.get(old.key, ())):
            if new.key in t.side_of:
                continue
            pair = ConflictRow(id="", key="", kind=t.kind, reason="The same value restated.",
                               detected_by="", new_id=lk["new_id"], old_id=lk["old_id"],
                               newer_id=None, same_speaker=None, audit_id="",
                               audit_detail="")
            p.put(lk["new_id"], t, pair, lk["old_id"])


async def placement(g: Graph, pairs: Sequence[ConflictRow], links: Sequence[LinkRow],
                    stated: Mapping[str, Stated],
                    found: Sequence[Membership] | None = None) -> Placement:
    """``place``, reading the statements' conflicts first when not given."""
    if not pairs and not links:
        return Placement()
    if found is None:
        found = await store_conflicts.memberships(g, sorted({s.key for s in stated.values()}))
    return place(pairs, links, stated, found)


# --- Reading -----------------------------------------------------------------------------


def _time(c: ConflictClaim) -> int:
    """When a claim was said, or for a document's claim, added."""
    if c["said_at"] is not None:
        return c["said_at"]
    return c["source_added_at"] if c["source_added_at"] is not None else c["created_at"]


def sides_of(claims: Sequence[ConflictClaim], kind: ConflictKind) -> list[ConflictSide]:
    """A conflict's claims as its sides, each with its value in words, the newest first."""
    grouped: dict[str, list[ConflictClaim]] = {}
    for c in claims:
        grouped.setdefault(c["side"], []).append(c)
    out: list[ConflictSide] = []
    for side, members in grouped.items():
        first = next((c for c in members if c["id"] == side), members[0])
        value = value_of(first["statement"], kind, first["said_by"]) or first["statement"]
        out.append(ConflictSide(side=side, value=value,
                                newest_at=max(_time(c) for c in members), claims=members))
    out.sort(key=lambda s: (-s["newest_at"], s["side"]))
    return out


def _newest(sides: Sequence[ConflictSide], stored: str | None) -> str | None:
    """The newest word: the claim said (or added) last; of claims of two sides said at one
    moment, the one the write that raised them found newer (a correction said with what it
    corrects), else none."""
    if not sides:
        return stored
    top = sides[0]["newest_at"]
    tied = [s for s in sides if s["newest_at"] == top]
    latest = {c["id"] for s in tied for c in s["claims"] if _time(c) == top}
    if len(tied) == 1:
        return stored if stored in latest else min(latest)
    return stored if stored in latest else None


def record(k: StoredConflict) -> ConflictRecord:
    """A stored conflict as its sides."""
    sides = sides_of(k["claims"], k["kind"])
    newest = _newest(sides, k["newer_claim_id"]) if k["complete"] else k["newer_claim_id"]
    return ConflictRecord(
        id=k["id"], key=k["key"], status=k["status"], kind=k["kind"], reason=k["reason"],
        detected_by=k["detected_by"], revision=k["revision"], created_at=k["created_at"],
        resolved_at=k["resolved_at"], resolved_by=k["resolved_by"],
        resolution=k["resolution"], kept_claim_id=k["kept_claim_id"],
        correction_id=k["correction_id"], newer_claim_id=newest,
        same_speaker=k["same_speaker"], settled_by=k["settled_by"], n_sides=k["n_sides"],
        n_claims=k["n_claims"], complete=k["complete"], sides=sides)


def records(found: Iterable[StoredConflict]) -> list[ConflictRecord]:
    return [record(k) for k in found]


async def get_conflicts(g: Graph, ids: list[str], as_of: int | None = None
                        ) -> list[ConflictRecord]:
    return records(await store_conflicts.get_conflicts(g, ids, as_of))


async def get_conflict(g: Graph, conflict_id: str, as_of: int | None = None
                       ) -> ConflictRecord:
    return record(await store_conflicts.get_conflict(g, conflict_id, as_of))


async def written(g: Graph, ids: Sequence[str], keys: Iterable[str]) -> list[ConflictRecord]:
    """The conflicts a write raised or joined, each with the claims of the statements it
    wrote or was found against (a large dispute is not read whole: ``complete`` says)."""
    return records(await store_conflicts.touched_conflicts(g, list(dict.fromkeys(ids)),
                                                          sorted(set(keys))))
