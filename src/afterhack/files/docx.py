"""DOCX to text with python-docx: the body's paragraphs and tables, in document order.

A paragraph whose style is a heading (``Title``, ``Heading 1`` to ``Heading 9``, or a style
built on one of them) names the section of what follows it.

A table row is read as one statement that names its columns. When the table's first row is a
header (marked as one, all bold, or words above rows that all hold a number), each later row
reads ``Year: 2024; Visitors: 21,300.``; without one, a row of two cells reads as its first
cell saying its second (``Visitors in 2024: 21,300.``), and a wider row as its cells joined
by ``; ``. A header row itself reads as its cells joined by `` | ``. A cell spanning several
columns counts once; a table inside a cell is read into that cell.

Headers, footers, footnotes and comments are not read: they are not the body a reader
quotes from.

The package's XML elements are counted before python-docx parses any of it. A part that
declares a document type (entities) is refused: Word never writes one, and the text after an
entity python-docx leaves unresolved would be lost.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

import docx
from docx.document import Document as DocxDocument
from docx.enum.style import WD_STYLE_TYPE
from docx.styles.style import CharacterStyle
from docx.table import Table
from docx.text.paragraph import Paragraph

from afterhack.errors import FileOverBudget, UnreadableFile
from afterhack.files.budget import Tally
from afterhack.files.document import Blocks, ReadDocument
from afterhack.files.kinds import DOCX

_HEADING_STYLE = re.compile(r"(?:heading [1-9]|title)", re.IGNORECASE)
# How far up a style's "based on" chain a heading style is looked for.
_STYLE_DEPTH = 8
# The package's parts together, unpacked: past this a small upload would unpack into more
# memory than any real document needs (a ZIP bomb).
MAX_UNPACKED_BYTES = 64 << 20
_CELL_SEPARATOR = " | "
_SENTENCE_END = (".", "!", "?", "。")
_DIGIT = re.compile(r"\d")
# A paragraph's style id, in WordprocessingML: <w:p><w:pPr><w:pStyle w:val="..."/>.
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_STYLE_PATH = f"{{{_W}}}pPr/{{{_W}}}pStyle"
_VAL = f"{{{_W}}}val"
# A row marked to repeat as the table's header on every page: <w:tr><w:trPr><w:tblHeader/>.
_HEADER_PATH = f"{{{_W}}}trPr/{{{_W}}}tblHeader"


def read_docx(data: bytes, tally: Tally) -> ReadDocument:
    _check_package(data, tally)
    try:
        document = docx.Document(io.BytesIO(data))
        is_heading = _heading_test(document)
        blocks = Blocks(tally)
        section: str | None = None
        for item in document.iter_inner_content():
            if isinstance(item, Table):
                for row in _rows(item):
                    blocks.add(row, section=section)
                continue
            text = item.text
            if is_heading(item) and text.strip():
                section = " ".join(text.split())
            blocks.add(text, section=section)
    except (FileOverBudget, MemoryError):
        raise
    except Exception as exc:
        # A damaged package fails inside python-docx or lxml in many ways (a missing part,
        # bad XML, a broken relationship); to the sender all of them mean the same.
        raise UnreadableFile(
            "This Word document is damaged and cannot be read; try saving it again from "
            "the program that made it.", media_type=DOCX) from exc
    return blocks.document(
        DOCX, data, empty="This Word document is empty: it holds no text to read.")


def _check_package(data: bytes, tally: Tally) -> None:
    """The unpacked size, the XML elements of every part (counted on the bytes: in XML a
    ``<`` always opens markup) and no part declaring a document type, before any parsing."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
            unpacked = sum(info.file_size for info in infos)
            if unpacked > MAX_UNPACKED_BYTES:
                raise UnreadableFile(
                    f"This Word document unpacks to {unpacked >> 20} MiB, more than the "
                    f"{MAX_UNPACKED_BYTES >> 20} MiB that are read.", media_type=DOCX)
            for info in infos:
                if info.filename.endswith((".xml", ".rels")):
                    xml = z.read(info)
                    if b"<!DOCTYPE" in xml:
                        raise UnreadableFile(
                            f"This Word document declares entities ({info.filename} has a "
                            "document type declaration), which Word never writes; text "
                            "after an entity would be lost, so it is not read.",
                            media_type=DOCX)
                    tally.add("elements", xml.count(b"<") - xml.count(b"</"))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, zlib.error,
            NotImplementedError, RuntimeError, ValueError) as exc:
        raise UnreadableFile("This Word document is damaged and cannot be opened.",
                             media_type=DOCX) from exc


