"""A setting with a typo refuses start-up, naming the variable (docs/rules.md, rule 20): a
value a setting cannot take, and a name that is no setting, in the environment, in .env or
given as a keyword."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

import afterhack
from afterhack.config import (
    READ_ELSEWHERE,
    Settings,
    SettingsError,
    known_variables,
    load_settings,
)
from tests.support.paths import ROOT, tracked


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


@pytest.mark.parametrize(("command", "typo", "said"), [
    (["serve", "--port", "0"], {"AFTERHACK_SUPPORT_POLICY": "indepedent"},
     "AFTERHACK_SUPPORT_POLICY='indepedent'"),
    (["mcp"], {"AFTERHACK_SUPPORT_POLICY": "indepedent"}, "AFTERHACK_SUPPORT_POLICY='indepedent'"),
    # Beyond loopback: were the typo let through, serve would refuse for want of keys.
    (["serve", "--host", "0.0.0.0", "--port", "0"], {"AFTERHACK_REQIURE_KEYS": "1"},
     "AFTERHACK_REQIURE_KEYS: not a setting afterhack knows; did you mean "
     "AFTERHACK_REQUIRE_KEYS?"),
    # A client command too: a mistyped AFTERHACK_URL would talk to another server.
    (["workspace", "list"], {"AFTERHACK_ULR": "http://127.0.0.1:1"},
     "AFTERHACK_ULR: not a setting afterhack knows; did you mean AFTERHACK_URL?"),
])
def test_the_cli_refuses_to_start_and_says_why(
        tmp_path: Path, command: list[str], typo: dict[str, str], said: str) -> None:
    # Accepted, serve and mcp would start serving (and this would time out).
    done = subprocess.run(
        [sys.executable, "-m", "afterhack.cli", *command],
        env={"PATH": "/usr/bin:/bin", **typo, "AFTERHACK_DATA_DIR": str(tmp_path / "data")},
        cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert said in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "data").exists()  # nothing was started


def test_an_unknown_name_is_refused_with_the_nearest_known_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTERHACK_REQIURE_KEYS", "1")
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert str(refused.value).splitlines()[1:] == [
        "  AFTERHACK_REQIURE_KEYS: not a setting afterhack knows; did you mean "
        "AFTERHACK_REQUIRE_KEYS?"]
    with pytest.raises(ValidationError, match="reqiure_keys"):
        Settings()
    with pytest.raises(ValidationError, match="reqiure_keys"):
        afterhack.create_app()


def test_names_are_read_in_any_case_and_refused_in_any_case(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("afterhack_require_keys", "true")
    assert load_settings().require_keys is True
    monkeypatch.setenv("afterhack_fragment_max_char", "80")
    with pytest.raises(SettingsError, match="did you mean AFTERHACK_FRAGMENT_MAX_CHARS"):
        load_settings()


def test_a_name_far_from_every_known_one_is_refused_without_a_guess(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTERHACK_ZZZ", "1")
    with pytest.raises(SettingsError, match="AFTERHACK_ZZZ: not a setting afterhack knows; "
                                            "the settings are listed in the README"):
        load_settings()


def test_a_mistyped_keys_value_is_never_repeated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AFTERHACK_ADMN_KEY", "s3cret-admin")
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert "did you mean AFTERHACK_ADMIN_KEY?" in str(refused.value)
    assert "s3cret" not in str(refused.value)


def test_names_and_values_are_refused_together(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.setenv("AFTERHACK_SUPPORT_POLICY", "all")
    monkeypatch.setenv("AFTERHACK_REQIURE_KEYS", "1")
    (tmp_path / ".env").write_text("AFTERHACK_DATADIR=/srv/memory\n", encoding="utf-8")
    with pytest.raises(SettingsError) as refused:
        load_settings(max_body_byte=4096)
    named = sorted(line.split("=")[0].split(":")[0].strip()
                   for line in str(refused.value).splitlines()[1:])
    assert named == ["AFTERHACK_DATADIR", "AFTERHACK_MAX_BODY_BYTE", "AFTERHACK_REQIURE_KEYS",
                     "AFTERHACK_SUPPORT_POLICY"]


def test_a_dotenv_keeps_other_tools_names_and_the_names_read_elsewhere(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # docker compose reads the same .env; the CLI's names may sit beside the app's.
    (tmp_path / ".env").write_text(
        "COMPOSE_PROJECT_NAME=memory\nOPENAI_BASE_URL=http://127.0.0.1:9/v1\n"
        "AFTERHACK_WORKSPACE=ws\nAFTERHACK_PORT=8123\n", encoding="utf-8")
    settings = load_settings()
    assert (settings.port, settings.openai_base_url) == (8123, "http://127.0.0.1:9/v1")


def test_every_name_read_elsewhere_is_let_through(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in READ_ELSEWHERE:
        monkeypatch.setenv(name, "x")
    assert load_settings().support_policy == "independent"


def test_every_afterhack_name_the_repository_uses_is_known() -> None:
    # A part that reads a new AFTERHACK_ name must say so in config.READ_ELSEWHERE, or every
    # start-up beside it would be refused.
    used: set[str] = set()
    for path in tracked():
        if not (ROOT / path).is_file():
            continue
        try:
            text = (ROOT / path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        used |= set(re.findall(r"\bAFTERHACK_[A-Z0-9]+(?:_[A-Z0-9]+)*", text))
    # The tests' own typos are what they are for.
    typos = {"AFTERHACK_REQIURE_KEYS", "AFTERHACK_ULR", "AFTERHACK_ZZZ", "AFTERHACK_ADMN_KEY",
             "AFTERHACK_DATADIR", "AFTERHACK_MAX_BODY_BYTE"}
    assert used - known_variables() - typos == set()
    assert "AFTERHACK_TEST_FALKORDB_URL" in used  # the scan reads what it is for

