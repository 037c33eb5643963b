"""Numbers as people write them: digits grouped the English or the German way, number words
in English and German, and Chinese numerals.

Number words and Chinese numerals are rewritten as digits before any value is read, so one
set of patterns reads "three days", "drei Tage", "三天" and "3 days" alike. The rewrite
remembers where each replacement came from, so a value still quotes the words as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SPACED_THOUSANDS = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+")
_EN_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_DE_THOUSANDS = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?")
_DECIMAL_COMMA = re.compile(r"\d+,\d{1,2}")


def parse_digits(text: str) -> float | None:
    """A number in digits: "8,000" and "120.000" are thousands, "2,5" a decimal comma."""
    t = text.strip()
    if _SPACED_THOUSANDS.fullmatch(t):
        t = re.sub(r"\s", "", t)
    elif _EN_THOUSANDS.fullmatch(t):
        t = t.replace(",", "")
    elif _DE_THOUSANDS.fullmatch(t):
        t = t.replace(".", "").replace(",", ".")
    elif _DECIMAL_COMMA.fullmatch(t):
        t = t.replace(",", ".")
    try:
        return float(t)
    except ValueError:
        return None


_EN_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
             "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_EN_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_DE_UNITS = ("null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn "
             "vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn").split()
_DE_TENS = "zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig".split()
# The unit of a German compound: "einundzwanzig", "zweiundvierzig".
_DE_COMPOUND_UNITS = "ein zwei drei vier fünf sechs sieben acht neun".split()

WORD_VALUES: dict[str, int] = {w: i for i, w in enumerate(_EN_UNITS)}
WORD_VALUES.update({w: 20 + 10 * i for i, w in enumerate(_EN_TENS)})
WORD_VALUES.update({w: i for i, w in enumerate(_DE_UNITS)})
WORD_VALUES.update({w: 20 + 10 * i for i, w in enumerate(_DE_TENS)})
WORD_VALUES.update({"dozen": 12, "hundred": 100, "hundert": 100})
_DE_COMPOUND_VALUES = {w: i + 1 for i, w in enumerate(_DE_COMPOUND_UNITS)}

# Words whose presence says a statement may hold a number word (a cheap look first).
NUMBER_WORDS = frozenset(WORD_VALUES)

_EN_U = "one|two|three|four|five|six|seven|eight|nine"
_EN_BELOW_100 = (rf"(?:(?:{'|'.join(_EN_TENS)})(?:[- ](?:{_EN_U}))?|"
                 rf"{'|'.join(reversed(_EN_UNITS[10:]))}|{_EN_U}|zero|a\s+dozen|dozen)")
_DE_BELOW_100 = (rf"(?:(?:{'|'.join(_DE_COMPOUND_UNITS)})und(?:{'|'.join(_DE_TENS)})|"
                 rf"{'|'.join(_DE_TENS)}|{'|'.join(reversed(_DE_UNITS[10:]))}|"
                 rf"eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun)")
_WORDS = re.compile(
    rf"\b(?:(?:a|one|{_EN_U})\s+hundred(?:\s+(?:and\s+)?{_EN_BELOW_100})?|{_EN_BELOW_100}|"
    rf"(?:(?:ein|{'|'.join(_DE_COMPOUND_UNITS[1:])})?hundert(?:und)?)?{_DE_BELOW_100})\b"
    # "one of", "one another": a pronoun, not a count.
    r"(?!\s+(?:of|another)\b)",
    re.IGNORECASE)


_LOWER_TOKEN = re.compile(r"[^\W\d_]+")
_OPENERS = frozenset([*WORD_VALUES, "a", *_DE_COMPOUND_UNITS]) - {"hundred", "hundert"}


def _word_value(words: str) -> int | None:
    w = words.lower()
    total = 0
    if "hundred" in w:
        head, _, w = w.partition("hundred")
        head = head.strip()
        total += 100 * (1 if head in ("a", "") else WORD_VALUES.get(head, 0) or 1)
        w = w.replace("and", " ").strip()
        if not w:
            return total
    if "hundert" in w:
        head, _, w = w.partition("hundert")
        total += 100 * (_DE_COMPOUND_VALUES.get(head, 1) if head else 1)
        w = w.removeprefix("und")
        if not w:
            return total
    if "dozen" in w:
        return total + 12
    if "und" in w and w not in WORD_VALUES:
        unit, _, tens = w.partition("und")
        if unit in _DE_COMPOUND_VALUES and tens in WORD_VALUES:
            return total + _DE_COMPOUND_VALUES[unit] + WORD_VALUES[tens]
        return None
    parts = re.split(r"[- ]+", w)
    values = [WORD_VALUES.get(p) for p in parts]
    if any(v is None for v in values):
        return None
    return total + sum(v for v in values if v is not None)


# Chinese numerals are rewritten where a unit, a measure word or a date part follows (or
# 百分之 comes before): elsewhere 一 and 十 are parts of words ("统一", "十分").
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}
_ZH_RUN = re.compile(
    r"(?<=百分之)[零〇一二两三四五六七八九十百千]+"
    r"|(?<=[点时])[零〇一二两三四五六七八九十]+(?=分)"
    r"|[零〇一二两三四五六七八九十百千]+(?!分之)(?=[万亿]?(?:月|日|号|点|时|天|周|星期|个|年|人|名|"
    r"位|家|台|元|块|美元|欧元|英镑|日元|小时|分钟|秒|次|间|场|公里|千米|米|公斤|千克|克|吨|岁|倍))")


def chinese_value(run: str) -> int | None:
    """二〇二五 -> 2025, 十五 -> 15, 一百二十 -> 120, 三千五百 -> 3500."""
    if not any(c in _ZH_UNITS for c in run):
        digits = [_ZH_DIGITS.get(c) for c in run]
        if any(d is None for d in digits):
            return None
        return int("".join(str(d) for d in digits))
    total = pending = 0
    for c in run:
        if c in _ZH_DIGITS:
            pending = _ZH_DIGITS[c]
        else:
            total += (pending or 1) * _ZH_UNITS[c]
            pending = 0
    return total + pending


@dataclass(frozen=True)
class Rewritten:
    """A statement with its numerals as digits, and where each replacement came from."""

    text: str
    source: str
    # (start, end) in ``text``, (start, end) in ``source``, in order.
    edits: tuple[tuple[int, int, int, int], ...] = ()

    def _old(self, pos: int, start: bool) -> int:
        shift = 0
        for ns, ne, os_, oe in self.edits:
            if start:
                if pos < ns:
                    break
                if pos < ne:
                    return os_
            else:
                if pos <= ns:
                    break
                if pos <= ne:
                    return oe
            shift = oe - ne
        return pos + shift

    def original(self, start: int, end: int) -> str:
        """The words of the source that ``text[start:end]`` was made from."""
        if not self.edits:
            return self.source[start:end]
        return self.source[self._old(start, True):self._old(end, False)]


def as_digits(text: str, *, words: bool, chinese: bool) -> Rewritten:
    """Number words (English, German) and Chinese numerals rewritten as digits."""
    found: list[tuple[int, int, str]] = []
    if words:
        end = 0
        # Tried only where a word that can open a number is: an anchored match is cheap, a
        # search through the alternatives at every position is not.
        for t in _LOWER_TOKEN.finditer(text):
            w = t.group(0).lower()
            if t.start() < end or not (w in _OPENERS or (
                    "und" in w and w.endswith(("zig", "ßig")))):
                continue
            m = _WORDS.match(text, t.start())
            if m is None:
                continue
            value = _word_value(m.group(0))
            if value is not None:
                found.append((m.start(), m.end(), str(value)))
                end = m.end()
    if chinese:
        for m in _ZH_RUN.finditer(text):
            value = chinese_value(m.group(0))
            if value is not None:
                found.append((m.start(), m.end(), str(value)))
    if not found:
        return Rewritten(text, text)
    found.sort()
    out: list[str] = []
    edits: list[tuple[int, int, int, int]] = []
    pos = new_pos = 0
    for s, e, digits in found:
        if s < pos:
            continue
        out.append(text[pos:s])
        new_pos += s - pos
        out.append(digits)
        edits.append((new_pos, new_pos + len(digits), s, e))
        new_pos += len(digits)
        pos = e
    out.append(text[pos:])
    return Rewritten("".join(out), text, tuple(edits))
