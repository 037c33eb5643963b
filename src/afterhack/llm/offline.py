"""The deterministic offline model: rule-based extraction, with no network and no weights.

Extraction keeps declarative sentences (ending in a full stop, ``.`` or ``。``) as claims
whose quote is the sentence itself, so every quote is an exact substring of its fragment by
construction. Scripts written without spaces count each of their characters as a word.
"""

from __future__ import annotations

import re
import time
from typing import TypedDict

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


def extract_sentences(fragment: str) -> list[Candidate]:
    claims: list[Candidate] = []
    for span in sentence_spans(fragment):
        sentence = fragment[span.start : span.end].strip()
        # Questions, headings and fragments without a verb-bearing length are not facts.
        if not sentence.endswith(_FULL_STOPS) or sentence.endswith("..."):
            continue
        if _words(sentence) < _MIN_WORDS or not _HAS_LETTER.search(sentence):
            continue
        claims.append({"statement": sentence, "evidence_quote": sentence})
    return claims


class OfflineExtractor:
    name = NAME

    async def extract(self, fragment: str) -> tuple[list[Candidate], ModelCall]:
        t0 = time.perf_counter()
        claims = extract_sentences(fragment)
        return claims, ModelCall("extractor", (time.perf_counter() - t0) * 1000, True)
