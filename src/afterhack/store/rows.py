"""Rows become records here, at the store's edge: one converter per record.

A query's row is a dict of its columns. The converter of a record (a TypedDict of
afterhack.model, or of the store's own) checks that a row has every key the record requires
and none it does not know, and then hands the same dict on as the record: no copy, and no
look at the values (mypy checks what the code puts in them; the query text names them).
A row of the wrong shape (a column renamed in the query but not in the record, say) raises
RowShapeError at the read that made it, not as a KeyError wherever the record is used.
What it costs per row: docs/decisions/0024-rows-become-records.md.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")


class RowShapeError(TypeError):
    """A row read from the store does not have the keys of the record it is read as."""

    def __init__(self, record: str, missing: Iterable[str], unexpected: Iterable[str]) -> None:
        self.record = record
        self.missing = sorted(missing)
        self.unexpected = sorted(unexpected)
        super().__init__(f"a row read as {record} lacks {self.missing} and has unexpected "
                         f"{self.unexpected}")


def _keys(record: type[Any]) -> tuple[frozenset[str], frozenset[str]]:
    """A TypedDict's required and optional keys, read from its resolved annotations.

    ``__required_keys__`` alone is not enough: under ``from __future__ import annotations``
    a ``NotRequired[...]`` annotation is a string, which the class counts as required."""
    hints = typing.get_type_hints(record, include_extras=True)
    optional = set(record.__optional_keys__)
    for name, hint in hints.items():
        origin = typing.get_origin(hint)
        if origin is typing.NotRequired:
            optional.add(name)
        elif origin is typing.Required:
            optional.discard(name)
    return frozenset(hints) - optional, frozenset(optional)


class Converter(Generic[T]):
    """Rows read as one record type (``of`` makes one)."""

    __slots__ = ("_allowed", "_exact", "_required", "name")

    def __init__(self, record: type[T]) -> None:
        self.name = record.__name__
        required, optional = _keys(record)
        self._required = required
        self._allowed = required | optional
        # Most records have no optional key: then one comparison decides.
        self._exact = not optional

    def one(self, row: Mapping[str, Any]) -> T:
        """The row as the record; RowShapeError if its keys are not the record's."""
        keys = row.keys()
        if (keys == self._required) if self._exact else (
                self._required <= keys and keys <= self._allowed):
            return cast(T, row)
        raise RowShapeError(self.name, self._required - keys, keys - self._allowed)

    def all(self, rows: Iterable[Mapping[str, Any]]) -> list[T]:
        """Each row as the record, in order."""
        one = self.one
        return [one(r) for r in rows]

    def first(self, rows: Iterable[Mapping[str, Any]]) -> T | None:
        """The first row as the record; None when there is none."""
        for r in rows:
            return self.one(r)
        return None


def of(record: type[T]) -> Converter[T]:
    """The converter of a record (a TypedDict)."""
    return Converter(record)
