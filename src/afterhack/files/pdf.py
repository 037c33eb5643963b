"""PDF to text, page by page, with pypdf, read as a person reads the printed pages.

A PDF holds lines, not paragraphs: pypdf gives each page's lines in the order the page draws
them. The reader puts them back together:

- **Page furniture is set aside.** A page's first or last line that is its page number (its
  label, as a viewer shows it: ``iv``, ``12``), or a running header or footer (a first or last
  line that comes back on other pages, or one that carries the page's number at its margin and
  comes back on another page), is kept in the text as a block of its own, marked as such, and
  nothing is made a claim of it. So is a table of contents or an index: the lines that end in
  a dot leader and a page number, the lines between them, and the heading just before them.
- **Paragraphs are joined back.** A line much shorter than the document's full lines ends its
  paragraph (the last line of a paragraph, a heading, a caption), and a line that starts with
  a bullet starts one. A paragraph still open at the foot of a page goes on at the head of the
  next (past that page's furniture) when it has not ended its sentence: it is one block, and
  its place names both pages.
- **Words broken at a line's end are joined.** The halves are joined without the hyphen,
  unless the document itself writes the word with a hyphen elsewhere, or uses both halves as
  words of their own (``null-terminated``), or the second half is capitalised after a
  lowercase first (``Hewlett-Packard``): then the hyphen stays. The text read holds the
  joined word, and quotes quote that text. TeX's copyright sign, drawn as a ``c`` in a circle,
  reads ``©``.

Every block knows its page (counted from 1, as a viewer counts, whatever the printed page
labels say). A PDF that shows no text (a scan without a text layer) or that needs a password
is refused in words that say so.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass, field

import pypdf
from pypdf import PasswordType

from afterhack.errors import FileOverBudget, UnreadableFile
from afterhack.files.budget import Tally
from afterhack.files.document import Aside, Blocks, ReadDocument
from afterhack.files.kinds import PDF

# A line shorter than this share of the document's full line length ends its paragraph.
_SHORT_LINE = 0.7
# The line length taken as full: this quantile of the document's line lengths, so that a
# few over-long lines (a URL, a table) do not make every ordinary line look short.
_FULL_QUANTILE = 0.9
_BULLET = re.compile(r"\A[•◦▪‣●○■□]\s")
_CONTROLS = dict.fromkeys(c for c in range(32) if chr(c) not in "\t\n")
# A content stream's tokens, as the PDF syntax splits them: a string, a hex string, a name,
# an array bracket, or a run of regular characters (a number or an operator). Counted in C
# before pypdf parses the stream in Python, which is where a small file's cost lies.
_TOKEN = re.compile(rb"\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f\s]*>|/[^\s/\[\]()<>{}%]*|"
                    rb"[^\s/\[\]()<>{}%]+|[\[\]]")
# A line of a table of contents or an index: a dot leader, then a page number.
_LEADER = re.compile(r"(?:\s?\.){2,}\s*(?:\d+|[ivxlcdm]+)\Z", re.IGNORECASE)
_CONTENTS_HEADING = re.compile(r"\A(?:table of )?contents\Z|\bindex\Z", re.IGNORECASE)
# A run on another page's first or last line that makes a line a running header.
_RUNNING_PAGES = 3
_NUMBERS = re.compile(r"\d+")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_SPLIT_END = re.compile(r"([^\W\d_]+)-\Z")
_SPLIT_START = re.compile(r"\A([^\W\d_]+)")
# A sentence's end: a stop, perhaps in quotes or brackets. A paragraph that does not end
# one at the foot of a page goes on at the head of the next.
_SENTENCE_END = re.compile(r"[.!?:;][\"'”’)\]]*\Z")
_TEX_COPYRIGHT = re.compile(r"(?<![^\W\d_])c©")


def read_pdf(data: bytes, tally: Tally) -> ReadDocument:
    pages = _read_pages(data, tally)
    if not any(page.lines for page in pages):
        raise UnreadableFile(
            "This PDF has no text layer: its pages are images (a scan, say). Run it through "
            "text recognition (OCR) first, or send its text.", media_type=PDF)
    _set_aside_furniture(pages)
    for page in pages:
        _set_aside_contents(page)
    body = [ln for page in pages for ln, aside in page.body if aside is None]
    lengths = sorted(len(ln) for ln in body) or [0]
    full = lengths[min(len(lengths) - 1, int(len(lengths) * _FULL_QUANTILE))]
    flow = _Flow(Blocks(tally), full * _SHORT_LINE, _Words.of(pages))
    for i, page in enumerate(pages):
        following = pages[i + 1].first_prose() if i + 1 < len(pages) else None
        flow.page(page, following)
    return flow.blocks.document(PDF, data)


@dataclass
class _Page:
    number: int  # from 1, as a viewer counts
    label: str  # as the PDF labels it (a printed number, roman or not)
    lines: list[str]
    head: list[tuple[str, Aside]] = field(default_factory=list)
    foot: list[tuple[str, Aside]] = field(default_factory=list)
    # The lines between, each with why it is set aside (None: prose).
    body: list[tuple[str, Aside | None]] = field(default_factory=list)

    def first_prose(self) -> str | None:
        return next((ln for ln, aside in self.body if aside is None), None)


def _read_pages(data: bytes, tally: Tally) -> list[_Page]:
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and reader.decrypt("") == PasswordType.NOT_DECRYPTED:
            raise UnreadableFile(
                "This PDF is protected by a password; send a copy without one.",
                media_type=PDF)
        tally.add("pages", len(reader.pages))
        try:
            labels = list(reader.page_labels)
        except Exception:  # a damaged label tree: the numbers a viewer would count
            labels = []
        pages = []
        for number, page in enumerate(reader.pages, start=1):
            contents = page.get_contents()
            if contents is not None:
                tally.add("elements", len(_TOKEN.findall(contents.get_data())))
            text = (page.extract_text() or "").translate(_CONTROLS)
            lines = [_TEX_COPYRIGHT.sub("©", ln.strip()) for ln in text.splitlines()]
            label = labels[number - 1] if number <= len(labels) else str(number)
            pages.append(_Page(number, label, [ln for ln in lines if ln]))
        return pages
    except (UnreadableFile, FileOverBudget, MemoryError):
        raise
    except Exception as exc:
        # A damaged PDF can make the parser fail in many ways (its own errors, but also
        # KeyError, ValueError, RecursionError on a cycle); to the sender all of them mean
        # that this file cannot be read.
        raise UnreadableFile(
            "This PDF is damaged or uses features that cannot be read; try saving it again "
            "from the program that made it.", media_type=PDF) from exc


# -- furniture: page numbers, running headers and footers -------------------------------------


def _is_page_number(line: str, page: _Page) -> bool:
    bare = line.strip("-–— ").lower()
    bare = re.sub(r"\A(?:page|p\.)\s+", "", bare)
    bare = re.sub(r"\s+(?:of|/)\s+\d+\Z", "", bare)
    return bare in (page.label.lower(), str(page.number))


def _without_number(line: str, page: _Page) -> tuple[str, bool]:
    """The line without the page's number at its start or end, and whether it had one."""
    for number in {page.label, str(page.number)}:
        if line.endswith(" " + number):
            return line[: -len(number) - 1].rstrip(), True
        if line.startswith(number + " "):
            return line[len(number) + 1 :].lstrip(), True
    return line, False


