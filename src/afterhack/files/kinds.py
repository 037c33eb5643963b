"""Which kind of file this is, told by its bytes.

The bytes decide between the families: a PDF starts with its header, a DOCX is a ZIP
package holding a Word document part, anything else with a known signature or with the
bytes of binary data is refused, and what is left is text. The name and the declared type
only choose among the text kinds (plain, Markdown, HTML), which the bytes cannot tell apart
for sure; when they promise a PDF or a DOCX that the bytes are not, the file is refused.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from pathlib import PurePath

from afterhack.errors import UnreadableFile, UnsupportedMediaType

PLAIN = "text/plain"
MARKDOWN = "text/markdown"
HTML = "text/html"
PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

READ = (PLAIN, MARKDOWN, HTML, PDF, DOCX)

_WHAT_IS_READ = "afterhack reads plain text, Markdown, HTML, PDF and DOCX."
_NAMES = {PLAIN: "a text file", MARKDOWN: "a Markdown file", HTML: "an HTML page",
          PDF: "a PDF", DOCX: "a Word document (.docx)"}

_EXTENSIONS = {
    ".txt": PLAIN, ".text": PLAIN, ".log": PLAIN,
    ".md": MARKDOWN, ".markdown": MARKDOWN, ".mdown": MARKDOWN, ".mkd": MARKDOWN,
    ".html": HTML, ".htm": HTML, ".xhtml": HTML,
    ".pdf": PDF, ".docx": DOCX,
}
_DECLARED = {
    "text/markdown": MARKDOWN, "text/x-markdown": MARKDOWN,
    "text/html": HTML, "application/xhtml+xml": HTML,
    "application/pdf": PDF, DOCX: DOCX,
}
# Types that a client sends when it does not know: the name says more than they do.
_GENERIC = frozenset({"", "application/octet-stream", "binary/octet-stream", "text/plain",
                      "application/x-unknown", "application/unknown"})

# Signatures of common kinds that are not read, so the refusal can name what it saw. Each
# holds bytes that text never starts with; whatever is not listed is still refused when its
# bytes are binary.
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
     "an old-format Office file (.doc, .xls, .ppt) or a password-protected one"),
    (b"{\\rtf", "an RTF document"),
    (b"%!PS", "a PostScript file"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"\xfd7zXZ\x00", "an xz archive"),
    (b"\x7fELF", "a program"),
)
_RIFF = {b"WEBP": "a WebP image", b"WAVE": "a WAV sound", b"AVI ": "an AVI video"}

# Control bytes that text does use: tab, line feed, vertical tab, form feed, carriage
# return, escape (terminal colours in logs).
_TEXT_CONTROLS = frozenset(b"\t\n\x0b\x0c\r\x1b")
_CONTROLS = bytes(b for b in range(32) if b not in _TEXT_CONTROLS) + b"\x7f"
# Share of control bytes above which bytes without a NUL are taken as binary data: random
# bytes hold several times this share, text next to none.
_MAX_CONTROL_SHARE = 0.02
_SNIFF = 4096
_MAX_PART_SNIFF = 1 << 20

# What a damaged or unusual ZIP raises while its directory or a member is read: a bad
# header, a truncated or corrupt member, an encrypted one or an unknown compression.
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, EOFError, OSError,
               zlib.error, RuntimeError, NotImplementedError, ValueError)

_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
_HTML_START = re.compile(
    rb"\A(?:\s|<\?xml[^>]*>|<!--.*?-->)*<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])",
    re.IGNORECASE | re.DOTALL)
_XML_START = re.compile(rb"\A(?:\s|<!--.*?-->)*<(?:\?xml|svg[\s>])", re.IGNORECASE | re.DOTALL)
_MARKDOWN_LINE = re.compile(r"^(?:#{1,6}[ \t]+\S|```|~~~)", re.MULTILINE)


def detect(data: bytes, filename: str | None = None, declared_type: str | None = None) -> str:
    """The media type to read ``data`` as, one of ``READ``; raises when there is none."""
    if not data.strip():
        raise UnreadableFile("The file is empty.")
    hint, hint_from = _hint(filename, declared_type)
    if data[:_SNIFF].lstrip().startswith(b"%PDF-"):
        return PDF
    if data.startswith(b"PK\x03\x04"):
        return _package(data, hint)
    seen = _signature(data)
    if seen is not None:
        raise UnsupportedMediaType(f"This is {seen}; {_WHAT_IS_READ}", detected=seen)
    if not _is_text(data):
        raise UnsupportedMediaType(
            f"This file holds binary data of a kind that is not read; {_WHAT_IS_READ}")
    if hint in (PDF, DOCX):
        raise UnsupportedMediaType(
            f"Its {hint_from} says {_NAMES[hint]}, but the file holds text, not "
            f"{_NAMES[hint]}; send it under its own name or as text.")
    if hint is not None:
        return hint
    return _sniff_text(data)


def _hint(filename: str | None, declared_type: str | None) -> tuple[str | None, str]:
    declared = (declared_type or "").split(";", 1)[0].strip().lower()
    if declared not in _GENERIC and declared in _DECLARED:
        return _DECLARED[declared], "declared type"
    if filename:
        kind = _EXTENSIONS.get(PurePath(filename).suffix.lower())
        if kind is not None:
            return kind, "name"
    if declared == "text/plain":
        return PLAIN, "declared type"
    return None, ""


def _signature(data: bytes) -> str | None:
    for prefix, name in _SIGNATURES:
        if data.startswith(prefix):
            return name
    if data.startswith(b"RIFF") and data[8:12] in _RIFF:
        return _RIFF[data[8:12]]
    if data[4:8] == b"ftyp":
        return "an MP4 or QuickTime video, or a HEIC image"
    return None


def _is_text(data: bytes) -> bool:
    head = data[:_SNIFF]
    if head.startswith(_BOMS[1:]):
        return True  # UTF-16: its NUL bytes are half of every ASCII letter
    if b"\x00" in head:
        return False
    controls = len(head) - len(head.translate(None, _CONTROLS))
    return controls <= _MAX_CONTROL_SHARE * len(head)


def _sniff_text(data: bytes) -> str:
    head = data[:_SNIFF].removeprefix(_BOMS[0])
    if _HTML_START.match(head):
        return HTML
    if _XML_START.match(head):
        raise UnsupportedMediaType(
            f"This is an XML or SVG file; {_WHAT_IS_READ}", detected="XML")
    if _MARKDOWN_LINE.search(head.decode("utf-8", "replace")):
        return MARKDOWN
    return PLAIN


def _package(data: bytes, hint: str | None) -> str:
    """A ZIP: a DOCX when it holds a Word document part, refused otherwise."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = set(z.namelist())
            if "word/document.xml" in names:
                types = b""
                if "[Content_Types].xml" in names:
                    with z.open("[Content_Types].xml") as f:
                        types = f.read(_MAX_PART_SNIFF)
                return _word_kind(types)
            kind = _package_kind(z, names)
    except _ZIP_ERRORS as exc:
        if hint == DOCX:
            raise UnreadableFile("This Word document is damaged and cannot be opened.") from exc
        raise UnsupportedMediaType(
            f"This is a damaged ZIP archive; {_WHAT_IS_READ}", detected="ZIP") from exc
    raise UnsupportedMediaType(f"This is {kind}; {_WHAT_IS_READ}", detected=kind)


def _word_kind(types: bytes) -> str:
    """DOCX, unless the package's content types say it is a Word file of another kind."""
    if b"wordprocessingml.document.main+xml" in types:
        return DOCX
    if b"macroEnabled" in types:
        raise UnsupportedMediaType(
            "This is a Word document with macros (.docm or .dotm); save it as .docx to send "
            "it.", detected="DOCM")
    if b"wordprocessingml.template.main+xml" in types:
        raise UnsupportedMediaType(
            "This is a Word template (.dotx); save it as a .docx document to send it.",
            detected="DOTX")
    return DOCX  # no content type for it: the reader says whether it can be read


def _package_kind(z: zipfile.ZipFile, names: set[str]) -> str:
    if "xl/workbook.xml" in names:
        return "an Excel workbook"
    if "ppt/presentation.xml" in names:
        return "a PowerPoint presentation"
    if "mimetype" in names:
        with z.open("mimetype") as f:
            mimetype = f.read(100)
        if b"opendocument" in mimetype:
            return "an OpenDocument file"
        if b"epub" in mimetype:
            return "an EPUB book"
    return "a ZIP archive"
