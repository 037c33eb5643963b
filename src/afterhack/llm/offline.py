"""The deterministic offline model: rule-based extraction, with no network and no weights.

Extraction keeps declarative sentences (ending in a full stop, ``.`` or ``。``) as claims
whose quote is the sentence itself, so every quote is an exact substring of its fragment by
construction. Scripts written without spaces count each of their characters as a word.

A short sentence that goes on from the one before it with a pronoun ("I changed my flight.
It lands at 9:15 now.") is read with it: when it gives a value and the sentence before gives
none, the two are one claim whose quote spans both (still exact), since "it" alone says
nothing of what lands.
"""

from __future__ import annotations

import re
import time
from typing import TypedDict

from afterhack import facts
from afterhack.facts import said
from afterhack.model.calls import ModelCall
from afterhack.rules.chunking import sentence_spans

NAME = "offline-rules-1"

_MIN_WORDS = 3
_HAS_LETTER = re.compile(r"[^\W\d_]")
_FULL_STOPS = (".", "。")
# Han, kana and other scripts written without spaces between words: one character, one word.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f]")


def _words(sentence: str) -> int:
    spaced = [t for t in _UNSPACED.sub(" ", sentence).split() if any(c.isalnum() for c in t)]
    return len(spaced) + len(_UNSPACED.findall(sentence))


class Candidate(TypedDict):
    statement: str
    evidence_quote: str


# Short enough to be a follow-up, in words.
_FOLLOW_UP_WORDS = 12


def extract_sentences(fragment: str) -> list[Candidate]:
    claims: list[Candidate] = []
    before: tuple[int, str, bool] | None = None  # the last sentence: start, text, kept
    for span in sentence_spans(fragment):
        raw = fragment[span.start : span.end]
        sentence = raw.strip()
        start = span.start + (len(raw) - len(raw.lstrip()))
        # Questions, headings and fragments without a verb-bearing length are not facts.
        keep = (sentence.endswith(_FULL_STOPS) and not sentence.endswith("...")
                and _words(sentence) >= _MIN_WORDS and _HAS_LETTER.search(sentence) is not None)
        if keep and before is not None and _goes_on(before[1], sentence):
            whole = fragment[before[0] : start + len(sentence)]
            if before[2]:
                claims.pop()
            claims.append({"statement": whole, "evidence_quote": whole})
            before = None
            continue
        if keep:
            claims.append({"statement": sentence, "evidence_quote": sentence})
        before = (start, sentence, keep) if sentence else before
    return claims


def _goes_on(previous: str, sentence: str) -> bool:
    """Whether a sentence is a short follow-up of the one before it: it opens on a pronoun,
    gives a value, and the sentence before gives none (it names what the pronoun stands for)."""
    if not said.FOLLOW_UP.match(sentence) or _words(sentence) > _FOLLOW_UP_WORDS:
        return False
    if not previous.endswith(_FULL_STOPS):
        return False
    return bool(facts.read(sentence).values) and not facts.read(previous).values


class OfflineExtractor:
    name = NAME

    async def extract(self, fragment: str) -> tuple[list[Candidate], ModelCall]:
        t0 = time.perf_counter()
        claims = extract_sentences(fragment)
        return claims, ModelCall("extractor", (time.perf_counter() - t0) * 1000, True)
