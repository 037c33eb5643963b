"""Words a claim is found by, and the words of a query: one tokenizer for both sides.

A claim stores its search terms (``Claim.terms``, under a range index) when it is written,
and a query is reduced to terms the same way, so what matches is decided here, in Python,
for every script alike:

* words are runs of letters and digits, case-folded; English stopwords and words people
  put in questions that no fact carries ("find the date of ...") are dropped;
* a light English stemmer folds plurals ("launches" and "launch" are one term);
* scripts written without spaces between words (Chinese, Japanese, Thai) have no words to
  split on: each character and each pair of neighbouring characters is a term, so a query
  finds a claim that shares its characters, in order, without a dictionary.

User text never reaches a query language: terms travel as parameters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
# Han, kana, Hangul syllables are spaced in Korean and stay words; Thai and Lao are unspaced.
_UNSPACED = re.compile(
    r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0eff]+)")
# Every ASCII byte that is not a letter or a digit becomes a space (``_TOKEN`` on ASCII);
# translate wants a table of all 256 bytes, and only ASCII text is translated.
_ASCII_SPACED = bytes(b if chr(b).isalnum() else 32 for b in range(128)) + bytes(128)
MAX_QUERY_TERMS = 24
# A claim is one sentence: more distinct terms than this are a pasted paragraph.
MAX_CLAIM_TERMS = 64

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
    yourselves s t d ll m re ve don
    find tell show give get know date dates time please list say says said about whats
    """.split()
)


@dataclass(frozen=True)
class Plan:
    """A query's terms (empty when it has no searchable word)."""

    terms: tuple[str, ...]


# Words already folded: an ingest folds tens of thousands, nearly all seen before, and a
# dict read inline costs less than a call through a cache. Emptied when full.
_STEMS: dict[str, str] = {}
_STEMS_MAX = 65536


def _stem(word: str) -> str:
    stem = _STEMS.get(word)
    if stem is None:
        if len(_STEMS) >= _STEMS_MAX:
            _STEMS.clear()
        stem = _STEMS[word] = _fold(word)
    return stem


def _fold(word: str) -> str:
    """Plural and third-person -s folded on plain lowercase words; nothing else is touched
    (a wrong fold merges two words, a missed one only loses a match)."""
    if not word.isascii() or not word.isalpha() or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "os")):
        return word[:-1]
    return word


def words(folded: str) -> list[str]:
    """``_TOKEN``'s matches. An ASCII text's are its runs of letters and digits: a byte
    translation and a split find them several times faster than the pattern, and an
    ingest finds every claim's."""
    if folded.isascii():
        return folded.encode("ascii").translate(_ASCII_SPACED).decode("ascii").split()
    return _TOKEN.findall(folded)


def _terms(text: str) -> list[str]:
    folded = text.casefold()
    found = words(folded)
    # An ASCII text has no unspaced script.
    if folded.isascii() or not _UNSPACED.search(text):
        known = _STEMS.get
        return [known(t) or _stem(t) for t in found if t not in STOPWORDS]
    out: list[str] = []
    for token in found:
        for i, part in enumerate(_UNSPACED.split(token)):
            if not part:
                continue
            if i % 2:  # an unspaced run: its characters and its neighbouring pairs
                out.extend(part)
                out.extend(part[j : j + 2] for j in range(len(part) - 1))
            elif part not in STOPWORDS:
                out.append(_stem(part))
    return out


def claim_terms(statement: str) -> list[str]:
    """The distinct terms a claim is found by, in first-seen order."""
    return list(dict.fromkeys(_terms(statement)))[:MAX_CLAIM_TERMS]


def joined_terms(statement: str) -> str:
    """The claim's terms as one space-separated string, for the write: the store splits it
    back into the list it indexes (one string per claim is much less query text to build
    than a list of them). Terms never hold a space."""
    return " ".join(claim_terms(statement))


def tokens(text: str) -> list[str]:
    """Case-folded words, as typed (for the API's echo of what was searched)."""
    return [t.casefold() for t in _TOKEN.findall(text)][: MAX_QUERY_TERMS * 2]


def plan(text: str) -> Plan:
    return Plan(tuple(dict.fromkeys(_terms(text)))[:MAX_QUERY_TERMS])
