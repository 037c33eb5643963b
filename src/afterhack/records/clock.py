"""The time a write records: milliseconds since the epoch."""

from __future__ import annotations

import time


def now_ms() -> int:
    return time.time_ns() // 1_000_000
