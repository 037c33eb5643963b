"""Time in tests: waiting on a condition, and the one way a test bounds how long something
took.

A test never sleeps to let something happen: it polls the condition with ``until`` (or waits
on an event), and the timeout there only stops a test that would hang. A product promise
about time (health within a second, a request within its deadline) is measured and reported
by ``afterhack bench``; a test that checks it compares against ``bound(promise)``, a margin
wide enough for a loaded machine, so a slow CI run is not a red test while a broken promise
(a request that waits as long as the store is frozen) still is.
tests/test_timing_bounds.py holds every test to this.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

# How many times its promise a test lets a timed thing take.
MARGIN = 3.0


def bound(promise_s: float) -> float:
    """The most a test lets a thing promised within ``promise_s`` take."""
    return MARGIN * promise_s


def until(condition: Callable[[], T | None], *, timeout_s: float, what: str,
          every_s: float = 0.05) -> T:
    """The condition's first true value, polled every ``every_s``; AssertionError naming
    ``what`` if it is still false after ``timeout_s`` (a guard against a hang, no promise)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout_s} s")
        time.sleep(every_s)


async def until_async(condition: Callable[[], Awaitable[T | None]], *, timeout_s: float, what: str,
                      every_s: float = 0.05) -> T:
    """``until`` for a condition that must be awaited."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = await condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout_s} s")
        await asyncio.sleep(every_s)
