"""Quantities: amounts of money, percentages, durations, measures and counts.

Each is read into its base unit so wording and unit do not matter: "$12,000", "USD 12k"
and "12,000 dollars" are one amount; "120.000 Euro", "3 Mio. €" and "12万元" read the German
and Chinese way; "three days" and "72 hours" one duration; "2 km" and "2,000 metres" one
length; "20%", "twenty percent", "20 Prozent" and "百分之二十" one percentage. Money in two
currencies, or a length against a weight, cannot be compared.
"""

from __future__ import annotations

import re

from afterhack.facts.numerals import parse_digits
from afterhack.facts.values import Scanner

_D = r"(?=\d)(?<![\d.,:A-Za-z])"  # a number starts here (the digit looked at first)
_NUM = r"(?:\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d.,]\d)|\d+(?:[.,]\d+)*)"

_SCALES = {"k": 1e3, "thousand": 1e3, "tausend": 1e3, "tsd": 1e3, "m": 1e6, "mn": 1e6,
           "mio": 1e6, "million": 1e6, "millions": 1e6, "millionen": 1e6, "bn": 1e9, "b": 1e9,
           "billion": 1e9, "mrd": 1e9, "milliarde": 1e9, "milliarden": 1e9,
           "万": 1e4, "亿": 1e8, "千": 1e3, "百万": 1e6}
_SCALE_RE = (r"(?:\s?(?:k|K|m|M|mn|bn|b)\b|\s(?:thousand|million|billion|Tausend|Millionen|"
             r"Million|Milliarden|Milliarde)\b|\s(?:Tsd|Mio|Mrd)\b\.?)?")
_CURRENCY = {"$": "usd", "us$": "usd", "€": "eur", "£": "gbp", "¥": "jpy", "￥": "cny",
             "usd": "usd", "dollar": "usd", "dollars": "usd", "eur": "eur", "euro": "eur",
             "euros": "eur", "gbp": "gbp", "pound": "gbp", "pounds": "gbp", "jpy": "jpy",
             "yen": "jpy", "chf": "chf", "franc": "chf", "francs": "chf", "cny": "cny",
             "rmb": "cny", "yuan": "cny", "元": "cny", "块": "cny", "人民币": "cny",
             "美元": "usd", "欧元": "eur", "英镑": "gbp", "日元": "jpy"}
_CUR_BEFORE = r"(?:US\$|[$€£¥￥]|USD|EUR|GBP|CHF|JPY|CNY|RMB)"
_CUR_AFTER = (r"(?:USD|EUR|GBP|JPY|CHF|CNY|RMB|US dollars?|dollars?|euros?|Euro|pounds?|yen|"
              r"francs?|yuan|[$€£])")
_AMOUNT_BEFORE = re.compile(
    rf"(?<![A-Za-z])(?P<cur>{_CUR_BEFORE})\s?(?P<num>{_NUM})(?P<scale>{_SCALE_RE})")
_AMOUNT_AFTER = re.compile(
    rf"{_D}(?P<num>{_NUM})(?P<scale>{_SCALE_RE})\s?(?P<cur>{_CUR_AFTER})(?![A-Za-z])",
    re.IGNORECASE)
_ZH_AMOUNT = re.compile(
    rf"(?:(?P<pre>人民币|￥|¥)\s*)?{_D}(?P<num>{_NUM})\s*(?P<scale>百万|万|亿|千)?\s*"
    r"(?P<cur>元|块|人民币|美元|欧元|英镑|日元)?")
AMOUNT_HINTS = frozenset("$€£¥￥元块")

_PERCENT = re.compile(
    rf"{_D}(?P<num>{_NUM})\s?(?:%|％|percent\b|per\s?cent\b|pct\b|Prozent\b|v\.\s?H\.)",
    re.IGNORECASE)
_ZH_PERCENT = re.compile(r"百分之\s*(?P<num>\d+(?:\.\d+)?)")
PERCENT_HINTS = frozenset(["percent", "per", "pct", "prozent"])

