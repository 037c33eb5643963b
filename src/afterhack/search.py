"""Turn what a person or a model types into safe full-text queries, with back-off.

RediSearch has its own syntax (``-`` is NOT, ``|`` is OR, ``$``, ``(`` and stray quotes are
syntax errors). User text never reaches it as typed: it is reduced to word tokens first, so
no query can raise a syntax error. A phrase that matches nothing backs off to its meaningful
words joined with OR.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_MAX_TERMS = 24

# English function words, plus words people put in questions that no fact statement
# carries ("find the date of ..."); dropping them is what makes back-off useful.
STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its
    itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself
    yourselves s t don
    find tell show give get know date dates time please list say says said about whats
    """.split()
)


@dataclass(frozen=True)
class Plan:
    """The queries to try in order; empty when the text has no searchable word."""

    terms: tuple[str, ...]
    strict: str | None
    backoff: str | None


def tokens(text: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(text)][: _MAX_TERMS * 2]


def plan(text: str) -> Plan:
    """First the whole phrase (every word must match), then its meaningful words OR-ed."""
    words = list(dict.fromkeys(tokens(text)))[:_MAX_TERMS]
    meaningful = tuple(w for w in words if w not in STOPWORDS)
    if not words:
        return Plan((), None, None)
    strict = " ".join(words)
    backoff = "|".join(meaningful) if meaningful else None
    if backoff == strict:
        backoff = None
    return Plan(meaningful, strict, backoff)
