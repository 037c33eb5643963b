"""File reading: read time per MB of each kind the product reads, on files made here.

``python -m afterhack_tools.bench.filereading`` makes a file of about 1 MB of each kind
(plain text, Markdown, HTML, PDF, DOCX) from pseudo-words drawn with the skewed frequencies
of natural language (so a DOCX compresses about as a real one does), reads each with
``afterhack.files.read_file`` a few times, and prints the median time per MB of file (CPU
time, and the wall time beside it) and the text read per CPU second. ``--candidates`` also
times the parsers the readers were chosen among, each one that is installed, on the same
files.
"""

from __future__ import annotations

import argparse
import importlib
import io
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any, Literal

import docx
import pypdf

from afterhack.files import read_file
from afterhack_tools.pdfwriter import paginate, pdf

MB = 1 << 20


@dataclass(frozen=True)
class Sample:
    kind: str
    filename: str
    data: bytes


@dataclass(frozen=True)
class Figure:
    kind: str
    file_mb: float
    text_chars: int
    places: int
    wall_ms: float
    cpu_ms: float
    cpu_ms_per_file_mb: float
    text_mb_per_cpu_s: float


class _Words:
    """Sentences of pseudo-words, a few thousand of them, drawn by rank as in Zipf's law."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        letters = "etaoinshrdlcumwfgypbvkjxqz"
        weights = [12, 9, 8, 7.5, 7, 6.7, 6.3, 6, 5.9, 4.3, 4, 2.8, 2.8, 2.4, 2.4, 2.2, 2,
                   2, 1.9, 1.5, 1, 0.8, 0.2, 0.2, 0.1, 0.1]
        vocabulary = {"".join(self.rng.choices(letters, weights, k=self.rng.randint(2, 10)))
                      for _ in range(4000)}
        self.words = sorted(vocabulary)
        self.rng.shuffle(self.words)
        self.cumulative: list[float] = []
        total = 0.0
        for rank in range(1, len(self.words) + 1):
            total += 1 / rank
            self.cumulative.append(total)

    def sentence(self) -> str:
        n = self.rng.randint(6, 22)
        words = self.rng.choices(self.words, cum_weights=self.cumulative, k=n)
        if self.rng.random() < 0.3:
            words[self.rng.randrange(n)] = str(self.rng.randint(2, 2030))
        return " ".join(words).capitalize() + "."

    def paragraph(self) -> str:
        return " ".join(self.sentence() for _ in range(self.rng.randint(2, 6)))

    def title(self) -> str:
        return " ".join(self.rng.choices(self.words[:300], k=3)).capitalize()


def _until(target: int, make: Callable[[int], str]) -> str:
    parts: list[str] = []
    size = 0
    i = 0
    while size < target:
        part = make(i)
        parts.append(part)
        size += len(part.encode())
        i += 1
    return "".join(parts)


def _plain(w: _Words, target: int) -> bytes:
    return _until(target, lambda i: w.paragraph() + "\n\n").encode()


def _markdown(w: _Words, target: int) -> bytes:
    def section(i: int) -> str:
        return (f"## {w.title()} {i}\n\n{w.sentence()} **{w.sentence()}** "
                f"[{w.sentence()}](https://example.com/{i}) *{w.sentence()}* `code {i}`\n"
                f"{w.paragraph()}\n\n- {w.sentence()}\n- {w.sentence()}\n\n"
                f"| Name | Value |\n|---|---|\n| {w.title()} | {i} |\n\n"
                f"```\nprint({i})\n```\n\n{w.paragraph()}\n\n")
    return _until(target, section).encode()


def _html(w: _Words, target: int) -> bytes:
    def section(i: int) -> str:
        return (f"<section><h2>{w.title()} {i}</h2><p>{w.sentence()} <b>{w.sentence()}</b> "
                f"<a href='https://example.com/{i}'>{w.sentence()}</a></p>"
                f"<div class='c'><p>{w.paragraph()}</p></div><ul><li>{w.sentence()}</li>"
                f"<li>{w.sentence()}</li></ul><table><tr><td>{w.title()}</td><td>{i}</td>"
                f"</tr></table><script>track({i});</script></section>\n")
    head = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>Bench</title>"
            "<style>p { margin: 0 }</style><script>var a = 1;</script></head><body>\n")
    return (head + _until(target, section) + "</body></html>\n").encode()


def _pdf_paragraphs(w: _Words, n: int) -> list[str]:
    out: list[str] = []
    for i in range(n):
        out.append(w.title() if i % 6 == 0 else w.paragraph())
    return out


def _pdf(w: _Words, target: int) -> bytes:
    probe = 200
    size = len(pdf(paginate(_pdf_paragraphs(_Words(0), probe))))
    return pdf(paginate(_pdf_paragraphs(w, probe * target // size + 1)))


def _docx(w: _Words, target: int) -> bytes:
    def build(words: _Words, sections: int) -> bytes:
        document = docx.Document()
        for i in range(sections):
            document.add_heading(f"{words.title()} {i}", level=1 + i % 2)
            for _ in range(4):
                document.add_paragraph(words.paragraph())
            if i % 5 == 0:
                table = document.add_table(rows=2, cols=3)
                for cell in table.rows[0].cells + table.rows[1].cells:
                    cell.text = words.sentence()
        out = io.BytesIO()
        document.save(out)
        return out.getvalue()
    probe = 100
    base = len(build(_Words(0), 0))
    per_section = (len(build(_Words(0), probe)) - base) / probe
    return build(w, int((target - base) / per_section) + 1)


def sample_files(target: int = MB, seed: int = 36) -> list[Sample]:
    """One file of each kind, each of about ``target`` bytes."""
    return [
        Sample("plain text", "bench.txt", _plain(_Words(seed), target)),
        Sample("Markdown", "bench.md", _markdown(_Words(seed), target)),
        Sample("HTML", "bench.html", _html(_Words(seed), target)),
        Sample("PDF", "bench.pdf", _pdf(_Words(seed), target)),
        Sample("DOCX", "bench.docx", _docx(_Words(seed), target)),
    ]


@dataclass(frozen=True)
class Timing:
    wall_ms: float
    cpu_ms: float


def _median_ms(fn: Callable[[], Any], repeats: int) -> Timing:
    """Median wall and CPU time of ``repeats`` calls. The CPU time is the figure to compare:
    on a shared machine the wall time also counts the waits for a core."""
    fn()  # imports and first-call caches are not what a read costs
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return Timing(statistics.median(wall), statistics.median(cpu))


def measure_file_reading(samples: list[Sample], repeats: int = 5) -> list[Figure]:
    figures: list[Figure] = []
    for s in samples:
        doc = read_file(s.data, s.filename)
        t = _median_ms(lambda s=s: read_file(s.data, s.filename), repeats)  # type: ignore[misc]
        figures.append(Figure(
            kind=s.kind, file_mb=len(s.data) / MB, text_chars=len(doc.text),
            places=len(doc.places), wall_ms=t.wall_ms, cpu_ms=t.cpu_ms,
            cpu_ms_per_file_mb=t.cpu_ms / (len(s.data) / MB),
            text_mb_per_cpu_s=len(doc.text.encode()) / MB / (t.cpu_ms / 1000)))
    return figures


def _candidates(samples: list[Sample]) -> Iterator[tuple[str, Callable[[], Any] | None, Sample]]:
    """The parsers compared for each kind, each a callable that parses the whole sample
    (None when its package is not installed)."""
    by_kind = {s.kind: s for s in samples}
    page = by_kind["HTML"]
    html = page.data.decode()
    yield "HTML: afterhack reader (lxml tree, walk)", lambda: read_file(page.data, "a.html"), page
    yield "HTML: lxml parse alone", _optional(
        "lxml.html", lambda m: lambda: m.document_fromstring(html)), page
    yield "HTML: stdlib html.parser, events only", _stdlib_html(html), page
    yield "HTML: selectolax (lexbor) parse and traverse", _optional(
        "selectolax.lexbor",
        lambda m: lambda: sum(1 for _ in m.LexborHTMLParser(html).root.traverse(
            include_text=True))), page
    yield "HTML: BeautifulSoup (html.parser) get_text", _optional(
        "bs4", lambda m: lambda: m.BeautifulSoup(html, "html.parser").get_text()), page
    yield "HTML: BeautifulSoup (lxml) get_text", _optional(
        "bs4", lambda m: lambda: m.BeautifulSoup(html, "lxml").get_text()), page
    notes = by_kind["Markdown"]
    source = notes.data.decode()
    yield "Markdown: afterhack reader (markdown-it-py)", lambda: read_file(
        notes.data, "a.md"), notes
    yield "Markdown: markdown-it-py parse alone", _optional(
        "markdown_it", lambda m: lambda: m.MarkdownIt("commonmark").enable(
            ["table", "strikethrough"]).parse(source)), notes
    yield "Markdown: mistune AST", _optional(
        "mistune", lambda m: lambda: m.create_markdown(
            renderer=None, plugins=["table", "strikethrough"])(source)), notes
    report = by_kind["PDF"]
    yield "PDF: pypdf extract_text, plain mode", _pypdf(report.data, "plain"), report
    yield "PDF: pypdf extract_text, layout mode", _pypdf(report.data, "layout"), report
    yield "PDF: pypdfium2 (PDFium) text per page", _optional(
        "pypdfium2", lambda m: lambda: [page.get_textpage().get_text_range()
                                        for page in m.PdfDocument(report.data)]), report
    yield "PDF: pdfminer.six extract_text", _optional(
        "pdfminer.high_level",
        lambda m: lambda: m.extract_text(io.BytesIO(report.data))), report


def _optional(module: str, make: Callable[[Any], Callable[[], Any]]) -> Callable[[], Any] | None:
    try:
        return make(importlib.import_module(module))
    except ImportError:
        return None


def _stdlib_html(html: str) -> Callable[[], Any]:
    class Texts(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.parts: list[str] = []

        def handle_data(self, data: str) -> None:
            self.parts.append(data)

    def run() -> str:
        p = Texts()
        p.feed(html)
        p.close()
        return "".join(p.parts)
    return run


def _pypdf(data: bytes, mode: Literal["plain", "layout"]) -> Callable[[], Any]:
    def run() -> list[str]:
        reader = pypdf.PdfReader(io.BytesIO(data))
        return [page.extract_text(extraction_mode=mode) for page in reader.pages]
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--candidates", action="store_true")
    args = parser.parse_args()
    samples = sample_files(int(args.size_mb * MB))
    print(f"{'kind':<12}{'file MB':>9}{'text chars':>12}{'places':>8}{'wall ms':>9}"
          f"{'CPU ms':>9}{'CPU ms per MB':>15}{'text MB per CPU s':>19}")
    for f in measure_file_reading(samples, args.repeats):
        print(f"{f.kind:<12}{f.file_mb:>9.2f}{f.text_chars:>12,}{f.places:>8}"
              f"{f.wall_ms:>9.1f}{f.cpu_ms:>9.1f}{f.cpu_ms_per_file_mb:>15.1f}"
              f"{f.text_mb_per_cpu_s:>19.2f}")
    if args.candidates:
        print()
        for name, fn, sample in _candidates(samples):
            if fn is None:
                print(f"{name:<50} not installed")
                continue
            t = _median_ms(fn, args.repeats)
            print(f"{name:<50} {t.cpu_ms / (len(sample.data) / MB):>9.1f} CPU ms per MB")


if __name__ == "__main__":
    main()