def _running_key(line: str) -> str:
    return _NUMBERS.sub("#", line.lower())


def _set_aside_furniture(pages: list[_Page]) -> None:
    """Move each page's page-number lines and running headers and footers out of its body."""
    edges: list[tuple[list[str], list[str]]] = []
    for page in pages:
        lines = list(page.lines)
        head = [lines.pop(0)] if lines and _is_page_number(lines[0], page) else []
        foot = [lines.pop()] if lines and _is_page_number(lines[-1], page) else []
        page.head = [(ln, "page_number") for ln in head]
        page.foot = [(ln, "page_number") for ln in foot]
        edges.append((lines[:1], lines[-1:]))
        page.body = [(ln, None) for ln in lines]
    seen: Counter[str] = Counter()
    for page, (first, last) in zip(pages, edges, strict=True):
        seen.update({_running_key(_without_number(ln, page)[0]) for ln in first + last})
    for page in pages:
        for at_head in (True, False):
            if not page.body:
                break
            line = page.body[0][0] if at_head else page.body[-1][0]
            text, numbered = _without_number(line, page)
            count = seen[_running_key(text)]
            if len(text) >= 3 and (count >= _RUNNING_PAGES or (numbered and count >= 2)):
                if at_head:
                    page.head.append((line, "running_header"))
                    page.body.pop(0)
                else:
                    page.foot.insert(0, (line, "running_header"))
                    page.body.pop()


