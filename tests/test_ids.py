"""Ids made in a batch (records.ids.new_ids) are random version-4 UUIDs in canonical form, like
new_id()'s, whatever bytes the OS hands out."""

from __future__ import annotations

import os
import uuid

import pytest

from afterhack.model.ids import is_uuid
from afterhack.records import ids as names


def _is_v4(s: str) -> bool:
    u = uuid.UUID(s)
    return str(u) == s and u.version == 4 and u.variant == uuid.RFC_4122 and is_uuid(s)


def test_batch_ids_are_canonical_random_v4_uuids() -> None:
    ids = names.new_ids(100_000)
    assert len(ids) == len(set(ids)) == 100_000
    assert all(_is_v4(i) for i in ids)
    assert names.new_ids(0) == []
    assert _is_v4(names.new_id())


@pytest.mark.parametrize("byte", [0x00, 0xFF, 0x7F, 0xC0])
def test_version_and_variant_bits_hold_for_any_random_bytes(
    byte: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "urandom", lambda n: bytes([byte]) * n)
    ids = names.new_ids(3)
    assert all(_is_v4(i) for i in ids)
    assert ids[0] == str(uuid.UUID(bytes=bytes([byte]) * 16, version=4))
