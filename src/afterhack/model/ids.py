"""What an id the server made looks like: a canonical (lowercase) UUID. Anything else names
nothing, and never reaches FalkorDB."""

from __future__ import annotations

import re

_CANONICAL_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def is_uuid(value: str) -> bool:
    return bool(_CANONICAL_UUID.fullmatch(value))
