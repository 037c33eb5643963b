"""Settings for an app or a part of one under test."""

from __future__ import annotations

from typing import Any

from afterhack.config import Settings

# Tests embed claims during ingest, in the claims' own write (the app's default leaves it to
# a background worker): a search right after an ingest then sees the same vectors on every
# run. tests/test_vectors.py covers the worker.
EMBED_INLINE = {"embedding_worker": False}


def make_settings(**fields: Any) -> Settings:
    """Settings from ``fields`` and the environment, never from a ``.env`` file: the
    developer's own must not change what a test sees."""
    # ``_env_file`` is an argument of pydantic-settings' constructor, not a field, so it is
    # not in the signature a type checker reads off the fields.
    return Settings(**{"_env_file": None, **fields})
