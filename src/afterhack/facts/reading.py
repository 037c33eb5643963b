"""Reading a statement: its typed values and its frame, once per statement.

Numerals become digits first (numerals.py); then each family of values is read in an
order that lets the more specific claim its words first (money before counts, dates
before times, a time before a bare number), each only when a cheap look at the text says
it can match; what is left makes the frame (frames.py). Readings are cached: a statement
met again as a neighbour costs a dictionary look-up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from afterhack.facts import calendar, frames, names, numerals, quantities, said, scope
from afterhack.facts.values import Scanner, Value, ValueKind, group

_LOWER_WORD = re.compile(r"[a-zß-öø-ÿ]+")
_DIGIT = re.compile(r"\d")
_UPPER = re.compile(r"[A-ZÀ-ÖØ-Þ]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_ALNUM = re.compile(r"\b[A-Za-z]+\d[A-Za-z\d]*\b")
_CODE_JUNK = re.compile(r"[\s#-]")
# A number right after one of these names a thing ("invoice 1043", "flight LH 402"): it is
# part of the subject, not a value of it.
_ID_NOUNS = frozenset(("ticket", "invoice", "order", "flight", "train", "bus", "route",
                       "gate", "platform", "version", "release", "build", "issue", "case",
                       "item", "line", "phase", "sprint", "step", "building", "unit",
                       "account", "contract", "po", "no", "number", "lot", "batch",
                       "project", "ward", "bed", "desk", "table"))
# A noun with a letter for a name: "Team A", "plan B" (where a place is, "in Building A", the
# name is read as a place).
_LETTER_NAMED = re.compile(r"(?<!\bin )(?<!\bat )(?<!\bto )\b(?P<noun>[A-Za-z]{3,})\s+"
                           r"(?P<letter>[A-HJ-Z])\b(?![.'’&])")
_LONE_CAPITAL = re.compile(r" [A-HJ-Z](?![\w'’.&])")
# The code after an id noun: "402", "#1043", "LH 402", "4.2b".
_ID_CODE = re.compile(r"\.?\s+(#?(?:[A-Z]{1,4}[\s-]?)?\d[\w.-]*)")
# Words that say a statement is German (where a word is English too, it is left out).
_GERMAN = frozenset("""
der das ist sind wird werden wurde beträgt findet statt und liegt sich dauert gibt
eine einen einem unser unsere für zum zur im uhr auch nicht beginnt endet kostet ein es
arbeiten leitet befindet ich wir mein meine mir mich
""".split())
# An article that no English sentence opens with, before a capitalised noun.
_GERMAN_START = re.compile(r"(?:Die|Der|Den|Dem)\s+[A-ZÄÖÜ]")
_CURRENCY_WORDS = frozenset(["usd", "dollar", "dollars", "eur", "euro", "euros", "gbp",
                             "pound", "pounds", "jpy", "yen", "chf", "francs", "cny", "rmb",
                             "yuan"])


@dataclass(frozen=True)
class Reading:
    """What the detector sees in one statement."""

    values: Mapping[ValueKind, tuple[Value, ...]]
    frame: frozenset[str]
    # The frame's words as written (lowercased, in order): what a neighbour search looks for.
    search_words: tuple[str, ...]
    # Whether it has a verb: a heading ("Launch planning, March.") labels, it states nothing.
    stated: bool = True
    lang: str = "en"
    # The values by the group they are compared in (values.group), in reading order.
    groups: Mapping[str, tuple[Value, ...]] = field(default_factory=dict)
    # The statement with its values and speaker blanked out: what it says, not which values.
    phrase: str = ""
    # The frame's words with the words they were read from (frames.Frame.units).
    units: tuple[frames.Unit, ...] = ()
    # It opens by taking back what its speaker said before ("Correction: ...", said.py).
    takes_back: bool = False
    # Its words in order with its values as their kinds (frames.Frame.seq).
    seq: tuple[str, ...] = ()
    # The periods it names ("-1 year", "q2", "summer") and whether it states a plan or what
    # came of one (scope.py).
    periods: frozenset[str] = frozenset()
    mood: str = ""

    def kinds(self) -> frozenset[ValueKind]:
        return frozenset(self.values)


def read(statement: str, speaker: str | None = None) -> Reading:
    """What a statement says; ``speaker`` is who said it, whom "I" and "my" stand for."""
    return _read(statement, speaker)


def clear_cache() -> None:
    _read.cache_clear()


def _identifiers(sc: Scanner) -> None:
    # A word with digits glued on names a thing ("Kestrel3", "LH402", "Q3"): subject.
    for m in sc.each(_ALNUM):
        sc.take(m)
        sc.idents.append((m.start(), f"name#{m.group(0).lower()}"))
    for m in (sc.each(_LETTER_NAMED) if _LONE_CAPITAL.search(sc.text) else ()):
        sc.take(m)
        sc.idents.append((m.start(), f"{m.group('noun').lower()}#{m.group('letter').lower()}"))
    nouns = sc.words & _ID_NOUNS
    if not nouns:
        return
    for m in re.finditer(rf"\b(?:{'|'.join(sorted(nouns))})\b", sc.text, re.IGNORECASE):
        code = _ID_CODE.match(sc.text, m.end())
        if code is None or not sc.free_span(m.start(), code.end()):
            continue
        sc.spans.append((m.start(), code.end()))
        ident = _CODE_JUNK.sub("", code.group(1)).lower()
        sc.idents.append((m.start(), f"{m.group(0).lower()}#{ident}"))


@lru_cache(maxsize=16384)
def _read(statement: str, speaker: str | None) -> Reading:
    chinese = not statement.isascii() and _HAN.search(statement) is not None
    lower = statement.lower()
    words = frozenset(_LOWER_WORD.findall(lower))
    lang = "zh" if chinese else ("de" if not words.isdisjoint(_GERMAN)
                                 or _GERMAN_START.match(statement) else "en")
    rw = numerals.as_digits(statement, words=not words.isdisjoint(numerals.NUMBER_WORDS)
                            or "zig" in lower or "ßig" in lower, chinese=chinese)
    text = rw.text
    sc = Scanner(rw, words)
    speakers = frames.speaker_spans(text, words, chinese=chinese)
    sc.spans += speakers
    taken_back = said.take_back(text, words, chinese=chinese)
    if taken_back is not None:
        sc.spans.append(taken_back)
    has_digit = _DIGIT.search(text) is not None
    if has_digit:
        if (not quantities.AMOUNT_HINTS.isdisjoint(text)
                or not words.isdisjoint(_CURRENCY_WORDS)):
            quantities.amounts(sc, chinese=chinese)
        if "%" in text or "％" in text or "百分之" in text \
                or not words.isdisjoint(quantities.PERCENT_HINTS) or "v" in words:
            quantities.percentages(sc, chinese=chinese)
    if chinese or (has_digit and ("-" in text or "/" in text or "." in text)) \
            or not words.isdisjoint(calendar.MONTH_WORDS) \
            or not words.isdisjoint(calendar.WEEKDAY_WORDS) \
            or (has_digit and not words.isdisjoint(calendar.ORDINALS)) \
            or not words.isdisjoint(calendar.ORDINAL_DAY_WORDS):
        calendar.dates(sc, chinese=chinese)
    if ((has_digit and (":" in text or chinese or "uhr" in words or "clock" in words
                       or "at" in words
                       or not words.isdisjoint(calendar.AMPM)))
            or not words.isdisjoint(calendar.TIME_WORDS)
            or (has_digit and not words.isdisjoint(calendar.SPOKEN_TIME_WORDS))):
        calendar.times(sc, chinese=chinese)
    if not words.isdisjoint(calendar.RELATIVE_WORDS):
        calendar.relative(sc)
    if chinese or not words.isdisjoint(quantities.DURATION_WORDS):
        quantities.durations(sc, chinese=chinese)
    if has_digit or _UPPER.search(text, 1) is not None:
        _identifiers(sc)
        if chinese or not words.isdisjoint(quantities.MEASURE_WORDS):
            quantities.measures(sc, chinese=chinese)
    if chinese:
        names.chinese_names(sc)
    if _UPPER.search(text) is not None:
        names.organisations(sc)
        names.places_and_people(sc, english=lang == "en")
    if has_digit:
        calendar.years(sc)
        quantities.numbers(sc)
    found = sorted(sc.values, key=lambda p: p[0])
    if not words.isdisjoint(said.DENIAL_WORDS) or (chinese and ("是" in text or "非" in text)):
        # "on March 21, not March 14": the value denied is not one the statement gives, and
        # the words denying it say nothing of the subject.
        kept = []
        for pos, v in found:
            at = said.denial(text, pos, chinese=chinese)
            if at is None:
                kept.append((pos, v))
            else:
                sc.spans.append((at, pos))
        found = kept
    values: dict[ValueKind, list[Value]] = {}
    groups: dict[str, list[Value]] = {}
    for _, v in found:
        values.setdefault(v.kind, []).append(v)
        groups.setdefault(group(v.kind), []).append(v)
    masked = sc.masked()
    # What the statement says, without the words that take back what was said before.
    said_text = text if taken_back is None else text[taken_back[1]:]
    frame = frames.frame_of(masked, sc.idents, lang=lang, spoken=bool(speakers),
                            speaker=speaker, values_at=[(p, v.kind) for p, v in found])
    return Reading(values={k: tuple(v) for k, v in values.items()}, frame=frame.words,
                   search_words=frame.search_words, stated=frame.stated, lang=lang,
                   groups={g: tuple(v) for g, v in groups.items()},
                   phrase=" ".join(masked.split()), units=frame.units,
                   takes_back=taken_back is not None, seq=frame.seq,
                   periods=scope.periods(said_text), mood=scope.mood(said_text))
