"""The frameworks' adapters need nothing past this machine: with the network cut (a network
namespace holding loopback alone), LangChain, LangGraph and the Agents SDK examples run
against an app in the same namespace, and nothing they import downloads anything."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.paths import ROOT


def _can_cut_the_network() -> bool:
    try:
        return subprocess.run(["unshare", "--net", "true"], capture_output=True,
                              timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not _can_cut_the_network(),
                    reason="unshare --net needs root (or user namespaces) on Linux")
def test_langchain_langgraph_openai_agents_run_with_the_network_cut() -> None:
    done = subprocess.run(["unshare", "--net", sys.executable, "-m",
                           "tests.support.offline_frameworks"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "retrieved: The product launch is planned for June 12." in out
    assert "[tuesday] agent: You told me: Ana's flight to Lisbon leaves at 9 am on Friday." in out
    assert "'The product launch is planned for June 12.' [0:42] of 'Launch plan'" in out
