"""Month and weekday names in English, German and Chinese: the one table every reader of
dates uses (the detector's dates, its names, and the valid time a statement states).

A month is its number (1 to 12) by every name and usual abbreviation ("September", "Sept",
"Sep.", "Oktober", "Okt", "Jänner"); a weekday is its English name, by its English or German
name or the Chinese numeral that follows 星期, 礼拜 or 周.
"""

from __future__ import annotations

_ENGLISH_MONTHS = ("january february march april may june july august september october "
                   "november december").split()
_GERMAN_MONTHS = ("januar februar märz april mai juni juli august september oktober "
                  "november dezember").split()
# Abbreviations in use beyond a name's first three letters.
_MORE_ABBREVIATIONS = {"sept": 9, "mär": 3, "okt": 10, "dez": 12, "jänner": 1}

MONTHS: dict[str, int] = {
    **{m: i + 1 for i, m in enumerate(_ENGLISH_MONTHS)},
    **{m: i + 1 for i, m in enumerate(_GERMAN_MONTHS)},
    **{m[:3]: i + 1 for i, m in enumerate(_ENGLISH_MONTHS) if m != "may"},
    **_MORE_ABBREVIATIONS,
}
# English month names and their abbreviations alone (a statement in English).
ENGLISH_MONTHS: dict[str, int] = {
    **{m: i + 1 for i, m in enumerate(_ENGLISH_MONTHS)},
    **{m[:3]: i + 1 for i, m in enumerate(_ENGLISH_MONTHS)},
    "sept": 9,
}

ENGLISH_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                    "sunday")
_GERMAN_WEEKDAYS = ("montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag",
                    "sonntag")
# Weekday name -> its English name.
WEEKDAYS: dict[str, str] = {**{d: d for d in ENGLISH_WEEKDAYS},
                            **dict(zip(_GERMAN_WEEKDAYS, ENGLISH_WEEKDAYS, strict=True))}
# The numeral after 星期, 礼拜 or 周 -> the English name.
CHINESE_WEEKDAYS: dict[str, str] = {"一": "monday", "二": "tuesday", "三": "wednesday",
                                    "四": "thursday", "五": "friday", "六": "saturday",
                                    "日": "sunday", "天": "sunday"}


def month_pattern(names: dict[str, int]) -> str:
    """A regular expression alternation of these month names, the longest first, each
    capitalised as written in a sentence, with an optional abbreviation point."""
    ordered = sorted(names, key=len, reverse=True)
    return "(?:" + "|".join(n.capitalize() for n in ordered) + r")\.?"


def weekday_pattern() -> str:
    """A regular expression alternation of the weekday names, capitalised."""
    return "(?:" + "|".join(d.capitalize() for d in WEEKDAYS) + ")"
