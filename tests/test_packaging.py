"""The app's wheel holds the app: the benchmark and the load test stay in tools/, and the
frameworks of afterhack.integrations are extras that the default install leaves out."""

from __future__ import annotations

import email
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.paths import ROOT

FRAMEWORKS = {"langchain": "langchain-core", "langgraph": "langgraph",
              "openai-agents": "openai-agents"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(out), str(ROOT)], check=True, timeout=300)
    return next(out.glob("afterhack-*.whl"))


def _requires(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        meta = email.message_from_bytes(z.read(name))
    return meta.get_all("Requires-Dist") or []


def _project(requirement: str) -> str:
    m = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert m is not None, requirement
    return m.group(0).lower().replace("_", "-")


def test_the_framework_extras_add_nothing_to_the_default_install(wheel: Path) -> None:
    requires = _requires(wheel)
    default = {_project(r) for r in requires if "extra ==" not in r}
    assert "fastapi" in default and "mcp" in default
    assert default.isdisjoint(FRAMEWORKS.values()), default & set(FRAMEWORKS.values())
    assert not any(p.startswith(("langchain", "langgraph", "openai-agents")) for p in default)
    # Each extra pulls its framework in, and the development install all of them.
    for extra, project in FRAMEWORKS.items():
        mine = {_project(r) for r in requires if re.search(rf"extra == ['\"]{extra}['\"]", r)}
        assert mine == {project}, (extra, mine)
    dev = {_project(r) for r in requires if re.search(r"extra == ['\"]dev['\"]", r)}
    assert {*FRAMEWORKS.values(), "langchain-tests"} <= dev, dev


def test_the_wheel_carries_no_bench_or_load_code(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("afterhack/store/") for n in names)
    tools = [n for n in names if "/bench/" in n or "/load/" in n or "afterhack_tools" in n]
    assert tools == []


def test_bench_and_loadtest_are_commands_of_a_development_install() -> None:
    out = subprocess.run([sys.executable, "-m", "afterhack.cli", "--help"], capture_output=True,
                         text=True, check=True, timeout=60).stdout
    assert "bench" in out and "loadtest" in out
