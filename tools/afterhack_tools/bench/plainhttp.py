"""A plain HTTP/1.1 client for latency figures: the standard library's ``http.client`` on
one kept-alive connection, called inline (no thread, no event loop of its own).

The bench's httpx client spends about a millisecond of its own CPU on each request (the
preview breakdown measures it): in a figure of a few milliseconds that is the ruler more
than the API. This client does close to nothing besides the socket calls, so its figures
are the server's time plus loopback. It blocks the bench's event loop while it waits, which
is harmless where nothing else of the bench runs meanwhile (the app is another process).
"""

from __future__ import annotations

import http.client
from collections.abc import Mapping
from urllib.parse import urlencode, urlsplit


class PlainHttpError(RuntimeError):
    """A response that was not 200 OK."""


class PlainHttp:
    def __init__(self, base_url: str, timeout_s: float = 600.0) -> None:
        parts = urlsplit(base_url)
        if parts.scheme != "http" or parts.hostname is None:
            raise ValueError(f"not a plain http URL: {base_url!r}")
        self._conn = http.client.HTTPConnection(parts.hostname, parts.port or 80,
                                                timeout=timeout_s)

    def get(self, path: str, params: Mapping[str, str | int] | None = None) -> bytes:
        """The body of a 200 answer to ``GET path?params``; raises PlainHttpError else."""
        target = f"{path}?{urlencode(params)}" if params else path
        for attempt in (1, 2):
            try:
                self._conn.request("GET", target)
                response = self._conn.getresponse()
                body = response.read()
                break
            except (ConnectionError, http.client.RemoteDisconnected,
                    http.client.CannotSendRequest):
                # The server closed the idle keep-alive connection: open it again, once.
                self._conn.close()
                if attempt == 2:
                    raise
        if response.status != 200:
            raise PlainHttpError(f"GET {path}: {response.status} {body[:300]!r}")
        return body

    def close(self) -> None:
        self._conn.close()
