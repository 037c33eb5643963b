"""The offline contradiction detector: same subject, another value of the same type.

A statement is read into typed values (dates, times, amounts, numbers, places, people) and a
frame: the words left once the values, function words and scheduling verbs ("is planned
for", "moves to", "will be held in") are taken out, lightly stemmed. Two statements
contradict when their frames say they are about the same thing (equal, or one a subset of
the other sharing at least half the words: "the product launch" and "the launch") and some
type of value both carry has no value in common. Another attribute of the same subject
gives another frame ("starts" and "ends", "opens" and "closes", "venue" and "budget") or
another type of value; restating the same value ("10:00" and "10 am", "$2 million" and
"$2,000,000") is the same fact. Pure and deterministic: the same pair always gets the same
verdict.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from afterhack.model.vocab import ConflictKind, Verdict

ValueKind = Literal["date", "time", "number", "amount", "place", "person"]
# When several types differ, the conflict is named by the first of these it has.
_KIND_ORDER: tuple[ValueKind, ...] = ("date", "time", "amount", "number", "place", "person")

_MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november "
    "december".split())}
_MONTH_ABBR = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8,
               "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTH_RE = (r"(?:January|February|March|April|May|June|July|August|September|October|"
             r"November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?")
_WEEKDAY_RE = r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day"
_ORD = r"(?:st|nd|rd|th)?"
_TZ = r"(?:\s*(?:UTC|GMT|CET|CEST|EET|EST|EDT|CST|CDT|PST|PDT|BST|IST|JST))?"

_CURRENCY_SIGNS = {"$": "usd", "us$": "usd", "€": "eur", "£": "gbp", "¥": "jpy"}
_CURRENCY_WORDS = {"usd": "usd", "dollar": "usd", "dollars": "usd", "eur": "eur",
                   "euro": "eur", "euros": "eur", "gbp": "gbp", "pound": "gbp",
                   "pounds": "gbp", "jpy": "jpy", "yen": "jpy", "chf": "chf"}
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "bn": 1e9,
          "billion": 1e9}
_NUM = r"\d+(?:[.,]\d+)*"
_SCALE_RE = r"(?:\s?(?:k|m|mn|bn)\b|\s(?:thousand|million|billion)\b)?"

_AMOUNT_SIGN = re.compile(
    rf"(?P<cur>US\$|[$€£¥])\s?(?P<num>{_NUM})(?P<scale>{_SCALE_RE})", re.IGNORECASE)
_AMOUNT_WORD = re.compile(
    rf"\b(?P<num>{_NUM})(?P<scale>{_SCALE_RE})\s?(?P<cur>USD|EUR|GBP|JPY|CHF|dollars?|euros?|"
    r"pounds?|yen)\b", re.IGNORECASE)
_DATE_ISO = re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b")
_DATE_SLASH = re.compile(r"\b(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{2,4})\b")
_DATE_MDY = re.compile(
    rf"\b(?:{_WEEKDAY_RE},?\s+)?(?P<mon>{_MONTH_RE})\s+(?P<d>\d{{1,2}}){_ORD}\b"
    r"(?:,?\s+(?P<y>\d{4})\b)?")
_DATE_DMY = re.compile(
    rf"\b(?:{_WEEKDAY_RE},?\s+)?(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}\s+(?:of\s+)?"
    rf"(?P<mon>{_MONTH_RE})(?:,?\s+(?P<y>\d{{4}})\b)?")
_DATE_MY = re.compile(rf"\b(?P<mon>{_MONTH_RE})(?:\s+(?P<y>\d{{4}}))?\b")
_WEEKDAY = re.compile(rf"\b(?P<wd>{_WEEKDAY_RE})s?\b")
_TIME_12 = re.compile(
    r"\b(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s?(?P<ap>[ap])\.?\s?m\b\.?" + _TZ, re.IGNORECASE)
_TIME_24 = re.compile(r"\b(?P<h>[01]?\d|2[0-3])[:.h](?P<m>[0-5]\d)\b" + _TZ)
_TIME_WORD = re.compile(r"\b(?P<w>noon|midday|midnight)\b" + _TZ, re.IGNORECASE)
_YEAR = re.compile(r"\b(?P<y>(?:19|20)\d{2})\b")
_NUMBER = re.compile(rf"(?<![\w.]){_NUM}(?![\w])")
_SPELLED = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}
_SPELLED.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
                 "eighty": 80, "ninety": 90, "hundred": 100, "dozen": 12})
_LETTERS = re.compile(r"[^\W\d_]+")

# A number right after one of these names a thing ("invoice 1043", "flight LH 402"): it is
# part of the subject, not a value of it.
_ID_NOUNS = ("ticket", "invoice", "order", "flight", "train", "bus", "route", "gate",
             "platform", "version", "release", "build", "issue", "case", "item", "line",
             "phase", "sprint", "step", "building", "unit", "account", "contract", "po",
             "no", "number", "lot", "batch", "project", "ward", "bed", "desk", "table")
_ID_NOUN_SET = frozenset(_ID_NOUNS)
_ALNUM = re.compile(r"\b[A-Za-z]+\d[A-Za-z\d]*\b")
_CODE_JUNK = re.compile(r"[\s#-]")
# The code after an id noun: "402", "#1043", "LH 402", "4.2b".
_ID_CODE = re.compile(r"\.?\s+(#?(?:[A-Z]{1,4}[\s-]?)?\d[\w.-]*)")
_TITLES = ("Dr", "Mr", "Mrs", "Ms", "Mx", "Prof", "Sir", "Dame")
# "The", "Our", "This" open a sentence or a phrase; they never start a name.
_NOT_NAME = r"(?!(?:The|A|An|Our|Their|This|That|These|Those|Each|Every|Its|We|It|There)\b)"
_NAME_TOKEN = _NOT_NAME + r"(?:[A-Z][a-z]+(?:['’][a-z]+)?(?:-[A-Z][a-z]+)?|[A-Z]{2,}(?![a-z]))"
_NAME_SEQ = rf"{_NAME_TOKEN}(?:\s+(?:(?:van|von|de|da|del|der|di|du|la|le|of|bin|al)\s+)?" \
            rf"(?:{_NAME_TOKEN}|\d+[A-Za-z]?))*"
_PLACE = re.compile(
    r"\b(?:in|at|to|from|near|inside|into)\s+(?:the\s+|The\s+)?(?P<name>" + _NAME_SEQ + r")")
_PERSON_TITLED = re.compile(r"\b(?:" + "|".join(_TITLES) + r")\.?\s+(?P<name>" + _NAME_SEQ
                            + r")")
_PERSON_BY = re.compile(r"\b(?:by|with|from|to|for)\s+(?P<name>" + _NAME_SEQ + r")")
_PERSON_SEQ = re.compile(r"(?P<name>" + _NAME_TOKEN + r"(?:\s+" + _NAME_TOKEN + r")+)")
# Capitalised names that end like these name a place or a building, not a person.
_PLACE_HEADS = frozenset("hotel pavilion center centre hall park street road avenue square "
                         "room office tower building station airport campus arena stadium "
                         "theatre theater museum gallery club bar cafe restaurant trattoria "
                         "bistro door house inn lodge court plaza bridge harbour harbor "
                         "port bay beach island city town village".split())

_TOKEN = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*", re.UNICODE)
# Words that carry no subject: function words, the verb "to be", auxiliaries, and the
# verbs of scheduling, which say a value is set or moved, not what it is a value of.
_NEUTRAL = frozenset("""
a an the of for on at in to by with from into onto per as than that this these those it its
is are was were be been being am will would shall should can could may might must do does
did has have had having get gets got we our us they their them there here he she his her
you your i my me each every all any some which who whom whose what when where now still
currently new newly officially finally also again instead just only so then about around
planned plan plans planning schedule scheduled scheduling set sets setting move moves moved
moving postponed postpone postpones rescheduled reschedule reschedules pushed push pushes
shifted shift shifts changed change changes confirmed confirm confirms expected expect
expects take takes taking took place held happen happens happened happening occur occurs
occurred located based going come came comes coming up off out back there's it's pm am
""".split())
# Verbs, for telling a statement from a heading: the forms of "to be" and "to have", modals,
# and verbs a plural subject leaves without a suffix ("Applications open on ...").
_VERBS = frozenset("""
is are was were be been am will would shall should can could may might must do does did has
have had open close start end begin run hold take ship launch cost lead own move expect need
plan meet leave arrive depart finish go come sign approve give pay raise expire last allow
cover wrap kick happen occur remain stay fall rise grow drop reach land stand sit serve use
came went said got made took gave held left met ran paid sold bought set put began grew fell
rose won lost sent spent built told found kept brought stood became saw knew thought led
""".split())
_STOP_TIMEZONES = frozenset("utc gmt cet cest eet est edt cst cdt pst pdt bst ist jst".split())


@dataclass(frozen=True)
class Value:
    kind: ValueKind
    norm: tuple[str | float | int | None, ...]
    text: str


@dataclass(frozen=True)
class Reading:
    """What the detector sees in one statement."""

    values: Mapping[ValueKind, tuple[Value, ...]]
    frame: frozenset[str]
    # The frame's words as written (lowercased, in order): what a neighbour search looks for.
    search_words: tuple[str, ...]
    # Whether it has a verb: a heading ("Launch planning, March.") labels, it states nothing.
    stated: bool = True

    def kinds(self) -> frozenset[ValueKind]:
        return frozenset(self.values)


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    kind: ConflictKind | None
    reason: str


def _num(text: str) -> float | None:
    t = text.replace(" ", "")
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", t):
        t = t.replace(",", "")
    elif re.fullmatch(r"\d+,\d{1,2}", t):
        t = t.replace(",", ".")  # a decimal comma
    elif re.fullmatch(r"\d{1,3}(?:\.\d{3})+", t):
        t = t.replace(".", "")  # a thousands point
    try:
        return float(t)
    except ValueError:
        return None


def _month(name: str) -> int | None:
    n = name.lower().rstrip(".")
    return _MONTHS.get(n) or _MONTH_ABBR.get(n)


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


class _Scanner:
    """Finds values left to right, masking each span so no two readings share a character."""

    def __init__(self, text: str, words: frozenset[str] = frozenset()) -> None:
        self.text = text
        self.words = words  # the text's lowercase words, to skip patterns that cannot match
        self.spans: list[tuple[int, int]] = []  # taken, [start, end)
        self.values: list[tuple[int, Value]] = []
        self.idents: list[tuple[int, str]] = []

    def free_span(self, s: int, e: int) -> bool:
        return all(e <= a or s >= b for a, b in self.spans)

    def free(self, m: re.Match[str], group: str | int = 0) -> bool:
        return self.free_span(*m.span(group))

    def take(self, m: re.Match[str], group: str | int = 0) -> None:
        self.spans.append(m.span(group))

    def add(self, m: re.Match[str], kind: ValueKind, norm: tuple[str | float | int | None, ...],
            group: str | int = 0) -> None:
        self.spans.append(m.span(group))
        self.values.append((m.start(group), Value(kind, norm, m.group(group))))

    def each(self, pattern: re.Pattern[str], group: str | int = 0) -> Iterable[re.Match[str]]:
        for m in pattern.finditer(self.text):
            if self.free(m, group):
                yield m

    def masked(self) -> str:
        if not self.spans:
            return self.text
        out, pos = [], 0
        for a, b in sorted(self.spans):
            if a > pos:
                out.append(self.text[pos:a])
            out.append(" " * max(0, b - max(a, pos)))
            pos = max(pos, b)
        out.append(self.text[pos:])
        return "".join(out)


def _amounts(sc: _Scanner) -> None:
    for pat in (_AMOUNT_SIGN, _AMOUNT_WORD):
        for m in sc.each(pat):
            value = _num(m.group("num"))
            if value is None:
                continue
            scale = (m.group("scale") or "").strip().lower()
            cur = m.group("cur").lower()
            currency = _CURRENCY_SIGNS.get(cur) or _CURRENCY_WORDS.get(cur) or cur
            sc.add(m, "amount", (currency, value * _SCALE.get(scale, 1.0)))


def _dates(sc: _Scanner) -> None:
    if "-" in sc.text:
        for m in sc.each(_DATE_ISO):
            sc.add(m, "date", (int(m.group("y")), int(m.group("m")), int(m.group("d")), None))
    if "/" in sc.text:
        for m in sc.each(_DATE_SLASH):
            sc.add(m, "date", ("slash", m.group("a"), m.group("b"), m.group("y")))
    if sc.words.isdisjoint(_MONTH_NAMES):
        _weekdays(sc)
        return
    for pat in (_DATE_MDY, _DATE_DMY):
        for m in sc.each(pat):
            y = m.group("y")
            sc.add(m, "date", (int(y) if y else None, _month(m.group("mon")),
                               int(m.group("d")), None))
    for m in sc.each(_DATE_MY):
        mon = m.group("mon")
        # "May" alone is a month only when capitalised mid-sentence ("in May"), not "may".
        if mon.rstrip(".") == "May" and m.start() == 0:
            continue
        y = m.group("y")
        sc.add(m, "date", (int(y) if y else None, _month(mon), None, None))
    _weekdays(sc)


def _weekdays(sc: _Scanner) -> None:
    if sc.words.isdisjoint(_WEEKDAY_NAMES):
        return
    for m in sc.each(_WEEKDAY):
        sc.add(m, "date", (None, None, None, m.group("wd").lower()))


def _times(sc: _Scanner) -> None:
    for m in (sc.each(_TIME_12) if not sc.words.isdisjoint(_AMPM) else ()):
        h = int(m.group("h")) % 12 + (12 if m.group("ap").lower() == "p" else 0)
        if int(m.group("h")) > 12:
            continue
        sc.add(m, "time", (h * 60 + int(m.group("m") or 0),))
    for m in (sc.each(_TIME_24) if ":" in sc.text or "." in sc.text or "h" in sc.words
              else ()):
        sc.add(m, "time", (int(m.group("h")) * 60 + int(m.group("m")),))
    for m in (sc.each(_TIME_WORD) if not sc.words.isdisjoint(_TIME_WORDS) else ()):
        sc.add(m, "time", (0 if m.group("w").lower() == "midnight" else 720,))


def _identifiers(sc: _Scanner) -> None:
    # A word with digits glued on names a thing ("Kestrel3", "LH402", "B2"): subject.
    for m in sc.each(_ALNUM):
        sc.take(m)
        sc.idents.append((m.start(), f"name#{m.group(0).lower()}"))
    if sc.words.isdisjoint(_ID_NOUN_SET):
        return
    for m in _LETTERS.finditer(sc.text):
        noun = m.group(0).lower()
        if noun not in _ID_NOUN_SET:
            continue
        code = _ID_CODE.match(sc.text, m.end())
        if code is None or not sc.free_span(m.start(), code.end()):
            continue
        sc.spans.append((m.start(), code.end()))
        ident = _CODE_JUNK.sub("", code.group(1)).lower()
        sc.idents.append((m.start(), f"{noun}#{ident}"))


def _is_calendar(name: str) -> bool:
    first = name.split()[0].lower().rstrip(".")
    return first in _MONTHS or first in _MONTH_ABBR or first.rstrip("s") in _WEEKDAYS


def _places_and_people(sc: _Scanner) -> None:
    for m in (sc.each(_PERSON_TITLED, "name") if not sc.words.isdisjoint(_TITLE_WORDS)
              else ()):
        sc.take(m)
        sc.values.append((m.start(), Value("person", (_fold(m.group("name")),), m.group(0))))
    for m in sc.each(_PLACE, "name"):
        name = m.group("name")
        if _is_calendar(name):
            continue
        words = name.split()
        last = words[-1].lower()
        if (m.group(0).split()[0].lower() in ("to", "from") and len(words) >= 2
                and last not in _PLACE_HEADS and not any(w[0].isdigit() for w in words)):
            continue  # "to Maria Lopez", "from Tom Becker": a person, read below
        sc.add(m, "place", (_fold(name),), "name")
    for m in sc.each(_PERSON_BY, "name"):
        name = m.group("name")
        if _is_calendar(name) or name.split()[-1].lower() in _PLACE_HEADS:
            continue
        sc.add(m, "person", (_fold(name),), "name")
    for m in sc.each(_PERSON_SEQ, "name"):
        name = m.group("name")
        words = name.split()
        if _is_calendar(name) or any(w.isupper() for w in words):
            continue
        if words[-1].lower() in _PLACE_HEADS:
            sc.add(m, "place", (_fold(name),), "name")
        else:
            sc.add(m, "person", (_fold(name),), "name")


def _numbers(sc: _Scanner) -> None:
    for m in sc.each(_YEAR):
        sc.add(m, "date", (int(m.group("y")), None, None, None))
    for m in sc.each(_NUMBER):
        value = _num(m.group(0))
        if value is not None:
            sc.add(m, "number", (value,))
    if sc.words.isdisjoint(_SPELLED):
        return
    for m in _LETTERS.finditer(sc.text):
        n = _SPELLED.get(m.group(0).lower())
        if n is not None and sc.free(m):
            sc.add(m, "number", (float(n),))


def stem(word: str) -> str:
    return _stem(word)


@lru_cache(maxsize=16384)
def _stem(word: str) -> str:
    """A light suffix strip, applied alike to both sides ("closes", "closed", "closing")."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    for suffix in ("ing", "ed", "es", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                break
            w = w[: -len(suffix)]
            if suffix in ("ing", "ed") and len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "ls":
                w = w[:-1]  # planned -> plan
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