def _heading_test(document: DocxDocument) -> Callable[[Paragraph], bool]:
    """Whether a paragraph is a heading, told by the id of its style.

    The id is read from the paragraph's XML: ``Paragraph.style`` resolves a paragraph
    without a style of its own by scanning every style of the document, once per paragraph,
    which made that one lookup most of the time a document took to read.
    """
    styles = {s.style_id: s for s in document.styles if s.type == WD_STYLE_TYPE.PARAGRAPH}
    headings = {i for i, s in styles.items() if _heading_style(s)}
    default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
    default_is_heading = _heading_style(default)

    def test(paragraph: Paragraph) -> bool:
        # The paragraph's XML through public APIs: ParagraphFormat proxies the paragraph's
        # own element (ElementProxy.element), whose pPr/pStyle names its style.
        found = paragraph.paragraph_format.element.find(_STYLE_PATH)
        style_id = None if found is None else found.get(_VAL)
        if style_id is None or style_id not in styles:
            return default_is_heading  # as python-docx does: the document's default style
        return style_id in headings
    return test


def _heading_style(style: CharacterStyle | None) -> bool:
    for _ in range(_STYLE_DEPTH):
        if style is None:
            return False
        if style.name and _HEADING_STYLE.fullmatch(style.name):
            return True
        style = style.base_style
    return False


class _Cell(Protocol):
    def iter_inner_content(self) -> Iterator[Paragraph | Table]: ...

    @property
    def paragraphs(self) -> list[Paragraph]: ...


def _rows(table: Table) -> Iterable[str]:
    # Each row as its cells, one per span: a cell spanning grid columns is one cell, and
    # the columns it spans are named together.
    rows: list[list[tuple[list[int], str]]] = []
    bold: list[bool] = []
    for i, row in enumerate(table.rows):
        spans: list[tuple[list[int], str]] = []
        previous: object = None
        for column, cell in enumerate(row.cells):
            if cell is previous:  # one cell spanning several grid columns
                spans[-1][0].append(column)
                continue
            previous = cell
            spans.append(([column], _cell_text(cell)))
            if i == 0:
                bold.append(_all_bold(cell))
        rows.append(spans)
    names = _header(table, rows, bold)
    for i, spans in enumerate(rows):
        if names is not None and i == 0:
            yield _CELL_SEPARATOR.join(text for _, text in spans if text)
        else:
            yield _statement(spans, names)


def _header(table: Table, rows: list[list[tuple[list[int], str]]],
            bold: list[bool]) -> dict[int, str] | None:
    """The name of each grid column, when the table's first row is a header: marked as
    one, all bold, or words (no number) above a table three or more columns wide or above
    rows that all hold a number. A table of two columns without a mark is read as labels
    and their values."""
    if len(rows) < 2 or len(rows[0]) < 2 or not all(text for _, text in rows[0]):
        return None
    first = [text for _, text in rows[0]]
    marked = False
    cells = table.rows[0].cells
    if cells and cells[0].paragraphs:
        # The row's XML through public APIs: a cell's paragraph proxies its <w:p>, whose
        # parent is the cell (<w:tc>) and grandparent the row (<w:tr>).
        row = cells[0].paragraphs[0].paragraph_format.element.getparent()
        row = row.getparent() if row is not None else None
        marked = row is not None and row.find(_HEADER_PATH) is not None
    words = not any(_DIGIT.search(text) for text in first)
    numbers_below = all(any(_DIGIT.search(text) for _, text in spans) for spans in rows[1:])
    if not (marked or all(bold) or (words and (len(first) >= 3 or numbers_below))):
        return None
    return {column: text for columns, text in rows[0] for column in columns}


def _statement(spans: list[tuple[list[int], str]], names: dict[int, str] | None) -> str:
    if names is not None:
        parts = []
        for columns, value in spans:
            name = ", ".join(dict.fromkeys(names[c] for c in columns if c in names))
            if value:
                parts.append(f"{name}: {value}" if name else value)
    else:
        values = [text for _, text in spans if text]
        parts = [": ".join(values)] if len(values) == 2 else values
    text = "; ".join(parts)
    return text if not text or text.endswith(_SENTENCE_END) else text + "."


def _all_bold(cell: _Cell) -> bool:
    runs = [r for p in cell.paragraphs for r in p.runs if r.text.strip()]
    return bool(runs) and all(r.bold for r in runs)


def _cell_text(cell: _Cell) -> str:
    parts: list[str] = []
    for item in cell.iter_inner_content():
        if isinstance(item, Table):
            parts.extend(_rows(item))
        else:
            parts.append(item.text)
    return " ".join(" ".join(parts).split())
