"""The second development set of contradiction pairs (``conflict_pairs_dev2.jsonl``;
``conflict_pairs_dev2.md`` says who wrote it, how, and for what).

Written apart from the reader and from the other sets, in the sealed set's format (one JSON
object a line: ``a``, ``b``, ``contradicts``, ``category``, ``langs``; a side written
``Name: message`` is a message said by Name). Unlike the sealed set it is a development
set: the reader is tuned on it, and its figures say how well the reader fits the pairs it
was tuned on, not how it reads text it has never seen.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from afterhack_tools.bench import sealed_set

PAIRS_FILE = Path(__file__).resolve().parent / "conflict_pairs_dev2.jsonl"
# The order languages are named in when a pair mixes two ("en-de", "en-zh", "de-zh").
_LANG_ORDER = ("en", "de", "zh")


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    contradicts: bool
    category: str
    langs: tuple[str, str]
    split: str = "dev"

    @property
    def lang(self) -> str:
        """Both sides' languages as one name: "de" for two German sides, "en-zh" for an
        English and a Chinese one, whichever comes first."""
        return "-".join(sorted(set(self.langs), key=_LANG_ORDER.index))


def load(path: Path = PAIRS_FILE) -> tuple[Pair, ...]:
    return tuple(Pair(p.a, p.b, p.contradicts, p.category, p.langs)
                 for p in sealed_set.load(path))


PAIRS: tuple[Pair, ...] = load()
