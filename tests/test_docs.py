"""The repository explains itself: what it cites, it holds.

Code, tests and docs cite docs/rules.md by rule number, docs/falkordb.md by section and
docs/decisions/ by record. These checks fail when a tracked file cites a document the
repository does not hold (the product contract and notes that live outside it, or a path
that is gone), a rule number docs/rules.md does not define, a decision record that does not
exist, or a module, test file or test name the docs name but the repository lacks.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tests.support.paths import ROOT, tracked

DOCS = ROOT / "docs"
RULES = DOCS / "rules.md"
DECISIONS = DOCS / "decisions"

# What is scanned: the product, its tools, tests and docs, and the files that configure them.
SCANNED_DIRS = ("src/", "tools/", "tests/", "docs/", "scripts/", "web/", ".ci/")
SCANNED_FILES = ("README.md", "pyproject.toml", "docker-compose.yml",
                 "Dockerfile")
# This file names the forbidden citations in order to find them.
SELF = Path(__file__).resolve().relative_to(ROOT).as_posix()

# Documents that live outside the repository, or that it no longer holds.
OUTSIDE = re.compile(r"\bSPEC\b|FALKORDB\.md|\bNOTES\.md\b|seed-story|STYLE\.md|falkordb-notes")
# Words of a work diary: the repository speaks of the product, and a decision's story goes in
# docs/decisions/ as what was measured and chosen.
DIARY = re.compile(r"\b(?:this|previous|earlier) (?:session|round)\b|"
                   r"\bround (?:one|two|three|four)\b|\bpass (?:number )?\d+\b",
                   re.IGNORECASE)
# "rule 9", "rules 4 and 5", "rules 4 to 8", "Rule 10"; an invariant's number is no rule.
RULE_CITE = re.compile(r"\brules? (\d+(?:(?:, | and | to |, and )\d+)*)", re.IGNORECASE)
RULE_HEADING = re.compile(r"^## (\d+)\. ", re.MULTILINE)
# A path to a Markdown document, as code and docs write it (``docs/api.md``, ``../rules.md``).
MD_PATH = re.compile(r"(?<![\w/.-])((?:\.\.?/)*[\w.-]+(?:/[\w.-]+)*/[\w.-]+\.md)\b")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
RECORD = re.compile(r"\b(\d{4}-[a-z0-9-]+\.md)\b")
BACKTICKED = re.compile(r"`([^`\s]+)`")
TEST_DEF = re.compile(r"^(?:async )?def (test_\w+)", re.MULTILINE)


@dataclass(frozen=True)
class Text:
    path: str  # relative to the repository, POSIX
    body: str


def scanned(paths: Iterable[str]) -> list[Text]:
    texts = []
    for p in paths:
        if p == SELF or not (p.startswith(SCANNED_DIRS) or p in SCANNED_FILES):
            continue
        if p.startswith("web/src/") and p.endswith("apiTypes.ts"):
            continue  # generated from the API's docstrings, which are scanned
        try:
            body = (ROOT / p).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        texts.append(Text(p, body))
    return texts


def where(t: Text, start: int) -> str:
    return f"{t.path}:{t.body.count(chr(10), 0, start) + 1}"


def numbered_rules(body: str) -> set[int]:
    return {int(n) for n in RULE_HEADING.findall(body)}


def cited_rules(t: Text) -> list[tuple[str, int]]:
    found = []
    for m in RULE_CITE.finditer(t.body):
        numbers = [int(n) for n in re.findall(r"\d+", m.group(1))]
        if " to " in m.group(1) and len(numbers) == 2:
            numbers = list(range(numbers[0], numbers[1] + 1))
        found += [(where(t, m.start()), n) for n in numbers]
    return found


def outside_citations(t: Text) -> list[str]:
    return [f"{where(t, m.start())}: {m.group(0)}" for m in OUTSIDE.finditer(t.body)]


def diary_words(t: Text) -> list[str]:
    return [f"{where(t, m.start())}: {m.group(0)}" for m in DIARY.finditer(t.body)]


def _exists(t: Text, target: str) -> bool:
    target = target.split("#", 1)[0]
    if not target:
        return True
    return any((base / target).exists() for base in (ROOT, (ROOT / t.path).parent))


def missing_docs(t: Text) -> list[str]:
    """Paths to Markdown documents, and the targets of Markdown links, that do not exist
    (relative to the repository or to the citing file)."""
    bad = []
    for m in MD_PATH.finditer(t.body):
        if not _exists(t, m.group(1)):
            bad.append(f"{where(t, m.start())}: {m.group(1)}")
    if t.path.endswith(".md"):
        for m in MD_LINK.finditer(t.body):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL or an anchor on the same page
            if not _exists(t, target):
                bad.append(f"{where(t, m.start())}: {target}")
    return bad


def missing_records(t: Text, records: set[str]) -> list[str]:
    bad = []
    for m in RECORD.finditer(t.body):
        before = t.body[max(0, m.start() - 20):m.start()]
        a_record = "decisions/" in before or t.path.startswith("docs/decisions/")
        if a_record and m.group(1) not in records:
            bad.append(f"{where(t, m.start())}: {m.group(1)}")
    return bad


def defined_tests() -> dict[str, set[str]]:
    return {p.relative_to(ROOT).as_posix(): set(TEST_DEF.findall(p.read_text(encoding="utf-8")))
            for p in (ROOT / "tests").glob("test_*.py")}


def missing_code(t: Text, tests: dict[str, set[str]]) -> list[str]:
    """Backticked paths (``src/…``, ``tests/…::test_name``), test files and test names in a
    doc that the repository does not hold."""
    names = set().union(*tests.values())
    files = {Path(p).name for p in tests}
    bad = []
    for m in BACKTICKED.finditer(t.body):
        token = m.group(1)
        path, _, name = token.partition("::")
        if re.match(r"^(src|tests|tools|web|scripts)/[\w./-]+$", path):
            if not (ROOT / path).exists():
                bad.append(f"{where(t, m.start())}: {path}")
            elif name and name not in tests.get(path, set()):
                bad.append(f"{where(t, m.start())}: {token}")
        elif (re.match(r"^test_\w+\.py$", token) and token not in files) or (
                re.match(r"^test_\w+$", token) and token not in names):
            bad.append(f"{where(t, m.start())}: {token}")
    return bad


# The checks run over the repository as it is.


def _texts() -> list[Text]:
    return scanned(tracked())


def _records() -> set[str]:
    return {p.name for p in DECISIONS.glob("[0-9][0-9][0-9][0-9]-*.md")}


def test_nothing_cites_a_document_the_repository_does_not_hold() -> None:
    bad = [b for t in _texts() for b in outside_citations(t) + missing_docs(t)]
    assert bad == [], "cited but not in the repository:\n" + "\n".join(bad)


def test_no_tracked_text_reads_as_a_diary() -> None:
    bad = [b for t in _texts() for b in diary_words(t)]
    assert bad == [], "diary words (say what and why in docs/decisions/):\n" + "\n".join(bad)


def test_the_diary_check_finds_what_it_is_for() -> None:
    found = diary_words(Text("x.md", "Done this session.\nIn round two we sped it up.\n"
                                     "A pass 3 of the bench.\nThe session cluster; the last "
                                     "session of the day; a later round of the loop."))
    assert found == ["x.md:1: this session", "x.md:2: round two", "x.md:3: pass 3"]


def test_every_rule_cited_is_numbered_in_the_rules() -> None:
    rules = numbered_rules(RULES.read_text(encoding="utf-8"))
    assert rules == set(range(1, max(rules) + 1)), "rules are numbered 1, 2, 3, ... in order"
    bad = [f"{at}: rule {n}" for t in _texts() for at, n in cited_rules(t) if n not in rules]
    assert bad == [], "rules cited that docs/rules.md does not number:\n" + "\n".join(bad)


def test_every_decision_record_cited_exists_and_is_listed() -> None:
    records = _records()
    bad = [b for t in _texts() for b in missing_records(t, records)]
    assert bad == [], "decision records cited that do not exist:\n" + "\n".join(bad)
    index = (DECISIONS / "README.md").read_text(encoding="utf-8")
    assert [r for r in sorted(records) if r not in index] == []
    numbers = [r[:4] for r in records]
    assert len(numbers) == len(set(numbers)), "two records share a number"


def test_the_docs_name_only_code_and_tests_that_exist() -> None:
    tests = defined_tests()
    bad = [b for t in _texts() if t.path.startswith("docs/") for b in missing_code(t, tests)]
    assert bad == [], "named in docs/ but not in the repository:\n" + "\n".join(bad)


def test_each_rule_says_why_and_where_it_is_enforced_and_shown() -> None:
    body = RULES.read_text(encoding="utf-8")
    sections = re.split(r"^## (?=\d+\. )", body, flags=re.MULTILINE)[1:]
    assert sections
    for section in sections:
        title = section.splitlines()[0]
        assert "**Why.**" in section, title
        built = "Enforced by:" in section and "Shown by:" in section
        assert built or "Not built yet" in section, title


def rule_sections(body: str) -> dict[int, str]:
    """Each numbered rule's section of docs/rules.md, by its number."""
    return {int(m.group(1)): m.group(2) for m in re.finditer(
        r"^## (\d+)\. (.*?)(?=^## |\Z)", body, flags=re.MULTILINE | re.DOTALL)}


