"""Each request waits on the store for at most one deadline in all (store/client.py's
request budget), over however many calls it makes: a request caught behind a frozen
FalkorDB answers 503 within its deadline, not within a deadline per call."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

_READS = frozenset({"GET", "HEAD", "OPTIONS"})


class StoreBudget:
    """ASGI middleware: a read's deadline for GET and HEAD, a write's for the rest."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        store = getattr(scope["app"].state, "store", None) if scope["type"] == "http" else None
        if store is None:
            await self.app(scope, receive, send)
            return
        with store.request_budget(write=scope.get("method") not in _READS):
            await self.app(scope, receive, send)
