"""The sealed held-out set (tools/afterhack_tools/bench/sealed/) stays what it was when its
hash was committed, shares no sentence with the sets the reader was tuned on or with any
other text of the repository (a test's fixture, a doc's example, a report), and is scored
without a pair leaving the scorer.

A sentence is compared with case and runs of whitespace ignored, with or without its final
full stop, and a message's text with or without its speaker; it is shared when it stands in
another text between non-letters, so a longer sentence that merely begins like it is not.
"""

from __future__ import annotations

import hashlib
import shutil
import typing
from collections import Counter
from pathlib import Path

import pytest

from afterhack.facts import Judgement
from afterhack_tools.bench import conflict_pairs_free, sealed_set
from afterhack_tools.bench.sealed_set import Pair
from tests.support.sentences import (
    CONVERSATION_KINDS,
    forms,
    normal,
    shared,
    speaker,
    text_of,
    tuning_texts,
)


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
