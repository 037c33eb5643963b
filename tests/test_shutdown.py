"""Shutting down never waits forever on one step: a step that does not finish is left
behind after its time, the others still run."""

from __future__ import annotations

import asyncio
import logging

import pytest

from afterhack.runtime.services import _bounded


async def test_a_step_that_never_ends_is_left_behind(caplog: pytest.LogCaptureFixture) -> None:
    never = asyncio.get_running_loop().create_future()
    caplog.set_level(logging.WARNING, logger="afterhack")
    await asyncio.wait_for(_bounded("closing the stuck thing", never, seconds=0.2), timeout=5)
    assert "closing the stuck thing took over" in caplog.text
    never.cancel()


async def test_a_step_that_fails_is_logged_and_the_next_one_runs(
        caplog: pytest.LogCaptureFixture) -> None:
    ran: list[str] = []

    async def broken() -> None:
        raise RuntimeError("socket already gone")

    async def fine() -> None:
        ran.append("fine")

    caplog.set_level(logging.WARNING, logger="afterhack")
    await _bounded("closing the broken thing", broken(), seconds=1)
    await _bounded("closing the fine thing", fine(), seconds=1)
    assert "closing the broken thing failed: socket already gone" in caplog.text
    assert ran == ["fine"]
