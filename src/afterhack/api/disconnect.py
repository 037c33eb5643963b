"""Work that stops when its client goes away.

A request's handler runs on after its client hangs up: the server does not cancel it. For
work that is costly and whose answer only that client wants (reading an uploaded file), the
handler watches for the client's disconnect itself and cancels the work when it comes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from starlette.requests import Request

P = ParamSpec("P")
T = TypeVar("T")


class ClientGone(Exception):
    """Raised in place of the result when the client went away before the work ended."""


async def _disconnect(request: Request) -> None:
    # Once the body has been read, the next message a server sends is the disconnect (or
    # nothing until the response is sent).
    while (await request.receive())["type"] != "http.disconnect":
        pass


def until_gone(request: Request,
               work: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """``work`` cancelled when ``request``'s client disconnects (ClientGone is raised then).
    Only for a request whose body has been read in full."""

    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        task = asyncio.ensure_future(work(*args, **kwargs))
        gone = asyncio.ensure_future(_disconnect(request))
        try:
            await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
            if not task.done() and gone.exception() is not None:
                # Not a disconnect: the server could not say. The work goes on.
                await task
        finally:
            gone.cancel()
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if task.cancelled():
            raise ClientGone()
        return task.result()

    return run
