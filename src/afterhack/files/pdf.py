"""PDF to text, page by page, with pypdf.

A PDF holds lines, not paragraphs: pypdf gives each page's lines in the order the page draws
them. Lines are joined back into paragraphs so that a sentence wrapped over two lines reads
whole: a line much shorter than the document's full lines ends its paragraph (the last line
of a paragraph, a heading, a caption), a line that starts with a bullet starts one, and a
word hyphenated at a line's end is joined to its rest with the hyphen kept, as printed.
Every block knows its page (counted from 1, as a viewer counts, whatever the printed page
labels say).

A PDF that shows no text (a scan without a text layer) or that needs a password is refused
in words that say so.
"""

from __future__ import annotations

import io
import re

import pypdf
from pypdf import PasswordType

from afterhack.errors import FileOverBudget, UnreadableFile
from afterhack.files.budget import Tally
from afterhack.files.document import Blocks, ReadDocument
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


def read_pdf(data: bytes, tally: Tally) -> ReadDocument:
    pages = _page_texts(data, tally)
    lines = [[ln.strip() for ln in text.splitlines()] for text in pages]
    lengths = sorted(len(ln) for page in lines for ln in page if ln)
    if not lengths:
        raise UnreadableFile(
            "This PDF has no text layer: its pages are images (a scan, say). Run it through "
            "text recognition (OCR) first, or send its text.", media_type=PDF)
    full = lengths[min(len(lengths) - 1, int(len(lengths) * _FULL_QUANTILE))]
    blocks = Blocks(tally)
    for number, page in enumerate(lines, start=1):
        for paragraph in _paragraphs(page, full * _SHORT_LINE):
            blocks.add(paragraph, page=number)
    return blocks.document(PDF, data)


def _page_texts(data: bytes, tally: Tally) -> list[str]:
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and reader.decrypt("") == PasswordType.NOT_DECRYPTED:
            raise UnreadableFile(
                "This PDF is protected by a password; send a copy without one.",
                media_type=PDF)
        tally.add("pages", len(reader.pages))
        texts = []
        for page in reader.pages:
            contents = page.get_contents()
            if contents is not None:
                tally.add("elements", len(_TOKEN.findall(contents.get_data())))
            texts.append((page.extract_text() or "").translate(_CONTROLS))
        return texts
    except (UnreadableFile, FileOverBudget, MemoryError):
        raise
    except Exception as exc:
        # A damaged PDF can make the parser fail in many ways (its own errors, but also
        # KeyError, ValueError, RecursionError on a cycle); to the sender all of them mean
        # that this file cannot be read.
        raise UnreadableFile(
            "This PDF is damaged or uses features that cannot be read; try saving it again "
            "from the program that made it.", media_type=PDF) from exc


def _paragraphs(lines: list[str], short: float) -> list[str]:
    out: list[str] = []
    current = ""
    for line in lines:
        if not line or _BULLET.match(line):
            if current:
                out.append(current)
            current = ""
        if not line:
            continue
        if not current:
            current = line
        elif current.endswith("-") and current[-2:-1].isalpha() and line[:1].islower():
            current += line
        else:
            current += " " + line
        if len(line) < short:
            out.append(current)
            current = ""
    if current:
        out.append(current)
    return out
