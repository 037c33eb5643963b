"""What a statement is about: its subject and attribute, as a frame of words.

The frame is what is left of a statement once its values are read out, its speaker is set
aside ("Finance says ...", "Laut Marketing ...", "据财务部，"), and its function words are
dropped; the rest is put in one spelling by the lexicon (synonyms to one token, inflections
stemmed), so "The steering group is chaired by Omar Haddad" and "Priya Nair chairs the
steering group" have one frame. Chinese has no spaces: its frame is its characters.

Two frames are about the same thing when one holds the other and is at least half its
size ("the product launch" and "the launch"); a word holds another that it begins with or,
in a long compound, ends with ("attendees" and "attend", "Messebudget" and "Budget").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from afterhack.facts import chinese, lexicon, said
from afterhack.facts import names as names_
from afterhack.facts.values import fold

_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")
_WORD_PART = re.compile(r"[^\W_]+")

# A speaker in front of what is said, or after it: the frame is what is said.
_SPEAKER_VERBS = (r"(?:(?:says|said|say|confirmed|confirms|announced|announces|reported|"
                  r"reports|noted|notes|stated|states|told\s+\w+|tells\s+\w+|informed\s+\w+|"
                  r"sagt|sagte|bestätigt|bestätigte|meldet|meldete|erklärt|erklärte|berichtet|"
                  r"berichtete|teilt\s+mit|teilte\s+mit)"
                  # These take an object of their own ("wrote the report"): only with "that".
                  r"|(?:wrote|writes|mentioned|mentions|agreed|agrees|believes|claims|claimed|"
                  r"insists|insisted|added|adds|explained|explains)(?=\s+that\b))")
# Words without which no speaker is named (a cheap look before the patterns).
SPEAKER_WORDS = frozenset(w for w in re.findall(r"[a-zäöüß]+", _SPEAKER_VERBS)
                          if len(w) > 3 and w != "that") | {"according", "per", "laut",
                                                            "angaben"}
_SPEAKER_FRONT = re.compile(
    r"^\s*(?:(?:according\s+to|as\s+per|per)\s+[^,]{1,60},\s*"
    r"|laut\s+(?:der\s+|dem\s+|des\s+)?[^\s,]+(?:\s*,)?\s+"
    r"|nach\s+angaben\s+(?:von|der|des)\s+[^,]{1,40},\s*"
    rf"|(?:[^\s,]+\s+){{0,4}}?[^\s,]+\s+{_SPEAKER_VERBS}\s*,?\s+(?:that\s+|dass\s+)?)",
    re.IGNORECASE)
_SPEAKER_BACK = re.compile(
    r",\s*(?:according\s+to\s+[^,]{1,60}|(?:[^\s,]+\s+){0,3}?[^\s,]+\s+"
    r"(?:says|said|confirmed|reported|noted)|(?:says|said)\s+[^,]{1,40})\s*[.!]?\s*$",
    re.IGNORECASE)
_ZH_SPEAKER = re.compile(
    r"^(?:据[^，,。]{1,12}[，,]|[^，,。]{1,8}?(?:表示|称|说|宣布|指出|透露)[，,：:]?"
    r"|[^，,。]{1,8}?确认[，,：:])")


def speaker_spans(text: str, words: frozenset[str], *, chinese: bool
                  ) -> list[tuple[int, int]]:
    """Where a statement names who says it, to be set aside: "Finance says", "according to
    Bob"."""
    out: list[tuple[int, int]] = []
    if not chinese and words.isdisjoint(SPEAKER_WORDS):
        return out
    m = (_ZH_SPEAKER if chinese else _SPEAKER_FRONT).match(text)
    if m is not None and m.end() < len(text.rstrip(" .。!")):
        out.append(m.span())
    if not chinese and "," in text:
        b = _SPEAKER_BACK.search(text)
        if b is not None and (not out or b.start() >= out[0][1]):
            out.append(b.span())
    return out


