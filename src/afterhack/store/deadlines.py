"""How long one request may wait on the store in all, over however many calls it makes.

A request caught behind a frozen server (a failed call followed by a check, or several reads
in a row) answers within its deadline, not within a deadline per call. The transport sets a
budget per request (api/deadlines.py); every store call takes its wait from what is left.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass
class WaitBudget:
    seconds: float
    spent: float = 0.0

    @property
    def left(self) -> float:
        return self.seconds - self.spent


_BUDGET: contextvars.ContextVar[WaitBudget | None] = contextvars.ContextVar(
    "afterhack_store_budget", default=None)


def current_budget() -> WaitBudget | None:
    return _BUDGET.get()


@contextlib.contextmanager
def request_budget(seconds: float) -> Iterator[WaitBudget]:
    budget = WaitBudget(seconds)
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)
