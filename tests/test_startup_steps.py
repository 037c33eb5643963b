"""A start-up step that runs long is named in the log while it runs, at the default level,
so a start that stalls says where (one once took over a minute and logged nothing)."""

from __future__ import annotations

import logging
import threading

import pytest

from afterhack.runtime import services
from tests.support.timing import until


def test_a_slow_step_is_named_while_it_runs_even_when_it_blocks_the_loop(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "SLOW_START_STEP_S", 0.1)
    caplog.set_level(logging.WARNING, logger="afterhack")
    def reports() -> list[str]:
        return [r.getMessage() for r in caplog.records
                if "waiting for the slow thing" in r.getMessage()]

    with services.start_step("waiting for the slow thing"):
        # The thread that entered the step blocks, as a stuck call would, until the step
        # has been named twice.
        until(lambda: len(reports()) >= 2, timeout_s=60, what="two reports", every_s=0.01)
    assert reports()[0].startswith("start-up: waiting for the slow thing has taken")


def test_a_quick_step_logs_nothing_and_stops_reporting_once_done(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "SLOW_START_STEP_S", 0.2)
    caplog.set_level(logging.WARNING, logger="afterhack")
    before = set(threading.enumerate())
    with services.start_step("the quick thing"):
        reporters = [t for t in threading.enumerate()
                     if t not in before and t.name == "afterhack-start-step"]
    assert len(reporters) == 1
    # Done, the step's reporter ends: it says nothing now or later.
    reporters[0].join(timeout=60)
    assert not reporters[0].is_alive()
    assert "the quick thing" not in caplog.text
