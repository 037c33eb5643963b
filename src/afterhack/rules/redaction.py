"""Redaction: what an erasure does to a text and to the offsets into it (docs/rules.md,
rule 22), as pure functions.

An erased span of a version's text is replaced by ``MARKER``; the rest of the text stays
exactly as it was, so every fragment and every quote that did not touch an erased span is
the same string, at offsets shifted by what the markers took or gave back
(docs/decisions/0037-erasure-markers-and-erased-claims.md). A span is cut at fragment
boundaries first: each fragment is redacted on its own, and text no fragment covers (the
blank line between two messages of a conversation) stays, so the fragments of a version
still tile its text.

Every other record that repeats an erased string (a run's proposal, an audit event's
detail, a decision's summary) has it replaced by the same marker wherever it occurs
(``scrub``), in its plain form and as JSON writes it inside a string, so JSON stays JSON.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# What stands where erased words stood. It holds no character JSON escapes, so putting it in
# place of an escaped string inside a JSON document leaves a valid document.
MARKER = "[erased]"
# A string shorter than this is erased where it was said, but is not looked for elsewhere:
# replacing three letters wherever they occur would redact every word that holds them.
MIN_NEEDLE = 4


@dataclass(frozen=True, order=True)
class Span:
    """Code points ``[start, end)`` of a text."""

    start: int
    end: int

    def overlaps(self, start: int, end: int) -> bool:
        """Whether the span shares a code point with ``[start, end)`` (an empty range
        shares one when it lies strictly inside)."""
        if start == end:
            return self.start < start < self.end
        return self.start < end and start < self.end


def merge(spans: Iterable[Span]) -> list[Span]:
    """The spans in order, overlapping or touching ones joined; empty ones dropped."""
    out: list[Span] = []
    for s in sorted(x for x in spans if x.end > x.start):
        if out and s.start <= out[-1].end:
            out[-1] = Span(out[-1].start, max(out[-1].end, s.end))
        else:
            out.append(s)
    return out


def clip(spans: Iterable[Span], pieces: Iterable[Span]) -> list[Span]:
    """The parts of ``spans`` inside each of ``pieces`` (a version's fragments), each a span
    of its own: a span across two fragments becomes two."""
    wanted = merge(spans)
    out: list[Span] = []
    for p in sorted(pieces):
        for s in wanted:
            lo, hi = max(s.start, p.start), min(s.end, p.end)
            if lo < hi:
                out.append(Span(lo, hi))
    return merge_apart(out)


def merge_apart(spans: Iterable[Span]) -> list[Span]:
    """The spans in order, overlapping ones joined, touching ones kept apart (each is one
    fragment's)."""
    out: list[Span] = []
    for s in sorted(x for x in spans if x.end > x.start):
        if out and s.start < out[-1].end:
            out[-1] = Span(out[-1].start, max(out[-1].end, s.end))
        else:
            out.append(s)
    return out


def occurrences(text: str, needle: str) -> list[Span]:
    """Every place ``needle`` occurs in ``text``, overlapping ones included (joined by
    ``merge`` later)."""
    out: list[Span] = []
    if not needle:
        return out
    i = text.find(needle)
    while i >= 0:
        out.append(Span(i, i + len(needle)))
        i = text.find(needle, i + 1)
    return out


@dataclass(frozen=True)
class Redacted:
    """A text with its erased spans replaced by the marker, and how positions move."""

    old: str
    text: str
    spans: tuple[Span, ...]  # in the old text, in order, apart
    starts: tuple[int, ...]  # each span's start
    shifts: tuple[int, ...]  # after span i, positions have moved by shifts[i]

    @property
    def changed(self) -> bool:
        return bool(self.spans)

    def erased(self) -> list[str]:
        """The strings erased (of the old text), one per span."""
        return [self.old[s.start:s.end] for s in self.spans]

    def position(self, p: int, *, end: bool = False) -> int:
        """Where position ``p`` of the old text is in the new one. A position inside an
        erased span goes to the start of its marker (``end``: to its end), so a range that
        reached into a span reaches over its marker."""
        i = bisect.bisect_right(self.starts, p) - 1
        if i < 0:
            return p
        s = self.spans[i]
        if p >= s.end:
            return p + self.shifts[i]
        marker_start = s.start + (self.shifts[i - 1] if i > 0 else 0)
        if p == s.start or not end:
            return marker_start
        return marker_start + len(MARKER)

    def range(self, start: int, end: int) -> tuple[int, int]:
        """The new ``[start, end)`` of an old range."""
        new_start = self.position(start)
        new_end = self.position(end, end=True) if end > start else new_start
        return new_start, max(new_start, new_end)

    def touches(self, start: int, end: int) -> bool:
        """Whether the old range ``[start, end)`` shares a code point with an erased span
        (an empty range: whether it lies strictly inside one)."""
        # The spans are apart and in order, so their ends are in order too: of those that
        # begin before the range ends, the last reaches furthest.
        i = bisect.bisect_left(self.starts, end)
        return i > 0 and self.spans[i - 1].overlaps(start, end)


def redact(text: str, spans: Sequence[Span]) -> Redacted:
    """``text`` with each of ``spans`` (apart, in order, inside the text) replaced by the
    marker."""
    parts: list[str] = []
    pos = 0
    shift = 0
    shifts: list[int] = []
    for s in spans:
        if s.start < pos or s.end > len(text) or s.end <= s.start:
            raise ValueError(f"spans must be apart, in order and inside the text: {s}")
        parts += [text[pos:s.start], MARKER]
        pos = s.end
        shift += len(MARKER) - (s.end - s.start)
        shifts.append(shift)
    parts.append(text[pos:])
    return Redacted(old=text, text="".join(parts), spans=tuple(spans),
                    starts=tuple(s.start for s in spans), shifts=tuple(shifts))


def needles(strings: Iterable[str | None]) -> list[str]:
    """The strings to look for elsewhere, each in the forms it takes in stored records: as
    it is, and as JSON writes it inside a string (once, or twice for JSON kept inside JSON),
    with and without non-ASCII characters escaped. Longest first, so a string that holds
    another is replaced whole; strings shorter than MIN_NEEDLE are left out."""
    found: dict[str, None] = {}
    for s in strings:
        if s is None or len(s) < MIN_NEEDLE:
            continue
        for form in _forms(s):
            found[form] = None
    return sorted(found, key=lambda x: (-len(x), x))


def _forms(s: str) -> list[str]:
    out = [s]
    for ascii_only in (False, True):
        once = json.dumps(s, ensure_ascii=ascii_only)[1:-1]
        twice = json.dumps(once, ensure_ascii=ascii_only)[1:-1]
        out += [once, twice]
    return list(dict.fromkeys(out))


def scrub(value: str, found: Sequence[str]) -> str:
    """``value`` with every one of ``found`` (``needles``' list, in its order) replaced by
    the marker: what the store's query does to a stored string, step for step."""
    for n in found:
        if n in value:
            value = value.replace(n, MARKER)
    return value


def holds_any(value: str, found: Sequence[str]) -> bool:
    return any(n in value for n in found)


def scrub_json(value: str, found: Sequence[str], renames: Mapping[str, str] | None = None
               ) -> str:
    """A JSON document with every string in it scrubbed (a string equal to a key of
    ``renames`` takes its new name instead); a value that is not JSON is scrubbed as text."""
    try:
        doc = json.loads(value)
    except ValueError:
        return scrub(value, found)
    if not isinstance(doc, dict | list):
        return scrub(value, found)
    return json.dumps(_scrub_doc(doc, found, renames or {}), ensure_ascii=False,
                      sort_keys=isinstance(doc, dict))


def _scrub_doc(doc: object, found: Sequence[str], renames: Mapping[str, str]) -> object:
    if isinstance(doc, str):
        return renames[doc] if doc in renames else scrub(doc, found)
    if isinstance(doc, list):
        return [_scrub_doc(x, found, renames) for x in doc]
    if isinstance(doc, dict):
        return {k: _scrub_doc(v, found, renames) for k, v in doc.items()}
    return doc


def rename_apart(names: Sequence[str], found: Sequence[str]) -> dict[str, str]:
    """New names for ``names`` (a decision's premises) with the erased strings scrubbed,
    kept apart: two premises that differ only in what was erased would read alike and
    become one, so the later ones are numbered. Only names that change are returned."""
    names = list(dict.fromkeys(names))
    new_of = {name: scrub(name, found) for name in names}
    # The names that stay keep them; a changed one never takes a name already held.
    taken = {name for name in names if new_of[name] == name}
    out: dict[str, str] = {}
    for name in names:
        new = new_of[name]
        if new == name:
            continue
        if new in taken:
            n = 2
            while f"{new} ({n})" in taken:
                n += 1
            new = f"{new} ({n})"
        taken.add(new)
        out[name] = new
    return out