class Unit(NamedTuple):
    """A word of a frame with the words it was read from: what meaning compares."""

    token: str  # as the frame holds it ("@start", "invoic", "flight#lh402")
    written: str  # as the statement writes it ("kicks off", "invoice")
    # A capitalised word inside an English sentence ("the Berlin office"): it names which
    # one, so only the same name matches it, never one near in meaning.
    name: bool = False


@dataclass(frozen=True)
class Frame:
    words: frozenset[str]
    # The frame's words as written (lowercased, in order): what a neighbour search looks for.
    search_words: tuple[str, ...]
    # Whether it has a verb: a heading ("Launch planning, March.") labels, it states nothing.
    stated: bool
    # Each word of the frame with the words it was read from ("@start", "kicks off"), in
    # order: what is compared by meaning when the words themselves do not match.
    units: tuple[Unit, ...] = ()
    # The statement's words in order, function words left out, each in the frame's spelling
    # ("@start", "berlin", "team"), each value as its kind ("§time"), and a word that says
    # what is done rather than to what marked "~" ("~located"): what stands around a word,
    # for telling "the Berlin team" from "the Paris team" (scope.py).
    seq: tuple[str, ...] = ()


def _speaker_units(speaker: str | None, pos: int) -> list[tuple[int, str, str]]:
    """Who "I" and "my" are: the speaker's name, word by word, as a name is read (a stranger
    when nobody is named: a document's "my" is its author's, whoever that is)."""
    if not speaker or not speaker.strip():
        return [(pos, "@self", "I")]
    return [(pos, lexicon.stem(w), w) for w in fold(speaker).split()]


