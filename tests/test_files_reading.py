"""Reading files to text: each kind read from a file the test makes, the place of given
sentences in the original, and the refusals with their error types."""

from __future__ import annotations

import hashlib
import io
import random
import zipfile
from pathlib import Path

import docx
import pypdf
import pytest
from docx.enum.style import WD_STYLE_TYPE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from afterhack.errors import (
    AfterhackError,
    FileOverBudget,
    UnreadableFile,
    UnsupportedMediaType,
)
from afterhack.files import DOCX, HTML, MARKDOWN, PDF, PLAIN, ReadDocument, read_file
from afterhack.files import docx as docx_reader
from afterhack.files.budget import Budget
from afterhack_tools.pdfwriter import Page, pdf
from tests.support.files import REPORT_HEADER, annual_report_pdf

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00"
       b"\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05"
       b"\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")


def _section(doc: ReadDocument, sentence: str) -> str | None:
    return doc.place_at(doc.text.index(sentence)).section


def _page(doc: ReadDocument, sentence: str) -> int | None:
    return doc.place_at(doc.text.index(sentence)).page


def _assert_places_tile(doc: ReadDocument) -> None:
    assert doc.places, "a document with text has at least one place"
    assert doc.places[0].start == 0
    assert doc.places[-1].end == len(doc.text)
    for before, after in zip(doc.places, doc.places[1:], strict=False):
        assert before.end == after.start
        assert before.key != after.key
    assert all(p.start < p.end for p in doc.places)


def _docx_bytes(document: docx.document.Document) -> bytes:
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


# -- plain text -----------------------------------------------------------------------------

def test_plain_text_is_kept_as_written_with_its_bom_dropped_and_line_ends_unified() -> None:
    data = "\ufeffAna lives in Berlin.\r\nShe moved in 2021 — from Köln.\r\n".encode()
    doc = read_file(data, "notes.txt", "text/plain")
    assert doc.media_type == PLAIN
    assert doc.text == "Ana lives in Berlin.\nShe moved in 2021 — from Köln.\n"
    assert doc.size == len(data)
    assert doc.sha256 == hashlib.sha256(data).hexdigest()
    assert doc.places == (doc.places[0],) and doc.places[0].page is None
    _assert_places_tile(doc)


def test_utf16_text_with_its_bom_is_read() -> None:
    data = "Die Zentrale ist in München.".encode("utf-16")
    assert read_file(data, "notes.txt").text == "Die Zentrale ist in München."


def test_text_that_is_not_utf8_is_refused_in_plain_words() -> None:
    with pytest.raises(UnreadableFile, match="not valid UTF-8") as caught:
        read_file("Die Zentrale ist in München.".encode("latin-1"), "notes.txt")
    assert caught.value.status == 422
    assert caught.value.code == "unreadable_file"


# -- Markdown -------------------------------------------------------------------------------

MARKDOWN_SOURCE = """\
---
title: Board notes
---
# Quarterly *review*

The board met on **12 March 2024** and read the [full report](https://example.com/r).
It was long, and the meeting ran late.

## Offices

- [x] The Berlin office moved to `Alexanderplatz 1`.
- The Munich office opens in May,
  with twelve desks.

1. Rent is paid quarterly.

> Ana said the lease runs until 2030.

| City | Staff |
|------|------:|
| Berlin | 40 |

```python
print("not a claim")
```

Setext budget
-------------

![Chart of the budget](chart.png) Spending fell by 5% __overall__.
"""


def test_markdown_is_read_without_its_syntax() -> None:
    data = MARKDOWN_SOURCE.encode()
    doc = read_file(data, "board.md", "application/octet-stream")
    assert doc.media_type == MARKDOWN
    assert doc.sha256 == hashlib.sha256(data).hexdigest()
    text = doc.text
    for sentence in (
        "The board met on 12 March 2024 and read the full report.",
        "It was long, and the meeting ran late.",
        "The Berlin office moved to Alexanderplatz 1.",
        "The Munich office opens in May, with twelve desks.",
        "Rent is paid quarterly.",
        "Ana said the lease runs until 2030.",
        "City | Staff",
        "Berlin | 40",
        'print("not a claim")',
        "Chart of the budget Spending fell by 5% overall.",
    ):
        assert sentence in text, sentence
    for syntax in ("#", "**", "__", "*review", "](", "https://", "`", "[x]", "- ", "> ",
                   "|--", "---", "title: Board", "1. Rent"):
        assert syntax not in text, syntax
    blocks = text.split("\n\n")
    assert blocks[:2] == ["Quarterly review", "The board met on 12 March 2024 and read the "
                          "full report. It was long, and the meeting ran late."]
    _assert_places_tile(doc)


