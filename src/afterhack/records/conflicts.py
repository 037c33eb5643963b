"""The rows a write raises conflicts with and settles them by (docs/rules.md, rule 9)."""

from __future__ import annotations

import hashlib
import json

from afterhack.model.vocab import ConflictKind, SettledKind
from afterhack.model.writes import ConflictRow, Settle
from afterhack.records.ids import new_id


def pair_key(key_a: str, key_b: str) -> str:
    """Identity of a pair of statements, in either order."""
    raw = json.dumps(sorted([key_a, key_b]), ensure_ascii=False).encode()
    return "cfk_" + hashlib.sha256(raw).hexdigest()[:32]


def conflict_row(key: str, kind: ConflictKind, reason: str, detected_by: str, new: str,
                 old: str, *, newer: str | None, same_speaker: bool | None = None
                 ) -> ConflictRow:
    """A conflict between a new claim and a current one, as a write raises it."""
    return ConflictRow(id=new_id(), key=key, kind=kind, reason=reason,
                       detected_by=detected_by, new_id=new, old_id=old, newer_id=newer,
                       same_speaker=same_speaker, audit_id=new_id(),
                       audit_detail=conflict_detail(kind, reason, new, old))


def conflict_detail(kind: str, reason: str, new: str, old: str) -> str:
    """The detail of a conflict's audit event (JSON): its kind, why, and its two claims."""
    return json.dumps({"kind": kind, "reason": reason, "claim_ids": [old, new]},
                      ensure_ascii=False, sort_keys=True)


def settle(keys: list[str], kind: SettledKind, by_id: str, note: str, actor: str,
           skip: str = "") -> Settle:
    """What a write that retires these statements closes: every open conflict one of them is
    a side of, once no current claim states it, named as settled by ``kind`` ``by_id``."""
    return Settle(keys=sorted(set(keys)), skip=skip, kind=kind, id=by_id, note=note,
                  actor=actor, detail=json.dumps({"settled_by": {"kind": kind, "id": by_id,
                                                                 "note": note}},
                                                 ensure_ascii=False, sort_keys=True))
