"""How search results are ordered: BM25 term weights, which terms bring claims in, and the
reciprocal-rank fusion of the word and meaning rankings. Pure functions, no store.

FalkorDB's own full-text score does not follow how rare a word is (measured: a word held by
one claim in a hundred can score below one held by one in five), so claims are scored here,
BM25 with term weights from the workspace's own counts, and the store only does the
counting and the arithmetic per claim.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

K1 = 1.2
B = 0.75
# Reciprocal-rank fusion's constant: how much the first places count more than the next.
RRF_K = 60
# Claims a search may pull in through its terms before scoring (the rarest terms first).
CANDIDATE_BUDGET = 2000
# A term held by more than one claim in COMMON_SHARE, and by more than COMMON_MIN claims, is
# common: claims holding it are not put ahead of those found by meaning (hybrid.py).
COMMON_SHARE = 4
COMMON_MIN = 10

T = TypeVar("T")


def idf(n: int, df: int) -> float:
    """BM25's inverse document frequency (never negative)."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def weights(n: int, counts: dict[str, int]) -> list[tuple[str, float]]:
    """Each term held by some claim, with its weight, rarest first."""
    held = [(t, df) for t, df in counts.items() if df > 0]
    held.sort(key=lambda x: (x[1], x[0]))
    return [(t, idf(max(n, df), df)) for t, df in held]


def via_terms(counts: dict[str, int], cap: int, budget: int = CANDIDATE_BUDGET) -> list[str]:
    """The terms whose claims are read as candidates: the rarest first, while their claims
    fit the budget; always at least the rarest term. A term at the cap is common and is
    read only when nothing rarer is held."""
    held = sorted(((df, t) for t, df in counts.items() if df > 0))
    out: list[str] = []
    total = 0
    for df, t in held:
        if out and (df >= cap or total + df > budget):
            break
        out.append(t)
        total += df
    return out


def is_common(df: int, n: int, cap: int) -> bool:
    """A term held by more than a quarter of the workspace's claims (and by more than a few:
    in a small workspace every word is in a good share of it), or counted up to the cap,
    says little about which claims are meant."""
    return df >= cap or (df > COMMON_MIN and df * COMMON_SHARE > n)


def distinctive(terms: Sequence[str], n: int, counts: dict[str, int], cap: int) -> list[str]:
    """The query's terms that are not common. A term no claim holds is kept: then no claim
    holds every distinctive term."""
    return [t for t in terms if not is_common(counts.get(t, 0), n, cap)]


def words_first(order: Sequence[T], holding: set[T]) -> list[T]:
    """The order with the items in ``holding`` moved ahead of the rest, each part keeping
    its order."""
    return [x for x in order if x in holding] + [x for x in order if x not in holding]


def fuse(rankings: Sequence[Sequence[T]], k: int = RRF_K) -> list[T]:
    """Reciprocal-rank fusion: each item scores the sum of 1 / (k + rank) over the rankings
    that hold it; ties keep the order of the first ranking that holds the item."""
    score: dict[T, float] = {}
    first: dict[T, tuple[int, int]] = {}
    for r, ranking in enumerate(rankings):
        for i, item in enumerate(ranking, start=1):
            score[item] = score.get(item, 0.0) + 1.0 / (k + i)
            first.setdefault(item, (r, i))
    return sorted(score, key=lambda x: (-score[x], first[x][1], first[x][0]))
