"""Running the CLI in a test."""

from __future__ import annotations

# Wide enough that no table wraps a cell, and no colour codes in the text a test reads.
WIDE = {"COLUMNS": "200", "NO_COLOR": "1"}