_DAY, _WEEK = 86400.0, 604800.0
_MONTH, _YEAR = 2629746.0, 31556952.0  # the mean Gregorian month and year
_DURATION_UNITS: dict[str, tuple[str, float]] = {}
for _names, _size in (
        (("second", "seconds", "sec", "secs", "sekunde", "sekunden", "秒", "秒钟"), 1.0),
        (("minute", "minutes", "min", "mins", "minute", "minuten", "分钟"), 60.0),
        (("hour", "hours", "hr", "hrs", "stunde", "stunden", "小时", "个小时", "钟头"), 3600.0),
        (("day", "days", "tag", "tage", "tagen", "天", "日"), _DAY),
        (("week", "weeks", "woche", "wochen", "周", "星期", "个星期", "个礼拜"), _WEEK),
        (("month", "months", "monat", "monate", "monaten", "个月"), _MONTH),
        (("year", "years", "yr", "yrs", "jahr", "jahre", "jahren", "年"), _YEAR)):
    for _n in _names:
        _DURATION_UNITS[_n] = ("calendar", _size)
for _n in ("business day", "business days", "working day", "working days", "werktag",
           "werktage", "werktagen", "arbeitstag", "arbeitstage", "arbeitstagen", "工作日",
           "个工作日"):
    _DURATION_UNITS[_n] = ("business_days", 1.0)
_UNIT_RE = (r"(?:business\s+days?|working\s+days?|seconds?|secs?|minutes?|mins?|hours?|"
            r"hrs?|days?|weeks?|months?|years?|yrs?|Sekunden?|Minuten?|Stunden?|Werktagen?|"
            r"Werktage|Arbeitstagen?|Arbeitstage|Tagen?|Tage|Wochen?|Monaten?|Monate|Jahren?|"
            r"Jahre)")
# "a/an/ein" stand for one only where a duration is expected: "runs for an hour" is one
# hour, "$5,000 a month" is a rate.
_ARTICLE = r"an?|one|ein|eine|einen|einem|einer"
_DURATION = re.compile(
    rf"(?:(?P<half_pre>half\s+an?)|{_D}(?P<num>\d+(?:[.,]\d+)?)|(?P<art>\b(?:{_ARTICLE})))"
    rf"(?:\s+and\s+a\s+half)?\s*-?\s*(?P<unit>{_UNIT_RE})\b(?P<half>\s+and\s+a\s+half)?",
    re.IGNORECASE)
_DURATION_CONTEXT = frozenset("""
for takes take took taking lasts last lasted lasting runs run ran about around roughly
nearly almost over under than within in is was be are were just only least most whole
full dauert dauerte für nach innerhalb binnen etwa rund ca beträgt
""".split())
_ZH_DURATION = re.compile(
    r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>个工作日|工作日|个小时|小时|钟头|分钟|秒钟|秒|天|个星期|星期|周|个月|年)"
    r"(?!\s*\d+\s*月)")
DURATION_WORDS = frozenset(w for u in _DURATION_UNITS if u.isascii() for w in u.split())

# Measures, to a base unit per dimension: metres, kilograms, bytes, litres.
_MEASURES: dict[str, tuple[str, float]] = {}
for _dim, _table in (
        ("m", {("km", "kilometre", "kilometres", "kilometer", "kilometers", "公里", "千米"): 1e3,
               ("m", "metre", "metres", "meter", "meters", "米"): 1.0,
               ("cm", "centimetre", "centimetres", "centimeter", "centimeters", "厘米"): 0.01,
               ("mm", "millimetre", "millimetres", "millimeter", "millimeters", "毫米"): 0.001,
               ("mi", "mile", "miles", "meile", "meilen"): 1609.344}),
        ("kg", {("t", "tonne", "tonnes", "ton", "tons", "tonne", "tonnen", "吨"): 1e3,
                ("kg", "kilo", "kilos", "kilogram", "kilograms", "kilogramm", "公斤", "千克"): 1.0,
                ("g", "gram", "grams", "gramm", "克"): 1e-3,
                ("lb", "lbs"): 0.45359237}),
        ("B", {("tb", "terabyte", "terabytes"): 1e12, ("gb", "gigabyte", "gigabytes"): 1e9,
               ("mb", "megabyte", "megabytes"): 1e6, ("kb", "kilobyte", "kilobytes"): 1e3}),
        ("l", {("l", "litre", "litres", "liter", "liters", "升"): 1.0,
               ("ml", "millilitre", "millilitres", "milliliter", "milliliters", "毫升"): 1e-3})):
    for _names_, _factor in _table.items():
        for _n in _names_:
            _MEASURES[_n] = (_dim, _factor)
