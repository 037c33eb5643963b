"""What the detector reads in a statement, whatever its wording, and how it judges two.

The figures on the freely worded set are floors on its held-out third, the pairs the
detector was not tuned on; the set whose sides share their wording keeps the figures it had
before statements were read this way.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from afterhack.facts import ValueRead, judge_statements, other_value, read, same_fact
from afterhack_tools.bench import conflict_pairs_free
from afterhack_tools.bench.conflict_pairs_free import CONTRADICTION_KINDS, NEAR_MISS_KINDS, PAIRS
from afterhack_tools.bench.conflicts import quality
from tests.support.facts import norms


def test_the_issue_examples() -> None:
    planned = "The product launch is planned for June 12."
    assert judge_statements(planned, "Marketing confirmed the launch on June 12.").verdict \
        == "same_fact"
    moved = judge_statements(planned, "Marketing confirmed the launch on June 19.")
    assert (moved.verdict, moved.kind) == ("contradicts", "date")
    budget = judge_statements("The catering budget is 8,000 euros.",
                              "Finance says catering gets 9,500 euros.")
    assert (budget.verdict, budget.kind) == ("contradicts", "amount")
    assert "8,000 euros" in budget.reason and "9,500 euros" in budget.reason


@pytest.mark.parametrize(("a", "b", "kind"), [
    ("Das Budget der Messe beträgt 120.000 Euro.", "Die Messe hat ein Budget von 90.000 Euro.",
     "amount"),
    ("Der Produktlaunch ist am 15. September geplant.",
     "Der Produktlaunch findet am 1. Oktober statt.", "date"),
    ("Die Sitzung beginnt um 14:30 Uhr.", "Die Sitzung fängt um 15 Uhr an.", "time"),
    ("产品发布定于九月十五日。", "产品发布改在十月一日。", "date"),
    ("项目预算为12万元。", "项目预算是十五万元。", "amount"),
    ("会议下午三点开始。", "会议定于15:30开始。", "time"),
])
def test_german_and_chinese_memos_that_disagree(a: str, b: str, kind: str) -> None:
    for one, other in ((a, b), (b, a)):
        j = judge_statements(one, other)
        assert (j.verdict, j.value_kind) == ("contradicts", kind), j


@pytest.mark.parametrize(("a", "b"), [
    ("Das Budget der Messe beträgt 120.000 Euro.", "Die Messe hat ein Budget von 120 000 €."),
    ("Die Renovierung kostet 3 Mio. €.", "Die Renovierung kostet 3.000.000 Euro."),
    ("产品发布定于九月十五日。", "产品发布会将在9月15日举行。"),
    ("项目预算为12万元。", "项目预算是120000元。"),
])
def test_german_and_chinese_memos_that_agree(a: str, b: str) -> None:
    assert judge_statements(a, b).verdict == "same_fact"


def test_values_in_german_and_chinese() -> None:
    assert norms("Der Launch ist am 15. September.", "date") == [(None, 9, 15, None)]
    assert norms("Der Launch ist am 15.09.2025.", "date") == [(2025, 9, 15, None)]
    assert norms("Das Budget beträgt 120.000 Euro.", "amount") == [("eur", 120_000.0)]
    assert norms("Die Renovierung kostet 3 Mio. €.", "amount") == [("eur", 3_000_000.0)]
    assert norms("Die Inflationsrate liegt bei 2,4 %.", "percentage") == [(2.4,)]
    assert norms("Die Sitzung beginnt um 14:30 Uhr.", "time") == [(870, False)]
    assert norms("Die Schulung dauert drei Tage.", "duration") == \
        norms("The training lasts 72 hours.", "duration")
    assert norms("产品发布定于九月十五日。", "date") == [(None, 9, 15, None)]
    assert norms("年会将于2025年12月20日举行。", "date") == [(2025, 12, 20, None)]
    assert norms("国庆活动10月1日开始。", "date") == [(None, 10, 1, None)]
    assert norms("项目预算为12万元。", "amount") == [("cny", 120_000.0)]
    assert norms("会议下午三点开始。", "time") == [(900, False)]
    assert norms("折扣是百分之三十。", "percentage") == [(30.0,)]
    assert norms("设备重2吨。", "number") == norms("The unit weighs 2,000 kg.", "number")


def test_values_in_other_words() -> None:
    # Twelve- and twenty-four-hour clocks, and a clock time with no half of the day.
    assert norms("Dinner starts at 9 pm.", "time") == norms("Dinner starts at 21:00.", "time")
    assert norms("Dinner starts at 9 pm.", "time") != norms("Dinner starts at 21:30.", "time")
    assert judge_statements("The keynote is at 10:00.", "The keynote begins at 10 o'clock.") \
        .verdict == "same_fact"
    # Percentages, number words, currencies and their scales, durations in other units.
    assert norms("It is 20%.", "percentage") == norms("It is twenty percent.", "percentage")
    assert norms("It has fifty-two seats.", "number") == [("", 52.0)]
    assert norms("It costs $12,000.", "amount") == norms("It costs 12,000 dollars.", "amount")
    assert norms("It costs USD 15k.", "amount") == [("usd", 15_000.0)]
    assert norms("It takes two weeks.", "duration") == norms("It takes 14 days.", "duration")
    # "$5,000 a month" is a rate, not a month's duration.
    assert "duration" not in read("The contractor is paid $5,000 a month.").values


def test_subject_and_attribute_in_other_words() -> None:
    # Active and passive, synonyms and inflections.
    chair = judge_statements("Priya Nair chairs the steering group.",
                             "The steering group is chaired by Omar Haddad.")
    assert (chair.verdict, chair.kind) == ("contradicts", "person")
    assert judge_statements("The audit kicks off on November 4.",
                            "The audit opens on November 11.").verdict == "contradicts"
    assert judge_statements("The contractor is paid $5,000 a month.",
                            "The contractor receives $6,000 per month.").verdict == "contradicts"
    assert judge_statements("The data center is located in Frankfurt.",
                            "The data center is based in Dublin.").verdict == "contradicts"
    # Another attribute of the same subject, another subject with the same attribute.
    assert judge_statements("The conference kicks off on May 3.",
                            "The conference wraps up on May 5.").verdict == "compatible"
    assert judge_statements("The marketing budget is $50,000.",
                            "Engineering gets $75,000.").verdict == "compatible"
    assert judge_statements("The launch budget is $50,000.",
                            "The launch has cost $32,000 so far.").verdict == "compatible"


def test_same_fact_and_other_value() -> None:
    planned = "The product launch is planned for June 12."
    assert same_fact(planned, "Marketing confirmed the launch on June 12.") == ValueRead(
        "date", "June 12", "June 12", "June 12")
    assert same_fact("The dinner starts at 9 pm.", "Dinner begins at 21:00.") == ValueRead(
        "time", "21:00", "9 pm.", "21:00")
    assert same_fact(planned, "Marketing confirmed the launch on June 19.") is None
    assert same_fact(planned, "The partner summit is on June 12.") is None
    assert other_value(planned, "Marketing confirmed the launch on June 12.") is None
    assert other_value(planned, "Marketing confirmed the launch on June 19.") == ValueRead(
        "date", "June 19", "June 12", "June 19")
    moved = other_value("Das Budget der Messe beträgt 120.000 Euro.",
                        "Die Messe hat ein Budget von 90.000 Euro.")
    assert moved is not None and (moved.kind, moved.value) == ("amount", "EUR 90,000")


def test_the_free_set_is_what_it_says() -> None:
    assert len(PAIRS) >= 150
    assert {p.category for p in PAIRS if p.contradicts} == set(CONTRADICTION_KINDS)
    assert {p.category for p in PAIRS if not p.contradicts} == set(NEAR_MISS_KINDS)
    for lang in ("de", "zh"):
        kinds = {p.category for p in PAIRS if p.lang == lang and p.contradicts}
        assert {"date", "amount"} <= kinds, lang
    for cat in (*CONTRADICTION_KINDS, *NEAR_MISS_KINDS):
        in_cat = [p for p in PAIRS if p.category == cat]
        held = [p for p in in_cat if p.split == "held_out"]
        assert len(held) == len(in_cat) // 3, cat
    assert conflict_pairs_free.PAIRS is PAIRS


def test_held_out_figures_meet_the_targets() -> None:
    q = quality()
    free = q["free"]["held_out"]
    assert free["precision"] >= 0.95, free["errors"]
    assert free["recall"] >= 0.85, free["errors"]
    # The pairs that share their wording do not get worse than before statements were read
    # this way (dev: every pair right; held out: no false alarm, one miss in fifteen).
    assert (q["dev"]["precision"], q["dev"]["recall"]) == (1.0, 1.0), q["dev"]["errors"]
    assert q["held_out"]["precision"] == 1.0 and q["held_out"]["recall"] >= 0.933, \
        q["held_out"]["errors"]


def test_a_contradiction_is_named_by_the_kind_of_value_that_differs() -> None:
    dev = quality()["free"]["dev"]
    assert dev["kind_mislabelled"] == 0


def test_the_detector_is_symmetric_and_deterministic() -> None:
    for p in PAIRS:
        one, other = judge_statements(p.a, p.b), judge_statements(p.b, p.a)
        assert (one.verdict, one.value_kind) == (other.verdict, other.value_kind), p
        assert judge_statements(p.a, p.b) == one


def test_reading_needs_no_network() -> None:
    # Reading loads no model and no data: with every socket refused, a fresh interpreter
    # reads statements in all three languages.
    script = textwrap.dedent("""
        import socket

        def refuse(*args, **kwargs):
            raise OSError("network is off")

        socket.socket.connect = refuse
        socket.socket.connect_ex = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        from afterhack.facts import judge_statements as judge
        for a, b in (("产品发布定于九月十五日。", "产品发布改在十月一日。"),
                     ("Die Messe hat 90.000 Euro.", "Die Messe hat 120.000 Euro."),
                     ("The launch is on June 12.", "The launch is on June 19.")):
            assert judge(a, b).verdict == "contradicts", (a, b)
        print("read offline")
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.returncode == 0 and "read offline" in out.stdout, out.stderr
