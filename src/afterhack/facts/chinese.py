"""Chinese read as words: jieba's segmentation and its tags for names.

Chinese has no spaces between words. The frame (frames.py) keeps its characters for
matching words by their spelling; what is compared by meaning and what stands around a word
(``Frame.units``, ``Frame.seq``) are words, as jieba segments them with the dictionary its
package ships (no download). jieba tags a person's name ``nr``, a place's ``ns``, an
organisation's ``nt`` and other proper names ``nz``: those are names, as a capitalised word is
in English ("北京分公司" names which branch; "由张伟负责" says who).
"""

from __future__ import annotations

import logging
import threading
from functools import lru_cache
from typing import NamedTuple

from afterhack.model.vocab import ValueKind

# jieba's tags for names, and the kind of value each names.
NAME_TAGS: dict[str, ValueKind] = {"nr": "person", "nrfg": "person", "nrt": "person",
                                   "ns": "place", "nt": "organisation", "nz": "organisation"}
_LOCK = threading.Lock()


class Word(NamedTuple):
    at: int  # where it starts in the text
    word: str
    tag: str  # jieba's part of speech ("n", "v", "ns", "x" for punctuation, "eng")


@lru_cache(maxsize=1)
def _tagger() -> object:
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    return jieba.posseg


@lru_cache(maxsize=16384)
def words(text: str) -> tuple[Word, ...]:
    """The words of a text, in order, with where each starts and its tag (spaces and
    punctuation left out)."""
    tagger = _tagger()
    out: list[Word] = []
    at = 0
    with _LOCK:  # jieba's tokenizer builds its dictionary once, not from two threads
        pairs = [(p.word, p.flag) for p in tagger.cut(text)]  # type: ignore[attr-defined]
    for word, tag in pairs:
        start = text.find(word, at)
        at = start + len(word) if start >= 0 else at
        if start < 0 or not word.strip() or tag in ("x", "w"):
            continue
        out.append(Word(start, word, tag))
    return tuple(out)


def name_kind(w: Word) -> ValueKind | None:
    """The kind of value a word names, when jieba tags it a name (and it is one of more
    than one character: a single one is a surname or a word's part)."""
    if len(w.word) < 2:
        return None
    return NAME_TAGS.get(w.tag)


def before_noun(ws: tuple[Word, ...], i: int) -> bool:
    """Whether the word after ``ws[i]`` is a noun, with nothing between: the name says which
    one ("北京/分公司"), it is not the value."""
    if i + 1 >= len(ws):
        return False
    nxt, this = ws[i + 1], ws[i]
    return nxt.at == this.at + len(this.word) and nxt.tag.startswith("n") \
        and nxt.tag not in NAME_TAGS