def test_markdown_places_name_the_heading_each_sentence_falls_under() -> None:
    doc = read_file(MARKDOWN_SOURCE.encode(), "board.md")
    assert _section(doc, "Quarterly review") == "Quarterly review"
    assert _section(doc, "It was long") == "Quarterly review"
    assert _section(doc, "Offices") == "Offices"
    assert _section(doc, "Ana said the lease") == "Offices"
    assert _section(doc, "Berlin | 40") == "Offices"
    assert _section(doc, "Spending fell") == "Setext budget"
    assert all(p.page is None for p in doc.places)


def test_markdown_before_any_heading_has_no_section_and_raw_html_is_read_as_html() -> None:
    source = ("Opening words.\n\n<div><p>Raw <b>block</b>.</p><script>alert(1)</script>"
              "<h2>Inside</h2><p>Under it.</p></div>\n\nAfter the block.\n")
    doc = read_file(source.encode(), "a.markdown")
    assert _section(doc, "Opening words.") is None
    assert "Raw block." in doc.text
    assert "alert" not in doc.text and "<" not in doc.text
    assert _section(doc, "Under it.") == "Inside"
    assert _section(doc, "After the block.") == "Inside"


def test_markdown_is_recognised_by_its_headings_when_nothing_names_it() -> None:
    doc = read_file(b"# Plan\n\nShip **on Friday**.\n")
    assert doc.media_type == MARKDOWN
    assert doc.text == "Plan\n\nShip on Friday."


# -- HTML -----------------------------------------------------------------------------------

HTML_SOURCE = """\
<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Head title never read</title>
  <style>p { color: red } .secret::after { content: "style text" }</style>
  <script>var s = "script text"; document.write("<p>written</p>");</script>
</head>
<body>
  <nav>Home</nav>
  <h1>Field <em>report</em></h1>
  <p>The pilot   started on
     3 June in Lyon &amp; Paris.<!-- a comment --> It ran for six weeks.</p>
  <div>Costs were low.<p>Support was <b>quick</b>.</p>The team grew.</div>
  <p hidden>Hidden paragraph.</p>
  <p style="display:none">Invisible paragraph.</p>
  <noscript>Enable scripts.</noscript>
  <h2>Results</h2>
  <table>
    <tr><th>Site</th><th>Users</th></tr>
    <tr><td>Lyon</td><td><p>1,200</p></td></tr>
  </table>
  <ul><li>Retention rose.</li><li>Churn fell.</li></ul>
  <pre>step 1
  step 2</pre>
  <p>Line one<br>Line two.</p>
  <script>console.log("late script")</script>
</body>
</html>
"""


def test_html_is_read_without_head_script_style_or_hidden_text() -> None:
    data = HTML_SOURCE.encode()
    doc = read_file(data, "report.html", "text/html; charset=utf-8")
    assert doc.media_type == HTML
    assert doc.size == len(data)
    text = doc.text
    for gone in ("Head title", "color", "style text", "script text", "written", "late script",
                 "Hidden paragraph", "Invisible paragraph", "Enable scripts", "comment", "<",
                 "&amp;"):
        assert gone not in text, gone
    assert "The pilot started on 3 June in Lyon & Paris. It ran for six weeks." in text
    blocks = text.split("\n\n")
    for block in ("Home", "Field report", "Costs were low.", "Support was quick.",
                  "The team grew.", "Site | Users", "Lyon | 1,200", "Retention rose.",
                  "Churn fell.", "step 1\n  step 2", "Line one", "Line two."):
        assert block in blocks, block
    _assert_places_tile(doc)


def test_html_places_name_the_heading_each_sentence_falls_under() -> None:
    doc = read_file(HTML_SOURCE.encode(), "report.html")
    assert _section(doc, "Home") is None
    assert _section(doc, "It ran for six weeks.") == "Field report"
    assert _section(doc, "The team grew.") == "Field report"
    assert _section(doc, "Lyon | 1,200") == "Results"
    assert _section(doc, "Line two.") == "Results"


