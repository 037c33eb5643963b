"""A LangGraph item's value as the text of a source, and back.

The text is what the memory reads claims from, so it is written for reading: each field a
heading of its own (``## food``), then its value, a blank line between. A string is written
as it is; anything else (a number, a list, a map, or a string that would read as one of
those, or that could be taken for a heading) is written as JSON. Reading the text back gives
the value exactly, so the item is kept nowhere but in the source's versions: a new value is
a new version of the same text source, and the same value again is ``unchanged``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

HEADING = "## "
_BETWEEN = "\n\n"
_NEXT_FIELD = _BETWEEN + HEADING


def _json(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, indent=2, allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: the server keeps valid Unicode only
        text = json.dumps(value, ensure_ascii=True, indent=2, allow_nan=False)
    return text


def _reads_as_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _plain(text: str) -> bool:
    """A string written as it is reads back as itself: no space at either end (the reader
    of a field ends it there), printable but for line breaks, no line that could start the
    next field, and not something JSON reads."""
    return (bool(text) and text == text.strip() and not text.startswith(HEADING)
            and "\n" + HEADING not in text
            and all(c.isprintable() or c == "\n" for c in text)
            and not _reads_as_json(text))


def _plain_key(key: str) -> bool:
    return (bool(key) and key == key.strip() and key.isprintable()
            and not key.startswith('"'))


def item_text(value: Mapping[str, Any]) -> str:
    """The text of an item's value; ValueError when it is not JSON (or does not read back
    as itself)."""
    if not isinstance(value, Mapping):
        raise ValueError(f"an item's value is a mapping, not {type(value).__name__}")
    fields = []
    for key, field in value.items():
        if not isinstance(key, str):
            raise ValueError(f"an item's keys are strings, not {key!r}")
        head = key if _plain_key(key) else _json(key)
        body = field if isinstance(field, str) and _plain(field) else _json(field)
        fields.append(f"{HEADING}{head}{_BETWEEN}{body}")
    text = _BETWEEN.join(fields) if fields else "{}"
    if item_value(text) != value:
        raise ValueError("the value does not read back as itself from its text")
    return text


def item_value(text: str) -> dict[str, Any]:
    """The value an item's text was written from."""
    if not text.startswith(HEADING):
        loaded = json.loads(text)
        if not isinstance(loaded, dict):
            raise ValueError("the text is not an item's")
        return loaded
    value: dict[str, Any] = {}
    for field in text[len(HEADING):].split(_NEXT_FIELD):
        head, _, body = field.partition(_BETWEEN)
        key = json.loads(head) if head.startswith('"') else head
        try:
            value[key] = json.loads(body)
        except ValueError:
            value[key] = body
    return value
