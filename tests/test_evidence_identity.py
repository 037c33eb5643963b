"""A statement that is exactly its quote is carried by it: the shortcut ingest takes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from afterhack.rules import evidence


@given(st.text(max_size=300))
def test_a_statement_is_carried_by_itself(text: str) -> None:
    assert evidence.missing_from_quote(text, text) == []


@given(st.from_regex(r"[A-Z][a-z]+ (ships|moves) on [A-Z][a-z]+ [0-9]{1,2}\.", fullmatch=True))
def test_sentences_with_names_and_numbers_are_carried_by_themselves(text: str) -> None:
    assert evidence.missing_from_quote(text, text) == []