def _parts(lowered: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The words, hyphenated ones as their parts ("early-bird", "all-hands")."""
    parts: list[tuple[int, str]] = []
    for pos, w in lowered:
        if "-" in w:
            parts += [(pos, p) for p in w.split("-") if p]
        else:
            parts.append((pos, w))
    return parts


@dataclass
class _Read:
    """What the words of an English or German statement give its frame, as they are read."""

    out: list[tuple[int, str]]
    written: list[tuple[int, str]]
    units: list[tuple[int, str, str]]
    names: set[int]
    seq: list[tuple[int, str]]

    def add(self, pos: int, token: str, word: str, seq: str | None) -> None:
        self.out.append((pos, token))
        self.units.append((pos, token, word))
        if seq is not None:
            self.seq.append((pos, seq))


def frame_of(masked: str, idents: list[tuple[int, str]], *, lang: str,
             spoken: bool = False, speaker: str | None = None,
             values_at: Sequence[tuple[int, str]] = ()) -> Frame:
    """The frame of a statement whose values and speaker are masked out; ``spoken`` says a
    speaker was set aside (whose verb makes it a statement); ``speaker`` is who says it,
    whom its first person names; ``values_at`` is where each value was, and its kind."""
    marks = [(p, "§" + k) for p, k in values_at]
    if lang == "zh":
        return _frame_zh(masked, idents, speaker, marks)
    low = masked.lower()
    if "’" in low:
        low = low.replace("’", "'")
    lowered = [(m.start(), m.group()) for m in _TOKEN.finditer(low)]
    stated = spoken or lang == "de" or _has_verb(lowered)
    parts = _parts(lowered)
    stem = lexicon.stem_de if lang == "de" else lexicon.stem
    first = said.FIRST_PERSON_DE if lang == "de" else said.FIRST_PERSON
    r = _Read([], [], [], set(), [])
    me = False
    i = 0
    while i < len(parts):
        pos, w = parts[i]
        if w in first:
            if not me:
                me = True
                for p, t, sw in _speaker_units(speaker, pos):
                    r.add(p, t, sw, t)
                    r.names.add(p)
            i += 1
            continue
        n = _phrase(r, parts, i)
        if n:
            i += n
            continue
        i += 1
        if w == "per" and i < len(parts):
            # "$20 per seat": a price per something is another attribute than a total.
            token = "@per_" + stem(parts[i][1])
            r.add(pos, token, "per " + parts[i][1], token)
            i += 1
            continue
        _word(r, masked, pos, w, _verbal(w, parts[i - 2][1] if i >= 2 else "", lang), lang)
    return _framed(r, idents, marks, stated)


def _phrase(r: _Read, parts: list[tuple[int, str]], i: int) -> int:
    """How many words a phrase of the lexicon starting at ``parts[i]`` takes (0: none)."""
    pos, w = parts[i]
    for words, canon in lexicon.PHRASES.get(w, ()):
        n = len(words)
        if tuple(p for _, p in parts[i:i + n]) == words:
            if canon:
                r.add(pos, canon, " ".join(words), canon)
            return n
    return 0


def _word(r: _Read, masked: str, pos: int, w: str, verbal: bool, lang: str) -> None:
    """One word that no phrase took: a word of the lexicon, a neutral word (kept in the
    sequence only), or a word of the subject."""
    stem = lexicon.stem_de if lang == "de" else lexicon.stem
    neutral = lexicon.NEUTRAL_DE if lang == "de" else lexicon.NEUTRAL
    function = lexicon.FUNCTION_DE if lang == "de" else lexicon.FUNCTION
    token = lexicon.CANON_WORDS.get(w)
    if token is not None:
        r.add(pos, token, w, ("~" if verbal else "") + token)
        r.written.append((pos, w))
        return
    lower_de = lang == "de" and masked[pos:pos + 1].islower()
    if w in neutral or w in lexicon.TIMEZONES:
        if w not in function and w not in lexicon.TIMEZONES:
            r.seq.append((pos, ("~" if verbal or lower_de or w.endswith("s") else "")
                          + stem(w)))
        return
    r.add(pos, stem(w), w, None if w in function
          else ("~" if verbal or lower_de else "") + stem(w))
    r.written.append((pos, w))
    if lang == "en" and masked[pos:pos + 1].isupper() and (
            pos > 0 or w.endswith("'s") or names_.first_name(masked[pos:pos + len(w)])):
        r.names.add(pos)  # "the Berlin office", "Ana's flight", "Ben pays ..."


def _framed(r: _Read, idents: list[tuple[int, str]], marks: list[tuple[int, str]],
            stated: bool) -> Frame:
    """The frame the words read give, with the identifiers and where the values were."""
    out, written, units = r.out, r.written, r.units
    if idents:
        out = sorted(out + idents)
        written = sorted(written + idents)
        units = sorted(units + [(p, t, t) for p, t in idents])
    seq = sorted(r.seq + list(idents) + marks)
    search = tuple(dict.fromkeys(
        t for _, w in written
        for t in ((w,) if w.isalpha() else _WORD_PART.findall(w.removeprefix("name#")
                                                               .replace("#", " ")))))
    return Frame(frozenset(w for _, w in out), search, stated,
                 tuple(Unit(t, w, p in r.names) for p, t, w in units),
                 tuple(t for _, t in seq))


def _verbal(word: str, before: str, lang: str) -> bool:
    """Whether a word says what is done rather than name a thing: one of the lexicon's
    verbs, a verb's past ("-ed"), or a word after a subject pronoun, a modal or "to" ("we
    keep", "will ship"). A German verb is lowercase (read by the caller). (A word that is
    is marked "~" in ``Frame.seq``: it stands around others.)"""
    if lang == "de":
        return False
    return (word in lexicon.VERBS or (len(word) > 4 and word.endswith("ed"))
            or before in _BEFORE_VERB)


_BEFORE_VERB = frozenset("we they i you he she it to will would can could must should may "
                         "might shall don't doesn't didn't won't".split())


def _frame_zh(masked: str, idents: list[tuple[int, str]], speaker: str | None,
              marks: list[tuple[int, str]]) -> Frame:
    # The frame keeps its characters, for matching words by their spelling.
    text = _ZH_FIRST.sub(" ", masked)
    tokens: list[str] = []
    for word, canon in _ZH_CANON_ORDER:
        if word in text:
            text = text.replace(word, " ")
            tokens.append(canon)
    for word in lexicon.ZH_DROP:
        if word in text:
            text = text.replace(word, " ")
    runs = _HAN_RUN.findall(text)
    tokens += [c for run in runs for c in run]
    latin = [(m.start(), m.group(0).lower()) for m in _TOKEN.finditer(text)
             if not _HAN_RUN.fullmatch(m.group(0))]
    tokens += [lexicon.stem(w) for _, w in latin if w not in lexicon.NEUTRAL]
    tokens += [i for _, i in idents]
    search = tuple(dict.fromkeys([*runs, *(w for _, w in latin)]))
    # What meaning compares and what stands around a word are words, as jieba segments
    # them.
    units: list[tuple[int, str, str]] = []
    names: set[int] = set()
    me = False
    for w in chinese.words(masked):
        if w.word in said.ZH_FIRST_PERSON:
            if not me:
                me = True
                for p, t, sw in _speaker_units(speaker, w.at):
                    tokens.append(t)
                    units.append((p, t, sw))
                    names.add(p)
            continue
        if w.word in lexicon.ZH_CANON:
            units.append((w.at, lexicon.ZH_CANON[w.word], w.word))
            continue
        if _HAN_RUN.match(w.word) is None:
            low = w.word.lower()
            if low.isalpha() and low not in lexicon.NEUTRAL:
                units.append((w.at, lexicon.stem(low), low))
            continue
        if w.word in lexicon.ZH_FUNCTION or w.word in lexicon.ZH_DROP:
            continue
        units.append((w.at, w.word, w.word))
        if chinese.name_kind(w) is not None:
            names.add(w.at)
    units += [(p, i, i) for p, i in idents]
    return Frame(frozenset(tokens), search, True,
                 tuple(Unit(t, w, p in names) for p, t, w in sorted(units)),
                 tuple(t for _, t in sorted([(p, t) for p, t, _ in units] + marks)))


# "我" and "我的", not "我们" ("we").
_ZH_FIRST = re.compile(r"我的|我(?!们)")


_ZH_CANON_ORDER = sorted(lexicon.ZH_CANON.items(), key=lambda kv: -len(kv[0]))


def _has_verb(tokens: list[tuple[int, str]]) -> bool:
    """A pronoun first, or a verb after the first word: one of the lexicon's verbs, a
    contracted one, or a word with a verb's -s or -ed (a first word with them is a subject:
    "Applications", "Payments")."""
    if tokens and (tokens[0][1] in lexicon.PRONOUNS
                   or tokens[0][1].endswith(lexicon.CONTRACTED_VERBS)):
        return True
    for pos, w in tokens:
        if pos == 0:
            continue
        if w in lexicon.VERBS or w.endswith(lexicon.CONTRACTED_VERBS):
            return True
        if len(w) >= 4 and (w.endswith("ed") or (w.endswith("s") and not w.endswith(
                ("ss", "us", "is")))):
            return True
    return False


def holds(word: str, other: str) -> bool:
    """Whether one word holds the other: the same, or a long enough start or compound end."""
    if word == other:
        return True
    if word[0] == "@" or other[0] == "@" or "#" in word or "#" in other:
        return False
    short, long_ = (word, other) if len(word) <= len(other) else (other, word)
    if len(short) < 5:
        return False
    return long_.startswith(short) or (len(long_) >= 9 and long_.endswith(short))


def _covered(word: str, frame: frozenset[str]) -> bool:
    return any(holds(word, o) for o in frame)


def same_subject(a: frozenset[str], b: frozenset[str]) -> bool:
    """Equal frames, or one inside the other holding at least half of the other's words."""
    if not a or not b:
        return False
    if a == b:
        return True
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    if len(small) * 2 < len(large):
        return False
    if len(small) == len(large) and not all(_covered(w, small) for w in large - small):
        return False  # of two frames the same size, each must hold the other
    return all(_covered(w, large) for w in small - large)
