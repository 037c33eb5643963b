"""The app serves with its own collector thresholds and gives the process back as it was."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from afterhack.api.app import GC_THRESHOLDS
from afterhack.app import create_app
from afterhack.config import Settings
from tests.support import LOCAL


def test_the_app_serves_with_its_thresholds_and_restores_the_defaults(settings: Settings) -> None:
    outer = gc.get_threshold()  # another app in this test run may be serving already
    gc.set_threshold(700, 10, 10)
    try:
        with TestClient(create_app(settings), base_url=LOCAL) as c:
            assert c.get("/api/health").status_code == 200
            assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*outer)
