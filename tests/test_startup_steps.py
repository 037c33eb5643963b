"""A start-up step that runs long is named in the log while it runs, at the default level,
so a start that stalls says where (one once took over a minute and logged nothing)."""

from __future__ import annotations

import logging
import time

import pytest

from afterhack.runtime import services


def test_a_slow_step_is_named_while_it_runs_even_when_it_blocks_the_loop(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "SLOW_START_STEP_S", 0.1)
    caplog.set_level(logging.WARNING, logger="afterhack")
    with services.start_step("waiting for the slow thing"):
        time.sleep(0.35)  # blocks the thread that entered the step, as a stuck call would
    reports = [r.getMessage() for r in caplog.records
               if "waiting for the slow thing" in r.getMessage()]
    assert len(reports) >= 2, reports
    assert reports[0].startswith("start-up: waiting for the slow thing has taken")


def test_a_quick_step_logs_nothing_and_stops_reporting_once_done(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "SLOW_START_STEP_S", 0.2)
    caplog.set_level(logging.WARNING, logger="afterhack")
    with services.start_step("the quick thing"):
        pass
    time.sleep(0.5)
    assert "the quick thing" not in caplog.text
