"""Dates and times of day, in English, German and Chinese.

A date is (year, month, day, weekday), any part unknown: "June 12", "12 June 2025",
"2025-06-12", "am 15. September", "15.09.2025", "九月十五日" (read after its numerals are
digits: "9月15日"). A time is minutes after midnight: "9 pm" and "21:00", "14:30 Uhr",
"下午3点" are one time; "10 o'clock" and "三点" say no half of the day, and match either.
"""

from __future__ import annotations

import re

from afterhack.facts import months
from afterhack.facts.values import Scanner

_MONTHS = months.MONTHS
_WEEKDAYS = months.WEEKDAYS
_ZH_WEEKDAYS = months.CHINESE_WEEKDAYS
MONTH_WORDS = frozenset(_MONTHS)
WEEKDAY_WORDS = frozenset([*_WEEKDAYS, *(d + "s" for d in _WEEKDAYS), "weekdays", "weekends",
                           "wochentags", "wochenende", "werktags"])
ORDINALS = frozenset(["st", "nd", "rd", "th"])

_MONTH_RE = months.month_pattern(_MONTHS)
_WEEKDAY_RE = months.weekday_pattern()
_ORD = r"(?:st|nd|rd|th)?"
_TZ = r"(?:\s*(?:UTC|GMT|CET|CEST|EET|EST|EDT|CST|CDT|PST|PDT|BST|IST|JST|MEZ|MESZ))?"
# A number starts here: a digit, and no digit, point or colon before it (the look-ahead
# first, so a scan passes over letters fast).
_D = r"(?=\d)(?<![\d.,:])"

_DATE_ISO = re.compile(rf"{_D}(?P<y>\d{{4}})-(?P<m>\d{{1,2}})-(?P<d>\d{{1,2}})(?!\d)")
_DATE_SLASH = re.compile(rf"{_D}(?P<a>\d{{1,2}})/(?P<b>\d{{1,2}})/(?P<y>\d{{2,4}})(?!\d)")
# German numeric dates: "15.09.2025", "15.9.", and "15.09." closing a sentence.
_DATE_DOTTED = re.compile(
    rf"{_D}(?P<d>\d{{1,2}})\.(?P<m>\d{{1,2}})\.(?:(?P<y>\d{{4}}|\d{{2}})(?!\d)|(?=\s|$))")
# Month first ("June 12, 2025"), day first ("12 June", "15. September"), or a month alone
# ("in May 2026"), in one pattern: one pass over the text (the look-ahead lets the scan skip
# what cannot start a date).
_DATE_WORDS = re.compile(
    rf"(?=[A-Za-z0-9])(?:"
    rf"\b(?:{_WEEKDAY_RE},?\s+)?(?P<mon1>{_MONTH_RE})\s+(?P<d1>\d{{1,2}}){_ORD}\b"
    rf"(?:,?\s+(?P<y1>\d{{4}})\b)?"
    rf"|\b(?:{_WEEKDAY_RE},?\s+)?(?:(?:the|den|dem)\s+)?(?P<d2>\d{{1,2}})(?:{_ORD}|\.)\s+"
    rf"(?:of\s+)?(?P<mon2>{_MONTH_RE})(?:,?\s+(?P<y2>\d{{4}})\b)?"
    rf"|\b(?P<mon3>{_MONTH_RE})(?:\s+(?P<y3>\d{{4}}))?\b)")
_WEEKDAY = re.compile(rf"\b(?P<wd>{_WEEKDAY_RE}s?|weekdays|weekends|Wochentags|"
                      r"Wochenende|werktags)\b", re.IGNORECASE)
# A day of the month alone: "on the 25th", "by the 3rd".
_DAY_ORDINAL = re.compile(r"\b(?:the\s+)?(?P<d>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b"
                          r"(?:\s+of\s+(?:the|each|every)\s+month)?")
_ZH_DATE = re.compile(
    r"(?:(?P<y>\d{4})\s*年\s*)?(?P<m>\d{1,2})\s*月(?:\s*(?P<d>\d{1,2})\s*[日号])?")
_ZH_WEEKDAY = re.compile(r"(?:星期|礼拜|周)(?P<wd>[一二三四五六日天])")
_YEAR = re.compile(r"(?=\d)(?<![\d.,])(?P<y>(?:19|20)\d{2})(?![\d.,]\d)(?!\s*(?:%|percent))")

_TIME_12 = re.compile(
    rf"{_D}(?P<h>\d{{1,2}})(?::(?P<m>\d{{2}}))?\s?(?P<ap>[ap])\.?\s?m\b\.?" + _TZ,
    re.IGNORECASE)