_MONTH_WORDS = frozenset([*_MONTHS, *_MONTH_ABBR, *_WEEKDAYS, *(d + "s" for d in _WEEKDAYS)])
_AMOUNT_HINTS = frozenset(["$", "€", "£", "¥"])
_TIME_HINTS = frozenset(["am", "pm", "a", "p", "m", "noon", "midday", "midnight"])
_AMPM = frozenset(["am", "pm", "a", "p", "m"])
_TIME_WORDS = frozenset(["noon", "midday", "midnight"])
_MONTH_NAMES = frozenset([*_MONTHS, *_MONTH_ABBR])
_WEEKDAY_NAMES = frozenset([*_WEEKDAYS, *(d + "s" for d in _WEEKDAYS)])
_TITLE_WORDS = frozenset(t.lower() for t in _TITLES)
_LOWER_WORD = re.compile(r"[a-z]+")
_DIGIT = re.compile(r"\d")
_UPPER = re.compile(r"[A-Z]")
_WORD_PART = re.compile(r"[^\W_]+")


def read(statement: str) -> Reading:
    return _read(statement)


@lru_cache(maxsize=8192)
def _read(statement: str) -> Reading:
    # Each family of patterns runs only when a cheap look at the text says it can match.
    lower = statement.lower()
    words = frozenset(_LOWER_WORD.findall(lower))
    sc = _Scanner(statement, words)
    has_digit = _DIGIT.search(statement) is not None
    if has_digit and (not _AMOUNT_HINTS.isdisjoint(statement)
                      or not words.isdisjoint(_CURRENCY_WORDS)):
        _amounts(sc)
    if (has_digit and ("-" in statement or "/" in statement)) or not words.isdisjoint(
            _MONTH_WORDS):
        _dates(sc)
    if (has_digit and (":" in statement or not words.isdisjoint(_TIME_HINTS))) or (
            "noon" in words or "midnight" in words or "midday" in words):
        _times(sc)
    if has_digit:
        _identifiers(sc)
    if _UPPER.search(statement, 1) is not None:
        _places_and_people(sc)
    if has_digit or not words.isdisjoint(_SPELLED):
        _numbers(sc)
    values: dict[ValueKind, list[Value]] = {}
    for _, v in sorted(sc.values, key=lambda p: p[0]):
        values.setdefault(v.kind, []).append(v)
    masked = sc.masked()
    tokens = [(m.start(), m.group(0)) for m in _TOKEN.finditer(masked)]
    lowered = [(pos, w.lower()) for pos, w in tokens]
    kept = [(pos, w) for pos, w in lowered if w not in _NEUTRAL and w not in _STOP_TIMEZONES]
    ordered = sorted(kept + sc.idents) if sc.idents else kept
    frame = frozenset(_stem(w) if "#" not in w else w for _, w in ordered)
    search_words = tuple(dict.fromkeys(
        t for _, w in ordered for t in _WORD_PART.findall(w.removeprefix("name#")
                                                          .replace("#", " "))))
    return Reading(values={k: tuple(v) for k, v in values.items()}, frame=frame,
                   search_words=search_words, stated=_has_verb(lowered))


