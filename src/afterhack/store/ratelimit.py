"""Counting requests per key in FalkorDB's own Redis, shared by every app process."""

from __future__ import annotations

from afterhack.errors import StoreUnavailable
from afterhack.store.client import Store
from afterhack.store.resp import ReplyError


async def hit(store: Store, bucket: str, window_s: int) -> int:
    """Count one hit on ``bucket`` (a plain Redis key beside the graphs) and return the count.

    INCR and EXPIRE go in one MULTI so a counter never outlives its window."""
    replies = await store.round_trip(
        bucket, [("MULTI",), ("INCR", bucket), ("EXPIRE", bucket, window_s), ("EXEC",)],
        write=True)
    result = replies[-1]
    if isinstance(result, ReplyError) or not isinstance(result, list):
        raise StoreUnavailable() from (result if isinstance(result, ReplyError) else None)
    return int(result[0])
