"""The id of the request being served: an internal error's answer carries it, and the log
lines written while serving that request carry it too, so an operator finds what failed
(the exception, the query the store logged) from what the caller reports.

Each request gets an empty slot when it starts (``begin``); the id itself is made only
when something needs it (an internal error, a log line at WARNING or above), so a request
that logs nothing costs no id.
"""

from __future__ import annotations

import logging
import uuid
from contextvars import ContextVar

# A list, not the id itself: tasks a request starts (the MCP transport runs its server in
# one) get a copy of the context, and share the slot through it.
_SLOT: ContextVar[list[str] | None] = ContextVar("afterhack_request_id", default=None)


def begin() -> None:
    """Start a request: the next id asked for in this context is its own."""
    _SLOT.set([])


def request_id() -> str:
    """The id of the request being served (made on first use); outside any, a fresh one."""
    slot = _SLOT.get()
    if slot is None:
        return uuid.uuid4().hex
    if not slot:
        slot.append(uuid.uuid4().hex)
    return slot[0]


class RequestIdFilter(logging.Filter):
    """Sets ``request`` on every record: `` [<request id>]`` on a record at WARNING or
    above written while serving a request, else empty (for a format's ``%(request)s``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        serving = _SLOT.get() is not None and record.levelno >= logging.WARNING
        record.request = f" [{request_id()}]" if serving else ""
        return True
