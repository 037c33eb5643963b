"""Commands sent straight to a FalkorDB or Redis server, around the store, for the tests that
set a server up or read it as it is."""

from __future__ import annotations

from typing import Any

import redis


def command(client: redis.Redis, *args: Any) -> Any:
    """The server's reply to ``args``, as redis-py parses it."""
    # redis-py leaves execute_command unannotated.
    return client.execute_command(*args)  # type: ignore[no-untyped-call]