def test_html_in_the_charset_its_meta_tag_names_is_decoded() -> None:
    page = '<html><head><meta charset="iso-8859-1"></head><body><p>Café in Zürich – 5 €.</p>'
    doc = read_file(page.encode("cp1252"), "cafe.htm")
    assert doc.text == "Café in Zürich – 5 €."


@pytest.mark.parametrize("charset", ["no-such-charset", "base64", "rot13"])
def test_html_whose_meta_tag_names_no_text_encoding_is_refused(charset: str) -> None:
    with pytest.raises(UnreadableFile, match="not a known encoding"):
        read_file(f'<meta charset="{charset}"><p>Text.</p>'.encode(), "a.html")


def test_html_that_says_utf16_without_a_byte_order_mark_is_read_as_utf8() -> None:
    page = '<meta http-equiv="Content-Type" content="text/html; charset=utf-16"><p>Køln.</p>'
    assert read_file(page.encode(), "a.html").text == "Køln."


def test_html_is_recognised_by_its_structure_when_nothing_names_it() -> None:
    doc = read_file(b"<!doctype html><title>t</title><p>Only this.</p>")
    assert doc.media_type == HTML
    assert doc.text == "Only this."


# -- PDF ------------------------------------------------------------------------------------

WRAPPED = ("The Berlin office opened in March 2024 and now employs forty engineers who work "
           "on the storage engine and its replication protocol across several teams.")


def _report_pdf() -> bytes:
    return pdf([
        Page(("Quarterly report", WRAPPED, "Revenue grew by 12% (after tax), see note \\3.")),
        Page(("Staff", "Ana moved to München in May. She leads the platform team and "
              "reports to the board every quarter on hiring, budget and the roadmap.")),
        Page(("Outlook", "The Lisbon office opens next year.")),
    ])


def test_pdf_text_is_read_page_by_page_with_wrapped_sentences_whole() -> None:
    data = _report_pdf()
    doc = read_file(data, "report.pdf", "application/pdf")
    assert doc.media_type == PDF
    assert doc.sha256 == hashlib.sha256(data).hexdigest()
    assert len(pypdf.PdfReader(io.BytesIO(data)).pages) == 3
    assert WRAPPED in doc.text
    assert "Revenue grew by 12% (after tax), see note \\3." in doc.text
    assert "Ana moved to München in May." in doc.text
    # A short line without a full stop is a block of its own, as a heading is; a paragraph
    # whose last line is nearly full may run on into the next, its sentences still whole.
    blocks = doc.text.split("\n\n")
    assert blocks[0] == "Quarterly report"
    assert blocks[1].startswith(WRAPPED)
    _assert_places_tile(doc)


def test_pdf_places_give_the_page_of_each_sentence() -> None:
    doc = read_file(_report_pdf(), "report.pdf")
    assert _page(doc, "The Berlin office opened") == 1
    assert _page(doc, "Revenue grew") == 1
    assert _page(doc, "She leads the platform team") == 2
    assert _page(doc, "The Lisbon office opens") == 3
    assert [p.page for p in doc.places] == [1, 2, 3]
    assert all(p.section is None for p in doc.places)


def test_pdf_pages_without_text_are_skipped_and_numbered_as_a_viewer_does() -> None:
    doc = read_file(pdf([Page(image_only=True), Page(("Only page three has text.",)),
                         Page(image_only=True)]), "scan.pdf")
    assert doc.text == "Only page three has text."
    assert doc.places[0].page == 2


def test_pdf_that_only_restricts_editing_is_read() -> None:
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(_report_pdf()))
    writer.encrypt(user_password="", owner_password="owner-secret", algorithm="AES-128")
    out = io.BytesIO()
    writer.write(out)
    assert pypdf.PdfReader(io.BytesIO(out.getvalue())).is_encrypted
    assert WRAPPED in read_file(out.getvalue(), "locked.pdf").text


# -- DOCX -----------------------------------------------------------------------------------

