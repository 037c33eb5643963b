"""Typed values, how two of them compare, and the scanner the readers share.

A value is read into a normal form that does not depend on its wording: a date as (year,
month, day, weekday), a time as minutes after midnight, a duration in seconds, an amount
as (currency, number), a count or measure in its base unit, a name folded. Two values of
one kind are the same, different, or not comparable (amounts in two currencies, a length
and a weight): only a difference counts against a fact.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from afterhack.facts import places
from afterhack.facts.numerals import Rewritten
from afterhack.model.vocab import ValueKind as ValueKind

# When several kinds differ, a contradiction is named by the first of these it has.
KIND_ORDER: tuple[ValueKind, ...] = ("date", "time", "duration", "amount", "percentage",
                                     "number", "place", "organisation", "person")
Norm = tuple[str | float | int | bool | None, ...]

_MONTH_NAMES = ("January February March April May June July August September October "
                "November December").split()


@dataclass(frozen=True)
class Value:
    kind: ValueKind
    norm: Norm
    # As the statement writes it.
    text: str


def group(kind: ValueKind) -> str:
    """Kinds compared with each other: a person and an organisation both answer "who"."""
    return "who" if kind in ("person", "organisation") else kind


GROUP_ORDER: tuple[str, ...] = tuple(dict.fromkeys(group(k) for k in KIND_ORDER))


def fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _close(x: float, y: float, rel: float) -> bool:
    return abs(x - y) <= rel * max(abs(x), abs(y), 1e-12)


def same_value(a: Value, b: Value) -> bool | None:
    """True: the same value; False: another one; None: the two cannot be compared."""
    if group(a.kind) != group(b.kind):
        return None
    if a.kind == "date":
        return _same_date(a.norm, b.norm)
    if a.kind == "time":
        (ma, amb_a), (mb, amb_b) = a.norm, b.norm
        assert isinstance(ma, int) and isinstance(mb, int)
        if amb_a or amb_b:  # "10 o'clock", "三点": either half of the day
            return ma % 720 == mb % 720
        return ma == mb
    if a.kind == "duration":
        (ua, sa, approx_a), (ub, sb, approx_b) = a.norm, b.norm
        assert isinstance(sa, float) and isinstance(sb, float)
        if ua != ub:
            return None  # business days against calendar days
        # Months and years are not all one length: "24 months" is "two years", and "three
        # months" is "13 weeks", near enough.
        return _close(sa, sb, 0.03 if (approx_a or approx_b) else 1e-9)
    if a.kind in ("number", "amount"):
        (da, xa), (db, xb) = a.norm, b.norm
        assert isinstance(xa, float) and isinstance(xb, float)
        if da != db:
            return None  # another currency, another dimension
        return _close(xa, xb, 1e-9)
    if a.kind == "percentage":
        (xa,), (xb,) = a.norm, b.norm
        assert isinstance(xa, float) and isinstance(xb, float)
        return _close(xa, xb, 1e-9)
    # Names: "Lopez" and "Maria Lopez" name one person; "Acme" and "Acme Corp" one firm;
    # "Cologne" and "Köln", "Liu Yang" and "刘洋" one city and one person (places.py).
    wa, wb = set(str(a.norm[0]).split()), set(str(b.norm[0]).split())
    return wa <= wb or wb <= wa or places.same_name(str(a.norm[0]), str(b.norm[0]))


def _same_date(a: Norm, b: Norm) -> bool:
    ya, ma, da, wa = a
    yb, mb, db, wb = b
    if ya == "slash" or yb == "slash":
        return a == b
    if wa is not None or wb is not None:
        # A weekday alone can only be compared with another weekday alone.
        return wa == wb if (ma is None and mb is None) else True
    return all(x is None or y is None or x == y for x, y in ((ya, yb), (ma, mb), (da, db)))


def a_period(v: Value) -> bool:
    """A date that names a period rather than a day: a month or a year alone ("in March",
    "in 2024"), or every such day ("on Sundays")."""
    if v.kind != "date":
        return False
    y, _, d, wd = v.norm
    if y == "slash" or d is not None:
        return False
    return wd is None or (isinstance(wd, str) and wd.endswith("s"))


def _number(x: float) -> str:
    return f"{x:,.0f}" if x == int(x) else f"{x:,.6g}"


_UNIT_NAMES = {"m": "m", "kg": "kg", "B": "bytes", "l": "litres", "": ""}


def describe(v: Value) -> str:
    """The value in one wording whatever the statement's: "June 12", "21:00", "EUR 9,500"."""
    n = v.norm
    if v.kind == "date":
        y, m, d, wd = n
        if y == "slash":
            return v.text
        parts = [str(wd).capitalize()] if wd else []
        if isinstance(m, int):
            parts.append(_MONTH_NAMES[m - 1] + (f" {d}" if d else ""))
        if y is not None:
            parts.append(str(y))
        return " ".join(parts) or v.text
    if v.kind == "time":
        minutes = n[0]
        assert isinstance(minutes, int)
        return f"{minutes // 60:02d}:{minutes % 60:02d}"
    if v.kind == "duration":
        unit, seconds = n[0], n[1]
        assert isinstance(seconds, float)
        if unit == "business_days":
            return f"{_number(seconds)} business days"
        for size, name in ((86400.0, "days"), (3600.0, "hours"), (60.0, "minutes")):
            if seconds >= size:
                return f"{_number(seconds / size)} {name}"
        return f"{_number(seconds)} seconds"
    if v.kind == "amount":
        cur, x = n
        assert isinstance(x, float)
        return f"{str(cur).upper()} {_number(x)}"
    if v.kind == "percentage":
        x = n[0]
        assert isinstance(x, float)
        return f"{_number(x)}%"
    if v.kind == "number":
        dim, x = n
        assert isinstance(x, float)
        unit = _UNIT_NAMES.get(str(dim), str(dim))
        return f"{_number(x)} {unit}".strip()
    return v.text


