"""A typed Python client for the afterhack HTTP API.

    from afterhack.client import Client

    with Client("http://127.0.0.1:8000", key=None, workspace=ws_id) as c:
        claim = c.add_source("The launch is on June 12.", title="Plan")["claims"][0]
        preview = c.preview_correction(claim["id"], "The launch is on June 19.")
        result = c.apply_preview(preview)   # the preview's revisions; stale -> 409 error

Each method returns the record its route answers (a TypedDict of afterhack.model or
afterhack.wire, checked on receipt). Errors are raised as ``ApiError`` subclasses built from
the canonical error body.
"""

from afterhack.client._client import DEFAULT_URL, AsyncClient, Client
from afterhack.client._errors import (
    ApiConnectionError,
    ApiError,
    ConflictError,
    ForbiddenError,
    InvalidRequestError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitedError,
    StaleCorrectionPreviewError,
    StaleErasurePreviewError,
    UnauthorizedError,
    UnavailableError,
    UnexpectedAnswerError,
    UnsupportedMediaTypeError,
    ValidationError,
    error_from_body,
)

__all__ = [
    "DEFAULT_URL",
    "ApiConnectionError",
    "ApiError",
    "AsyncClient",
    "Client",
    "ConflictError",
    "ForbiddenError",
    "InvalidRequestError",
    "NotFoundError",
    "PayloadTooLargeError",
    "RateLimitedError",
    "StaleCorrectionPreviewError",
    "StaleErasurePreviewError",
    "UnauthorizedError",
    "UnavailableError",
    "UnexpectedAnswerError",
    "UnsupportedMediaTypeError",
    "ValidationError",
    "error_from_body",
]
