"""The canonical error body every route answers with, and inputs that try to break out of a
query, for the tests of the error contract."""

from __future__ import annotations

from typing import Any

# Each tries to end a Cypher string, map or comment early, or carries a byte a query text
# cannot hold.
INJECTIONS = [
    "') RETURN 1 //",
    "'}) MATCH (n) DETACH DELETE n //",
    "$x",
    "}",
    "{",
    "a\x00b",
    "`; GRAPH.DELETE x",
    "\\' OR 1=1 --",
    "\ud800",
]


def assert_canonical_error(r: Any, status: int | None = None) -> None:
    """``r`` is a 4xx (``status`` when given) whose body is ``{"error": {code, message,
    details}}``."""
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    if status is not None:
        assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"}, body
    err = body["error"]
    assert set(err) >= {"code", "message", "details"}
    assert isinstance(err["code"], str) and err["code"]
    assert isinstance(err["message"], str) and err["message"]
    assert isinstance(err["details"], dict)
