"""afterhack: agent memory that remembers with proof and knows what to repair."""

from afterhack.config import Settings

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings | None = None):  # type: ignore[no-untyped-def]
    from afterhack.app import create_app as _create_app

    return _create_app(settings)
