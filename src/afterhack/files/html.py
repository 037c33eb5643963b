"""HTML to text: what a reader of the page sees, one block per paragraph.

Parsed by lxml (libxml2), which python-docx needs anyway. Nothing in ``head``, ``script``,
``style`` and the other elements a browser does not show as text is read, nor any element
marked hidden. Block elements end a block, and so does ``<br>``; whitespace runs are one space
except in ``<pre>``. A table row is one block, its cells joined by `` | ``.

A section is what its heading spans: a heading (``h1``-``h6``) names the section of what
follows it, up to the next heading of its rank or above, and never past the end of the
``section``, ``article``, ``aside`` or ``nav`` element that holds it. A heading that skips a
rank below the section it falls in (an ``h3`` right under an ``h1``: an author's name on a
title page) is a styled line, and what follows it stays in that section. In a definition list,
each description is read with its term in front (``fetchmail: Used by the fetchmail
program.``), so a claim made of it names what it is about; a term without a description is
read on its own.

Elements are read up to 2048 levels deep (libxml2's limit with its huge-tree option; 256
without). A page nested deeper is refused: libxml2 stops at that depth, and everything after
it, the text that follows the nested part included, would be lost.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from typing import Protocol

import lxml.etree
import lxml.html

from afterhack.errors import UnreadableFile
from afterhack.files.budget import Tally
from afterhack.files.document import Blocks, ReadDocument
from afterhack.files.kinds import HTML
from afterhack.files.text import decode

_UNSEEN = frozenset({"head", "script", "style", "title", "noscript", "template", "svg", "math",
                     "iframe", "object", "embed", "canvas", "select", "datalist"})
_BLOCK = frozenset({
    "address", "article", "aside", "blockquote", "body", "br", "caption", "center", "dd",
    "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
    "footer", "form", "header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav",
    "ol", "p", "pre", "section", "summary", "table", "tbody", "tfoot", "thead", "tr", "ul",
})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# HTML's sectioning elements: a heading inside one names nothing past its end.
_SECTIONING = frozenset({"section", "article", "aside", "nav"})
_CELLS = frozenset({"td", "th"})
_DISPLAY_NONE = re.compile(r"display\s*:\s*none", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_CELL_SEPARATOR = " | "

_BOM = re.compile(rb"\A(\xef\xbb\xbf|\xff\xfe|\xfe\xff)")
_META_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_XML_DECLARATION = re.compile(r"\A\s*<\?xml[^>]*\?>")
# As browsers do: a page that says Latin-1 or ASCII is read as windows-1252, its superset.
_AS_WINDOWS_1252 = frozenset({"latin_1", "ascii", "iso8859-1"})
_CHARSET_SNIFF = 4096
# Control characters that libxml2 refuses in a string; a browser shows none of them.
_XML_FORBIDDEN = dict.fromkeys(c for c in range(32) if chr(c) not in "\t\n\r")


class Sink(Protocol):
    def add(self, block: str, *, page: int | None = None,
            section: str | None = None) -> None: ...


def read_html(data: bytes, tally: Tally) -> ReadDocument:
    blocks = Blocks(tally)
    walk_html(_decode_page(data), blocks, tally)
    return blocks.document(HTML, data)


def walk_html(source: str, sink: Sink, tally: Tally, section: str | None = None) -> str | None:
    """Add the blocks of an HTML page (or a piece of one) to ``sink``, under ``section``
    until a heading names another; the section in force at its end."""
    source = _XML_DECLARATION.sub("", source, count=1).translate(_XML_FORBIDDEN)
    if not source.strip():
        return section
    # Comments and processing instructions are dropped by the parser, which joins the text
    # around them: the tree walk never sees them, and would lose the text after one.
    # huge_tree lifts libxml2's depth limit from 256 to 2048 levels (and its limit on one
    # text node's size); time and memory are the reading worker's to bound.
    parser = lxml.html.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True)
    try:
        root = lxml.html.document_fromstring(source, parser=parser)
    except lxml.etree.ParserError:  # nothing but comments or whitespace
        return section
    _check_whole(parser)
    walk = _Walk(sink, tally, section)
    walk.run(root)
    return walk.section


def _check_whole(parser: lxml.html.HTMLParser) -> None:
    """Refuse a page the parser stopped reading before its end (nested past its depth
    limit): the tree holds only what came before, and the rest would be lost unsaid."""
    for error in parser.error_log:
        if error.level >= lxml.etree.ErrorLevels.FATAL:
            depth = "depth" in error.message.lower()
            raise UnreadableFile(
                "This page nests its elements deeper than the 2048 levels that are read; "
                "what follows that point would be lost, so the page is not read."
                if depth else
                f"This page could not be read to its end ({error.message}); what follows "
                "that point would be lost, so the page is not read.",
                media_type=HTML, **({"limit": 2048} if depth else {}))


def _decode_page(data: bytes) -> str:
    """The page as text: by its byte order mark, else the charset its meta tag names, else
    UTF-8."""
    if _BOM.match(data):
        return decode(data)
    m = _META_CHARSET.search(data[:_CHARSET_SNIFF])
    if m is None:
        return decode(data)
    label = m.group(1).decode("ascii").lower()
    try:
        # Python's codec registry also holds byte-to-byte codecs (base64, zlib, rot13),
        # which a charset never names.
        codec = codecs.lookup(label).name
        "".encode(codec)
    except LookupError as exc:
        raise UnreadableFile(
            f"The page says its text is in {label!r}, which is not a known encoding.",
            media_type=HTML) from exc
    if codec in _AS_WINDOWS_1252:
        codec = "cp1252"
    elif codec.startswith(("utf-16", "utf-32")):
        # Bytes without a byte order mark are not UTF-16: the tag that says so is wrong, and
        # browsers read such a page as UTF-8.
        return decode(data)
    try:
        return data.decode(codec).replace("\r\n", "\n")
    except UnicodeError as exc:
        where = f"byte {exc.start}" if isinstance(exc, UnicodeDecodeError) else "the text"
        raise UnreadableFile(
            f"The page says its text is in {label}, but {where} is not; save it as UTF-8 "
            "and send it again.", media_type=HTML) from exc


class _Walk:
    """One pass over the tree, start and end events, no recursion (depth is the page's)."""

    def __init__(self, blocks: Sink, tally: Tally, section: str | None) -> None:
        self.blocks = blocks
        self.tally = tally
        self.section = section
        # The rank of the heading that named the section (None: not named by one here).
        self.rank: int | None = None
        # The section in force where each open sectioning element began.
        self.scopes: list[tuple[str | None, int | None]] = []
        self.inline: list[str] = []
        self.pre = 0
        self.block_is_pre = False
        self.cell_depth = 0
        self.cells: list[str] = []
        # Open definition lists, innermost last: their terms not yet given a description,
        # and whether a description came since the last term.
        self.lists: list[_Terms] = []
        # The terms in front of what is read inside each open description (and an empty
        # one for each list nested in one), innermost last.
        self.subjects: list[_Subject] = []
        self.term_open = False

    def run(self, root: lxml.html.HtmlElement) -> None:
        walk = lxml.etree.iterwalk(root, events=("start", "end"))
        for event, el in walk:
            tag = el.tag.lower() if isinstance(el.tag, str) else ""
            if event == "start":
                self.tally.add("elements")
                if tag in _UNSEEN or _hidden(el):
                    walk.skip_subtree()
                    # The end event still comes, and reads the tail; nothing more.
                    continue
                self.start(tag)
                if el.text:
                    self.text(el.text)
            else:
                if not (tag in _UNSEEN or _hidden(el)):
                    self.end(tag)
                if el.tail:
                    self.text(el.tail)
        self.flush()

    def text(self, s: str) -> None:
        self.inline.append(s)
        if self.pre:
            self.block_is_pre = True

    def start(self, tag: str) -> None:
        if tag in _CELLS:
            if self.cell_depth == 0:
                self.inline = []
            self.cell_depth += 1
        elif self.cell_depth:
            if tag in _BLOCK or tag in _HEADINGS:  # a cell's paragraphs run on, spaced
                self.inline.append(" ")
        elif tag in _BLOCK or tag in _HEADINGS:
            self.flush()
        if tag == "pre":
            self.pre += 1
        if tag in _SECTIONING:
            self.scopes.append((self.section, self.rank))
        elif tag == "dl":
            if self.subjects and not self.subjects[-1].used:
                # A description that is a list of its own: its terms are a block before it.
                self.blocks.add(self.subjects[-1].terms, section=self.section)
                self.subjects[-1].used = True
            self.lists.append(_Terms())
            self.subjects.append(_Subject(""))
        elif tag == "dt" and self.lists:
            terms = self.lists[-1]
            if terms.described:  # a new group of terms
                terms.pending, terms.described = [], False
            self.term_open = True
        elif tag == "dd" and self.lists:
            terms = self.lists[-1]
            terms.described = True
            self.subjects.append(_Subject(", ".join(terms.pending)))

    def end(self, tag: str) -> None:
        if tag == "pre":
            self.pre -= 1
        if tag in _CELLS:
            self.cell_depth -= 1
            if self.cell_depth == 0:
                self.cells.append(_collapse("".join(self.inline)))
                self.inline = []
        elif self.cell_depth:
            if tag in _BLOCK or tag in _HEADINGS:
                self.inline.append(" ")
        elif tag == "tr":
            row = _CELL_SEPARATOR.join(c for c in self.cells if c)
            self.cells = []
            self.add(row)
        elif tag in _HEADINGS:
            self.heading(int(tag[1]))
        elif tag == "dt" and self.term_open:
            self.term_open = False
            term = _collapse("".join(self.inline))
            self.inline = []
            if term:
                self.lists[-1].pending.append(term)
        elif tag in _BLOCK:
            self.flush()
        if tag in _SECTIONING and self.scopes:
            self.section, self.rank = self.scopes.pop()
        elif tag == "dd" and self.subjects:
            subject = self.subjects.pop()
            if not subject.used:  # a description with nothing in it: its terms alone
                self.add(subject.terms)
        elif tag == "dl" and self.lists:
            # Terms that no description followed are read on their own.
            for term in self.lists.pop().undescribed():
                self.add(term)
            if self.subjects:
                self.subjects.pop()

    def heading(self, rank: int) -> None:
        heading = _collapse("".join(self.inline))
        self.inline = []
        if not heading:
            return
        if self.rank is not None and rank > self.rank + 1:
            self.add(heading)  # a styled line, not a section of its own
            return
        self.section, self.rank = heading, rank
        self.blocks.add(heading, section=heading)

    def add(self, text: str) -> None:
        """A block, with the terms it describes in front when it is in a description."""
        subject = self.subjects[-1] if self.subjects else None
        if subject is not None and subject.terms and text:
            subject.used = True
            text = f"{subject.terms}{'' if subject.terms.endswith(':') else ':'} {text}"
        self.blocks.add(text, section=self.section)

    def flush(self) -> None:
        if self.cells:  # a row left open by a table that never closed it
            self.add(_CELL_SEPARATOR.join(c for c in self.cells if c))
            self.cells = []
        raw = "".join(self.inline)
        text = raw.strip("\n").rstrip() if self.block_is_pre else _collapse(raw)
        if self.term_open and text:
            return  # a term's own words wait for its end
        self.add(text)
        self.inline = []
        self.block_is_pre = False


@dataclass
class _Subject:
    terms: str
    used: bool = False


@dataclass
class _Terms:
    """One definition list's terms since its last description."""

    pending: list[str] = field(default_factory=list)
    described: bool = False

    def undescribed(self) -> list[str]:
        return [] if self.described else self.pending


def _hidden(el: lxml.html.HtmlElement) -> bool:
    if not isinstance(el.tag, str):
        return False
    if el.get("hidden") is not None:
        return True
    style = el.get("style")
    return style is not None and _DISPLAY_NONE.search(style) is not None


def _collapse(s: str) -> str:
    return _SPACES.sub(" ", s).strip()
