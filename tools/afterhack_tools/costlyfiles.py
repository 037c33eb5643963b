"""Small files that ask for a great deal of work to read: the shapes an outside probe sent
(a PDF whose page tree lists one node hundreds of times, a PDF whose content stream deflates
to megabytes of drawing operators, a Word document of millions of empty paragraphs). The
tests and the sandbox bench make them; none is kept on disk."""

from __future__ import annotations

import io
import zipfile
import zlib

import docx

from afterhack_tools.pdfwriter import of_objects

MB = 1 << 20


def _stream(content: bytes) -> bytes:
    packed = zlib.compress(content, 9)
    return b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(packed),
                                                                              packed)


_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def page_tree_pdf(nodes: int = 300, leaves: int = 100) -> bytes:
    """About 3 KB: a page tree whose root lists one node ``nodes`` times, that node one page
    ``leaves`` times: 30,000 pages by default."""
    page = (b"<< /Type /Page /Parent 4 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 1 0 R >> >> /Contents 2 0 R >>")
    return of_objects([
        _FONT,
        _stream(b"BT /F1 11 Tf 72 700 Td (A page of the report.) Tj ET"),
        page,
        b"<< /Type /Pages /Parent 5 0 R /Kids [%s] /Count %d >>" % (
            b" ".join([b"3 0 R"] * leaves), leaves),
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join([b"4 0 R"] * nodes),
                                                      nodes * leaves),
        b"<< /Type /Catalog /Pages 5 0 R >>",
    ])


def content_stream_pdf(mib: int = 4) -> bytes:
    """About 10 KB per 4 MiB: one page whose content stream deflates to ``mib`` MiB of
    drawing operators (a save, a matrix, a restore, over and over) after one line of text."""
    ops = b"q 1 0 0 1 0 0 cm Q\n"
    content = b"BT /F1 11 Tf 72 700 Td (A line of text.) Tj ET\n" + ops * (mib * MB // len(ops))
    return of_objects([
        _FONT,
        _stream(content),
        b"<< /Type /Page /Parent 4 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 1 0 R >> >> /Contents 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Catalog /Pages 4 0 R >>",
    ])


def empty_paragraphs_docx(mib: int = 8) -> bytes:
    """About 46 KB: a Word document whose body holds ``mib`` MiB of empty paragraphs after
    one sentence."""
    document = docx.Document()
    document.add_paragraph("The report has one sentence.")
    made = io.BytesIO()
    document.save(made)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(made.getvalue())) as z, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as w:
        for info in z.infolist():
            part = z.read(info.filename)
            if info.filename == "word/document.xml":
                end = part.index(b"</w:body>")
                part = part[:end] + b"<w:p/>" * (mib * MB // 6) + part[end:]
            w.writestr(info.filename, part)
    return out.getvalue()
