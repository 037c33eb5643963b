"""Sets of the vocabulary as Cypher list literals, for queries that test a status inline.

Built from model/vocab.py (constants, never user input), sorted so a query's text is the
same on every start and its cached plan is reused.
"""

from __future__ import annotations

from collections.abc import Iterable

from afterhack.model.vocab import (
    CURRENT_CLAIM,
    GOOD_STANDING,
    OPEN_ACTION,
    PENDING_EXTRACTION,
    RETIRED_CLAIM,
)


def cypher_list(words: Iterable[str]) -> str:
    return "[" + ", ".join(f"'{w}'" for w in sorted(words)) + "]"


CURRENT = cypher_list(CURRENT_CLAIM)
RETIRED = cypher_list(RETIRED_CLAIM)
PENDING = cypher_list(PENDING_EXTRACTION)
GOOD = cypher_list(GOOD_STANDING)
OPEN = cypher_list(OPEN_ACTION)
