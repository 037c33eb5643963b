"""Documents nobody here wrote, read as a person reads them: the PDF manuals, HTML pages and
tables that Debian packages install, ingested into one workspace by the real app.

``python -m afterhack_tools.bench.documents --json out.json`` starts an embedded FalkorDB
and the app (offline model, conflict checks on) in a temporary directory, uploads each
document below that is installed (the others are listed with the package that installs
them), and writes per document:

- ``claims``: the claims kept;
- ``furniture_claims``: a PDF's claims that are table-of-contents or running-header lines,
  by this rule: the claim's quote (a) holds a dot leader (two or more full stops, each may be
  followed by a space) and then a number, or (b) starts with a number, ends in a space and a
  full stop (a leader's last dot) and holds the title of an entry of the PDF's contents or
  index (a line of pypdf's text of a page that ends in a dot leader and a number, without
  them), or (c) starts with a page
  number and then a section number (``22 4.5 Auxilliary functions``: a contents line run into
  the one before it), or (d) starts or ends with a line that is the first or the last line
  of at least three pages of the PDF (compared with its digits removed: a header carries its
  page number);
- ``hyphens.split_words``: words broken at a line's end with a hyphen in the PDF (pypdf's own
  text of each page, the same whatever reader reads it) that a dictionary (Debian's
  wamerican, ``/usr/share/dict/american-english``, when installed) holds whole, or that the
  document writes whole elsewhere: a split word, not a compound; ``left_split``: how many of
  those the text read still holds split (``man-agement`` or ``OP- TIONAL``);
- ``hyphens.compounds``: line-end hyphenations whose halves the dictionary holds and whose
  whole neither the dictionary nor the document holds (``multi-precision``);
  ``joined_compounds``: how many of those the text read joined without their hyphen.

Then every conflict the workspace raised, each as its two statements. A labels file
(``--labels``, JSON: ``[{"a", "b", "false", "why"}]``, written by a person reading both
sides) says which are false; the report counts raised, false and unlabelled ones.

``--src DIR`` runs the app from another source tree (``git archive <commit> src``), to
measure the reading of another commit with the same documents and the same rules;
``--compare before.json after.json`` prints the Markdown table of two runs.
"""

from __future__ import annotations

import argparse
import gzip
import io
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import docx
import httpx
import lxml.html
import pypdf

from afterhack.runtime.embedded import EmbeddedFalkorDB, free_loopback_port

DICTIONARY = Path("/usr/share/dict/american-english")
NODE_OS = Path("/usr/share/doc/nodejs/api/os.html")


@dataclass(frozen=True)
class Document:
    name: str
    path: Path
    package: str
    # Made from ``path`` (a DOCX built from a page's tables and paragraphs); None: as is.
    build: Callable[[Path], bytes] | None = None