def _report_docx() -> bytes:
    document = docx.Document()
    document.add_paragraph("Board minutes", style="Title")
    document.add_paragraph("Present: Ana, Ben and Chloé.")
    document.add_heading("Offices", level=1)
    document.add_paragraph("The Berlin office moved to Alexanderplatz.")
    table = document.add_table(rows=3, cols=3)
    for cell, value in zip(table.rows[0].cells, ("City", "Staff", "Lease"), strict=True):
        cell.text = value
    for cell, value in zip(table.rows[1].cells, ("Berlin", "40", "2030"), strict=True):
        cell.text = value
    merged = table.cell(2, 0).merge(table.cell(2, 1))
    merged.text = "Munich and Lyon"
    inner = table.cell(2, 2).add_table(rows=1, cols=2)
    inner.cell(0, 0).text = "Nested A"
    inner.cell(0, 1).text = "Nested B"
    document.add_heading("Budget", level=2)
    run = document.add_paragraph("Spending fell by ").add_run("five percent")
    run.bold = True
    document.paragraphs[-1].add_run(" this year.")
    custom = document.styles.add_style("Minutes Heading", WD_STYLE_TYPE.PARAGRAPH)
    custom.base_style = document.styles["Heading 1"]
    document.add_paragraph("Any other business", style="Minutes Heading")
    document.add_paragraph("None was raised.")
    return _docx_bytes(document)


def test_docx_paragraphs_headings_and_tables_are_read_in_order() -> None:
    data = _report_docx()
    doc = read_file(data, "minutes.docx", "application/octet-stream")
    assert doc.media_type == DOCX
    assert doc.size == len(data)
    assert doc.text.split("\n\n") == [
        "Board minutes",
        "Present: Ana, Ben and Chloé.",
        "Offices",
        "The Berlin office moved to Alexanderplatz.",
        "City | Staff | Lease",
        "City: Berlin; Staff: 40; Lease: 2030.",
        "City, Staff: Munich and Lyon; Lease: Nested A: Nested B.",
        "Budget",
        "Spending fell by five percent this year.",
        "Any other business",
        "None was raised.",
    ]
    _assert_places_tile(doc)


def test_docx_places_name_the_heading_by_its_style() -> None:
    doc = read_file(_report_docx(), "minutes.docx")
    assert _section(doc, "Present: Ana") == "Board minutes"
    assert _section(doc, "City: Berlin") == "Offices"
    assert _section(doc, "Spending fell") == "Budget"
    assert _section(doc, "None was raised.") == "Any other business"


def test_docx_that_would_unpack_past_the_limit_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = _report_docx()
    unpacked = sum(i.file_size for i in zipfile.ZipFile(io.BytesIO(data)).infolist())
    monkeypatch.setattr(docx_reader, "MAX_UNPACKED_BYTES", unpacked - 1)
    with pytest.raises(UnreadableFile, match="unpacks to"):
        read_file(data, "minutes.docx")


# -- refusals -------------------------------------------------------------------------------

def _zip(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, body in entries.items():
            z.writestr(name, body)
    return out.getvalue()


RANDOM_BINARY = random.Random(36).randbytes(4096)


def _as_template(docx_data: bytes) -> bytes:
    """The same package, its main part declared a Word template (.dotx)."""
    source = zipfile.ZipFile(io.BytesIO(docx_data))
    parts = {name: source.read(name) for name in source.namelist()}
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b"wordprocessingml.document.main+xml", b"wordprocessingml.template.main+xml")
    return _zip(parts)


@pytest.mark.parametrize(("data", "filename", "declared", "words"), [
    (PNG, "chart.png", "image/png", "PNG image"),
    (PNG, "report.pdf", "application/pdf", "PNG image"),
    (PNG, None, None, "PNG image"),
    (RANDOM_BINARY, "notes.txt", "text/plain", "binary data"),
    (RANDOM_BINARY, "report.pdf", None, "binary data"),
    (RANDOM_BINARY, "minutes.docx", None, "binary data"),
    (b"Plain words, not a PDF at all.", "report.pdf", None, "not a PDF"),
    (b"Plain words.", "upload", "application/pdf", "declared type says a PDF"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504), "old.doc", None, "old-format Office"),
    (_zip({"xl/workbook.xml": b"<workbook/>"}), "sheet.xlsx", None, "Excel workbook"),
    (_zip({"notes.txt": b"hello"}), "notes.zip", None, "ZIP archive"),
    (_zip({"[Content_Types].xml": b"application/vnd.ms-word.document.macroEnabled.main+xml",
           "word/document.xml": b"<w:document/>"}), "macro.docm", None, "macros"),
    (_as_template(_docx_bytes(docx.Document())), "letter.dotx", None, "Word template"),
    (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>', None, None, "SVG"),
])
def test_kinds_that_are_not_read_are_refused_as_unsupported(
        data: bytes, filename: str | None, declared: str | None, words: str) -> None:
    with pytest.raises(UnsupportedMediaType, match=words) as caught:
        read_file(data, filename, declared)
    assert caught.value.status == 415
    assert caught.value.code == "unsupported_media_type"


