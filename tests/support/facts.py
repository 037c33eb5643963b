"""What the contradiction detector reads in a statement, for the tests of its readers."""

from __future__ import annotations

from afterhack.facts import ValueKind, read


def norms(text: str, kind: ValueKind) -> list[object]:
    """The normal forms of the values of ``kind`` read in ``text``, in order."""
    return [v.norm for v in read(text).values.get(kind, ())]
