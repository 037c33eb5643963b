"""A setting with a fixed set of values refuses a typo at start-up, naming the variable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

import afterhack
from afterhack.config import Settings, SettingsError, load_settings


@pytest.fixture(autouse=True)
def _no_env_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Settings read .env from the working directory: run where there is none.
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(("variable", "typo", "allowed"), [
    ("AFTERHACK_SUPPORT_POLICY", "indepedent", "'independent' or 'any'"),
    ("AFTERHACK_LLM_RESPONSE_FORMAT", "json-object",
     "'json_schema', 'json_object_schema' or 'json_object'"),
])
def test_a_typo_is_refused_with_the_variable_and_what_it_may_be(
        monkeypatch: pytest.MonkeyPatch, variable: str, typo: str, allowed: str) -> None:
    monkeypatch.setenv(variable, typo)
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert f"{variable}={typo!r}" in str(refused.value)
    assert allowed in str(refused.value)


def test_every_bad_setting_is_named_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTERHACK_SUPPORT_POLICY", "all")
    monkeypatch.setenv("AFTERHACK_LLM_RESPONSE_FORMAT", "text")
    with pytest.raises(SettingsError) as refused:
        load_settings()
    lines = str(refused.value).splitlines()
    assert lines[0] == "Invalid settings:"
    assert [line.split("=")[0].strip() for line in lines[1:]] == [
        "AFTERHACK_LLM_RESPONSE_FORMAT", "AFTERHACK_SUPPORT_POLICY"]


def test_the_values_it_may_be_are_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTERHACK_SUPPORT_POLICY", "any")
    monkeypatch.setenv("AFTERHACK_LLM_RESPONSE_FORMAT", "json_object")
    settings = load_settings()
    assert (settings.support_policy, settings.llm_response_format) == ("any", "json_object")
    assert (Settings().support_policy, Settings().llm_response_format) == (
        "any", "json_object")


def test_no_path_to_the_app_turns_a_typo_into_a_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTERHACK_SUPPORT_POLICY", "indepedent")
    with pytest.raises(ValidationError, match="'independent' or 'any'"):
        Settings()
    with pytest.raises(ValidationError, match="'independent' or 'any'"):
        afterhack.create_app()


@pytest.mark.parametrize("command", [["serve", "--port", "0"], ["mcp"]])
def test_the_cli_refuses_to_start_and_says_why(tmp_path: Path, command: list[str]) -> None:
    # Accepted, either command would start serving (and this would time out).
    done = subprocess.run(
        [sys.executable, "-c", "from afterhack.cli.main import main; main()", *command],
        env={"PATH": "/usr/bin:/bin", "AFTERHACK_SUPPORT_POLICY": "indepedent",
             "AFTERHACK_DATA_DIR": str(tmp_path / "data")},
        cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "AFTERHACK_SUPPORT_POLICY='indepedent'" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "data").exists()  # nothing was started