_MEASURE = re.compile(
    rf"{_D}(?P<num>{_NUM})(?P<scale>{_SCALE_RE})\s?(?P<unit>"
    + "|".join(sorted((re.escape(u) for u in _MEASURES if u.isascii()), key=len, reverse=True))
    + r")(?![A-Za-z\d])", re.IGNORECASE)
_ZH_MEASURE = re.compile(
    r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>"
    + "|".join(sorted((u for u in _MEASURES if not u.isascii()), key=len, reverse=True))
    + r")")
MEASURE_WORDS = frozenset(u for u in _MEASURES if u.isascii())

_NUMBER = re.compile(rf"{_D}(?P<num>{_NUM})(?P<scale>\s(?:thousand|million|billion)\b|[kK]\b)?"
                     r"(?![A-Za-z\d])")


def _scaled(num: str, scale: str | None) -> float | None:
    value = parse_digits(num)
    if value is None:
        return None
    key = (scale or "").strip().rstrip(".").lower()
    return value * _SCALES.get(key, 1.0)


def amounts(sc: Scanner, *, chinese: bool) -> None:
    for pat in (_AMOUNT_BEFORE, _AMOUNT_AFTER):
        for m in sc.each(pat):
            value = _scaled(m.group("num"), m.group("scale"))
            if value is None:
                continue
            cur = m.group("cur").lower()
            if cur.startswith("us "):
                cur = "usd"
            currency = _CURRENCY.get(cur, cur)
            if currency == "jpy" and chinese:
                currency = "cny"  # ¥ in Chinese text is the yuan
            sc.add(m, "amount", (currency, value))
    if chinese:
        for m in sc.each(_ZH_AMOUNT):
            pre, cur = m.group("pre"), m.group("cur")
            if pre is None and cur is None:
                continue
            value = _scaled(m.group("num"), m.group("scale"))
            if value is not None:
                sc.add(m, "amount", (_CURRENCY[cur or pre], value))


def percentages(sc: Scanner, *, chinese: bool) -> None:
    for m in sc.each(_PERCENT):
        value = parse_digits(m.group("num"))
        if value is not None:
            sc.add(m, "percentage", (value,))
    if chinese:
        for m in sc.each(_ZH_PERCENT):
            sc.add(m, "percentage", (float(m.group("num")),))


def _preceding_word(text: str, pos: int) -> str:
    m = re.search(r"([^\W\d_]+)\W*$", text[:pos])
    return m.group(1).lower() if m else ""


def durations(sc: Scanner, *, chinese: bool) -> None:
    for m in sc.each(_DURATION):
        unit = re.sub(r"\s+", " ", m.group("unit").lower())
        base, size = _DURATION_UNITS[unit]
        half = bool(m.group("half")) or " and a half" in m.group(0).lower()
        if m.group("half_pre"):
            count = 0.5
        elif m.group("num"):
            n = parse_digits(m.group("num"))
            if n is None:
                continue
            count = n
        else:
            if _preceding_word(sc.text, m.start()) not in _DURATION_CONTEXT:
                continue  # "$5,000 a month": a rate, read with the subject's words
            count = 1.0
        count += 0.5 if half else 0.0
        sc.add(m, "duration", (base, count * size, size >= _MONTH))
    if chinese:
        for m in sc.each(_ZH_DURATION):
            unit = m.group("unit")
            n = float(m.group("num"))
            if unit == "年" and n >= 1000:
                continue  # a year of the calendar
            base, size = _DURATION_UNITS[unit]
            sc.add(m, "duration", (base, n * size, size >= _MONTH))


def measures(sc: Scanner, *, chinese: bool) -> None:
    for m in sc.each(_MEASURE):
        value = _scaled(m.group("num"), m.group("scale"))
        unit = m.group("unit")
        # "2 m" is a length, "$2M" an amount (read before); "2 M" or "2 T" is neither.
        key = unit.lower() if unit.lower() not in ("m", "t", "g", "l") or unit.islower() \
            else ""
        if value is None or key not in _MEASURES:
            continue
        dim, factor = _MEASURES[key]
        sc.add(m, "number", (dim, value * factor))
    if chinese:
        for m in sc.each(_ZH_MEASURE):
            dim, factor = _MEASURES[m.group("unit")]
            sc.add(m, "number", (dim, float(m.group("num")) * factor))


def numbers(sc: Scanner) -> None:
    for m in sc.each(_NUMBER):
        value = _scaled(m.group("num"), m.group("scale"))
        if value is not None:
            sc.add(m, "number", ("", value))
