"""A plain BM25 (Okapi, k1 = 1.2, b = 0.75) over claim statements: the reference the
product's search is printed beside. Lowercase words, English stopwords removed, no stemming;
nothing in it is tuned to the data set."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

# A common English stopword list (the classic one search engines ship), kept separate from
# the product's own list so the reference does not move when the product's does.
STOPWORDS = frozenset("""
a about above after again against all am an and any are aren as at be because been before
being below between both but by can cannot could couldn did didn do does doesn doing don down
during each few for from further had hadn has hasn have haven having he her here hers herself
him himself his how i if in into is isn it its itself let me more most mustn my myself no nor
not of off on once only or other ought our ours ourselves out over own same shan she should
shouldn so some such than that the their theirs them themselves then there these they this
those through to too under until up very was wasn we were weren what when where which while
who whom why with won would wouldn you your yours yourself yourselves s t d ll m re ve
""".split())


def terms(text: str) -> list[str]:
    return [w for w in (t.lower() for t in _WORD.findall(text)) if w not in STOPWORDS]


class BM25:
    def __init__(self, docs: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.tf = [Counter(terms(d)) for d in docs]
        self.len = [sum(c.values()) for c in self.tf]
        self.avg = (sum(self.len) / len(self.len)) if self.len else 0.0
        df: Counter[str] = Counter()
        for c in self.tf:
            df.update(c.keys())
        n = len(docs)
        self.idf = {t: math.log(1 + (n - k + 0.5) / (k + 0.5)) for t, k in df.items()}
        self.postings: dict[str, list[int]] = {}
        for i, c in enumerate(self.tf):
            for t in c:
                self.postings.setdefault(t, []).append(i)

    def top(self, query: str, k: int) -> list[int]:
        """Indices of the k best documents, best first (ties: lower index first)."""
        scores: dict[int, float] = {}
        for t in set(terms(query)):
            idf = self.idf.get(t)
            if idf is None:
                continue
            for i in self.postings[t]:
                f = self.tf[i][t]
                norm = f * (self.k1 + 1) / (
                    f + self.k1 * (1 - self.b + self.b * self.len[i] / self.avg))
                scores[i] = scores.get(i, 0.0) + idf * norm
        return sorted(scores, key=lambda i: (-scores[i], i))[:k]
