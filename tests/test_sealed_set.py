"""The sealed held-out set (tools/afterhack_tools/bench/sealed/) stays what it was when its
hash was committed, shares no sentence with the sets the reader was tuned on or with any
other text of the repository (a test's fixture, a doc's example, a report), and is scored
without a pair leaving the scorer.

A sentence is compared with case and runs of whitespace ignored, with or without its final
full stop, and a message's text with or without its speaker; it is shared when it stands in
another text between non-letters, so a longer sentence that merely begins like it is not.
"""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import typing
from collections import Counter
from pathlib import Path

import pytest

from afterhack.facts import Judgement
from afterhack_tools.bench import conflict_pairs, conflict_pairs_free, sealed_set
from afterhack_tools.bench.sealed_set import Pair
from tests.support.paths import ROOT, tracked

SEALED_DIR = sealed_set.HERE.relative_to(ROOT).as_posix() + "/"
# Where text is: the product, its tools, tests, docs, examples, UI stories and reports.
PLACES = ("src/", "tools/", "tests/", "docs/", "examples/", "web/", "bench-results/",
          "scripts/", "README.md")
NOT_TEXT = ("web/node_modules/", "web/dist/")
ENDS = ".!?。！？"
CONVERSATION_KINDS = {"speaker_update", "speaker_correction", "speakers_disagree",
                      "two_speakers"}


def normal(text: str) -> str:
    return " ".join(text.casefold().split())


def speaker(side: str) -> str | None:
    head, sep, _ = side.partition(": ")
    return head if sep and head and len(head) <= 20 and not any(c.isspace() for c in head) \
        else None


def forms(side: str) -> set[str]:
    """A side as it is compared: whole and, for a message, its text without the speaker;
    the final full stop dropped."""
    texts = {side}
    who = speaker(side)
    if who is not None:
        texts.add(side[len(who) + 2:])
    return {normal(t).rstrip(ENDS).strip() for t in texts}


def stands_in(sentence: str, text: str) -> bool:
    """``sentence`` occurs in ``text`` with no letter or digit next to it (spaces aside): a
    longer sentence that begins or ends like it is another sentence."""
    start = text.find(sentence)
    while start != -1:
        before, after = start - 1, start + len(sentence)
        while before >= 0 and text[before] == " ":
            before -= 1
        while after < len(text) and text[after] == " ":
            after += 1
        if not ((before >= 0 and text[before].isalnum())
                or (after < len(text) and text[after].isalnum())):
            return True
        start = text.find(sentence, start + 1)
    return False


def _strings(tree: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _json_strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in _json_strings(v)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_json_strings(v)]]
    return []


def text_of(path: str, body: str) -> str:
    """A file's text as searched: as written, and for Python and JSON the strings it holds
    (adjacent literals joined, escapes read), each apart."""
    parts = [body]
    try:
        if path.endswith(".py"):
            parts += _strings(ast.parse(body))
        elif path.endswith(".json"):
            parts += _json_strings(json.loads(body))
    except (SyntaxError, ValueError):
        pass
    return normal("\0".join(parts))


def tuning_texts() -> list[tuple[str, str]]:
    """(where, text): the two tuning sets' pairs, then every text file of the repository
    outside the sealed set's folder."""
    out = [(f"{m.__name__}.PAIRS", normal("\0".join(s for p in m.PAIRS for s in (p.a, p.b))))
           for m in (conflict_pairs, conflict_pairs_free)]
    for path in tracked():
        if (not path.startswith(PLACES) or path.startswith(NOT_TEXT)
                or path.startswith(SEALED_DIR)):
            continue
        try:
            body = (ROOT / path).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        out.append((path, text_of(path, body)))
    return out


def shared(pairs: typing.Iterable[Pair], texts: list[tuple[str, str]]) -> list[str]:
    # What is found is named by its place in the set, never by its words: whoever meets this
    # failure finds the sentence in their own file, and the sealed text stays unseen.
    found = []
    for i, p in enumerate(pairs):
        for name, side in (("a", p.a), ("b", p.b)):
            for sentence in sorted(forms(side)):
                found += [f"sealed pair {i} side {name} in {where}" for where, text in texts
                          if stands_in(sentence, text)]
    return found


def test_the_set_has_the_hash_committed_before_it() -> None:
    assert sealed_set.digest() == sealed_set.committed_digest()
    assert sealed_set.committed_digest() == hashlib.sha256(
        sealed_set.PAIRS_FILE.read_bytes()).hexdigest()


def test_an_edited_set_is_refused(tmp_path: Path) -> None:
    copy, hash_file = tmp_path / "pairs.jsonl", tmp_path / "SHA256"
    shutil.copy(sealed_set.HASH_FILE, hash_file)
    copy.write_bytes(sealed_set.PAIRS_FILE.read_bytes().replace(b"false", b"true ", 1))
    with pytest.raises(sealed_set.SealedSetChanged):
        sealed_set.sealed_pairs(copy, hash_file)
    shutil.copy(sealed_set.PAIRS_FILE, copy)
    assert sealed_set.sealed_pairs(copy, hash_file) == sealed_set.load()


