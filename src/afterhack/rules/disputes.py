"""A conflict is a dispute over one fact (docs/rules.md, rule 9): which value of the fact a
statement gives, the side of the dispute it is on. Pure: read by the offline reader
(facts/), the same whatever judge found the dispute.
"""

from __future__ import annotations

from typing import get_args

from afterhack import facts
from afterhack.facts.values import describe
from afterhack.model.vocab import ConflictKind, ValueKind

# The kinds of value a conflict of each kind is about (facts.conflict_kind, the other way).
_VALUE_KINDS: dict[ConflictKind, tuple[ValueKind, ...]] = {}
for _vk in get_args(ValueKind):
    _VALUE_KINDS.setdefault(facts.conflict_kind(_vk), ())
    _VALUE_KINDS[facts.conflict_kind(_vk)] += (_vk,)


def value_of(statement: str, kind: ConflictKind, speaker: str | None = None) -> str | None:
    """The value ``statement`` gives the fact a conflict of ``kind`` is about, in one
    wording whatever the statement's ("EUR 40,000", "09:15", "June 12"); None when the
    reader finds no value of that kind in it (a pair a model judged, say)."""
    wanted = _VALUE_KINDS.get(kind, ())
    reading = facts.read(statement, speaker)
    found = [describe(v) for k in wanted for v in reading.values.get(k, ())]
    return ", ".join(dict.fromkeys(found)) or None
