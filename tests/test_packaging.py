"""The app's wheel holds the app: the benchmark and the load test stay in tools/."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from tests.support.paths import ROOT


def test_the_wheel_carries_no_bench_or_load_code(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(tmp_path), str(ROOT)], check=True, timeout=300)
    wheel = next(tmp_path.glob("afterhack-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("afterhack/store/") for n in names)
    tools = [n for n in names if "/bench/" in n or "/load/" in n or "afterhack_tools" in n]
    assert tools == []


def test_bench_and_loadtest_are_commands_of_a_development_install() -> None:
    out = subprocess.run([sys.executable, "-m", "afterhack.cli", "--help"], capture_output=True,
                         text=True, check=True, timeout=60).stdout
    assert "bench" in out and "loadtest" in out
