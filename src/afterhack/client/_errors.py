"""Errors raised by the client, built from the server's canonical error body.

* ApiError                         any error answer (``.code``, ``.status``, ``.details``)
  + NotFoundError                  404, ``*_not_found``
  + InvalidRequestError            422 ``invalid_request`` (alias ValidationError)
  + PayloadTooLargeError           413
  + UnsupportedMediaTypeError      415 ``unsupported_media_type``: a file of a kind not read
  + UnauthorizedError              401
  + ForbiddenError                 403
  + ConflictError                  409
    - StaleCorrectionPreviewError  ``stale_correction_preview``: preview again, then apply
      - StaleErasurePreviewError   ``stale_erasure_preview``: preview again, then apply
  + RateLimitedError               429
  + UnavailableError               502/503/504: the store or the model gateway
    - ApiConnectionError           the server could not be reached at all (status 0)
  + UnexpectedAnswerError          a success whose body is not the endpoint's record
                                   (``details["errors"]`` says where)
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """The server answered with an error (or could not be reached)."""

    def __init__(self, status: int, code: str, message: str,
                 details: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details: dict[str, Any] = details or {}


class NotFoundError(ApiError):
    pass


class InvalidRequestError(ApiError):
    pass


ValidationError = InvalidRequestError


class PayloadTooLargeError(ApiError):
    pass


class UnsupportedMediaTypeError(ApiError):
    pass


class UnauthorizedError(ApiError):
    pass


class ForbiddenError(ApiError):
    pass


class ConflictError(ApiError):
    pass


class StaleCorrectionPreviewError(ConflictError):
    pass


class StaleErasurePreviewError(StaleCorrectionPreviewError):
    """A stale erasure preview: like a correction's, preview again, then apply."""


class RateLimitedError(ApiError):
    pass


class UnavailableError(ApiError):
    pass


class ApiConnectionError(UnavailableError):
    pass


class UnexpectedAnswerError(ApiError):
    pass


_BY_CODE: dict[str, type[ApiError]] = {
    "stale_correction_preview": StaleCorrectionPreviewError,
    "stale_erasure_preview": StaleErasurePreviewError,
    "invalid_request": InvalidRequestError,
}

_BY_STATUS: dict[int, type[ApiError]] = {
    401: UnauthorizedError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    415: UnsupportedMediaTypeError,
    422: InvalidRequestError,
    429: RateLimitedError,
    502: UnavailableError,
    503: UnavailableError,
    504: UnavailableError,
}


def error_from_body(status: int, body: Any) -> ApiError:
    """The exception for an error answer; tolerant of bodies that are not ours (a proxy's)."""
    err = body.get("error") if isinstance(body, dict) else None
    if isinstance(err, dict) and isinstance(err.get("code"), str):
        code = err["code"]
        message = str(err.get("message") or code)
        details = err.get("details") if isinstance(err.get("details"), dict) else {}
    else:
        code = f"http_{status}"
        message = f"HTTP {status}"
        details = {}
    cls = _BY_CODE.get(code) or _BY_STATUS.get(status)
    if cls is None:
        cls = NotFoundError if code.endswith("_not_found") else ApiError
    return cls(status, code, message, details)
