"""What reading a file gives back: its text and where each part of it stands in the original.

The text is made of blocks (a heading, a paragraph, a table row, a list item, a code block)
joined by a blank line, so the chunker ends a sentence at every block's end and never runs a
heading into the paragraph under it. Places tile the text: each gives the page (PDF) or the
heading (Markdown, HTML, DOCX) that a span of it falls under; the blank line after a block
belongs to that block's place. A PDF paragraph that runs over a page break is one block, and
its place names both pages. Text that is kept but is not the document's prose (a table of
contents, a running header or footer, a page number) is a place of its own with an
``aside`` that says which: nothing is made a claim of it.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from dataclasses import dataclass, replace
from typing import Literal

from afterhack.errors import UnreadableFile
from afterhack.files.budget import Budget, Tally

_SEPARATOR = "\n\n"

# What a span of kept text is when it is not prose to make claims of.
Aside = Literal["contents", "running_header", "page_number"]


@dataclass(frozen=True, slots=True)
class Place:
    """``[start, end)`` in code points over the text read, and where that span stands:
    ``page`` (to ``page_end`` when it runs over onto later pages), ``section``, and
    ``aside`` for text that is no prose."""

    start: int
    end: int
    page: int | None
    section: str | None
    page_end: int | None = None
    aside: Aside | None = None

    @property
    def key(self) -> tuple[int | None, str | None, int | None, Aside | None]:
        return self.page, self.section, self.page_end, self.aside


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
        # Places so far, the last one open: merged while the key stays the same.
        self._places: list[Place] = []

    def add(self, block: str, *, page: int | None = None, section: str | None = None,
            page_end: int | None = None, aside: Aside | None = None) -> None:
        self.tally.add("paragraphs")
        block = block.strip()
        if not block:
            return
        if page_end == page:
            page_end = None
        if self._parts:
            self._parts.append(_SEPARATOR)
            self._length += len(_SEPARATOR)
            self._places[-1] = replace(self._places[-1], end=self._length)
        start = self._length
        self._parts.append(block)
        self._length += len(block)
        place = Place(start, self._length, page, section, page_end, aside)
        if self._places and self._places[-1].key == place.key:
            self._places[-1] = replace(self._places[-1], end=self._length)
        else:
            self._places.append(place)

    def document(self, media_type: str, data: bytes,
                 empty: str = "The file has no text to read.") -> ReadDocument:
        if not self._parts:
            raise UnreadableFile(empty, media_type=media_type)
        return ReadDocument(
            media_type=media_type,
            size=len(data),
            sha256=hashlib.sha256(data).hexdigest(),
            text="".join(self._parts),
            places=tuple(self._places),
        )
