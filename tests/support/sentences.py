"""Sentences of the labelled sets, compared the one way the sealed set's tests compare them:
case and runs of whitespace ignored, with or without the final full stop, a message's text
with or without its speaker, standing in another text between non-letters."""

from __future__ import annotations

import ast
import json
import typing

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
