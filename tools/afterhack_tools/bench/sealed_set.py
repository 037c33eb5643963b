"""The sealed held-out set of contradiction pairs (``sealed/pairs.jsonl``, described in
``sealed/README.md``): written from what the product promises, by someone who did not read
the reader, its hash committed before the set and before the reader was changed, and never
tuned on.

Only aggregates leave this module: how many pairs, precision and recall, and the four counts
they come from. Neither the pairs nor which of them the reader gets wrong are printed or
stored, so that reading a report cannot turn the set into one more tuning set.
``python -m afterhack_tools.bench.sealed_set`` prints the one line.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from afterhack import facts
from afterhack.facts import Judgement, judge_statements, said
from afterhack_tools.bench.meaning import for_pairs
from afterhack_tools.bench.records import SealedScore

HERE = Path(__file__).resolve().parent / "sealed"
PAIRS_FILE = HERE / "pairs.jsonl"
HASH_FILE = HERE / "SHA256"
LANGS = ("en", "de", "zh")
FIELDS = ("a", "b", "contradicts", "category", "langs")


@dataclass(frozen=True)
class Pair:
    """Two statements; ``langs`` names each side's language, in order. A side written
    ``Name: message`` is a message of a conversation, said by Name."""

    a: str
    b: str
    contradicts: bool
    category: str
    langs: tuple[str, str]


class SealedSetChanged(Exception):
    """The file's hash is not the one committed before it: it was edited afterwards."""


def _pair(raw: object, where: str) -> Pair:
    if not isinstance(raw, dict) or tuple(sorted(raw)) != tuple(sorted(FIELDS)):
        raise ValueError(f"{where}: an object with exactly the fields {', '.join(FIELDS)}")
    a, b, contradicts, category, langs = (raw[f] for f in FIELDS)
    if not (isinstance(a, str) and a.strip() and isinstance(b, str) and b.strip()):
        raise ValueError(f"{where}: a and b are statements")
    if not isinstance(contradicts, bool):
        raise ValueError(f"{where}: contradicts is true or false")
    if not (isinstance(category, str) and category):
        raise ValueError(f"{where}: category names the kind of pair")
    if not (isinstance(langs, list) and len(langs) == 2 and all(x in LANGS for x in langs)):
        raise ValueError(f"{where}: langs is each side's language, of {', '.join(LANGS)}")
    return Pair(a, b, contradicts, category, (langs[0], langs[1]))


def load(path: Path = PAIRS_FILE) -> tuple[Pair, ...]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(_pair(json.loads(line), f"{path.name} line {n}")
                 for n, line in enumerate(lines, 1))


def digest(path: Path = PAIRS_FILE) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def committed_digest(path: Path = HASH_FILE) -> str:
    """The hash as ``sha256sum`` wrote it: the first word of the file."""
    return path.read_text(encoding="ascii").split()[0]


def sealed_pairs(path: Path = PAIRS_FILE, hash_file: Path = HASH_FILE) -> tuple[Pair, ...]:
    """The set, refused if its hash is not the committed one."""
    if digest(path) != committed_digest(hash_file):
        raise SealedSetChanged(f"{path.name} no longer has the hash in {hash_file.name}")
    return load(path)


# "Name: message": a message of a conversation, said by Name (README.md).
_MESSAGE = re.compile(r"^(?P<name>[^\W\d_][\w'’.-]*(?: [^\W\d_][\w'’.-]*){0,2}): (?P<text>\S.*)$",
                      re.S)


def _message(side: str) -> tuple[str, str] | None:
    m = _MESSAGE.match(side)
    if m is None or m.group("name").lower() in said.TAKE_BACK_WORDS:
        return None
    return m.group("name"), m.group("text")


def as_said(a: str, b: str) -> tuple[facts.Speakers, str, str]:
    """Who said each side and what: in a pair both sides are messages or neither is, so a
    side that opens like a message ("Correction: ...") is one only when the other does too."""
    ma, mb = _message(a), _message(b)
    if ma is None or mb is None:
        return facts.NOBODY, a, b
    return (ma[0], mb[0]), ma[1], mb[1]


def as_the_app_judges(meaning: facts.Meaning | None) -> Callable[[str, str], Judgement]:
    """The judgement the app's offline judge gives: a message read with its speaker, and
    (with ``meaning``) the words the two sides do not share compared by meaning."""

    def judge(a: str, b: str) -> Judgement:
        speakers, ta, tb = as_said(a, b)
        return judge_statements(ta, tb, meaning, speakers)

    return judge


def statements() -> list[tuple[str, str]]:
    """Each pair's two statements as the app reads them (a message without its speaker):
    for the vectors their meaning is compared with. Never printed."""
    return [as_said(p.a, p.b)[1:] for p in sealed_pairs()]


def score(pairs: Sequence[Pair] | None = None,
          judge: Callable[[str, str], Judgement] = judge_statements) -> SealedScore:
    """The reader's verdicts on the set (without ``pairs``, the committed file), counted."""
    if pairs is None:
        pairs = sealed_pairs()
    tp = fp = fn = tn = 0
    for p in pairs:
        said = judge(p.a, p.b).verdict == "contradicts"
        tp += said and p.contradicts
        fp += said and not p.contradicts
        fn += p.contradicts and not said
        tn += not (said or p.contradicts)
    return {"pairs": len(pairs), "contradictions": tp + fn, "tp": tp, "fp": fp, "fn": fn,
            "tn": tn, "precision": round(tp / (tp + fp), 3) if tp + fp else 1.0,
            "recall": round(tp / (tp + fn), 3) if tp + fn else 1.0}


def line(s: SealedScore) -> str:
    return (f"sealed held-out set: precision {s['precision']}, recall {s['recall']} on "
            f"{s['pairs']} pairs, {s['contradictions']} of them contradictions "
            f"(TP / FP / FN / TN {s['tp']} / {s['fp']} / {s['fn']} / {s['tn']})")


def main() -> None:
    print(line(score(judge=as_the_app_judges(for_pairs(statements())))))


if __name__ == "__main__":
    main()
