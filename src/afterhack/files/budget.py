"""What a file may cost to read, counted as it is read: pages, elements and paragraphs.

A small file can ask for a great deal of work: a page tree that lists one node hundreds of
times, a content stream that deflates to megabytes of drawing operators, a Word document of
a million empty paragraphs. The readers count what they meet and stop with FileOverBudget
(413, naming the budget and its value) as soon as a count passes its budget, before the
work it would take is done. Time and memory are the reading worker's own limits
(runtime/sandbox.py).

- ``pages``: a PDF's pages, as its page tree lists them.
- ``elements``: what the parser meets: a PDF's content-stream tokens (operands and
  operators), an HTML page's elements, a DOCX package's XML elements, Markdown's tokens.
- ``paragraphs``: blocks read (headings, paragraphs, list items, table rows), the empty
  ones included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from afterhack.errors import FileOverBudget

Counted = Literal["pages", "elements", "paragraphs"]

_WHAT: dict[Counted, str] = {
    "pages": "pages",
    "elements": "elements (the parts its format is built of: tags, drawing operators)",
    "paragraphs": "paragraphs (headings, paragraphs, list items and table rows, the empty "
                  "ones included)",
}


@dataclass(frozen=True, slots=True)
class Budget:
    """The most of each count one file may have (the settings' defaults)."""

    pages: int = 2_000
    elements: int = 1_000_000
    paragraphs: int = 100_000


class Tally:
    """The counts of one file's reading, each checked against its budget as it grows."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.counts: dict[Counted, int] = {"pages": 0, "elements": 0, "paragraphs": 0}

    def add(self, counted: Counted, n: int = 1) -> None:
        total = self.counts[counted] + n
        self.counts[counted] = total
        limit: int = getattr(self.budget, counted)
        if total > limit:
            raise FileOverBudget(
                f"This file has more than {limit:,} {_WHAT[counted]}; a file is read only "
                f"up to that many (its {counted} budget).", budget=counted, limit=limit)
