"""The newest word first (docs/rules.md, rule 3): among the claims a search ranks, those of
one open conflict (one fact, several values) are put in the order their values were said,
the newest first, in the places the ranking gave them; a question that asks for the value
now ("now", "currently", "latest"; "jetzt", "aktuell"; "现在", "目前") keeps only the newest
value of each such fact. Pure.

A claim's time is when it was said, or for a document's claim, when it was added; a value's
is its newest claim's among those ranked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# Words that ask what holds now, in English, German and Chinese (a phrase of several words
# is matched whole).
_NOW_WORDS = frozenset("""
now currently current latest presently nowadays today
jetzt aktuell aktuelle aktuellen derzeit derzeitig momentan zurzeit gegenwärtig neueste
neuesten heute
""".split())
_NOW_PHRASES = ("at the moment", "right now", "these days", "as of today", "at present",
                "im moment", "zur zeit")
_NOW_HAN = ("现在", "目前", "当前", "最新", "如今", "眼下", "现时", "此刻")
_WORD = re.compile(r"[^\W\d_]+")


def asks_for_now(q: str) -> bool:
    """Whether a question asks for the value that holds now."""
    low = q.casefold()
    if any(h in q for h in _NOW_HAN):
        return True
    if any(p in low for p in _NOW_PHRASES):
        return True
    return not _NOW_WORDS.isdisjoint(_WORD.findall(low))


@dataclass(frozen=True)
class InDispute:
    """A ranked claim's place in an open conflict: which, on which side (value), and when
    the claim was said (or added)."""

    conflict_id: str
    side: str
    at: int


def newest_first(order: Sequence[str], disputed: Mapping[str, InDispute], *,
                 now_only: bool = False) -> list[str]:
    """``order`` with the claims of each open conflict in it reordered, the newest value's
    first, into the places they held; with ``now_only``, the claims of a conflict's older
    values left out. A conflict with one value among the ranked claims is left as it is."""
    places: dict[str, list[int]] = {}
    for i, cid in enumerate(order):
        d = disputed.get(cid)
        if d is not None:
            places.setdefault(d.conflict_id, []).append(i)
    out: list[str | None] = list(order)
    for positions in places.values():
        ids = [order[i] for i in positions]
        newest: dict[str, int] = {}
        for cid in ids:
            d = disputed[cid]
            newest[d.side] = max(newest.get(d.side, d.at), d.at)
        if len(newest) < 2:
            continue
        rank = {side: n for n, (side, _) in enumerate(
            sorted(newest.items(), key=lambda kv: -kv[1]))}
        ids.sort(key=lambda cid: rank[disputed[cid].side])  # stable: the ranking within
        top = min(rank, key=lambda side: rank[side])
        for i, cid in zip(positions, ids, strict=True):
            out[i] = None if now_only and disputed[cid].side != top else cid
    return [cid for cid in out if cid is not None]
