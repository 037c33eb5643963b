"""Files the tests make: one of each kind the product reads, and ones it refuses."""

from __future__ import annotations

import io

import docx

from afterhack_tools.pdfwriter import Page, pdf

# A real 1×1 PNG: a kind of file that is not read.
PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00"
       b"\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05"
       b"\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

MARKDOWN_FILE = b"""# Launch plan

The **launch** is planned for [June 12](https://example.com/cal).

## Venue

The venue is the *Grand Hotel* in Lisbon.
"""

HTML_FILE = b"""<!doctype html><html><head><title>Plan</title>
<script>var launch = "The launch is on June 1.";</script><style>p{color:red}</style></head>
<body><h1>Budget</h1><p>The budget is 12,000 euros.</p>
<h2>People</h2><p>The keynote speaker is Maria Lopez.</p></body></html>"""


def pdf_file() -> bytes:
    """Two pages: a heading and a sentence on the first, a sentence on the second."""
    return pdf([Page(("Quarterly report", "The Berlin office opened in March 2024.")),
                Page(("The Lisbon office opens in June 2026.",))])


def docx_file() -> bytes:
    """Two headings, each with a sentence under it."""
    document = docx.Document()
    document.add_heading("Offices", level=1)
    document.add_paragraph("The Munich office has 40 desks.")
    document.add_heading("Hiring", level=2)
    document.add_paragraph("The team hires 3 engineers in July.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


REPORT_HEADER = "Annual Report 2024"
REPORT_BODY = (
    "The archive holds the letters of the founders, and this report explains their manip-",
    "ulation by the clerks of the archive: every field of a record is marked as OP-",
    "TIONAL unless the board says otherwise in writing, and each record is stored as a null-",
    "terminated string, as the old system wrote it; a null byte ends it, and terminated strings",
    "are kept whole. The records came from the machines that the firm bought from Hewlett-",
    "Packard in the spring, and they still run.",
    "The committee meets on the first Monday of each month in the old library, and on the last",
    "Friday of each month it reads to every member who was there the minutes of the meeting",
)


def annual_report_pdf() -> bytes:
    """Three pages, each under a running header and over its page number: a table of
    contents, then prose with words broken at line ends and a sentence that runs over onto
    the last page."""
    return pdf([
        Page((REPORT_HEADER, "Contents", "Introduction . . . . . . . . . . . . . . . . . 2",
              "Finances . . . . . . . . . . . . . . . . . . . 3", "1")),
        Page((REPORT_HEADER, *REPORT_BODY, "2")),
        Page((REPORT_HEADER, "before, aloud and in full.",
              "The budget is 40,000 euros for the year.", "3")),
    ])
