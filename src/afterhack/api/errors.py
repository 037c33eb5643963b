"""Every error answered over HTTP with the canonical body (wire/errors.py).

The status comes from the exception class; this module is the only place that maps
exceptions to HTTP responses. An internal error (500) carries its request id in the body and
in ``X-Request-Id``; its details are in the log only.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from afterhack.errors import AfterhackError
from afterhack.wire import request_id
from afterhack.wire.errors import error_body, error_of, issues, request_id_of

log = logging.getLogger("afterhack.api")

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
}


def error_response(exc: BaseException, where: str,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    """The answer to ``exc``, met serving ``where`` (method and path)."""
    body = error_of(exc, where)
    request_id = request_id_of(body)
    if request_id is not None:
        # Answered by the outermost layer (Starlette's own error middleware), outside
        # ResponseHeaders: the 500 names nosniff itself.
        return JSONResponse(body, status_code=500,
                            headers={**(headers or {}), "X-Request-Id": request_id,
                                     "X-Content-Type-Options": "nosniff"})
    status = exc.status if isinstance(exc, AfterhackError) else 500
    return JSONResponse(body, status_code=status, headers=headers)


def where(request: Request) -> str:
    return f"{request.method} {request.url.path}"


async def _afterhack(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AfterhackError)
    if exc.status > 500:
        log.warning("%s: %s", exc.code, exc.message, exc_info=exc.__cause__ is not None)
    headers = None
    retry_after = exc.details.get("retry_after_s")
    if retry_after is not None:
        headers = {"Retry-After": str(retry_after)}
    return error_response(exc, where(request), headers)


async def _validation(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    # pydantic prefixes a validator's own words with "Value error, ": words for a person
    # read better without it.
    errs = issues(exc.errors())
    for e in errs:
        e["msg"] = e["msg"].removeprefix("Value error, ")
    message = "; ".join(f"{'.'.join(e['loc'][1:]) or 'body'}: {e['msg']}" for e in errs[:5])
    return JSONResponse(error_body("invalid_request", message or "Invalid request.",
                                   {"errors": errs}), status_code=422)


# python-multipart's own limit on one header line of a part (Content-Disposition holds the
# file's name); past it the upload cannot be parsed at all.
MULTIPART_HEADER_BYTES = 4096 + 128


async def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:
        # FastAPI's only 400 is a body it could not decode (not UTF-8, say, or a multipart
        # form it could not parse): that is invalid input like any other, with the one
        # validation status the API documents.
        return JSONResponse(error_body("invalid_request", _unreadable_body(request, exc)),
                            status_code=422)
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
    return JSONResponse(error_body(code, message), status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


def _unreadable_body(request: Request, exc: Exception) -> str:
    content_type = request.headers.get("content-type", "").lower()
    if not content_type.startswith("multipart/form-data"):
        return "The request body could not be read as UTF-8 JSON."
    # The parser's own words are at the root of the chain: Starlette and FastAPI each
    # wrap them in a word of their own ("Invalid multipart data", "error parsing").
    root: BaseException = exc
    while (root.__cause__ or root.__context__) is not None:
        root = root.__cause__ or root.__context__  # type: ignore[assignment]
    why = str(getattr(root, "detail", None) or root).rstrip(".")
    if "header size" in why.lower():
        why += (f": a part's header line, its file name included, may take "
                f"{MULTIPART_HEADER_BYTES} bytes; send the file under a shorter name")
    return f"The upload could not be read as multipart/form-data ({why})."


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    return error_response(exc, where(request))


class RequestIds:
    """The outermost layer: each request served gets its own request id (wire/request_id.py)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            request_id.begin()
        await self.app(scope, receive, send)


def install(app: FastAPI) -> None:
    app.add_exception_handler(AfterhackError, _afterhack)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(Exception, _unexpected)
