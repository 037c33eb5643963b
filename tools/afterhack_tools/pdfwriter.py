"""A minimal PDF writer for tests and benchmarks: real pages of real text, no dependency.

Each page is a content stream that draws its lines in the standard Type 1 Helvetica font
(every PDF reader has it, so nothing is embedded), in WinAnsi encoding, so any Latin-1
text can be written. Paragraphs are wrapped to a fixed number of characters and a blank
line is left between them, as a word processor would lay them out; the page contents are
deflated, as in nearly every PDF. A page can also be
drawn with no text at all, as a scanned page is.
"""

from __future__ import annotations

import textwrap
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

WRAP = 90
LINES_PER_PAGE = 48
_PAGE = (612, 792)  # US Letter, in points
_FONT_SIZE = 11
_LEADING = 14


@dataclass(frozen=True)
class Page:
    paragraphs: tuple[str, ...] = ()
    # Draw a grey box instead of text: what a scan without a text layer looks like.
    image_only: bool = False


def _escape(s: str) -> bytes:
    return (s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            .encode("cp1252"))


def _content(page: Page) -> bytes:
    if page.image_only:
        return b"0.5 g 72 72 468 648 re f"
    ops = [b"BT", b"/F1 %d Tf" % _FONT_SIZE, b"%d TL" % _LEADING,
           b"72 %d Td" % (_PAGE[1] - 72)]
    for paragraph in page.paragraphs:
        for line in textwrap.wrap(paragraph, WRAP):
            ops.append(b"(" + _escape(line) + b") Tj T*")
        ops.append(b"T*")
    ops.append(b"ET")
    return b"\n".join(ops)


def pdf(pages: Sequence[Page], *, compress: bool = True) -> bytes:
    """A PDF of these pages, in order; its page contents deflated, as PDF writers do
    (``compress=False`` leaves them readable in the file)."""
    # Object numbers: 1 the font, 2 the page tree, then a content stream and a page each,
    # then the catalogue.
    objects: list[bytes] = [
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"",
    ]
    kids: list[int] = []
    for page in pages:
        stream = _content(page)
        flate = b""
        if compress:
            stream, flate = zlib.compress(stream), b" /Filter /FlateDecode"
        objects.append(b"<< /Length %d%s >>\nstream\n%s\nendstream"
                       % (len(stream), flate, stream))
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] "
            b"/Resources << /Font << /F1 1 0 R >> >> /Contents %d 0 R >>"
            % (_PAGE[0], _PAGE[1], len(objects)))
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    return of_objects(objects)


def of_objects(objects: Sequence[bytes]) -> bytes:
    """A PDF file of these objects, numbered from 1, the last one its catalogue, with the
    cross-reference table that finds each."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets: list[int] = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, len(objects), xref)
    return bytes(out)


def paginate(paragraphs: Sequence[str]) -> list[Page]:
    """Lay paragraphs out on as many pages as they fill, none split across two."""
    pages: list[Page] = []
    current: list[str] = []
    used = 0
    for paragraph in paragraphs:
        lines = len(textwrap.wrap(paragraph, WRAP)) + 1
        if current and used + lines > LINES_PER_PAGE:
            pages.append(Page(tuple(current)))
            current, used = [], 0
        current.append(paragraph)
        used += lines
    if current:
        pages.append(Page(tuple(current)))
    return pages
