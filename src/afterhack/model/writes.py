"""The rows the domain builds for a write and the store writes as they are: audit events,
conflicts to raise, claims linked as one fact in other words, conflicts a write settles, and
the decisions it flags. The domain makes them (afterhack/records/: their ids and times
included); the store only sends them with its query."""

from __future__ import annotations

# typing's TypedDict, as the store's write parameters that extend these are (the two kinds
# cannot be mixed in one class).
from typing import TypedDict

from afterhack.model.vocab import ConflictKind, SettledKind


class AuditParams(TypedDict):
    """One event as the parameters of the store's CREATE_AUDIT (and the change's ``$now``)."""

    audit_id: str
    audit_kind: str
    audit_actor: str
    audit_subject: str
    audit_detail: str  # JSON
    now: int


class AuditEvent(TypedDict):
    """One event of ``$audits`` for the store's CREATE_AUDITS."""

    id: str
    kind: str
    actor: str
    subject_id: str
    detail: str  # JSON
    at: int


class ConflictRow(TypedDict):
    """Two claims a check found to give one fact different values (its ``key`` is the pair
    of statements); as a write takes it ($conflicts), a new conflict over that fact, raised
    with the two as its first sides (its ``key`` then names the fact: an open conflict with
    that key already there takes its members instead)."""

    id: str
    key: str
    kind: ConflictKind
    reason: str
    detected_by: str
    new_id: str
    old_id: str
    newer_id: str | None  # the side said (or added) later; None when both came at once
    same_speaker: bool | None  # both said by one speaker; None unless both were said
    audit_id: str
    audit_detail: str


class MemberRow(TypedDict):
    """A claim joining a conflict over one fact, as a write takes it ($members): the conflict
    by id (open before, or raised by the same write), else the open one with its key; the
    side it is on (a value: the id of the side's first claim)."""

    conflict_id: str
    conflict_key: str
    claim_id: str
    side: str
    new_side: bool  # whether its value is new to the conflict
    newer_id: str | None  # the newer claim of the pair it was found in (None: neither)
    same_speaker: bool | None  # as for the pair
    audit_id: str | None  # its 'conflict.joined' event (None: one of the first two sides)
    audit_detail: str


class LinkRow(TypedDict):
    """Two claims a check found to state the same fact in other words: the new one and the
    current one it was compared with."""

    new_id: str
    old_id: str


class RaiseRows(TypedDict):
    """What a write that adds claims raises and joins (store/conflicts.RAISE, LINK)."""

    conflicts: list[ConflictRow]
    members: list[MemberRow]
    links: list[LinkRow]


class Settle(TypedDict):
    """What a write closes and names: the statement keys it retires (superseded or
    rejected: a side of a conflict is a statement), a conflict the write resolves itself
    (or ''), and what settles them."""

    keys: list[str]
    skip: str
    kind: SettledKind
    id: str
    note: str
    actor: str
    detail: str  # the audit event's detail, JSON


class Flag(TypedDict):
    id: str  # a decision to flag needs_review
    reason: str  # its review_reason, as JSON


class Repair(TypedDict):
    """What a repair writes: flags, and the open actions to hold."""

    flags: list[Flag]
    holds: list[str]
