"""A moment in the memory's past, as a reader names it (``as_of``), and what was true then.

``as_of`` is an ISO 8601 time or epoch milliseconds (ASCII digits only). A time without an
offset is UTC; a date alone ("2026-03-03") means the end of that day in UTC, so "what did we
believe on March 3" includes everything recorded that day. Times are read to the
millisecond, like the times the store writes. Anything else, an empty value or one with
spaces around it included, is refused: a reader who named a time gets that time or a 422,
never "now".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta

from afterhack.errors import InvalidRequest

# [0-9], not \d: Python's \d and int() also read fullwidth and Arabic-Indic digits.
_DIGITS = re.compile(r"-?[0-9]{1,16}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# Year 9999, the last one ISO 8601 writes in four digits.
_MAX_MS = 253_402_300_799_999
_ASKED = "as_of must be an ISO 8601 time (2026-03-03T09:30:00Z) or epoch milliseconds."


def parse_as_of(value: str | int | None) -> int | None:
    """Epoch ms for ``value``; None when none was given. InvalidRequest (422) otherwise."""
    return parse_time(value, "as_of", day_end=True)


def parse_time(value: str | int | None, name: str, *, day_end: bool = False) -> int | None:
    """Epoch ms for a time a request names in its field ``name`` (the forms above; a date
    alone is the start of that day unless ``day_end``)."""
    asked = _ASKED.replace("as_of", name)
    if value is None:
        return None
    if isinstance(value, bool):
        raise InvalidRequest(asked, value=str(value))
    if isinstance(value, int):
        ms = value
    elif not value.isascii() or value != value.strip() or not value:
        raise InvalidRequest(asked, value=value[:64])
    else:
        ms = int(value) if _DIGITS.fullmatch(value) else _iso_ms(value, asked, day_end)
    if not 0 <= ms <= _MAX_MS:
        raise InvalidRequest(asked, value=str(value)[:64])
    return ms


def _iso_ms(text: str, asked: str, day_end: bool) -> int:
    try:
        if _DATE.fullmatch(text):
            day = date.fromisoformat(text)
            at = datetime.combine(day, time(), UTC)
            if day_end:
                at += timedelta(days=1) - timedelta(milliseconds=1)
        else:
            at = datetime.fromisoformat(text.replace("z", "Z"))
            if at.tzinfo is None:
                at = at.replace(tzinfo=UTC)
    except (ValueError, OverflowError) as exc:
        raise InvalidRequest(asked, value=text[:64]) from exc
    return (at - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


def status_at(history: Sequence[str], since: Sequence[int], at: int) -> str | None:
    """The status a node had at ``at`` (the last change at or before it); None if it did not
    exist yet. The rule store/history.status_at writes in Cypher."""
    found: str | None = None
    for status, begun in zip(history, since, strict=True):
        if begun <= at:
            found = status
    return found


def valid_at(valid_from: int | None, valid_until: int | None, at: int) -> bool:
    """Whether what a claim says holds at ``at``: from valid_from (inclusive) until
    valid_until (exclusive), either end open when None."""
    return (valid_from is None or valid_from <= at) and (valid_until is None or at < valid_until)
