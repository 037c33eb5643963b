"""Sizes as a person reads them, in the words both the API's refusals and the CLI use."""

from __future__ import annotations


def size_words(n: int) -> str:
    """A number of bytes in binary units: "8 MiB", "1.5 MiB", "512 KiB", "900 bytes"."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f}".removesuffix(".0") + f" {unit}"
    return f"{n} bytes"
