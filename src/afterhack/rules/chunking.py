"""Split a source version into fragments at sentence boundaries.

Fragments tile the text exactly: concatenated, they give the text back, and each keeps
``[start, end)`` offsets in code points (Python string indices). Nothing is normalised.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from afterhack.facts.calendar import MONTH_WORDS

# A sentence ends after terminal punctuation (and closing quotes/brackets) followed by
# whitespace, or at a blank line. The full-width marks of Chinese and Japanese end a
# sentence with or without a space after them (those scripts put none between sentences).
# A full stop glued to the next sentence ("...in the USA.First for Women is...", as text
# pasted from lists often is) ends one too, when a lowercase word ends before it and a
# capitalised word starts after it; "Ph.D", "e.g.The" and "U.S.Army" are left alone.
# A full stop and a space end nothing when the stop is its word's own (_is_own_stop):
# "Dr. Weber", "z. B.", "am 1. September", "e.g. Lisbon", "J. R. R. Tolkien".
_SENTENCE_END = re.compile(
    # Every form starts with one of these marks, matched first and the form told by a look
    # back at it: a pattern that starts with one set of characters is scanned for that set
    # by the regex engine's fast loop, where alternatives are tried at every position.
    r"""[.!?…。！？\n]"""
    r"""(?:(?<=[.!?…])[.!?…]*['"’”)\]]*\s+"""
    r"""|(?<=[。！？])[。！？]*['"’”)\]」』）》]*\s*"""
    r"""|(?<=\n)\s*\n\s*"""
    r"""|(?<=[^\W\d_]{2}[.!?])(?=[^\W\d_]{2}))""")

_ZWJ = "\u200d"

# A full stop after one of these words (case-folded, inner dots dropped) is the word's own:
# a title before a name ("Dr. Weber", "Mr. Lee"), a word that leads into more of the
# sentence ("z. B.", "ca. 40", "approx. 30", "e.g. Lisbon"), German "Mio." before its unit.
_ABBREVIATIONS = frozenset("""
    mr mrs ms mx dr prof rev hon gen col lt capt sgt gov sen rep st mt messrs
    vs cf approx ca eg ie viz esp incl
    hr hrn fr nr bzw vgl ggf evtl inkl zzgl exkl sog bspw insb bzgl gem geb gegr
    mio mrd tsd zb dh ua uu
    """.split())
# These end a sentence as often as not ("the answer is no.", "Hauptstr."), and are the
# word's own only before a number ("No. 5", "Art. 3", "Jan. 12", "S. 14").
_BEFORE_NUMBERS = frozenset("""
    no nos art abs fig figs vol pp p s kap ziff str bd tel
    jan feb mar apr jun jul aug sep sept oct okt nov dec dez
    """.split())
# German writes an ordinal as its number and a full stop ("am 1. September", "zum 3. Mal"):
# before a month, or after one of these words, the number is an ordinal. "am" and "bis"
# are not among them: "am 12." may close a sentence, and a month after it is caught anyway.
_ORDINAL_LEADS = frozenset("zum zur beim im der die das den dem des jeden jedem jeder".split())
# Capitalised words that open a sentence far more often than they follow an initial.
_SENTENCE_OPENERS = frozenset("""
    a an the this that these those it its he she they we i his her their our there
    in on at after before when while however but and as from for with during since
    although many most some both one
    der die das den dem des ein eine er sie es wir ich im am nach vor bei seit dort hier
    diese dieser dieses auch aber
    """.split())
_OPENERS = "([{\"'„“‚‘«»"
_CLOSERS = ".,;:!?)]}\"'“”’‘«»"
# Longer runs are not abbreviations, and the look around a full stop stops there.
_LOOK = 24


@dataclass(frozen=True)
class Span:
    start: int
    end: int


def _is_glued_end(text: str, m: re.Match[str]) -> bool:
    """A full stop between two letters ends a sentence only as "word.Capitalised"."""
    i = m.start()
    return (text[i - 1].islower() and text[i - 2].islower()
            and text[i + 1].isupper() and text[i + 2].islower())


def _word_before(text: str, i: int) -> str:
    """The run of non-space characters that ends at text[i] (opening marks dropped)."""
    j = i
    while j > 0 and i - j < _LOOK and not text[j - 1].isspace():
        j -= 1
    return text[j:i].lstrip(_OPENERS)


def _word_after(text: str, i: int) -> str:
    """The run of non-space characters that starts at text[i] (opening marks dropped)."""
    j = i
    while j < len(text) and j - i < _LOOK and not text[j].isspace():
        j += 1
    return text[i:j].lstrip(_OPENERS)


def _is_initials(word: str) -> bool:
    """One letter, or letters each followed by a full stop: "J", "z.B", "U.S", "i.d.R"."""
    parts = word.split(".")
    return all(len(p) == 1 and p.isalpha() for p in parts)


def _is_own_stop(text: str, m: re.Match[str]) -> bool:
    """True when a full stop followed by spaces belongs to the word before it (an
    abbreviation, an initial, a German ordinal) and the sentence goes on after it.

    A sentence starts with a capital letter (or a digit), so a lowercase word after the stop
    says the sentence goes on, whatever came before it. A blank line always ends one."""
    if m.group(0)[0] != "." or not m.group(0)[1:].isspace() or m.group(0).count("\n") > 1:
        return False
    dot = m.start()
    word = _word_before(text, dot)
    after = _word_after(text, m.end())
    if not word or not after:
        return False
    first = after[0]
    if first.islower():
        return True
    if _is_initials(word):
        # "Washington, D.C. A member of ...": an initial closes a sentence before a word
        # that opens one.
        return after.rstrip(_CLOSERS).casefold() not in _SENTENCE_OPENERS
    folded = word.casefold().replace(".", "")
    if folded in _ABBREVIATIONS:
        return True
    if first.isdigit() and folded in _BEFORE_NUMBERS:
        return True
    if word.isdigit() and len(word) <= 3:
        if after.rstrip(_CLOSERS).casefold() in MONTH_WORDS:
            return True
        lead = _word_before(text, dot - len(word) - 1) if dot - len(word) - 1 > 0 else ""
        return lead.casefold() in _ORDINAL_LEADS
    return False


def sentence_spans(text: str) -> list[Span]:
    """Sentences (each with its trailing whitespace) covering the whole text."""
    spans: list[Span] = []
    pos = 0
    for m in _SENTENCE_END.finditer(text):
        glued = m.end() < len(text) and m.group() in ".!?" and text[m.end()].isalpha()
        if glued and not _is_glued_end(text, m):
            continue
        if m.group(0)[0] == "." and m.end() < len(text) and _is_own_stop(text, m):
            continue
        if not _is_safe_cut(text, m.end()):
            continue  # a mark that combines with the punctuation stays with it
        if m.end() > pos:
            spans.append(Span(pos, m.end()))
            pos = m.end()
    if pos < len(text):
        spans.append(Span(pos, len(text)))
    return spans


def _is_safe_cut(text: str, i: int) -> bool:
    """True when cutting before text[i] does not split a character sequence a reader sees as one."""
    if i <= 0 or i >= len(text):
        return True
    ch, prev = text[i], text[i - 1]
    if ch < "\x80" and prev < "\x80":  # nothing ASCII joins or combines
        return True
    if prev == _ZWJ or ch == _ZWJ:
        return False
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Mc"):
        return False
    if 0xFE00 <= ord(ch) <= 0xFE0F or 0x1F3FB <= ord(ch) <= 0x1F3FF:  # variation, skin tone
        return False
    if 0xE0020 <= ord(ch) <= 0xE007F:  # tag sequences (subdivision flags)
        return False
    # Regional-indicator pairs form one flag: never cut between an odd-positioned pair.
    return not (_is_ri(ch) and _is_ri(prev) and _ri_run_before(text, i) % 2 == 1)


def _is_ri(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _ri_run_before(text: str, i: int) -> int:
    n = 0
    while i - 1 - n >= 0 and _is_ri(text[i - 1 - n]):
        n += 1
    return n


def _hard_split(text: str, span: Span, max_chars: int) -> list[Span]:
    """Split an over-long sentence, preferring whitespace, never inside a grapheme."""
    out: list[Span] = []
    start = span.start
    while span.end - start > max_chars:
        limit = start + max_chars
        cut = text.rfind(" ", start + max_chars // 2, limit)
        cut = cut + 1 if cut != -1 else limit
        while cut > start + 1 and not _is_safe_cut(text, cut):
            cut -= 1
        if cut <= start + 1:  # one enormous grapheme cluster: cut where we must
            cut = limit
        out.append(Span(start, cut))
        start = cut
    out.append(Span(start, span.end))
    return out


def split_fragments(text: str, max_chars: int) -> list[Span]:
    """Group whole sentences into fragments of at most ``max_chars`` code points."""
    if max_chars < 1:
        raise ValueError("max_chars must be positive")
    pieces: list[Span] = []
    for s in sentence_spans(text):
        pieces.extend(_hard_split(text, s, max_chars) if s.end - s.start > max_chars else [s])
    fragments: list[Span] = []
    cur: Span | None = None
    for p in pieces:
        if cur is None:
            cur = p
        elif p.end - cur.start <= max_chars:
            cur = Span(cur.start, p.end)
        else:
            fragments.append(cur)
            cur = p
    if cur is not None:
        fragments.append(cur)
    return fragments
