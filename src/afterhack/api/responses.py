"""The error statuses every route may answer, as OpenAPI documents them (and Schemathesis
checks them): each with the one canonical body (wire/errors.py). What a route answers on
success is its return type, a record of afterhack.model or a page of them (wire/answers.py).
"""

from __future__ import annotations

from typing import Any

from afterhack.wire.errors import ErrorBody

_ERROR_STATUSES = {
    401: "No key, an unknown key or a revoked key (when keys are on).",
    403: "The key's role does not allow this, or the request came from another site's page "
         "(origin_not_allowed).",
    404: "Unknown id, or a workspace this key cannot see.",
    409: "Conflict: stale revision or preview, already corrected, invalid transition.",
    413: "The body or a field is over its limit.",
    421: "The Host header does not name this server (host_not_allowed).",
    422: "Invalid request.",
    429: "Over the per-key rate limit; see Retry-After.",
    431: "The request's headers are too large or too many.",
    502: "The model gateway failed.",
    503: "The graph store is unavailable.",
    504: "The model gateway did not answer in time.",
}
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": text} for status, text in _ERROR_STATUSES.items()
}
