"""Run inside a network namespace of its own (``unshare --net``), with loopback alone: an
app on an embedded FalkorDB, then each framework's example against it. What it prints is
the examples' output; nothing here can reach past this machine's loopback."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from tests.support.paths import ROOT
from tests.support.procs import AppProcess

EXAMPLES = ROOT / "examples"

RETRIEVE = """
import sys
from afterhack.client import Client
from afterhack.integrations.langchain import AfterhackRetriever
url = sys.argv[1]
with Client(url) as c:
    ws = c.create_workspace("offline")["id"]
    c.add_source("The product launch is planned for June 12.", title="Plan", workspace=ws)
for doc in AfterhackRetriever(url=url, workspace=ws).invoke("launch"):
    print("retrieved:", doc.metadata["quote"])
"""


def main() -> None:
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    env = {"OPENAI_BASE_URL": "", "AFTERHACK_ADMIN_KEY": "", "AFTERHACK_REQUIRE_KEYS": "false",
           "AFTERHACK_EMBEDDING_WORKER": "false", "AFTERHACK_FALKORDB_URL": ""}
    with tempfile.TemporaryDirectory() as tmp, \
            AppProcess(env, data_dir=Path(tmp) / "data", log_path=Path(tmp) / "app.log") as app:
        for command in ([sys.executable, "-c", RETRIEVE, app.base_url],
                        [sys.executable, str(EXAMPLES / "langgraph_agent.py"),
                         "--url", app.base_url],
                        [sys.executable, str(EXAMPLES / "openai_agents_agent.py"),
                         "--url", app.base_url]):
            done = subprocess.run(command, capture_output=True, text=True, timeout=300)
            print(done.stdout, end="")
            if done.returncode:
                print(done.stderr, file=sys.stderr)
                raise SystemExit(done.returncode)

if __name__ == "__main__":
    main()