def os_tables_docx(page: Path) -> bytes:
    """A Word document of the node.js manual's os page: its headings and paragraphs, and
    each of its tables as a Word table whose header row is bold, as a writer sets it."""
    root = lxml.html.fromstring(page.read_bytes())
    document = docx.Document()
    for el in root.iter("h2", "h3", "p", "table"):
        if el.tag in ("h2", "h3"):
            document.add_heading(" ".join(el.text_content().split()), level=int(el.tag[1]))
        elif el.tag == "p" and el.getparent() is not None and el.getparent().tag != "td":
            text = " ".join(el.text_content().split())
            if text:
                document.add_paragraph(text)
        elif el.tag == "table":
            rows = [[" ".join(c.text_content().split()) for c in tr if c.tag in ("td", "th")]
                    for tr in el.iter("tr")]
            width = max((len(r) for r in rows), default=0)
            if not rows or width == 0:
                continue
            head = any(c.tag == "th" for c in next(el.iter("tr")))
            table = document.add_table(rows=len(rows), cols=width)
            for i, row in enumerate(rows):
                for j, text in enumerate(row):
                    table.cell(i, j).paragraphs[0].add_run(text).bold = head and i == 0
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def gunzipped(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


DOCUMENTS = (
    Document("libtasn1.pdf", Path("/usr/share/doc/libtasn1-doc/libtasn1.pdf"), "libtasn1-doc"),
    Document("libidn2.pdf", Path("/usr/share/doc/libidn2-doc/libidn2.pdf"), "libidn2-doc"),
    Document("gcrypt.pdf", Path("/usr/share/doc/libgcrypt20-doc/gcrypt.pdf.gz"),
             "libgcrypt20-doc", build=gunzipped),
    Document("shared-mime-info-spec.pdf",
             Path("/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf"),
             "shared-mime-info"),
    Document("users-and-groups.html", Path("/usr/share/doc/base-passwd/users-and-groups.html"),
             "base-passwd"),
    Document("shared-mime-info-spec.html",
             Path("/usr/share/doc/shared-mime-info/shared-mime-info-spec.html/x34.html"),
             "shared-mime-info"),
    Document("libffi-basics.html", Path("/usr/share/doc/libffi8/html/The-Basics.html"),
             "libffi-dev"),
    Document("node-os.html", NODE_OS, "nodejs"),
    Document("node-os.docx", NODE_OS, "nodejs", build=os_tables_docx),
)


# -- the rules the report counts by, independent of the reader measured ------------------------

_LEADER = re.compile(r"(?:\.\s?){2,}\s*\d+")
_LEADER_LINE = re.compile(r"\A(.*?)\s*(?:\.\s?){2,}\s*[0-9ivxlc]+\Z")
_CONTENTS_LINE = re.compile(r"\A\d+ (?:[A-Z]\.)?\d+(?:\.\d+)* ")
_LINE_END_HYPHEN = re.compile(r"([A-Za-z]+)-$")
_LINE_START_WORD = re.compile(r"^([A-Za-z]+)")
_DIGITS = re.compile(r"[0-9ivxlc]+\b|\d+")


def _pdf_lines(data: bytes) -> list[list[str]]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return [[ln.strip() for ln in (page.extract_text() or "").splitlines() if ln.strip()]
            for page in reader.pages]


def running_lines(pages: list[list[str]]) -> set[str]:
    """Lines first or last on at least three pages, digits removed (the rule's (b))."""
    seen: Counter[str] = Counter()
    for lines in pages:
        ends = {_DIGITS.sub("", ln).strip() for ln in (lines[:1] + lines[-1:])}
        seen.update(e for e in ends if len(e) >= 4)
    return {line for line, n in seen.items() if n >= 3}


def contents_titles(pages: list[list[str]]) -> set[str]:
    """The titles of the contents' entries: the lines that end in a dot leader and a page
    number, without them."""
    found = set()
    for lines in pages:
        for line in lines:
            m = _LEADER_LINE.match(line)
            if m and len(m.group(1)) >= 3:
                found.add(m.group(1))
    return found


def is_furniture(quote: str, running: set[str], titles: set[str]) -> bool:
    if _LEADER.search(quote) or _CONTENTS_LINE.match(quote):
        return True
    if (quote[:1].isdigit() and quote.endswith(" .")
            and any(title in quote for title in titles)):
        return True
    bare = _DIGITS.sub("", quote).strip()
    return any(bare.startswith(line) or bare.endswith(line) for line in running)


def load_dictionary() -> set[str] | None:
    if not DICTIONARY.exists():
        return None
    return {w.strip().lower() for w in DICTIONARY.read_text(errors="replace").splitlines()}


def hyphenations(pages: list[list[str]]) -> list[tuple[str, str]]:
    """Every word broken at a line's end by a hyphen: (before, after), across page ends too."""
    lines = [ln for page in pages for ln in page]
    found = []
    for line, following in itertools.pairwise(lines):
        head, tail = _LINE_END_HYPHEN.search(line), _LINE_START_WORD.match(following)
        if head and tail:
            found.append((head.group(1), tail.group(1)))
    return found


@dataclass
class Hyphens:
    split_words: int = 0  # the dictionary holds the word whole
    left_split: int = 0
    compounds: int = 0  # the dictionary holds both halves and not the whole
    joined_compounds: int = 0


def written_whole(pages: list[list[str]]) -> set[str]:
    """The words the pages write, outside the halves of line-end breaks."""
    lines = [ln for page in pages for ln in page]
    found: set[str] = set()
    broken_before = False
    for line in lines:
        tokens = re.findall(r"[A-Za-z]+", line)
        broken = _LINE_END_HYPHEN.search(line) is not None
        if broken and tokens:
            tokens = tokens[:-1]
        if broken_before and tokens:
            tokens = tokens[1:]
        found.update(t.lower() for t in tokens)
        broken_before = broken
    return found


def judge_hyphens(pairs: list[tuple[str, str]], text: str, words: set[str],
                  document: set[str]) -> Hyphens:
    out = Hyphens()
    for head, tail in pairs:
        whole = (head + tail).lower()
        if whole in words or whole in document:
            out.split_words += 1
            if f"{head}-{tail}" in text or f"{head}- {tail}" in text:
                out.left_split += 1
        elif head.lower() in words and tail.lower() in words:
            out.compounds += 1
            if f"{head}{tail}" in text and f"{head}-{tail}" not in text:
                out.joined_compounds += 1
    return out


# -- the run ----------------------------------------------------------------------------------


@dataclass
class Read:
    name: str
    package: str
    status: str
    claims: int = 0
    hyphens: Hyphens | None = None
    pages_named: int = 0  # claims whose fragment runs over two pages
    # What the furniture rule reads, so that a run's figures can be counted again by it.
    quotes: list[str] = field(default_factory=list)
    running: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)

    def furniture(self) -> list[str]:
        if not self.name.endswith(".pdf"):
            return []  # the rule reads a PDF's lines and the marks of its contents
        running, titles = set(self.running), set(self.titles)
        return [q for q in self.quotes if is_furniture(q, running, titles)]