class Scanner:
    """Finds values left to right in a rewritten statement, masking each span so no two
    readings share a character."""

    def __init__(self, rw: Rewritten, words: frozenset[str]) -> None:
        self.rw = rw
        self.text = rw.text
        # The text's lowercase words, to skip patterns that cannot match.
        self.words = words
        self.spans: list[tuple[int, int]] = []  # taken, [start, end)
        self.values: list[tuple[int, Value]] = []
        # Words that name the subject rather than give a value ("invoice 1043"), by position.
        self.idents: list[tuple[int, str]] = []

    def free_span(self, s: int, e: int) -> bool:
        return all(e <= a or s >= b for a, b in self.spans)

    def free(self, m: re.Match[str], group_: str | int = 0) -> bool:
        return self.free_span(*m.span(group_))

    def take(self, m: re.Match[str], group_: str | int = 0) -> None:
        self.spans.append(m.span(group_))

    def add_span(self, s: int, e: int, kind: ValueKind, norm: Norm) -> None:
        self.spans.append((s, e))
        self.values.append((s, Value(kind, norm, self.rw.original(s, e).strip())))

    def add(self, m: re.Match[str], kind: ValueKind, norm: Norm, group_: str | int = 0) -> None:
        self.add_span(*m.span(group_), kind, norm)

    def each(self, pattern: re.Pattern[str], group_: str | int = 0) -> Iterable[re.Match[str]]:
        for m in pattern.finditer(self.text):
            if self.free(m, group_):
                yield m

    def masked(self) -> str:
        if not self.spans:
            return self.text
        out, pos = [], 0
        for a, b in sorted(self.spans):
            if a > pos:
                out.append(self.text[pos:a])
            out.append(" " * max(0, b - max(a, pos)))
            pos = max(pos, b)
        out.append(self.text[pos:])
        return "".join(out)