def _has_verb(tokens: list[tuple[int, str]]) -> bool:
    """A verb after the sentence's first word: one of _VERBS, or a word with a verb's -s or
    -ed (a first word with them is a subject: "Applications", "Payments")."""
    for pos, w in tokens:
        if pos == 0:
            continue
        if w in _VERBS:
            return True
        if len(w) >= 4 and (w.endswith("ed") or (w.endswith("s") and not w.endswith(
                ("ss", "us", "is")))):
            return True
    return False


def _same_value(a: Value, b: Value) -> bool:
    if a.kind == "date":
        ya, ma, da, wa = a.norm
        yb, mb, db, wb = b.norm
        if ya == "slash" or yb == "slash":
            return a.norm == b.norm
        if wa is not None or wb is not None:
            # A weekday alone can only be compared with another weekday alone.
            return wa == wb if (ma is None and mb is None) else True
        return all(x is None or y is None or x == y for x, y in ((ya, yb), (ma, mb), (da, db)))
    if a.kind == "amount":
        return a.norm[1] == b.norm[1] and (a.norm[0] == b.norm[0])
    if a.kind == "person":
        wa_, wb_ = set(str(a.norm[0]).split()), set(str(b.norm[0]).split())
        return wa_ <= wb_ or wb_ <= wa_  # "Lopez" and "Maria Lopez" name one person
    return a.norm == b.norm


