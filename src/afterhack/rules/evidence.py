"""Pure checks that decide whether an extracted claim is provably in its source.

A claim is kept only if its quote is an exact substring of the fragment (character for
character, nothing normalised) and the statement is carried by that quote: every number,
date and capitalised name in the statement also appears in the quote.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
# Words that are capitalised for grammar, not because they name something.
_FUNCTION_WORDS = frozenset(
    "a an the this that these those it its i we you he she they our their his her my your "
    "in on at by for of to from with and or but if when while as is are was were be been "
    "there here what which who whom whose why how all any each every no not some".split()
)


@dataclass(frozen=True)
class Segment:
    text: str
    highlight: bool


def locate_quote(fragment: str, quote: str) -> int | None:
    """Index of the first exact occurrence of quote in fragment, or None."""
    if not quote or not quote.strip():
        return None
    i = fragment.find(quote)
    return None if i < 0 else i


def _numbers(text: str) -> set[str]:
    return {m.group(0).rstrip(".,:/-") for m in _NUMBER.finditer(text)}


def _names(text: str) -> set[str]:
    """Capitalised words that are not just the first word of a sentence."""
    names: set[str] = set()
    sentence_start = True
    for m in re.finditer(r"[^\W\d_][\w'’-]*|[.!?]", text):
        tok = m.group(0)
        if tok in ".!?":
            sentence_start = True
            continue
        if tok[0].isupper() and not sentence_start and tok.lower() not in _FUNCTION_WORDS:
            names.add(tok.lower())
        elif tok[0].isupper() and sentence_start and tok.lower() not in _FUNCTION_WORDS:
            # A capitalised first word may still be a name ("Acme ships ..."); it must
            # then appear in the quote too, unless it is a plain function word.
            names.add(tok.lower())
        sentence_start = False
    return names


def missing_from_quote(statement: str, quote: str) -> list[str]:
    """Numbers and names of the statement that the quote does not contain."""
    quote_numbers = _numbers(quote)
    quote_words = {w.lower() for w in _WORD.findall(quote)}
    missing = sorted(n for n in _numbers(statement) if n not in quote_numbers)
    missing += sorted(n for n in _names(statement) if n not in quote_words)
    return missing


def one_line(text: str) -> str:
    """The text with every run of whitespace (line breaks included) as one space, trimmed."""
    return " ".join(text.split())


def statement_key(statement: str) -> str:
    """Identity of a statement for duplicate and resurrection checks."""
    folded = unicodedata.normalize("NFKC", statement).casefold()
    return " ".join(folded.split()).rstrip(" .!?;:")


def highlight_segments(text: str, start: int, end: int) -> list[Segment]:
    """Split text into plain and highlighted parts; offsets are code points, [start, end)."""
    start = max(0, min(start, len(text)))
    end = max(start, min(end, len(text)))
    parts = [Segment(text[:start], False), Segment(text[start:end], True),
             Segment(text[end:], False)]
    return [p for p in parts if p.text]
