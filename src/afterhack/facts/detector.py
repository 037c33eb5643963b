"""The offline contradiction detector: the same subject and attribute, another value.

Two statements contradict when their frames say they are about the same thing and some
kind of value both give has no value in common; they state the same fact when every kind
of value they share agrees. Values are compared in their normal forms (values.py), so a
fact restated in other words, units or languages is the same fact. Pure and
deterministic: the same pair always gets the same verdict, either way round.
"""

from __future__ import annotations

from dataclasses import dataclass

from afterhack.facts import scope
from afterhack.facts.frames import same_subject
from afterhack.facts.meaning import Meaning, anchored, joined, texts
from afterhack.facts.reading import Reading, read
from afterhack.facts.values import (
    GROUP_ORDER,
    Value,
    ValueKind,
    a_period,
    describe,
    group,
    same_value,
)
from afterhack.model.vocab import ConflictKind, Verdict

# The kinds of conflict the service names: a duration and a percentage are numbers, as they
# always were; an organisation has no name of its own there and is "other". The reason and
# ``value_kind`` say which kind of value it is.
_CONFLICT_KIND: dict[ValueKind, ConflictKind] = {
    "date": "date", "time": "time", "number": "number", "amount": "amount", "place": "place",
    "person": "person", "duration": "number", "percentage": "number", "organisation": "other"}


def conflict_kind(kind: ValueKind) -> ConflictKind:
    """The service's name for a conflict about a value of this kind."""
    return _CONFLICT_KIND[kind]


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    kind: ConflictKind | None
    reason: str
    # The kind of value that differs (or agrees), as the detector read it.
    value_kind: ValueKind | None = None


@dataclass(frozen=True)
class ValueRead:
    """A value two statements give for the same subject and attribute."""

    kind: ValueKind
    # In one wording whatever the statements' ("June 12", "21:00", "EUR 9,500").
    value: str
    # As each statement writes it.
    in_a: str
    in_b: str


@dataclass(frozen=True)
class _Compared:
    kind: ValueKind
    agree: bool
    a: Value
    b: Value


def _compare(a: Reading, b: Reading) -> list[_Compared]:
    """For each group of values both give, whether they agree, in the naming order."""
    out: list[_Compared] = []
    for g in GROUP_ORDER:
        left, right = a.groups.get(g), b.groups.get(g)
        if not left or not right:
            continue
        first: tuple[Value, Value] | None = None
        agreeing: tuple[Value, Value] | None = None
        for x in left:
            for y in right:
                same = same_value(x, y)
                if same is None:
                    continue
                if first is None:
                    first = (x, y)
                if same:
                    agreeing = (x, y)
                    break
            if agreeing is not None:
                break
        if first is None:
            continue  # another currency, another dimension: nothing to hold against
        x, y = agreeing or first
        named: ValueKind = "organisation" if "organisation" in (x.kind, y.kind) else x.kind
        out.append(_Compared(named, agreeing is not None, x, y))
    return out


def meaning_texts(a: Reading, b: Reading) -> list[str]:
    """The texts whose meaning ``judge`` may compare for this pair (for the caller to embed
    first): none when no value could differ."""
    if not (a.stated and b.stated) or a.groups.keys().isdisjoint(b.groups.keys()):
        return []
    return texts(a.units, b.units, differ=any(not c.agree for c in _compare(a, b)),
                 shared=same_subject(a.frame, b.frame))


def about_the_same(a: Reading, b: Reading, meaning: Meaning | None = None, *,
                   guarded: bool = False) -> bool:
    """Whether two statements are about the same subject and attribute: by their words, or
    (with ``meaning``) by what the words they do not share mean; once the scope guards found
    nothing that tells them apart (``guarded``), by a subject they share."""
    if same_subject(a.frame, b.frame):
        return True
    if meaning is None:
        return False
    across = a.lang != b.lang
    return joined(a.units, b.units, meaning, across=across) or (
        guarded and anchored(a.units, b.units, meaning, across=across))


def judge(a: Reading, b: Reading, meaning: Meaning | None = None) -> Judgement:
    if not (a.stated and b.stated):
        return Judgement("compatible", None, "a heading or label, not a statement")
    compared = _compare(a, b)
    differing = [c for c in compared if not c.agree]
    if not differing:
        if not about_the_same(a, b, meaning):
            return Judgement("compatible", None, "about another subject or attribute")
        if not compared:
            return Judgement("compatible", None, "no value of the same type")
        return Judgement("same_fact", None, "the same value restated", compared[0].kind)
    kept = _kept_apart(a, b, differing, meaning)
    if kept is not None:
        return Judgement("compatible", None, kept)
    if not about_the_same(a, b, meaning, guarded=True):
        return Judgement("compatible", None, "about another subject or attribute")
    kind = differing[0].kind
    left = ", ".join(v.text.rstrip(".") for v in _of_group(a, kind))
    right = ", ".join(v.text.rstrip(".") for v in _of_group(b, kind))
    return Judgement("contradicts", _CONFLICT_KIND[kind],
                     f"Same subject, different {kind}: {left} vs {right}.", kind)


