"""Latency samples and their summaries (milliseconds)."""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from afterhack_tools.bench.records import Summary

T = TypeVar("T")


def percentile(values: list[float], q: float) -> float:
    """Linear-interpolated percentile (q in [0, 100]) of a non-empty list."""
    if not values:
        raise ValueError("no samples")
    s = sorted(values)
    k = (len(s) - 1) * q / 100.0
    lo, hi = math.floor(k), math.ceil(k)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def summary(values: list[float]) -> Summary:
    """{n, p50, p95, mean, min, max}, rounded to microseconds."""
    return {
        "n": len(values),
        "p50": round(percentile(values, 50), 3),
        "p95": round(percentile(values, 95), 3),
        "mean": round(sum(values) / len(values), 3),
        "min": round(min(values), 3),
        "max": round(max(values), 3),
    }


async def timed(fn: Callable[[], Awaitable[T]]) -> tuple[float, T]:
    """Run one call; return (milliseconds, result)."""
    t0 = time.perf_counter_ns()
    out = await fn()
    return (time.perf_counter_ns() - t0) / 1e6, out


async def sample(fn: Callable[[], Awaitable[Any]], n: int, *, warmup: int = 5,
                 before: Callable[[], Awaitable[None]] | None = None) -> list[float]:
    """Milliseconds of n calls after a few unrecorded ones (connections and caches warm);
    ``before`` runs, untimed, ahead of each recorded call (the interleaved floors)."""
    for _ in range(warmup):
        await fn()
    out = []
    for _ in range(n):
        if before is not None:
            await before()
        ms, _ = await timed(fn)
        out.append(ms)
    return out
