"""What reading a file gives back: its text and where each part of it stands in the original.

The text is made of blocks (a heading, a paragraph, a table row, a list item, a code block)
joined by a blank line, so the chunker ends a sentence at every block's end and never runs a
heading into the paragraph under it. Places tile the text: each gives the page (PDF) or the
heading (Markdown, HTML, DOCX) that a span of it falls under; the blank line after a block
belongs to that block's place.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from dataclasses import dataclass

from afterhack.errors import UnreadableFile
from afterhack.files.budget import Budget, Tally

_SEPARATOR = "\n\n"


@dataclass(frozen=True, slots=True)
class Place:
    """``[start, end)`` in code points over the text read, and where that span stands."""

    start: int
    end: int
    page: int | None
    section: str | None


@dataclass(frozen=True, slots=True)
class ReadDocument:
    media_type: str
    size: int
    sha256: str
    text: str
    places: tuple[Place, ...]

    def place_at(self, offset: int) -> Place:
        """The place that holds the code point at ``offset`` (a fragment's start, say)."""
        if not 0 <= offset < len(self.text):
            raise IndexError(offset)
        return self.places[bisect_right(self.places, offset, key=lambda p: p.start) - 1]


class Blocks:
    """Collects the blocks of one document in reading order, with the place of each, and
    counts them (the empty ones too) against the paragraphs budget."""

    def __init__(self, tally: Tally | None = None) -> None:
        self.tally = tally or Tally(Budget())
        self._parts: list[str] = []
        self._length = 0
        # Open places as [start, end, page, section], merged while the key stays the same.
        self._places: list[tuple[int, int, int | None, str | None]] = []

    def add(self, block: str, *, page: int | None = None, section: str | None = None) -> None:
        self.tally.add("paragraphs")
        block = block.strip()
        if not block:
            return
        if self._parts:
            self._parts.append(_SEPARATOR)
            self._length += len(_SEPARATOR)
            start, _, p, s = self._places[-1]
            self._places[-1] = (start, self._length, p, s)
        start = self._length
        self._parts.append(block)
        self._length += len(block)
        if self._places and self._places[-1][2:] == (page, section):
            self._places[-1] = (self._places[-1][0], self._length, page, section)
        else:
            self._places.append((start, self._length, page, section))

    def document(self, media_type: str, data: bytes) -> ReadDocument:
        if not self._parts:
            raise UnreadableFile("The file has no text to read.", media_type=media_type)
        return ReadDocument(
            media_type=media_type,
            size=len(data),
            sha256=hashlib.sha256(data).hexdigest(),
            text="".join(self._parts),
            places=tuple(Place(*p) for p in self._places),
        )