def _set_aside_contents(page: _Page) -> None:
    """A table of contents or an index: its leader lines, the lines between them (entries
    wrapped over two lines, an index's letters) and the heading just before them."""
    leaders = [i for i, (ln, _) in enumerate(page.body) if _LEADER.search(ln)]
    if not leaders:
        return
    first, last = leaders[0], leaders[-1]
    # Back over an index's first letter to the heading that names the list, if there is one.
    start = first
    while start > 0 and len(page.body[start - 1][0]) <= 2:
        start -= 1
    if start > 0 and _CONTENTS_HEADING.search(page.body[start - 1][0]):
        first = start - 1
    for i in range(first, last + 1):
        page.body[i] = (page.body[i][0], "contents")


# -- paragraphs and words ---------------------------------------------------------------------


@dataclass
class _Words:
    """The words the document writes whole, outside the halves of line-end breaks."""

    whole: set[str]

    @classmethod
    def of(cls, pages: list[_Page]) -> _Words:
        lines = [ln for page in pages for ln, aside in page.body if aside is None]
        whole: set[str] = set()
        broken_before = False
        for line in lines:
            words = _WORD.findall(line)
            broken = _SPLIT_END.search(line) is not None
            if broken and words:
                words = words[:-1]
            if broken_before and words:
                words = words[1:]
            whole.update(w.lower() for w in words)
            broken_before = broken
        return cls(whole)

    def join(self, head: str, tail: str) -> str:
        """``head-`` at a line's end and ``tail`` at the next's start, as one word."""
        if head[-1:].islower() and tail[:1].isupper():
            return f"{head}-{tail}"
        word, hyphenated = (head + tail).lower(), f"{head}-{tail}".lower()
        if word in self.whole:
            return head + tail
        if hyphenated in self.whole or (head.lower() in self.whole
                                        and tail.lower() in self.whole):
            return f"{head}-{tail}"
        return head + tail


class _Flow:
    """Blocks in reading order: furniture as it comes, paragraphs as they close."""

    def __init__(self, blocks: Blocks, short: float, words: _Words) -> None:
        self.blocks = blocks
        self.short = short
        self.words = words
        self.current = ""
        self.started = 0  # the page the open paragraph started on
        self.number = 0

    def page(self, page: _Page, following: str | None) -> None:
        self.number = page.number
        for line, furniture in page.head:
            self.blocks.add(line, page=page.number, aside=furniture)
        for line, aside in page.body:
            if aside is not None:
                self.close()
                self.blocks.add(line, page=page.number, aside=aside)
            else:
                self.line(line)
        if self.current and not self._goes_on(following):
            self.close()
        for line, furniture in page.foot:
            self.blocks.add(line, page=page.number, aside=furniture)

    def _goes_on(self, following: str | None) -> bool:
        if following is None or _BULLET.match(following):
            return False
        return not _SENTENCE_END.search(self.current)

    def line(self, line: str) -> None:
        if _BULLET.match(line):
            self.close()
        if not self.current:
            self.current, self.started = line, self.number
        else:
            self.current = self._joined(self.current, line)
        if len(line) < self.short:
            self.close()

    def _joined(self, before: str, line: str) -> str:
        head, tail = _SPLIT_END.search(before), _SPLIT_START.match(line)
        if head is None or tail is None:
            return f"{before} {line}"
        word = self.words.join(head.group(1), tail.group(1))
        return before[: head.start()] + word + line[tail.end():]

    def close(self) -> None:
        if self.current:
            self.blocks.add(self.current, page=self.started, page_end=self.number)
        self.current = ""