@pytest.mark.parametrize(("data", "filename", "words"), [
    (b"", "empty.txt", "empty"),
    (b"", None, "empty"),
    (b" \n\t\r\n", "blank.md", "empty"),
    (b"<html><head><title>Only a title</title></head><body> </body></html>", "a.html",
     "no text"),
    (b"# \n\n---\n", "a.md", "no text"),
    (pdf([Page(image_only=True), Page(image_only=True)]), "scan.pdf", "no text layer"),
    (b"%PDF-1.7\nthis is not really a PDF body\n", "broken.pdf", "damaged"),
    (_zip({"word/document.xml": b"<not-a-document"}), "broken.docx", "damaged"),
    (b"PK\x03\x04" + bytes(64), "broken.docx", "damaged"),
])
def test_files_of_a_read_kind_that_cannot_be_read_are_refused_in_plain_words(
        data: bytes, filename: str | None, words: str) -> None:
    with pytest.raises(UnreadableFile, match=words) as caught:
        read_file(data, filename)
    assert caught.value.status == 422


def test_pdf_behind_a_password_is_refused_in_plain_words() -> None:
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(_report_pdf()))
    writer.encrypt(user_password="user-secret", owner_password="owner-secret",
                   algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    with pytest.raises(UnreadableFile, match="password"):
        read_file(out.getvalue(), "locked.pdf")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(
    st.binary(max_size=2048),
    st.text(max_size=2048).map(str.encode),
    st.sampled_from([b"%PDF-", b"PK\x03\x04", b"<html>", b"# ", b"\xef\xbb\xbf"]).flatmap(
        lambda head: st.binary(max_size=1024).map(lambda tail: head + tail))),
    filename=st.sampled_from([None, "a.txt", "a.md", "a.html", "a.pdf", "a.docx", "a.bin"]))
def test_any_bytes_give_a_document_whose_places_tile_it_or_a_typed_refusal(
        data: bytes, filename: str | None) -> None:
    try:
        doc = read_file(data, filename)
    except (UnsupportedMediaType, UnreadableFile) as exc:
        assert isinstance(exc, AfterhackError) and exc.message
        return
    assert doc.text.strip()
    assert doc.size == len(data)
    _assert_places_tile(doc)


# -- budgets and no silent loss --------------------------------------------------------------


def _over(data: bytes, name: str, budget: Budget) -> dict[str, object]:
    with pytest.raises(FileOverBudget) as caught:
        read_file(data, name, budget=budget)
    assert caught.value.status == 413 and caught.value.code == "file_over_budget"
    return caught.value.details


def test_pages_elements_and_paragraphs_are_counted_against_their_budgets() -> None:
    two_pages = pdf([Page(("The Berlin office opened in 2024.",)),
                     Page(("The Lisbon office opens in 2026.",))])
    assert _over(two_pages, "a.pdf", Budget(pages=1)) == {"budget": "pages", "limit": 1}
    assert read_file(two_pages, "a.pdf", budget=Budget(pages=2)).text
    page = b"<p>" + b"<b>a</b> " * 50 + b"</p>"
    assert _over(page, "a.html", Budget(elements=20)) == {"budget": "elements", "limit": 20}
    document = docx.Document()
    for _ in range(30):
        document.add_paragraph("")  # empty paragraphs count too
    document.add_paragraph("The depot opens at 9.")
    assert _over(_docx_bytes(document), "a.docx", Budget(paragraphs=25)) == {
        "budget": "paragraphs", "limit": 25}
    assert _over(b"# A\n\n" + b"- item\n" * 40, "a.md", Budget(paragraphs=20)) == {
        "budget": "paragraphs", "limit": 20}