_TIME_UHR = re.compile(rf"{_D}(?P<h>[01]?\d|2[0-4])(?:[:.](?P<m>[0-5]\d))?\s*Uhr\b" + _TZ)
_TIME_24 = re.compile(rf"{_D}(?P<h>[01]?\d|2[0-3])[:.h](?P<m>[0-5]\d)(?![\d.,]\d)" + _TZ)
_TIME_OCLOCK = re.compile(rf"{_D}(?P<h>\d{{1,2}})\s*o['’]clock\b", re.IGNORECASE)
# "at 8", "at 8 tonight": an hour with no half of the day.
_TIME_AT = re.compile(r"\bat\s+(?P<h>[1-9]|1[0-2])(?=\s*(?:[.,;!?]|$|on\b|tonight\b|sharp\b|"
                      r"today\b|tomorrow\b))")
_TIME_WORD = re.compile(r"\b(?P<w>noon|midday|midnight|mittags|Mitternacht)\b" + _TZ,
                        re.IGNORECASE)
_ZH_TIME = re.compile(
    r"(?P<part>上午|早上|早晨|凌晨|中午|下午|晚上|傍晚|夜里|夜间)?\s*(?P<h>\d{1,2})\s*[点时]"
    r"(?:\s*(?P<m>\d{1,2})\s*分|(?P<half>半)|整)?")
_ZH_PM = frozenset(("下午", "晚上", "傍晚", "夜里", "夜间"))
# When something was said to happen, relative to when it is said ("last month", "next
# week", "yesterday", "letzte Woche"): no value to compare, and no word of the subject.
_RELATIVE = re.compile(
    r"\b(?:(?:last|next|this|past|coming)\s+(?:week|month|year|weekend|quarter|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|(?:a|one|two|three|few|\d+)\s+(?:days?|weeks?|months?|years?)\s+ago"
    r"|yesterday|today|tomorrow|tonight|recently|lately"
    r"|(?:letzte[nmr]?|nächste[nmr]?|diese[nmr]?|vorige[nmr]?)\s+(?:woche|monat|jahr|wochenende)"
    r"|gestern|heute|morgen|kürzlich|neulich)\b",
    re.IGNORECASE)
RELATIVE_WORDS = frozenset("""last next this past coming ago yesterday today tomorrow tonight
recently lately letzte letzten letzter letztem nächste nächsten nächster nächstem diese
diesen dieser diesem vorige vorigen voriger gestern heute morgen kürzlich neulich""".split())
AMPM = frozenset(["am", "pm", "a", "p", "m"])
TIME_WORDS = frozenset(["noon", "midday", "midnight", "mittags", "mitternacht"])


def _month(name: str) -> int | None:
    return _MONTHS.get(name.lower().rstrip("."))


# Days said as ordinal words ("the twelfth of June", "June the ninth").
_ORDINAL_DAYS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
    .split())}
_ORDINAL_DAYS.update({f"twenty-{w}": 20 + i for w, i in list(_ORDINAL_DAYS.items())[:9]})
_ORDINAL_DAYS.update({"twenty first": 21, "thirtieth": 30, "thirty-first": 31,
                      "thirty first": 31})
_ORD_WORD = "|".join(sorted((re.escape(w) for w in _ORDINAL_DAYS), key=len, reverse=True))
_DATE_ORDINAL_WORDS = re.compile(
    rf"\b(?:(?:the\s+)?(?P<o1>{_ORD_WORD})\s+(?:of\s+)?(?P<mon1>{_MONTH_RE})"
    rf"|(?P<mon2>{_MONTH_RE})\s+(?:the\s+)?(?P<o2>{_ORD_WORD}))\b", re.IGNORECASE)
ORDINAL_DAY_WORDS = frozenset(w for k in _ORDINAL_DAYS for w in k.replace("-", " ").split())
# Several days of one month: "from 8 to 10 October", "8-10 October", "24, 25 and 26
# December", "October 8-10", "vom 8. bis 10. Oktober": each day is a value.
_DAY = r"(?P<{}>[12]?\d|3[01])(?:st|nd|rd|th|\.)?"
_DAY_SPAN = re.compile(
    rf"\b(?:from\s+|vom\s+|between\s+)?(?P<days>{_DAY.format('d1')}"
    rf"(?:\s*(?:-|–|to|until|till|through|bis|and|und|,)\s*(?:the\s+)?[12]?\d(?:st|nd|rd|th|\.)?)+)"
    rf"\s+(?:of\s+)?(?P<mon>{_MONTH_RE})(?:,?\s+(?P<y>\d{{4}}))?\b"
    rf"|\b(?P<mon2>{_MONTH_RE})\s+(?P<days2>{_DAY.format('d2')}"
    rf"(?:\s*(?:-|–|to|until|through|and|,)\s*[12]?\d(?:st|nd|rd|th)?)+)\b(?:,?\s+(?P<y2>\d{{4}}))?",
    re.IGNORECASE)
