"""The distinct query texts this process sends, against the server's plan cache.

FalkorDB keeps plans for a bounded number of query texts per graph (its CACHE_SIZE; the
embedded server's is runtime/embedded.PLAN_CACHE_SIZE). Values travel as parameters, so the
app's set of texts is small and fixed; past the server's bound plans are evicted and
rebuilt, and FalkorDB before 4.18 can crash evicting one under concurrent reads
(docs/decisions/0006-plan-cache-size.md), so the store warns once.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from afterhack.errors import AfterhackError
from afterhack.store.resp import ReplyError

if TYPE_CHECKING:
    from afterhack.store.client import Store

log = logging.getLogger("afterhack.store.client")

# Begins the store's warning; the load test (tools/) looks for these words in the apps' logs.
PLAN_CACHE_OVERFLOW = "plan cache overflow"
# A text with a value formatted into it would grow the set without end, hence the bound.
_MAX_TEXTS = 4096


class QueryTexts:
    """The texts seen so far, and the server's limit once learnt (None until then)."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.limit: int | None = None
        self._warned = False

    def note(self, cypher: str) -> None:
        if len(self.seen) < _MAX_TEXTS:
            self.seen.add(cypher)
        if self.limit is not None and len(self.seen) > self.limit and not self._warned:
            self._warned = True
            log.warning(
                "%s: this process has sent %d distinct query texts and "
                "FalkorDB keeps plans for %d per graph; plans will be evicted and rebuilt, "
                "and FalkorDB before 4.18 can crash evicting one under concurrent reads. "
                "Raise its CACHE_SIZE.", PLAN_CACHE_OVERFLOW, len(self.seen), self.limit)


async def learn_limit(store: Store) -> int | None:
    """Ask the server how many plans it caches per graph (None if it will not say); on a
    cluster, the smallest of its primaries'."""
    try:
        replies = await store.on_primaries("GRAPH.CONFIG", "GET", "CACHE_SIZE")
        store.texts.limit = min(int(r[1]) for r in replies)
    except (AfterhackError, ReplyError, IndexError, TypeError, ValueError):
        log.info("FalkorDB did not report its CACHE_SIZE", exc_info=True)
    return store.texts.limit