NODE_ID = re.compile(r"`(tests/test_\w+\.py::test_\w+)`")


def shown_by(section: str) -> list[str]:
    """The pytest node ids a rule's "Shown by" names (a file alone names no one test)."""
    shown = section.split("Shown by:", 1)[1] if "Shown by:" in section else ""
    shown = re.split(r"^- (?!Shown by)", shown, flags=re.MULTILINE)[0]
    return NODE_ID.findall(shown)


def uncollected(node_ids: list[str], root: Path = ROOT) -> list[str]:
    """The node ids (relative to ``root``) pytest does not collect: a function that is not
    a test where it stands (in a class pytest does not read, under a name bound again to
    something else), or a name the file does not define."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "--rootdir", str(root), *sorted({i.split("::", 1)[0] for i in node_ids})],
        cwd=root, capture_output=True, text=True, timeout=600)
    collected = {line.split("[", 1)[0] for line in done.stdout.splitlines() if "::" in line}
    return sorted(set(node_ids) - collected)


def test_every_rule_names_tests_that_pytest_collects() -> None:
    sections = rule_sections(RULES.read_text(encoding="utf-8"))
    named = {n: shown_by(s) for n, s in sections.items() if "Enforced by:" in s}
    assert [n for n, ids in named.items() if not ids] == [], "rules that name no test"
    every = sorted({i for ids in named.values() for i in ids})
    assert uncollected(every) == [], "named in docs/rules.md but not collected by pytest"


BREAKS = DECISIONS / "0034-each-rule-breaks-a-test.md"
BREAK_ROW = re.compile(r"^\| (\d+) \|.*?\| `(tests/test_\w+\.py::test_\w+)` \|", re.MULTILINE)


def broken_rules(record: str) -> dict[int, set[str]]:
    """The rules the record of breaks has a row for, and the tests each row ran."""
    out: dict[int, set[str]] = {}
    for m in BREAK_ROW.finditer(record):
        out.setdefault(int(m.group(1)), set()).add(m.group(2))
    return out


def test_every_rule_has_a_break_recorded_here() -> None:
    sections = rule_sections(RULES.read_text(encoding="utf-8"))
    broken = broken_rules(BREAKS.read_text(encoding="utf-8"))
    missing = [n for n, s in sections.items() if "Enforced by:" in s
               and not broken.get(n, set()) & set(shown_by(s))]
    assert missing == [], (f"rules with no break in {BREAKS.name} that ran a test the rule "
                           f"names: {missing}")


# The checks catch what they are for: each is fed a text with one bad citation.


def test_the_checks_catch_bad_citations() -> None:
    def t(body: str, path: str = "src/afterhack/x.py") -> Text:
        return Text(path, body)

    assert outside_citations(t("# see " + "SP" + "EC rule 9")) != []
    assert outside_citations(t("# " + "FALKORDB" + ".md §11")) != []
    assert outside_citations(t("TOOL_SPECS = []")) == []
    assert missing_docs(t("# bench-results/" + "gone.md")) != []
    assert missing_docs(t("# docs/rules.md, rule 3")) == []
    assert missing_docs(t("[x](nowhere.md)", "docs/x.md")) != []
    assert missing_docs(t("[rules](rules.md)", "docs/x.md")) == []
    assert [n for _, n in cited_rules(t("(rules 4 to 6; rule 10)"))] == [4, 5, 6, 10]
    assert cited_rules(t("invariant 9 of store/invariants.py")) == []
    records = _records()
    assert missing_records(t("docs/decisions/0999-nothing.md"), records) != []
    assert missing_records(t("docs/decisions/0007-one-query-thread.md"), records) == []
    tests = defined_tests()
    assert missing_code(t("`tests/test_docs.py::test_no_such_test`", "docs/x.md"), tests) != []
    assert missing_code(t("`src/afterhack/nowhere.py`", "docs/x.md"), tests) != []
    assert missing_code(t("`tests/test_docs.py::test_the_checks_catch_bad_citations`",
                          "docs/x.md"), tests) == []


def test_the_rule_checks_read_what_they_are_for(tmp_path: Path) -> None:
    body = ("## 1. One\n\n**Why.** x\n\n- Enforced by: `src/a.py`.\n- Shown by: "
            "`tests/test_docs.py::test_the_checks_catch_bad_citations`,\n  `tests/test_x.py`.\n"
            "- Measured: `tests/test_docs.py::test_no_tracked_text_reads_as_a_diary`.\n\n"
            "## 2. Two\n\n- Enforced by: `src/b.py`.\n- Shown by: `web/src/a.test.ts`.\n")
    sections = rule_sections(body)
    assert sorted(sections) == [1, 2]
    assert shown_by(sections[1]) == ["tests/test_docs.py::test_the_checks_catch_bad_citations"]
    assert shown_by(sections[2]) == []
    (tmp_path / "test_x.py").write_text(
        "def test_a() -> None:\n    pass\n\n\nclass Helper:\n    def test_b(self) -> None:\n"
        "        pass\n\n\ndef test_c() -> None:\n    pass\n\n\ntest_c = None\n",
        encoding="utf-8")
    ids = ["test_x.py::test_a", "test_x.py::test_b", "test_x.py::test_c", "test_x.py::test_d"]
    assert uncollected(ids, tmp_path) == ids[1:]
    record = ("| 1 | `src/a.py`: x | `tests/test_a.py::test_one` | `assert 1 == 2` |\n"
              "| 1 | `src/b.py`: y | the same test | red |\n"
              "| 2 | `src/c.py`: z | `tests/test_b.py::test_two` | `x` \\| `y` |\n")
    assert broken_rules(record) == {1: {"tests/test_a.py::test_one"},
                                    2: {"tests/test_b.py::test_two"}}
