"""Reading imports, for the tests of the layers."""

from __future__ import annotations


def is_private(name: str) -> bool:
    """A name for its own module alone: a leading ``_``, and not a dunder."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
