"""When two frames whose words differ are about the same thing, by what the words mean.

The lexical frames (frames.py) meet when their words do: the same word, a synonym the
lexicon maps to one token, an inflection. They miss a noun against a verb ("the payment is
due" / "it must be paid"), a derived word ("shipment" / "ships"), and every statement in
another language ("the event budget" / "活动预算"). Here the words the two frames do not
share are compared by meaning, with an embedding model the caller injects (this package does
no I/O): each left-over word of one side must mean what a left-over word of the other side
means, or the left-over words of each side, taken together, must mean the same.

Meaning only joins what words could not; it never overrules them:

- two attributes the lexicon tells apart ("@start" and "@end", "@budget" and "@cost") stay
  apart whatever their vectors say (embeddings put a word and its opposite close together);
- an identifier ("flight LH 402") or a name ("the Berlin office", "Ana's flight") matches
  only itself: a name says which one, and another name near in meaning is another one;
- words of one language must be nearer than words of two (a translation is farther from its
  original, in the model's space, than an inflection is from its stem).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from afterhack.facts import places
from afterhack.facts.frames import Unit, holds


@dataclass(frozen=True)
class Bar:
    """How near two words must be to mean the same, within one language and across two: a
    property of the model that embeds them (each spreads its similarities differently)."""

    same_language: float
    across_languages: float


class Meaning(Protocol):
    """How near two short texts are in meaning, by one model."""

    @property
    def bar(self) -> Bar: ...

    def similarity(self, a: str, b: str) -> float | None:
        """Cosine similarity in [-1, 1], or None when a text was not embedded (then nothing
        is joined by it)."""
        ...


class Known:
    """Meaning from vectors embedded beforehand (unit length), by text."""

    def __init__(self, vectors: Mapping[str, Sequence[float]], bar: Bar) -> None:
        self._vectors = vectors
        self._bar = bar

    @property
    def bar(self) -> Bar:
        return self._bar

    def similarity(self, a: str, b: str) -> float | None:
        va, vb = self._vectors.get(a), self._vectors.get(b)
        if va is None or vb is None:
            return None
        return float(sum(map(operator.mul, va, vb)))


def lexical(u: Unit, v: Unit) -> bool:
    """Whether two words of two frames are the same word by their spelling."""
    if u.token == v.token:
        return True
    if u.token[0] == "@" or v.token[0] == "@" or "#" in u.token or "#" in v.token:
        return False
    if (u.name or v.name) and places.same_name(u.written, v.written):
        return True  # "Cologne" and "Köln", "Shenzhen" and "深圳"
    return holds(u.token, v.token) or holds(u.written, v.written)


@dataclass(frozen=True)
class Apart:
    """The words of two frames that the words themselves do not match."""

    left: tuple[Unit, ...]
    right: tuple[Unit, ...]
    # Whether meaning may join them: no two attributes the lexicon tells apart, no name or
    # identifier among them, and words on both sides.
    joinable: bool


def apart(a: Sequence[Unit], b: Sequence[Unit]) -> Apart:
    left = tuple(dict.fromkeys(u for u in a if not any(lexical(u, v) for v in b)))
    right = tuple(dict.fromkeys(v for v in b if not any(lexical(u, v) for u in a)))
    if not left or not right:
        return Apart(left, right, False)
    if any(u.name or "#" in u.token for u in (*left, *right)):
        return Apart(left, right, False)
    if any(u.token[0] == "@" for u in left) and any(v.token[0] == "@" for v in right):
        return Apart(left, right, False)
    return Apart(left, right, True)


def _phrase(units: Iterable[Unit]) -> str:
    return " ".join(u.written for u in units)


def texts(a: Sequence[Unit], b: Sequence[Unit], *, differ: bool = True,
          shared: bool = False) -> list[str]:
    """The texts ``joined``, ``anchored`` and the scope guards may ask the similarity of,
    for the caller to embed first: when values ``differ``, every word of both (a subject
    ``shared`` by words is not looked for by meaning: then only the words the two do not
    share, which the guards compare); else only the words they do not share."""
    d = apart(a, b)
    if not differ:
        words: list[str] = []
    elif shared:
        words = [u.written for u in (*d.left, *d.right) if _comparable(u)]
    else:
        words = [u.written for u in (*a, *b) if _comparable(u)]
    if not d.joinable:
        return list(dict.fromkeys(words))
    return list(dict.fromkeys([_phrase(d.left), _phrase(d.right),
                               *(u.written for u in d.left), *(v.written for v in d.right),
                               *words]))


def _comparable(u: Unit) -> bool:
    return not (u.name or "#" in u.token)


def _met(u: Unit, others: Sequence[Unit], meaning: Meaning, bar: float) -> bool:
    if any(lexical(u, v) for v in others):
        return True
    if not _comparable(u) or u.token[:1] == "@":
        return False
    for v in others:
        if _comparable(v) and v.token[:1] != "@":
            s = meaning.similarity(u.written, v.written)
            if s is not None and s >= bar:
                return True
    return False


def anchored(a: Sequence[Unit], b: Sequence[Unit], meaning: Meaning, *, across: bool,
             share: float = 0.5) -> bool:
    """Whether two frames share what they are about: a word of the subject on both sides
    (the same word, or one near enough in meaning), and at least ``share`` of all their
    words each met by a word of the other side. What tells the two apart when they share
    it is the scope guards' to say (scope.py)."""
    bar = meaning.bar.across_languages if across else meaning.bar.same_language
    bar -= _LOOSER
    left = list(dict.fromkeys(_unanchored(a)))
    right = list(dict.fromkeys(_unanchored(b)))
    if not left or not right:
        return False
    met_l = [_met(u, right, meaning, bar) for u in left]
    met_r = [_met(v, left, meaning, bar) for v in right]
    if not any(m and u.token[:1] != "@" for m, u in zip(met_l, left, strict=True)):
        return False
    return (sum(met_l) + sum(met_r)) / (len(left) + len(right)) >= share