@dataclass
class Run:
    src: str
    documents: list[Read]
    conflicts: list[tuple[str, str]]
    missing: list[str]


class App:
    def __init__(self, src: Path | None) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="afterhack-documents-"))
        self.fdb = EmbeddedFalkorDB(self.dir / "fdb", die_with_parent=True)
        self.src = src
        self.proc: subprocess.Popen[bytes] | None = None
        self.base_url = ""

    def __enter__(self) -> App:
        url = self.fdb.start()
        port = free_loopback_port()
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("AFTERHACK_", "OPENAI_"))}
        env.update(AFTERHACK_FALKORDB_URL=url, AFTERHACK_DATA_DIR=str(self.dir / "app"),
                   AFTERHACK_EMBEDDING_WORKER="false")
        if self.src is not None:
            env["PYTHONPATH"] = str(self.src)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "afterhack.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--log-level", "warning"], env=env, cwd=self.dir,
            stdout=subprocess.DEVNULL, stderr=open(self.dir / "app.log", "ab"))
        self.base_url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base_url + "/api/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError("the app did not start: " + (self.dir / "app.log").read_text())

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=60)
        self.fdb.stop()


def run(src: Path | None) -> Run:
    words = load_dictionary()
    reads: list[Read] = []
    missing = [f"{d.name} ({d.path}, from {d.package})" for d in DOCUMENTS
               if not d.path.exists()]
    with App(src) as app, httpx.Client(base_url=app.base_url + "/api", timeout=600) as http:
        ws = http.post("/workspaces", json={"name": "documents"}).json()["id"]
        for d in DOCUMENTS:
            if not d.path.exists():
                continue
            data = d.build(d.path) if d.build else d.path.read_bytes()
            r = http.post(f"/workspaces/{ws}/sources/files", files={"file": (d.name, data)})
            body = r.json()
            if r.status_code not in (200, 201):
                reads.append(Read(d.name, d.package, f"{r.status_code} {body['error']['code']}"))
                continue
            pages = _pdf_lines(data) if d.name.endswith(".pdf") else []
            running = running_lines(pages)
            quotes = [c["evidence_quote"] for c in body["claims"]]
            text = body["source"]["versions"][-1]["text"]
            frags = body["source"]["versions"][-1]["fragments"]
            crossing = {f["id"] for f in frags if f.get("page_end")}
            reads.append(Read(
                d.name, d.package, str(r.status_code), claims=len(quotes),
                hyphens=judge_hyphens(hyphenations(pages), text, words, written_whole(pages))
                if pages and words is not None else None,
                pages_named=sum(c["fragment_id"] in crossing for c in body["claims"]),
                quotes=quotes, running=sorted(running),
                titles=sorted(contents_titles(pages))))
        raised = http.get(f"/workspaces/{ws}/conflicts", params={"limit": 1000}).json()
        conflicts: list[tuple[str, str]] = []
        for c in raised["items"]:
            # A code before disputes lists a conflict's two claims, one since its sides: each
            # pair of values is a pair a person labels.
            claims = c.get("claims") or [s["claims"][0] for s in c["sides"]]
            statements = sorted(x["statement"] for x in claims)
            conflicts += [(a, b) for i, a in enumerate(statements) for b in statements[i + 1:]]
    return Run(str(src or "this tree"), reads, conflicts, missing)