def test_deep_html_keeps_the_text_after_the_nested_part_or_is_refused() -> None:
    def page(depth: int) -> bytes:
        return b"<p>Before.</p>" + b"<div>" * depth + b"x" + b"</div>" * depth \
            + b"<p>After.</p>"

    assert read_file(page(300), "a.html").text == "Before.\n\nx\n\nAfter."
    with pytest.raises(UnreadableFile) as caught:
        read_file(page(3000), "a.html")
    assert "2048 levels" in caught.value.message and caught.value.details["limit"] == 2048


def test_markdown_nested_past_what_is_read_is_refused_not_cut() -> None:
    nested = b"".join(b"  " * i + b"- item %d\n" % i for i in range(25))
    assert read_file(b"Before.\n\n" + nested + b"\nAfter.\n", "a.md").text.endswith("After.")
    with pytest.raises(UnreadableFile) as caught:
        read_file(b"Before.\n\n" + b"> " * 150 + b"deep\n\nAfter.\n", "a.md")
    assert "100 levels" in caught.value.message


def test_docx_declaring_entities_is_refused_rather_than_cut_at_one() -> None:
    document = docx.Document()
    document.add_paragraph("Before the entity.")
    document.add_paragraph("MARK")
    document.add_paragraph("After the entity.")
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(_docx_bytes(document))) as z, \
            zipfile.ZipFile(out, "w") as w:
        for info in z.infolist():
            part = z.read(info.filename)
            if info.filename == "word/document.xml":
                part = part.replace(b"?>", b'?><!DOCTYPE w:document [<!ENTITY e "in">]>', 1)
                part = part.replace(b"MARK", b"x &e; y")
            w.writestr(info.filename, part)
    with pytest.raises(UnreadableFile) as caught:
        read_file(out.getvalue(), "a.docx")
    assert "declares entities" in caught.value.message


# -- read as people read them ----------------------------------------------------------------

def _asides(doc: ReadDocument) -> list[tuple[int | None, str | None, str]]:
    return [(p.page, p.aside, doc.text[p.start:p.end].strip()) for p in doc.places if p.aside]


def test_pdf_words_broken_at_a_line_end_are_joined_unless_the_document_hyphenates_them() -> None:
    doc = read_file(annual_report_pdf(), "report.pdf")
    assert "their manipulation by the clerks" in doc.text
    assert "marked as OPTIONAL unless" in doc.text
    # Both halves are words the document uses on their own: a compound, its hyphen kept.
    assert "a null-terminated string" in doc.text
    # A capital after a lowercase half starts a word of its own.
    assert "from Hewlett-Packard in" in doc.text
    assert "manip-" not in doc.text and "OP- " not in doc.text
    _assert_places_tile(doc)


def test_pdf_a_sentence_over_a_page_break_is_one_block_whose_place_names_both_pages() -> None:
    doc = read_file(annual_report_pdf(), "report.pdf")
    sentence = ("The committee meets on the first Monday of each month in the old library, and "
                "on the last Friday of each month it reads to every member who was there the "
                "minutes of the meeting before, aloud and in full.")
    at = doc.place_at(doc.text.index(sentence))
    assert (at.page, at.page_end, at.aside) == (2, 3, None)
    assert at.end >= doc.text.index(sentence) + len(sentence)
    # The next page's own text is its own.
    budget = doc.place_at(doc.text.index("The budget is"))
    assert (budget.page, budget.page_end) == (3, None)


def test_pdf_contents_running_headers_and_page_numbers_are_set_aside() -> None:
    doc = read_file(annual_report_pdf(), "report.pdf")
    assert _asides(doc) == [
        (1, "running_header", REPORT_HEADER),
        (1, "contents", "Contents\n\nIntroduction . . . . . . . . . . . . . . . . . 2\n\n"
                        "Finances . . . . . . . . . . . . . . . . . . . 3"),
        (1, "page_number", "1"),
        (2, "running_header", REPORT_HEADER),
        (2, "page_number", "2"),
        (3, "running_header", REPORT_HEADER),
        (3, "page_number", "3"),
    ]
    # Nothing else is: the prose stays prose.
    prose = "".join(doc.text[p.start:p.end] for p in doc.places if not p.aside)
    assert REPORT_HEADER not in prose and ". . ." not in prose


