"""The offline contradiction detector on the labelled pairs, and what it reads in statements.

The floors are the aims of the issue, checked on the whole set and on the held-out third the
detector was not tuned on, so a change that fits the tuned pairs and breaks the others fails.
"""

from __future__ import annotations

from afterhack.facts import judge_statements, read, same_subject
from afterhack_tools.bench.conflict_pairs import CONTRADICTION_KINDS, PAIRS
from afterhack_tools.bench.conflicts import quality
from tests.support.facts import norms


def test_the_labelled_set_is_what_it_says() -> None:
    assert len(PAIRS) >= 60
    contradictions = [p for p in PAIRS if p.contradicts]
    assert len(contradictions) * 2 == len(PAIRS)
    assert {p.category for p in contradictions} == set(CONTRADICTION_KINDS)
    assert {p.category for p in PAIRS if not p.contradicts} == {
        "other_attribute", "other_subject", "restated", "start_vs_end", "opens_vs_closes"}
    held = [p for p in PAIRS if p.split == "held_out"]
    assert len(held) * 3 == len(PAIRS) and any(p.contradicts for p in held)


def test_precision_and_recall_floors() -> None:
    q = quality()
    for part in ("all", "held_out"):
        assert q[part]["precision"] >= 0.95, (part, q[part]["errors"])
        assert q[part]["recall"] >= 0.85, (part, q[part]["errors"])
    # A contradiction found is named by the type of value that differs.
    assert q["all"]["kind_mislabelled"] == 0


def test_the_detector_is_symmetric_and_deterministic() -> None:
    for p in PAIRS:
        one, other = judge_statements(p.a, p.b), judge_statements(p.b, p.a)
        assert one.verdict == other.verdict and one.kind == other.kind, p
        assert judge_statements(p.a, p.b) == one


def test_values_are_read_in_their_usual_spellings() -> None:
    assert norms("It is on 2025-12-31.", "date") == norms("It is on 31 December 2025.", "date")
    assert norms("It is on December 31, 2025.", "date") == [(2025, 12, 31, None)]
    assert norms("It starts at 2:30 pm.", "time") == norms("It starts at 14:30.", "time")
    assert norms("It starts at noon.", "time") == [(720, False)]
    assert norms("It costs $2.5 million.", "amount") == [("usd", 2_500_000.0)]
    assert norms("It costs 120k EUR.", "amount") == [("eur", 120_000.0)]
    assert norms("There are twelve seats.", "number") == norms("There are 12 seats.", "number")
    assert norms("The offsite is in Lisbon.", "place") == [("lisbon",)]
    assert norms("It was signed by Dr. Anna Schmidt.", "person") == [("anna schmidt",)]
    # A number that names a thing is part of the subject, not a value.
    assert "number" not in read("Invoice 1043 is due on March 3.").values


def test_subjects() -> None:
    assert same_subject(read("The product launch is planned for June 12.").frame,
                        read("The launch moves to June 19.").frame)
    assert not same_subject(read("The conference starts on May 3.").frame,
                            read("The conference ends on May 5.").frame)
    assert not read("Nothing here has a value.").values
