"""Counting requests per key in FalkorDB's own Redis, shared by every app process."""

from __future__ import annotations

from afterhack.errors import StoreUnavailable
from afterhack.store.client import NOT_ANSWERING, WRITE_OUTCOME_UNKNOWN, Store
from afterhack.store.resp import ReplyError


async def hit(store: Store, bucket: str, window_s: int) -> int:
    """Count one hit on ``bucket`` (a plain Redis key beside the graphs) and return the count.

    INCR and EXPIRE go in one MULTI so a counter never outlives its window. The count is
    the server's own bookkeeping, not a write the caller asked for, and it comes before the
    request's own work: a count whose answer was lost is "not answering", never
    write_outcome_unknown (which tells a caller to read before sending again)."""
    try:
        replies = await store.round_trip(
            bucket, [("MULTI",), ("INCR", bucket), ("EXPIRE", bucket, window_s), ("EXEC",)],
            write=True)
    except StoreUnavailable as exc:
        if exc.details.get("reason") != WRITE_OUTCOME_UNKNOWN:
            raise
        raise StoreUnavailable("The graph store did not answer in time; retry shortly.",
                               reason=NOT_ANSWERING, retry_after_s=2) from exc
    result = replies[-1]
    if isinstance(result, ReplyError) or not isinstance(result, list):
        raise StoreUnavailable() from (result if isinstance(result, ReplyError) else None)
    return int(result[0])
