"""One canonical error body for every error, over HTTP and MCP alike:
``{"error": {"code", "message", "details"}}`` (docs/rules.md, rule 12).

Callers may add keys to ``details`` but never remove these three.

An internal error (500 ``internal_error``: a failure the caller can do nothing about, a
store error among them) says nothing of what failed: its text may hold a query, a path or a
value from the store. The details go to the log, under a request id the answer carries in
``details.request_id``, so an operator can find them from what the caller reports.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from typing_extensions import TypedDict

from afterhack.errors import AfterhackError
from afterhack.wire.request_id import request_id as current_request_id

log = logging.getLogger("afterhack.errors")

INTERNAL_MESSAGE = ("Internal error. The server's log has the details under this request_id; "
                    "quote it when you report the error.")


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


def error_of(exc: BaseException, where: str) -> ErrorBody:
    """The body for ``exc``, met while serving ``where`` (a route, a tool): an error the
    service raised on purpose as it says (details left unset are left out); anything else,
    and any error whose status is 500, as an internal error (internal_error)."""
    if isinstance(exc, AfterhackError) and exc.status != 500:
        return error_body(exc.code, exc.message,
                          {k: v for k, v in exc.details.items() if v is not None})
    return internal_error(exc, where)


def internal_error(exc: BaseException, where: str) -> ErrorBody:
    """The generic body for an internal error, its details logged under the request's id."""
    request_id = current_request_id()
    log.error("internal error, request_id=%s, at %s: %s: %s", request_id, where,
              type(exc).__name__, exc, exc_info=exc)
    return error_body("internal_error", INTERNAL_MESSAGE, {"request_id": request_id})


def request_id_of(body: ErrorBody) -> str | None:
    """The request id an internal error's body carries (None for any other error)."""
    found = body["error"]["details"].get("request_id")
    return found if isinstance(found, str) else None


def issues(errors: Iterable[Mapping[str, object]]) -> list[Issue]:
    """A validator's errors, without the offending input: it may be huge or hold what was
    rejected."""
    out: list[Issue] = []
    for e in errors:
        loc = e.get("loc")
        out.append({"loc": [str(p) for p in loc] if isinstance(loc, (list, tuple)) else [],
                    "type": str(e.get("type")), "msg": str(e.get("msg", ""))})
    return out