# Words that tie a time to an event ("two weeks before the launch", "drei Tage nach dem
# Start"): the event they name is where the value is measured from, not what the statement
# is about, so two statements timed from one event do not share a subject by it.
_RELATIVE = frozenset(("befor", "after", "vor", "nach"))


def _unanchored(units: Sequence[Unit]) -> list[Unit]:
    """The units of a frame without a relative time's preposition and the event after it."""
    out: list[Unit] = []
    skip = False
    for u in units:
        if u.token in _RELATIVE:
            skip = True
            continue
        if skip:
            skip = False
            continue
        out.append(u)
    return out


# How much nearer than the bar for one word's meaning two words of a subject need be, once
# the scope guards have looked for what tells two things apart.
_LOOSER = 0.0



def joined(a: Sequence[Unit], b: Sequence[Unit], meaning: Meaning, *, across: bool) -> bool:
    """Whether the words the two frames do not share mean the same (``across``: the two
    statements are in two languages): word for word, or one word of one side for all the
    other side's taken together ("产品发布" for "product launch")."""
    bar = meaning.bar.across_languages if across else meaning.bar.same_language
    d = apart(a, b)
    if not d.joinable:
        return False
    small, large = (d.left, d.right) if len(d.left) <= len(d.right) else (d.right, d.left)
    if len(small) == 1 and len(large) > 1:
        whole = meaning.similarity(small[0].written, _phrase(large))
        return whole is not None and whole >= bar
    if len(small) != len(large):
        return False
    taken: set[Unit] = set()
    for u in small:
        scored = [(meaning.similarity(u.written, v.written), v) for v in large if v not in taken]
        best = max(((s, v) for s, v in scored if s is not None), default=None,
                   key=lambda p: p[0])
        if best is None or best[0] < bar:
            return False
        taken.add(best[1])
    return True