_DAY_NUMBERS = re.compile(r"[12]?\d|3[01]")

# A time of day said as people say it, the hour read as digits first ("half past 4", "10 to
# 3", "quarter to 8"; "halb 8" is 7:30, "Viertel nach 7" 7:15, "Viertel vor 8" 7:45), and
# the part of the day after a time ("in the afternoon", "nachmittags").
_SPOKEN_EN = re.compile(
    r"\b(?P<m>half|quarter|a\s+quarter|\d{1,2})(?:\s+minutes)?\s+(?P<rel>past|after|to|before)"
    r"\s+(?P<h>1[0-2]|0?[1-9])\b(?!\s*(?:%|percent|days?|weeks?|months?|years?|hours?))",
    re.IGNORECASE)
_SPOKEN_DE = re.compile(
    r"\b(?:(?P<halb>halb)|(?P<vq>dreiviertel)|(?P<m>viertel|\d{1,2})\s+(?P<rel>nach|vor))"
    r"\s+(?P<h>1[0-2]|0?[1-9])\b(?!\s*(?:%|prozent|tage|wochen|monate|jahre|stunden))",
    re.IGNORECASE)
_PART_OF_DAY = re.compile(
    r"\s*(?:uhr\s+)?(?P<p>in\s+the\s+(?:afternoon|evening)|at\s+night|tonight|"
    r"nachmittags|abends|am\s+nachmittag|am\s+abend|in\s+the\s+morning|morgens|früh|"
    r"vormittags|am\s+vormittag|am\s+morgen)\b", re.IGNORECASE)
_LATE = ("afternoon", "evening", "night", "tonight", "nachmittag", "abend")
SPOKEN_TIME_WORDS = frozenset("past after to before half quarter halb viertel dreiviertel "
                              "nach vor".split())


def _part_of_day(text: str, end: int) -> tuple[bool | None, int]:
    """Whether the words after a time put it in the second half of the day (True), the
    first (False) or say nothing (None), and where they end."""
    m = _PART_OF_DAY.match(text, end)
    if m is None:
        return None, end
    p = m.group("p").lower()
    return any(w in p for w in _LATE), m.end()


def _clock(sc: Scanner, start: int, end: int, h: int, minutes: int) -> None:
    late, end = _part_of_day(sc.text, end)
    if late and h < 12:
        h += 12
    sc.add_span(start, end, "time", ((h % 24) * 60 + minutes, late is None and h <= 12))


def spoken_times(sc: Scanner) -> None:
    for m in sc.each(_SPOKEN_EN):
        h = int(m.group("h"))
        word = m.group("m").lower()
        n = 30 if word == "half" else 15 if "quarter" in word else int(word)
        if n >= 60:
            continue
        if m.group("rel").lower() in ("to", "before"):
            h, n = (h - 1) or 12, 60 - n
        _clock(sc, m.start(), m.end(), h, n)
    for m in sc.each(_SPOKEN_DE):
        h = int(m.group("h"))
        if m.group("halb"):
            h, n = (h - 1) or 12, 30
        elif m.group("vq"):
            h, n = (h - 1) or 12, 45
        else:
            word = m.group("m").lower()
            n = 15 if word == "viertel" else int(word)
            if n >= 60:
                continue
            if m.group("rel").lower() == "vor":
                h, n = (h - 1) or 12, 60 - n
        _clock(sc, m.start(), m.end(), h, n)


def day_spans(sc: Scanner) -> None:
    """Several days of one month, each a value: "from 8 to 10 October" gives 8 and 10
    October."""
    for m in sc.each(_DAY_SPAN):
        mon = m.group("mon") or m.group("mon2")
        days = m.group("days") or m.group("days2")
        y = m.group("y") or m.group("y2")
        month = _month(mon)
        found = [int(d) for d in _DAY_NUMBERS.findall(days)]
        if month is None or len(found) < 2 or not all(1 <= d <= 31 for d in found):
            continue
        for d in found:
            sc.add_span(m.start(), m.end(), "date", (int(y) if y else None, month, d, None))
    for m in sc.each(_DATE_ORDINAL_WORDS):
        word = (m.group("o1") or m.group("o2")).lower().replace(" ", "-")
        day = _ORDINAL_DAYS.get(word) or _ORDINAL_DAYS.get(word.replace("-", " "))
        month = _month(m.group("mon1") or m.group("mon2"))
        if day is not None and month is not None:
            sc.add(m, "date", (None, month, day, None))