def test_the_set_is_what_its_readme_says() -> None:
    pairs = sealed_set.load()
    assert len(pairs) >= 150
    contradictions = sum(p.contradicts for p in pairs)
    assert 0.4 <= contradictions / len(pairs) <= 0.6
    assert len({(normal(p.a), normal(p.b)) for p in pairs}) == len(pairs)
    langs = Counter("-".join(sorted(set(p.langs))) for p in pairs)
    assert {"en", "de", "zh", "de-en", "en-zh", "de-zh"} <= set(langs), langs
    for mixed in ("de-en", "en-zh", "de-zh"):
        assert any(p.contradicts for p in pairs if "-".join(sorted(set(p.langs))) == mixed)
        assert any(not p.contradicts for p in pairs
                   if "-".join(sorted(set(p.langs))) == mixed)
    # A pair is two messages of a conversation or two statements, never one of each; the
    # kinds that are about speakers are always messages.
    for p in pairs:
        assert (speaker(p.a) is None) == (speaker(p.b) is None), p
        assert p.category not in CONVERSATION_KINDS or speaker(p.a) is not None, p
    said = [p for p in pairs if speaker(p.a) is not None]
    assert any(p.contradicts and speaker(p.a) == speaker(p.b) for p in said)
    assert any(not p.contradicts and speaker(p.a) != speaker(p.b) for p in said)


def test_no_sentence_is_in_a_tuning_set_or_elsewhere_in_the_repository() -> None:
    found = shared(sealed_set.load(), tuning_texts())
    assert found == [], "sealed sentences found outside the sealed set:\n" + "\n".join(found)


def test_the_overlap_check_finds_a_shared_sentence() -> None:
    tuned = conflict_pairs_free.PAIRS[0].a
    texts = [("tuning", normal(tuned)),
             ("fixture.py", text_of("fixture.py",
                                    'TEXT = ("Pia:  The  kiln "\n    "is fired on Mondays.")\n')),
             ("longer", normal("The bus depot opens at 5 am every day except Sunday."))]

    def one(a: str, b: str = "Nothing like it.") -> Pair:
        return Pair(a, b, False, "restated", ("en", "en"))

    assert shared([one(tuned.upper() + "  ")], texts) != []
    assert shared([one("Ravi: " + tuned)], texts) != []
    assert shared([one("Omar: the kiln is fired on Mondays!")], texts) != []
    assert shared([one("The bus depot opens at 5 am.")], texts) == []
    assert shared([one("The kiln is fired on Mondays and Fridays.")], texts) == []


class _Verdicts:
    """A reader that says contradicts exactly for the pairs it is given."""

    VERDICT = typing.get_type_hints(Judgement)["verdict"]

    def __init__(self, contradicting: set[tuple[str, str]]) -> None:
        self.contradicting = contradicting
        # Any verdict but contradicts, as the detector's type names them.
        self.other: typing.Any = next(
            v for v in typing.get_args(self.VERDICT) if v != "contradicts")

    def __call__(self, a: str, b: str) -> Judgement:
        if (a, b) in self.contradicting:
            return Judgement(verdict="contradicts", kind=None, reason="")
        return Judgement(verdict=self.other, kind=None, reason="")


def test_the_score_counts_verdicts() -> None:
    def pair(n: int, contradicts: bool) -> Pair:
        return Pair(f"a{n}", f"b{n}", contradicts, "date", ("en", "en"))

    pairs = [pair(0, True), pair(1, True), pair(2, True), pair(3, False), pair(4, False)]
    s = sealed_set.score(pairs, _Verdicts({("a0", "b0"), ("a1", "b1"), ("a3", "b3")}))
    assert (s["tp"], s["fp"], s["fn"], s["tn"]) == (2, 1, 1, 1)
    assert (s["precision"], s["recall"], s["pairs"], s["contradictions"]) == (0.667, 0.667, 5, 3)


def test_the_score_names_no_pair(capsys: pytest.CaptureFixture[str]) -> None:
    pairs = sealed_set.load()
    s = sealed_set.score(judge=_Verdicts({(p.a, p.b) for p in pairs[::3]}))
    assert set(s) == {"pairs", "contradictions", "tp", "fp", "fn", "tn", "precision", "recall"}
    assert s["pairs"] == len(pairs) and s["tp"] + s["fp"] == len(pairs[::3])
    sealed_set.main()
    printed = capsys.readouterr().out
    assert printed.startswith("sealed held-out set: precision ") and printed.count("\n") == 1
    leaked = [side for p in pairs for side in (p.a, p.b)
              for text in forms(side) if text in normal(printed)]
    assert leaked == []