# -- the report -------------------------------------------------------------------------------


Labels = dict[tuple[str, str], bool]


def _read(found: Any) -> Read:
    hyphens = Hyphens(**found["hyphens"]) if found["hyphens"] else None
    return Read(**{**found, "hyphens": hyphens})


def _key(a: str, b: str) -> tuple[str, str]:
    first, second = sorted((a, b))
    return first, second


def _labels(path: Path | None) -> Labels:
    if path is None or not path.exists():
        return {}
    return {_key(e["a"], e["b"]): bool(e["false"])
            for e in json.loads(path.read_text(encoding="utf-8"))}


def _conflict_counts(r: Any, labels: Labels) -> str:
    pairs = [_key(a, b) for a, b in r["conflicts"]]
    false = sum(labels.get(p) is True for p in pairs)
    unlabelled = sum(p not in labels for p in pairs)
    return f"{len(pairs)} raised, {false} false" + (
        f", {unlabelled} unlabelled" if unlabelled else "")


def compare(before: Any, after: Any, labels: Labels) -> str:
    rows = ["| document | package | claims | TOC or header claims | split words left "
            "(of line-end splits) | compounds joined (of line-end compounds) | claims naming "
            "two pages |", "|---|---|---:|---:|---:|---:|---:|"]
    by_name = {d["name"]: d for d in after["documents"]}
    for b in before["documents"]:
        a = by_name.get(b["name"])
        if a is None:
            continue

        def pair(key: str, b: Any = b, a: Any = a) -> str:
            return f"{b[key]} → {a[key]}"

        def furniture(b: Any = b, a: Any = a) -> str:
            return (f"{len(_read(b).furniture())} → {len(_read(a).furniture())}")

        def hy(key: str, total: str, b: Any = b, a: Any = a) -> str:
            hb, ha = b["hyphens"], a["hyphens"]
            if not hb or not ha:
                return "—"
            return f"{hb[key]} → {ha[key]} (of {ha[total]})"

        rows.append(f"| {b['name']} | {b['package']} | {pair('claims')} | "
                    f"{furniture()} | {hy('left_split', 'split_words')} | "
                    f"{hy('joined_compounds', 'compounds')} | {pair('pages_named')} |")
    rows.append("")
    rows.append(f"Conflicts raised in the workspace: before {_conflict_counts(before, labels)}; "
                f"after {_conflict_counts(after, labels)} (labels: a person's reading of "
                "both sides).")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--labels", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path)
    args = parser.parse_args()
    labels = _labels(args.labels)
    if args.compare:
        before, after = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        print(compare(before, after, labels))
        return
    result = run(args.src)
    doc = asdict(result)
    if args.json:
        args.json.write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
    for d in result.documents:
        print(f"{d.name}: {d.status}, {d.claims} claims, {len(d.furniture())} contents or "
              f"header lines among them {d.furniture()[:3]}, hyphens {d.hyphens}, "
              f"{d.pages_named} naming two pages")
    for a, b in result.conflicts:
        label = labels.get(_key(a, b))
        mark = "?" if label is None else "FALSE" if label else "true"
        print(f"conflict [{mark}]: {a!r} <> {b!r}")
    for m in result.missing:
        print("not installed:", m)


if __name__ == "__main__":
    main()