def _kept_apart(a: Reading, b: Reading, differing: list[_Compared],
                meaning: Meaning | None) -> str | None:
    """Why two statements whose values differ are about two things, by the scope each
    gives its value in (scope.py), or None."""
    if any(c.kind == "date" for c in differing) and len(differing) > 1 and all(
            a_period(v) for v in (*a.values["date"], *b.values["date"])):
        # "Revenue was $5M in 2023" and "$6M in 2024", "inflation in March" and "in April",
        # "closes at 9 pm on weekdays" and "at 6 pm on Sundays": the dates scope the figures.
        return "about another period"
    if len(differing) > 1 and any(group(c.kind) in ("place", "who") for c in differing):
        # "12 engineers in Berlin" and "8 in Munich", "the contract with Acme ends June 30"
        # and "with Globex ... September 30": the names scope the figures.
        return "about another place or party"
    if scope.another_period(a.periods, b.periods) or (
            any(c.kind != "date" for c in differing)
            and scope.another_period(_periods(a), _periods(b))):
        return "about another period"
    if scope.plan_and_outcome(a.mood, b.mood):
        return "a plan against what came of it"
    opposed = scope.opposites(a.units, b.units)
    if opposed is not None:
        return f"another attribute: {opposed[0]} and {opposed[1]}"
    if scope.rate_and_total(a.units, b.units):
        return "a rate against a total"
    named = scope.names_apart(a.units, b.units)
    if named is not None:
        return f"about another one: {named[0]} and {named[1]}"
    written = {u.token: u.written for u in (*a.units, *b.units)}
    things = scope.counted(a.seq, b.seq, meaning, written, across=a.lang != b.lang)
    if things is not None:
        return f"another thing counted: {written.get(things[0], things[0])} and " \
               f"{written.get(things[1], things[1])}"
    swapped = scope.substituted(a.seq, b.seq, meaning, written, across=a.lang != b.lang,
                               langs=(a.lang, b.lang))
    if swapped is not None:
        return f"another one in the same place: {written.get(swapped[0], swapped[0])} " \
               f"and {written.get(swapped[1], swapped[1])}"
    return None


def _periods(r: Reading) -> frozenset[str]:
    """The periods a statement names, its months and years alone among them ("in 2023")."""
    out = set(r.periods)
    for v in r.values.get("date", ()):
        if a_period(v):
            y, m, _, wd = v.norm
            out.add(f"{y} year" if m is None and wd is None else f"{y}-{m}-{wd} month")
    return frozenset(out)


def _of_group(r: Reading, kind: ValueKind) -> tuple[Value, ...]:
    return r.groups.get(group(kind), ())


# Who said each of two statements (None: nobody named, a document's words).
Speakers = tuple[str | None, str | None]
NOBODY: Speakers = (None, None)


def judge_statements(a: str, b: str, meaning: Meaning | None = None,
                     speakers: Speakers = NOBODY) -> Judgement:
    return judge(read(a, speakers[0]), read(b, speakers[1]), meaning)


def checkable(r: Reading) -> bool:
    """Whether a statement could contradict anything offline: it has a value and a subject."""
    return bool(r.values) and bool(r.frame) and r.stated


def same_fact(a: str, b: str, speakers: Speakers = NOBODY) -> ValueRead | None:
    """The value two statements both give when they state the same fact in other words: the
    same subject and attribute, and every kind of value they share agrees. None otherwise."""
    ra, rb = read(a, speakers[0]), read(b, speakers[1])
    if not (ra.stated and rb.stated) or not same_subject(ra.frame, rb.frame):
        return None
    compared = _compare(ra, rb)
    if not compared or not all(c.agree for c in compared):
        return None
    # A scope that keeps two values apart keeps the same value apart too: "the alpha
    # launch" and "the beta launch" on one day are two launches, not one said twice.
    if _kept_apart(ra, rb, compared, None) is not None:
        return None
    c = compared[0]
    return ValueRead(c.kind, describe(c.a), c.a.text, c.b.text)


def other_value(a: str, b: str) -> ValueRead | None:
    """Whether ``b`` gives another value than ``a`` for the same subject and attribute: the
    kind of value that differs and each side's, or None."""
    j = judge_statements(a, b)
    if j.verdict != "contradicts" or j.value_kind is None:
        return None
    ra, rb = read(a), read(b)
    for c in _compare(ra, rb):
        if c.kind == j.value_kind:
            return ValueRead(c.kind, describe(c.b), c.a.text, c.b.text)
    return None