def test_html_definition_terms_give_their_descriptions_a_subject() -> None:
    page = b"""<h1>Users</h1><dl>
      <dt>root</dt><dd><p>Root is the superuser.</p><p>It owns every file.</p></dd>
      <dt>daemon</dt><dt>bin</dt><dd>Run unprivileged daemons.</dd>
      <dt>fetchmail</dt><dd><p>Used by the <b>fetchmail</b> program.</p></dd>
      <dt>Contents</dt><dd><dl><dt>1. Introduction</dt><dt>2. Users</dt></dl></dd>
    </dl><dl><dt>nobody</dt></dl>"""
    doc = read_file(page, "users.html")
    assert doc.text.split("\n\n") == [
        "Users", "root: Root is the superuser.", "root: It owns every file.",
        "daemon, bin: Run unprivileged daemons.", "fetchmail: Used by the fetchmail program.",
        # A description that is a list of its own keeps its terms, before it; a term with no
        # description is read on its own: nothing is dropped.
        "Contents", "1. Introduction", "2. Users", "nobody"]


def test_html_inline_elements_in_a_table_cell_add_no_space() -> None:
    page = (b"<table><tr><td>v5.11.0</td><td><p>Added support for <code>SIGINFO</code>.</p>"
            b"<p>It is new.</p></td></tr></table>")
    assert read_file(page, "os.html").text == (
        "v5.11.0 | Added support for SIGINFO. It is new.")


def test_html_a_section_is_what_its_heading_spans() -> None:
    page = b"""<h1>Users and Groups</h1>
      <h3>Joey Hess</h3><h3>Colin Watson</h3>
      <p>This document is free; you can redistribute it under the GNU GPL.</p>
      <h2>Introduction</h2><p>The package holds the master files.</p>
      <section><h2>Entries</h2><p>Root is the superuser.</p></section>
      <p>Every entry is reserved for the system.</p>"""
    doc = read_file(page, "users.html")
    # Authors' names under the title are styled lines (an h3 right under an h1), not
    # sections: the licence after them is the document's.
    assert _section(doc, "Colin Watson") == "Users and Groups"
    assert _section(doc, "This document is free") == "Users and Groups"
    assert _section(doc, "The package holds") == "Introduction"
    assert _section(doc, "Root is the superuser.") == "Entries"
    # The section element ended: its heading names nothing after it.
    assert _section(doc, "Every entry is reserved") == "Introduction"


def test_docx_table_rows_are_statements_that_name_their_columns() -> None:
    document = docx.Document()
    document.add_paragraph("Visitors by year.")
    labels = document.add_table(rows=2, cols=2)
    for row, (label, value) in zip(labels.rows, (("Visitors in 2024", "21,300"),
                                                  ("Visitors in 2023", "19,800")), strict=True):
        row.cells[0].text, row.cells[1].text = label, value
    counts = document.add_table(rows=3, cols=2)
    for row, values in zip(counts.rows, (("Year", "Visitors"), ("2024", "21,300"),
                                         ("2023", "")), strict=True):
        row.cells[0].text, row.cells[1].text = values
    signals = document.add_table(rows=2, cols=2)
    for i, values in enumerate((("Constant", "Description"),
                                ("SIGHUP", "Sent when the terminal is closed."))):
        for cell, text in zip(signals.rows[i].cells, values, strict=True):
            cell.paragraphs[0].add_run(text).bold = i == 0
    doc = read_file(_docx_bytes(document), "visitors.docx")
    assert doc.text.split("\n\n") == [
        "Visitors by year.",
        # Two columns, no header: a label and its value.
        "Visitors in 2024: 21,300.", "Visitors in 2023: 19,800.",
        # Words above rows of numbers: a header, which names each row's columns.
        "Year | Visitors", "Year: 2024; Visitors: 21,300.", "Year: 2023.",
        # A bold first row: a header.
        "Constant | Description", "Constant: SIGHUP; Description: Sent when the terminal is "
                                  "closed."]


def test_an_empty_docx_is_refused_as_empty() -> None:
    template = Path(docx.__file__).parent / "templates" / "default.docx"
    with pytest.raises(UnreadableFile) as caught:
        read_file(template.read_bytes(), "default.docx")
    assert caught.value.message == "This Word document is empty: it holds no text to read."
