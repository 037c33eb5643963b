"""The one entry point: bytes (with the name and type they came under) to a ReadDocument."""

from __future__ import annotations

from collections.abc import Callable

from afterhack.files.budget import Budget, Tally
from afterhack.files.document import ReadDocument
from afterhack.files.docx import read_docx
from afterhack.files.html import read_html
from afterhack.files.kinds import DOCX, HTML, MARKDOWN, PDF, PLAIN, detect
from afterhack.files.markdown import read_markdown
from afterhack.files.pdf import read_pdf
from afterhack.files.text import read_text

_READERS: dict[str, Callable[[bytes, Tally], ReadDocument]] = {
    PLAIN: read_text,
    MARKDOWN: read_markdown,
    HTML: read_html,
    PDF: read_pdf,
    DOCX: read_docx,
}


def read_file(data: bytes, filename: str | None = None, declared_type: str | None = None,
              budget: Budget | None = None) -> ReadDocument:
    """The text of a file and where each part of it stands in the original.

    Raises UnsupportedMediaType for a kind that is not read (the bytes decide, whatever the
    name says), UnreadableFile for a file of a read kind that cannot be read (empty, not
    UTF-8, a PDF without a text layer or behind a password, a damaged document, a part that
    would be lost), and FileOverBudget as soon as a count passes ``budget`` (by default,
    the settings' defaults). Parsing is CPU work with no bound of its own: the app reads in a
    worker process with limits on time and memory (runtime/sandbox.py).
    """
    return _READERS[detect(data, filename, declared_type)](data, Tally(budget or Budget()))
