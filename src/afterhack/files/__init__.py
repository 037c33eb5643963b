"""Reading files to text: plain text, Markdown, HTML, PDF and DOCX (``read_file``).

The libraries and their figures: docs/decisions/0021-reading-files.md.
"""

from afterhack.files.document import Place, ReadDocument
from afterhack.files.kinds import DOCX, HTML, MARKDOWN, PDF, PLAIN, READ
from afterhack.files.read import read_file

__all__ = ["DOCX", "HTML", "MARKDOWN", "PDF", "PLAIN", "READ", "Place", "ReadDocument",
           "read_file"]
