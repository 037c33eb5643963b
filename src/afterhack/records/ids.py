"""Ids of new nodes: random version-4 UUIDs (their shape is model/ids.py's)."""

from __future__ import annotations

import os
import uuid


def new_id() -> str:
    return str(uuid.uuid4())


def new_ids(n: int) -> list[str]:
    """``n`` ids like new_id()'s (random version-4 UUIDs), from one read of the OS's randomness:
    an ingest names every fragment and claim, and uuid4() one at a time was a share of it."""
    raw = bytearray(os.urandom(16 * n))
    raw[6::16] = bytes((b & 0x0F) | 0x40 for b in raw[6::16])  # version 4
    raw[8::16] = bytes((b & 0x3F) | 0x80 for b in raw[8::16])  # RFC 4122 variant
    h = raw.hex()
    return [f"{h[i:i + 8]}-{h[i + 8:i + 12]}-{h[i + 12:i + 16]}-"
            f"{h[i + 16:i + 20]}-{h[i + 20:i + 32]}" for i in range(0, 32 * n, 32)]