def _year_only(v: Value) -> bool:
    return v.norm[0] is not None and v.norm[1] is None and v.norm[3] is None


def same_subject(a: frozenset[str], b: frozenset[str]) -> bool:
    """Equal frames, or one inside the other sharing at least half of all their words."""
    if not a or not b:
        return False
    if a == b:
        return True
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return small <= large and len(small) * 2 >= len(large)


def judge(a: Reading, b: Reading) -> Judgement:
    if not (a.stated and b.stated):
        return Judgement("compatible", None, "a heading or label, not a statement")
    shared = [k for k in _KIND_ORDER if k in a.values and k in b.values]
    if not shared:
        return Judgement("compatible", None, "no value of the same type")
    if not same_subject(a.frame, b.frame):
        return Judgement("compatible", None, "about another subject or attribute")
    differing = [k for k in shared
                 if not any(_same_value(x, y) for x in a.values[k] for y in b.values[k])]
    if not differing:
        return Judgement("same_fact", None, "the same value restated")
    if "date" in differing and len(differing) > 1 and all(
            _year_only(v) for v in (*a.values["date"], *b.values["date"])):
        # "Revenue was $5M in 2023" and "$6M in 2024": the years scope the figures.
        return Judgement("compatible", None, "about another period")
    kind = differing[0]
    left = ", ".join(v.text.rstrip(".") for v in a.values[kind])
    right = ", ".join(v.text.rstrip(".") for v in b.values[kind])
    return Judgement("contradicts", kind,
                     f"Same subject, different {kind}: {left} vs {right}.")


def judge_statements(a: str, b: str) -> Judgement:
    return judge(read(a), read(b))


def checkable(r: Reading) -> bool:
    """Whether a statement could contradict anything offline: it has a value and a subject."""
    return bool(r.values) and bool(r.frame) and r.stated
