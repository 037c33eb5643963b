"""The second development set of contradiction pairs
(tools/afterhack_tools/bench/conflict_pairs_dev2.jsonl) is what its .md says it is, shares
no sentence with the other labelled sets, and is scored by the conflicts bench, a message
read with its speaker."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from afterhack.facts import Judgement, Meaning
from afterhack_tools.bench import (
    conflict_pairs,
    conflict_pairs_dev,
    conflict_pairs_dev2,
    conflict_pairs_free,
    sealed_set,
)
from afterhack_tools.bench.conflicts import labelled_pairs, quality
from afterhack_tools.bench.render.conflicts import quality_table
from tests.support.sentences import normal, shared, speaker

PAIRS = conflict_pairs_dev2.PAIRS
README = Path(conflict_pairs_dev2.__file__).with_suffix(".md")
VALUE_KINDS = {"date", "time", "duration", "number", "amount", "percentage", "measure",
               "place", "person", "organisation", "version"}
SPOKEN = {"speaker_update", "speaker_correction", "speakers_disagree"}
NEAR_MISSES = {"restated", "other_attribute", "other_subject", "same_date_other_event",
               "start_vs_end", "other_period", "plan_vs_actual", "two_speakers"}
MIXED = ("en-de", "en-zh", "de-zh")


def test_the_set_is_what_its_readme_says() -> None:
    n, yes = len(PAIRS), sum(p.contradicts for p in PAIRS)
    m = re.search(r"holds (\d+) labelled pairs of statements \((\d+) contradictions, (\d+)\s+near "
                  r"misses\)", README.read_text(encoding="utf-8"))
    assert m is not None and tuple(map(int, m.groups())) == (n, yes, n - yes)
    assert n >= 320 and 0.45 <= yes / n <= 0.55
    assert len({(normal(p.a), normal(p.b)) for p in PAIRS}) == n
    # Labels and categories agree: every kind of value and of spoken change among the
    # contradictions, every way of being no conflict among the near misses.
    assert {p.category for p in PAIRS if p.contradicts} == VALUE_KINDS | SPOKEN
    assert {p.category for p in PAIRS if not p.contradicts} == NEAR_MISSES
    # Mostly English, about a quarter German or Chinese, about a fifth two languages.
    langs = Counter(p.lang for p in PAIRS)
    assert langs["en"] / n >= 0.5
    assert 0.2 <= (langs["de"] + langs["zh"]) / n <= 0.3
    assert 0.15 <= sum(langs[x] for x in MIXED) / n <= 0.25
    for lang in ("de", "zh", *MIXED):
        assert {p.contradicts for p in PAIRS if p.lang == lang} == {True, False}, lang


def test_messages_are_pairs_of_messages() -> None:
    said = [p for p in PAIRS if speaker(p.a) is not None]
    assert len(said) >= 40
    for p in PAIRS:
        assert (speaker(p.a) is None) == (speaker(p.b) is None), p
        assert p.category not in SPOKEN | {"two_speakers"} or speaker(p.a) is not None, p
    # One speaker replacing their value, and two speakers each speaking of their own.
    assert any(p.contradicts and speaker(p.a) == speaker(p.b) for p in said)
    assert all(speaker(p.a) != speaker(p.b) for p in said if p.category == "two_speakers")
    assert all(speaker(p.a) == speaker(p.b) for p in said
               if p.category in {"speaker_update", "speaker_correction"})


def test_no_sentence_is_in_another_labelled_set() -> None:
    others = [(f"{m.__name__}.PAIRS", normal("\0".join(s for p in m.PAIRS for s in (p.a, p.b))))
              for m in (conflict_pairs, conflict_pairs_free, conflict_pairs_dev)]
    found = shared(sealed_set.load(conflict_pairs_dev2.PAIRS_FILE), others)
    assert found == [], "sentences shared with another set:\n" + "\n".join(found)


def test_the_bench_scores_it_as_the_app_judges(monkeypatch: pytest.MonkeyPatch) -> None:
    mine = {(p.a, p.b) for p in PAIRS}
    judged: list[tuple[str, str]] = []

    def as_the_app_judges(meaning: Meaning | None) -> Callable[[str, str], Judgement]:
        def judge(a: str, b: str) -> Judgement:
            if (a, b) in mine:
                judged.append((a, b))
            return Judgement(verdict="contradicts", kind=None, reason="")

        return judge

    monkeypatch.setattr(sealed_set, "as_the_app_judges", as_the_app_judges)
    q = quality()
    dev2 = q["dev_set2"]
    # Every pair went to the app's judge whole, a message with its speaker.
    assert Counter(judged) == dict.fromkeys(mine, 3)  # the whole, by category, by language
    assert (dev2["all"]["pairs"], dev2["all"]["tp"], dev2["all"]["fp"]) == (
        len(PAIRS), sum(p.contradicts for p in PAIRS), sum(not p.contradicts for p in PAIRS))
    assert set(dev2["by_lang"]) == {"en", "de", "zh", *MIXED}
    assert sum(s["pairs"] for s in dev2["by_category"].values()) == len(PAIRS)
    assert any(r.startswith(f"| second dev set: all pairs (dev) | {len(PAIRS)} |")
               for r in quality_table(q))
    # Its meaning is asked for what the judge compares: a message without its speaker.
    # (Only the two answers are compared: what is asked holds the sealed set's statements,
    # which no failure may print.)
    asked = set(labelled_pairs())
    said = next(p for p in PAIRS if speaker(p.a) is not None)
    whole = (said.a, said.b) in asked
    text = (said.a.partition(": ")[2], said.b.partition(": ")[2]) in asked
    assert (whole, text) == (False, True)
