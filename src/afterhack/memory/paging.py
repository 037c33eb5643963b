"""Pages of a list: the cursor that says where the next page starts, and the page itself.

A list is ordered by a unique key, (created_at, id) (an audit event's (at, id)), so a cursor
is a position in that order (keyset paging), not a count of items to skip: an item added or
removed between two pages moves no other item across the boundary, so each item present
throughout is read once.
A search is ordered by rank, which a new claim can change; its cursor is a rank position
in one query's ranking (see hybrid.py), bound to that query.

A cursor is opaque to clients (URL-safe base64 of a small JSON object). It names the list
it belongs to, so a cursor of another list, another query or a made-up one is refused with
``invalid_cursor`` (422), never read as something else; its values only ever travel as
query parameters.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from afterhack.errors import InvalidCursor
from afterhack.model.pages import After

PagedList = Literal["claims", "claim_search", "sources", "runs", "decisions", "workspaces",
                    "actions", "conflicts", "audit", "erasures"]

# Bounds of what a cursor may carry: a time in epoch ms that JSON numbers keep exactly, and
# an id no longer than the ids the service makes.
_MAX_AT = 2**53
_MAX_ID = 64
MAX_CURSOR = 512


def _encode(body: dict[str, Any]) -> str:
    raw = json.dumps(body, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(cursor: str, of: PagedList) -> dict[str, Any]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        body = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise InvalidCursor("The cursor is not one this server made.") from None
    if not isinstance(body, dict) or body.get("l") != of:
        raise InvalidCursor(f"The cursor does not belong to this list ({of}).")
    return body


def _int(v: object, top: int) -> int:
    # bool is an int in Python, and never a position.
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= top:
        raise InvalidCursor("The cursor is not one this server made.")
    return v


def after_cursor(of: PagedList, key: After) -> str:
    return _encode({"l": of, "at": key.at, "id": key.id})


def parse_after(of: PagedList, cursor: str | None, offset: int = 0) -> After | None:
    """The position a keyset cursor names (None: the first page)."""
    if cursor is None:
        return None
    if offset:
        raise InvalidCursor("Send cursor or offset, not both.")
    body = _decode(cursor, of)
    if set(body) != {"l", "at", "id"}:
        raise InvalidCursor("The cursor is not one this server made.")
    ident = body["id"]
    # Printable only: a NUL or a lone surrogate cannot travel as a query parameter.
    if not isinstance(ident, str) or not 0 < len(ident) <= _MAX_ID or not ident.isprintable():
        raise InvalidCursor("The cursor is not one this server made.")
    return After(_int(body["at"], _MAX_AT), ident)


def query_key(*parts: object) -> str:
    """A short digest of what a search asked, so its cursor serves only that search."""
    text = json.dumps(parts, separators=(",", ":"), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def rank_cursor(key: str, position: int) -> str:
    return _encode({"l": "claim_search", "q": key, "n": position})


def parse_rank(cursor: str | None, key: str, offset: int, top: int) -> int:
    """The rank position a search cursor names (without one, ``offset``)."""
    if cursor is None:
        return offset
    if offset:
        raise InvalidCursor("Send cursor or offset, not both.")
    body = _decode(cursor, "claim_search")
    if set(body) != {"l", "q", "n"}:
        raise InvalidCursor("The cursor is not one this server made.")
    if body["q"] != key:
        raise InvalidCursor("The cursor belongs to another search (q, mode, status, as_of "
                            "and neighbours must stay the same from page to page).")
    return _int(body["n"], top)


def next_after(of: PagedList, rows: Sequence[Mapping[str, Any]], limit: int,
               at: str = "created_at") -> str | None:
    """The cursor after a page read with ``limit + 1`` rows: None when nothing follows.
    Each row has ``id`` and its time under ``at`` (``created_at``; an audit event's ``at``)."""
    if len(rows) <= limit:
        return None
    last = rows[limit - 1]
    return after_cursor(of, After(int(last[at]), str(last["id"])))
