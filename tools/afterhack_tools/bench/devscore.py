"""The offline detector on the development sets alone, with the pairs it gets wrong: what to
read while changing the reader.

``python -m afterhack_tools.bench.devscore`` judges every pair of the tuning sets
(conflict_pairs.py, conflict_pairs_free.py, conflict_pairs_dev.py and
conflict_pairs_dev2.jsonl) as the app's offline judge does (a message with its speaker, the
offline model's meaning) and prints precision and recall per set, per category and per
language pair; ``--errors`` adds each wrong verdict with the detector's reason. The sealed set
is never read here: its one line is the conflicts bench's (sealed_set.py).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass

from afterhack.facts import Meaning
from afterhack_tools.bench import (
    conflict_pairs,
    conflict_pairs_dev,
    conflict_pairs_dev2,
    conflict_pairs_free,
    sealed_set,
)
from afterhack_tools.bench.meaning import for_pairs


@dataclass(frozen=True)
class Labelled:
    set: str
    a: str
    b: str
    contradicts: bool
    category: str
    lang: str


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, said: bool, truth: bool) -> None:
        self.tp += said and truth
        self.fp += said and not truth
        self.fn += truth and not said
        self.tn += not (said or truth)

    def line(self, name: str) -> str:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        return (f"{name:<36} P {p:.3f}  R {r:.3f}  TP/FP/FN/TN "
                f"{self.tp}/{self.fp}/{self.fn}/{self.tn}")


def labelled() -> Iterator[Labelled]:
    for p in conflict_pairs.PAIRS:
        yield Labelled("shared", p.a, p.b, p.contradicts, p.category, "en")
    for f in conflict_pairs_free.PAIRS:
        yield Labelled(f"free {f.split}", f.a, f.b, f.contradicts, f.category, f.lang)
    for d in conflict_pairs_dev.PAIRS:
        yield Labelled("dev", d.a, d.b, d.contradicts, d.category, d.lang)
    for d2 in conflict_pairs_dev2.PAIRS:
        yield Labelled("dev2", d2.a, d2.b, d2.contradicts, d2.category, d2.lang)


def score(pairs: list[Labelled], meaning: Meaning | None
          ) -> tuple[dict[str, Tally], list[str]]:
    judge = sealed_set.as_the_app_judges(meaning)
    tallies: dict[str, Tally] = {}
    errors: list[str] = []
    for p in pairs:
        j = judge(p.a, p.b)
        said = j.verdict == "contradicts"
        for key in (p.set, f"{p.set} / {p.category}", f"{p.set} / {p.lang}"):
            tallies.setdefault(key, Tally()).add(said, p.contradicts)
        if said != p.contradicts:
            errors.append(f"{p.set} {'missed' if p.contradicts else 'false alarm'} "
                          f"({p.category}, {p.lang}): {p.a} / {p.b}  [{j.reason}]")
    return tallies, errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--errors", action="store_true", help="print each wrong verdict")
    ap.add_argument("--detail", action="store_true", help="per category and language")
    ap.add_argument("--words", action="store_true", help="by words alone, no model")
    args = ap.parse_args()
    pairs = list(labelled())
    meaning = None if args.words else for_pairs(
        [sealed_set.as_said(p.a, p.b)[1:] for p in pairs])
    tallies, errors = score(pairs, meaning)
    for name in sorted(tallies):
        if args.detail or " / " not in name:
            print(tallies[name].line(name))
    if args.errors:
        print(*errors, sep="\n")


if __name__ == "__main__":
    main()
