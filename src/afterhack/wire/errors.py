"""One canonical error body for every error, over HTTP and MCP alike:
``{"error": {"code", "message", "details"}}`` (docs/rules.md, rule 12).

Callers may add keys to ``details`` but never remove these three.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from typing_extensions import TypedDict

from afterhack.errors import AfterhackError


class ErrorDetail(TypedDict):
    code: str
    message: str
    details: dict[str, object]


class ErrorBody(TypedDict):
    error: ErrorDetail


class Issue(TypedDict):
    """One reason a request was invalid, where it was found and what was wrong."""

    loc: list[str]
    type: str
    msg: str


def error_body(code: str, message: str, details: Mapping[str, object] | None = None
               ) -> ErrorBody:
    return {"error": {"code": code, "message": message, "details": dict(details or {})}}


def error_of(exc: AfterhackError) -> ErrorBody:
    """The body for an error the service raised on purpose (details left unset are left out)."""
    return error_body(exc.code, exc.message,
                      {k: v for k, v in exc.details.items() if v is not None})


def issues(errors: Iterable[Mapping[str, object]]) -> list[Issue]:
    """A validator's errors, without the offending input: it may be huge or hold what was
    rejected."""
    out: list[Issue] = []
    for e in errors:
        loc = e.get("loc")
        out.append({"loc": [str(p) for p in loc] if isinstance(loc, (list, tuple)) else [],
                    "type": str(e.get("type")), "msg": str(e.get("msg", ""))})
    return out
