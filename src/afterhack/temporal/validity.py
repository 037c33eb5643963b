"""When what a statement says holds, where the statement says so itself (valid time).

Only simple explicit forms are read, offline and the same whatever model extracted the
claim: a date after "from", "since", "starting", "effective" or "as of" begins it; a date
after "until" or "till" ends it (that day is no longer included), after "through" ends it
with that day included; "from <date> to <date>" gives both. A date is "March 3", "3 March",
"Mar 3", either with ", 2026" or " 2026", or "2026-03-03"; without a year it is the year
of the reference time (when the source was added), or in "from <date> to <date>" the
year the second date names. Times are UTC days. Anything else (a
date in a statement that is not one of these forms: "the launch moves to June 19") leaves
the claim open-ended.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from afterhack.facts.months import ENGLISH_MONTHS

_MONTHS = ENGLISH_MONTHS
_MONTH = "(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DATE = (rf"(?:(?P<{{p}}m1>{_MONTH})\s+(?P<{{p}}d1>\d{{{{1,2}}}})(?:st|nd|rd|th)?"
         rf"(?:,?\s+(?P<{{p}}y1>\d{{{{4}}}}))?"
         rf"|(?P<{{p}}d2>\d{{{{1,2}}}})(?:st|nd|rd|th)?\s+(?P<{{p}}m2>{_MONTH})"
         rf"(?:,?\s+(?P<{{p}}y2>\d{{{{4}}}}))?"
         rf"|(?P<{{p}}iso>\d{{{{4}}}}-\d{{{{2}}}}-\d{{{{2}}}}))")


def _date(p: str) -> str:
    return _DATE.format(p=p)


_RANGE = re.compile(rf"\bfrom\s+{_date('a')}\s+(?:to|until|till|through|-|–)\s+{_date('b')}",
                    re.IGNORECASE)
_BEGIN = re.compile(rf"\b(?:from|since|starting(?:\s+on)?|effective|as\s+of)\s+{_date('a')}",
                    re.IGNORECASE)
_END = re.compile(rf"\b(?P<kind>until|till|through)\s+{_date('b')}", re.IGNORECASE)
# Every form above starts with one of these words: a statement without any states no valid
# time, and most statements are read with this one search instead of all three.
_CUE = re.compile(r"\b(?:from|since|starting|effective|as\s+of|until|till|through)\s",
                  re.IGNORECASE)


def may_cue(statement: str) -> bool:
    """False only when the statement holds none of the cue words in any case: a few
    substring tests on its lowercase, much cheaper than the case-blind search, which
    ingest would otherwise run on every claim. Not ASCII: left to the search, whose case
    folding is Unicode's."""
    if not statement.isascii():
        return True
    low = statement.lower()
    return ("from" in low or "since" in low or "starting" in low or "effective" in low
            or "til" in low or "through" in low or ("as" in low and "of" in low))


def _day(m: re.Match[str], p: str, year: int) -> date | None:
    g = m.groupdict()
    try:
        if g.get(f"{p}iso"):
            return date.fromisoformat(g[f"{p}iso"])
        month = g.get(f"{p}m1") or g.get(f"{p}m2") or ""
        day = g.get(f"{p}d1") or g.get(f"{p}d2") or ""
        y = g.get(f"{p}y1") or g.get(f"{p}y2")
        return date(int(y) if y else year, _MONTHS[month.lower().rstrip(".")], int(day))
    except (ValueError, KeyError):
        return None


def _ms(d: date) -> int:
    return int(datetime(d.year, d.month, d.day, tzinfo=UTC).timestamp() * 1000)


def valid_time(statement: str, reference_ms: int) -> tuple[int | None, int | None]:
    """(valid_from, valid_until) in epoch ms that the statement states; None where it
    states none. An interval that would end before it begins is not read."""
    if not may_cue(statement) or _CUE.search(statement) is None:
        return None, None
    year = datetime.fromtimestamp(reference_ms / 1000, tz=UTC).year
    begin: date | None = None
    end: date | None = None
    through = False
    if (m := _RANGE.search(statement)) is not None:
        end = _day(m, "b", year)
        # "from March 3 to March 10, 2027": the year written once is both dates' year.
        begin = _day(m, "a", end.year if end is not None else year)
        through = "through" in m.group(0).lower()
    else:
        if (m := _BEGIN.search(statement)) is not None:
            begin = _day(m, "a", year)
        if (e := _END.search(statement)) is not None:
            end = _day(e, "b", year)
            through = e.group("kind").lower() == "through"
    if end is not None and through:
        end = end + timedelta(days=1)
    if begin is not None and end is not None and end <= begin:
        return None, None
    return (None if begin is None else _ms(begin)), (None if end is None else _ms(end))