def dates(sc: Scanner, *, chinese: bool) -> None:
    text = sc.text
    if chinese and "月" in text:
        for m in sc.each(_ZH_DATE):
            y, d = m.group("y"), m.group("d")
            month = int(m.group("m"))
            if 1 <= month <= 12:
                sc.add(m, "date", (int(y) if y else None, month, int(d) if d else None, None))
    if chinese:
        for m in sc.each(_ZH_WEEKDAY):
            sc.add(m, "date", (None, None, None, _ZH_WEEKDAYS[m.group("wd")]))
    if "-" in text:
        for m in sc.each(_DATE_ISO):
            sc.add(m, "date", (int(m.group("y")), int(m.group("m")), int(m.group("d")), None))
    if "/" in text:
        for m in sc.each(_DATE_SLASH):
            sc.add(m, "date", ("slash", m.group("a"), m.group("b"), m.group("y")))
    if "." in text:
        for m in sc.each(_DATE_DOTTED):
            day, month, y = int(m.group("d")), int(m.group("m")), m.group("y")
            if 1 <= day <= 31 and 1 <= month <= 12:
                year = None if y is None else int(y) + (2000 if len(y) == 2 else 0)
                sc.add(m, "date", (year, month, day, None))
    if not sc.words.isdisjoint(MONTH_WORDS):
        day_spans(sc)
        for m in sc.each(_DATE_WORDS):
            n = 1 if m.group("mon1") else (2 if m.group("mon2") else 3)
            mon, y = m.group(f"mon{n}"), m.group(f"y{n}")
            # "May" alone is a month only when capitalised mid-sentence ("in May"), not "may".
            if n == 3 and mon.rstrip(".") in ("May", "Mai") and m.start() == 0:
                continue
            of_month = int(m.group(f"d{n}")) if n < 3 else None
            sc.add(m, "date", (int(y) if y else None, _month(mon), of_month, None))
    if not sc.words.isdisjoint(WEEKDAY_WORDS):
        for m in sc.each(_WEEKDAY):
            sc.add(m, "date", (None, None, None, _weekday(m.group("wd"))))
    if not sc.words.isdisjoint(ORDINALS):
        for m in sc.each(_DAY_ORDINAL):
            sc.add(m, "date", (None, None, int(m.group("d")), None))


def _weekday(word: str) -> str:
    """A day's name; a plural ("on Sundays", "weekdays") says every such day, a scope."""
    w = word.lower()
    if w in _WEEKDAYS:
        return _WEEKDAYS[w]
    if w.endswith("s") and w[:-1] in _WEEKDAYS:
        return _WEEKDAYS[w[:-1]] + "s"
    return {"wochentags": "weekdays", "werktags": "weekdays", "wochenende": "weekends"}.get(
        w, w)


def relative(sc: Scanner) -> None:
    """Set aside a time said relative to the saying ("last month"): no value, no subject."""
    for m in sc.each(_RELATIVE):
        sc.take(m)


def years(sc: Scanner) -> None:
    for m in sc.each(_YEAR):
        sc.add(m, "date", (int(m.group("y")), None, None, None))


def times(sc: Scanner, *, chinese: bool) -> None:
    if chinese:
        for m in sc.each(_ZH_TIME):
            h = int(m.group("h"))
            if h > 24:
                continue
            part = m.group("part")
            minutes = int(m.group("m") or 0) + (30 if m.group("half") else 0)
            if part in _ZH_PM and h < 12:
                h += 12
            ambiguous = part is None and h <= 12
            sc.add(m, "time", ((h % 24) * 60 + minutes, ambiguous))
    if not sc.words.isdisjoint(AMPM):
        for m in sc.each(_TIME_12):
            if int(m.group("h")) > 12:
                continue
            h = int(m.group("h")) % 12 + (12 if m.group("ap").lower() == "p" else 0)
            sc.add(m, "time", (h * 60 + int(m.group("m") or 0), False))
    if not sc.words.isdisjoint(SPOKEN_TIME_WORDS):
        spoken_times(sc)
    if "uhr" in sc.words:
        for m in sc.each(_TIME_UHR):
            _clock(sc, m.start(), m.end(), int(m.group("h")) % 24, int(m.group("m") or 0))
    if ":" in sc.text or "." in sc.text or "h" in sc.text:
        for m in sc.each(_TIME_24):
            sc.add(m, "time", (int(m.group("h")) * 60 + int(m.group("m")), False))
    if "at" in sc.words:
        for m in sc.each(_TIME_AT):
            sc.add(m, "time", ((int(m.group("h")) % 12) * 60, True))
    if "clock" in sc.words:
        for m in sc.each(_TIME_OCLOCK):
            h = int(m.group("h"))
            if 1 <= h <= 12:
                sc.add(m, "time", ((h % 12) * 60, True))
    if not sc.words.isdisjoint(TIME_WORDS):
        for m in sc.each(_TIME_WORD):
            sc.add(m, "time", (0 if m.group("w").lower() in ("midnight", "mitternacht")
                               else 720, False))
