"""The UI's scripted journeys (web/e2e/*.mjs) in Debian's Chromium, headless, through
playwright-core, against an app a test started."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from afterhack.api.app import STATIC_DIR
from tests.support.paths import WEB


def chromium() -> str:
    """The browser's path, once everything a journey needs is there."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    assert found, "Chromium is missing: scripts/test installs Debian's chromium package"
    assert (WEB / "node_modules" / "playwright-core").is_dir(), "run scripts/test (npm ci)"
    assert (STATIC_DIR / "index.html").exists(), "the UI is not built: run scripts/test"
    return found


def fresh_dir(path: Path) -> Path:
    """``path`` emptied of an earlier run's screenshots."""
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def drive(script: str, *, base_url: str, browser: str, out: Path, timeout_s: float,
          **env: str) -> None:
    """Run ``web/e2e/<script>.mjs`` on the app at ``base_url``, its screenshots and log
    (``<script>.log``) in ``out``; ``env`` is what the script reads besides. It must pass."""
    result = subprocess.run(
        ["node", f"e2e/{script}.mjs"], cwd=WEB, capture_output=True, text=True,
        timeout=timeout_s, env={**os.environ, "BASE_URL": base_url, "CHROMIUM_PATH": browser,
                                "ARTIFACTS_DIR": str(out), **env})
    (out / f"{script}.log").write_text(result.stdout + result.stderr)
    print(result.stdout)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-4000:]
