"""The rate-limit counter is the server's bookkeeping, not a write the caller asked for: when
its answer is lost, the request (a GET as much as a POST, whose own work has not begun)
answers ``not_answering``, never ``write_outcome_unknown``, which tells a caller to read
before sending again."""

from __future__ import annotations

import pytest

from afterhack.errors import StoreUnavailable
from afterhack.store import ratelimit
from afterhack.store.client import NOT_ANSWERING, Store


async def test_a_lost_answer_to_the_counter_is_not_answering_not_an_unknown_write(
        falkordb: str) -> None:
    store = Store(falkordb, deadline_s=0.3)
    pauser = Store(falkordb)
    bucket = "afterhack:rl:{counter-outcome}:0"
    try:
        assert await ratelimit.hit(store, bucket, 120) >= 1  # connected, and counting
        # The server holds every write for a second: the counter's command is sent, and its
        # answer does not come within the deadline.
        await pauser.round_trip(bucket, [("CLIENT", "PAUSE", 1000, "WRITE")], write=False)
        with pytest.raises(StoreUnavailable) as caught:
            await ratelimit.hit(store, bucket, 120)
        assert caught.value.details["reason"] == NOT_ANSWERING
        assert caught.value.details["retry_after_s"] == 2
    finally:
        await pauser.round_trip(bucket, [("CLIENT", "UNPAUSE")], write=False)
        await store.close()
        await pauser.close()
