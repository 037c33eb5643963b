"""The UI's wire types (web/src/apiTypes.ts) are generated from the API's OpenAPI document,
and the check scripts/test runs fails when the checked-in file is not what the API
generates now (scripts/gen-api-types)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

SCRIPT = ROOT / "scripts" / "gen-api-types"
CHECKED_IN = ROOT / "web" / "src" / "apiTypes.ts"
GENERATOR = ROOT / "web" / "api-types" / "node_modules" / ".bin" / "openapi-typescript"

pytestmark = pytest.mark.skipif(not GENERATOR.exists(),
                                reason="openapi-typescript is not installed (npm ci in web/)")


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)


def test_the_checked_in_types_are_what_the_api_generates(tmp_path: Path) -> None:
    fresh = tmp_path / "apiTypes.ts"
    assert run("--file", fresh).returncode == 0
    assert fresh.read_text() == CHECKED_IN.read_text(), (
        "web/src/apiTypes.ts is stale: run .venv/bin/python scripts/gen-api-types")
    text = fresh.read_text()
    # The preview's shape, named field by field, and the names the UI imports.
    assert "CorrectionPreview: {" in text and "impact_token: string;" in text
    assert 'export type CorrectionPreview = components["schemas"]["CorrectionPreview"];' in text


def test_the_check_fails_when_the_file_differs_from_the_api(tmp_path: Path) -> None:
    stale = tmp_path / "apiTypes.ts"
    stale.write_text(CHECKED_IN.read_text().replace("impact_token: string;",
                                                    "impact_token: number;", 1))
    r = run("--check", "--file", stale)
    assert r.returncode == 1
    assert "is not what the API generates" in r.stderr
    assert "-            impact_token: number;" in r.stderr  # the diff says where
    stale.write_text(CHECKED_IN.read_text())
    assert run("--check", "--file", stale).returncode == 0
