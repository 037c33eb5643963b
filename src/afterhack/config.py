"""Settings, read from the environment (``AFTERHACK_*`` and the OpenAI names) or a ``.env`` file.

A setting with a fixed set of values is a ``Literal``, so a typo is refused at start-up
(``load_settings`` says which variable and what it may be) instead of becoming a default.
A name that is no setting is refused too (docs/rules.md, rule 20): an ``AFTERHACK_``
variable in the environment or in ``.env`` that nothing reads, or a keyword no field takes,
is named with the nearest known name.
"""

from __future__ import annotations

import difflib
import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from afterhack.model.vocab import ResponseFormat, SupportPolicy
from afterhack.wire.hostnames import host_name


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="AFTERHACK_", env_file=".env", extra="forbid", populate_by_name=True
    )

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The usual sources in the usual order, then the unknown AFTERHACK_ names of the
        # environment and of .env as extras, which the model forbids: each one is an error
        # beside any bad value, so every bad one is named at once.
        return (init_settings, env_settings, _OurDotEnv(settings_cls, dotenv_settings),
                file_secret_settings, _UnknownInEnvironment(settings_cls))

    # Where FalkorDB is: unset means "start the embedded one under data_dir".
    falkordb_url: str | None = None
    data_dir: Path = Path(".afterhack")
    falkordb_pool_size: int = Field(default=16, ge=1, le=512)
    # Server-side cap on any single graph query; without it FalkorDB lets writes run forever.
    falkordb_query_timeout_ms: int = Field(default=60_000, ge=100)
    # On a FalkorDB cluster (the URL names any node; see docs/cluster.md): how long a request
    # waits for a lost master's replica to take over before it answers 503.
    falkordb_failover_wait_s: float = Field(default=10.0, ge=0, le=300)
    # Read-only queries from replicas, which may lag their master by a moment (off).
    read_from_replicas: bool = False
    # Each write waits until this many replicas have it (WAIT); if they do not confirm within
    # the timeout, the request answers 503 write_not_replicated (the write stands).
    write_replicas: int = Field(default=0, ge=0, le=8)
    write_replicas_timeout_ms: int = Field(default=1000, ge=10, le=60_000)
    # The longest a request waits for any one answer from FalkorDB. Unset: past the server's
    # own caps (the query timeout for reads, twice it for writes), plus a margin.
    falkordb_deadline_s: float | None = Field(default=None, gt=0, le=3600)
    # FalkorDB silent to pings this long: calls waiting on it give up (503) and new ones are
    # refused at once until it answers again.
    falkordb_unresponsive_s: float = Field(default=5.0, gt=0, le=3600)
    # The embedded FalkorDB silent this long while its process lives (frozen): it is
    # stopped by its pid and started again on the same data dir.
    falkordb_stuck_restart_s: float = Field(default=30.0, gt=0, le=3600)
    # At start-up the app waits while FalkorDB loads its data after a crash, however long
    # that takes; it gives up only when the load makes no progress for this long.
    falkordb_load_stall_s: float = Field(default=300.0, gt=0)
    # ``?wait=disk`` (a workspace deletion, an erasure) answers once FalkorDB's files on every
    # node are rewritten, or after this long with ``disk: pending`` (runtime/scrub.py).
    disk_wait_s: float = Field(default=120.0, gt=0, le=3600)

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    # Names besides loopback (and the bound address) that requests may carry in Host, and
    # origins besides the request's own that browsers may send (api/hosts.py); comma-separated.
    allowed_hosts: Annotated[list[str], NoDecode] = Field(default_factory=list)
    allowed_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # The request line and headers together, and how many headers, before anything else.
    max_header_bytes: int = Field(default=64 * 1024, ge=1024)
    max_headers: int = Field(default=100, ge=8)

    max_body_bytes: int = Field(default=2 * 1024 * 1024, ge=1024)
    # POST /api/workspaces/restore takes a whole export.
    max_restore_bytes: int = Field(default=256 * 1024 * 1024, ge=1024)
    # POST .../sources/files takes a whole file (its original is kept in the graph:
    # docs/decisions/0026-originals-in-the-graph.md).
    max_file_bytes: int = Field(default=8 * 1024 * 1024, ge=1024)
    max_source_chars: int = Field(default=1_000_000, ge=1)
    fragment_max_chars: int = Field(default=1200, ge=50, le=100_000)
    max_claims_per_source: int = Field(default=20_000, ge=1)
    # Files are read in worker processes (runtime/sandbox.py): this many at once, this many
    # more callers waiting in line (docs/decisions/0042-reading-in-a-sandbox.md), and what
    # one file's reading may take.
    file_readers: int = Field(default=2, ge=1, le=64)
    file_read_queue: int = Field(default=8, ge=0, le=1024)
    file_read_cpu_s: int = Field(default=20, ge=1, le=3600)
    file_read_wall_s: float = Field(default=40.0, gt=0, le=3600)
    file_read_memory_bytes: int = Field(default=512 * 1024 * 1024, ge=128 * 1024 * 1024)
    # Counted as a file is read (files/budget.py; the defaults are Budget's).
    file_max_pages: int = Field(default=2_000, ge=1)
    file_max_elements: int = Field(default=1_000_000, ge=1)
    file_max_paragraphs: int = Field(default=100_000, ge=1)

    # Model gateway (any OpenAI-compatible server). Unset base URL means the offline model.
    openai_base_url: str | None = Field(
        default=None, validation_alias=AliasChoices("OPENAI_BASE_URL", "AFTERHACK_OPENAI_BASE_URL")
    )
    openai_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("OPENAI_API_KEY", "AFTERHACK_OPENAI_API_KEY")
    )
    model: str = "gpt-4o-mini"
    llm_timeout_s: float = Field(default=60.0, gt=0)
    llm_concurrency: int = Field(default=4, ge=1, le=256)
    # The first way to ask for JSON (vocab.ResponseFormat); a gateway that refuses it is asked
    # the next way, and the gateway remembers the one that worked.
    llm_response_format: ResponseFormat = "json_schema"
    # The most tokens one answer may take (sent as max_tokens; unset sends none, and the
    # server's own limit applies). A small local model can repeat itself until its context
    # is full: this bounds what such an answer costs, and one cut before its JSON was whole
    # is counted as cut_at_max_tokens.
    llm_max_tokens: int | None = Field(default=None, ge=16)
    agent_max_rounds: int = Field(default=8, ge=1, le=64)
    # A run driven by an outside agent (MCP) that is still open this long after it started
    # expires: its next tool call or proposal is refused, and it is recorded as expired.
    agent_run_open_ttl_s: int = Field(default=3600, ge=1)

    # "independent": a claim from the corrected claim's own source is no alternative support.
    support_policy: SupportPolicy = "independent"
    # Compare each new claim with its nearest current claims and raise conflicts
    # (docs/rules.md, rule 9). Off only to measure what the checks cost (afterhack bench).
    conflict_checks: bool = True

    # Search by meaning (docs/rules.md, rules 3 and 16): the gateway's /embeddings with this
    # model when a gateway is set, else the offline model that ships with the app. "off"
    # searches by words only.
    embedding_model: str | None = None
    # With a gateway model: the cosine distance past which a claim is not near a query.
    embedding_max_distance: float | None = Field(default=None, gt=0, le=2)
    embeddings: bool = True
    # Vectors are filled in after the write by a background worker (ingest never waits on
    # the model); false embeds during ingest and stores vectors in the claims' own write.
    embedding_worker: bool = True

    # Keys: off by default for a single local user on loopback; see api/security.py.
    admin_key: SecretStr | None = None
    require_keys: bool | None = None
    # Per key (the keyless local user is not limited), counted in FalkorDB's Redis.
    rate_limit_per_minute: int = Field(default=600, ge=1)

    @field_validator("allowed_hosts", "allowed_origins", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("allowed_hosts")
    @classmethod
    def _hosts(cls, value: list[str]) -> list[str]:
        for entry in value:
            if entry != "*" and host_name(entry) is None:
                raise ValueError(f"{entry!r} is not a host or host:port (a name, an IPv4 "
                                 "address or a bracketed IPv6 address)")
        return value

    @property
    def offline_model(self) -> bool:
        return not self.openai_base_url


PREFIX = "AFTERHACK_"

# AFTERHACK_ names that are not the app's settings but are read beside it, by the CLI, the
# tests and the tools: one of them in the environment is no typo.
READ_ELSEWHERE: dict[str, str] = {
    "AFTERHACK_URL": "the CLI's --url",
    "AFTERHACK_WORKSPACE": "the CLI's --workspace",
    "AFTERHACK_API_KEY": "the CLI's --key, and MCP over stdio",
    "AFTERHACK_TEST_FALKORDB_URL": "the tests, to run on an external FalkorDB",
    "AFTERHACK_REAL_MODEL": "scripts/install-real-model and the real-model tier of the tests",
    "AFTERHACK_LOAD_LOGS": "afterhack loadtest, for where its logs go",
}


@lru_cache
def setting_variables() -> frozenset[str]:
    """Every variable a setting is read from (upper case)."""
    names = set()
    for field, info in Settings.model_fields.items():
        alias = info.validation_alias
        if isinstance(alias, AliasChoices):
            names |= {c.upper() for c in alias.choices if isinstance(c, str)}
        else:
            names.add(PREFIX + field.upper())
    return frozenset(names)


@lru_cache
def known_variables() -> frozenset[str]:
    return setting_variables() | frozenset(READ_ELSEWHERE)


def unknown_in_environment() -> list[str]:
    return sorted(name for name in os.environ if is_unknown(name))


def is_unknown(variable: str) -> bool:
    """An AFTERHACK_ name (in any case, as the settings read them) that nothing reads."""
    name = variable.upper()
    return name.startswith(PREFIX) and name not in known_variables()


def nearest(variable: str) -> str | None:
    """The known variable nearest to ``variable`` by spelling, if one is near. Compared
    without the shared prefix, which would make every name look alike."""
    name = variable.upper().removeprefix(PREFIX)
    known = {v.removeprefix(PREFIX): v for v in known_variables()}
    match = difflib.get_close_matches(name, sorted(known), n=1)
    return known[match[0]] if match else None


class _UnknownInEnvironment(PydanticBaseSettingsSource):
    """The environment's unknown AFTERHACK_ variables, under their own names (lower case)."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        return {name.lower(): os.environ[name] for name in unknown_in_environment()}


class _OurDotEnv(PydanticBaseSettingsSource):
    """The .env file's settings and its unknown AFTERHACK_ names; its other names belong to
    other tools (docker compose reads the same file) and are left alone."""

    def __init__(self, settings_cls: type[BaseSettings],
                 dotenv: PydanticBaseSettingsSource) -> None:
        super().__init__(settings_cls)
        self.dotenv = dotenv

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        data = self.dotenv()
        fields = set(self.settings_cls.model_fields)
        taken = setting_variables()
        # A setting comes back under its field's name or its alias; under a forbidding model
        # a name that no field takes comes back whole.
        return {key: value for key, value in data.items()
                if key in fields or key.upper() in taken or is_unknown(key)}


class SettingsError(ValueError):
    """Raised when a setting from the environment (or ``.env``) has no valid value."""


# Settings whose value is never repeated back, even when it is refused.
_SECRET = frozenset({"openai_api_key", "admin_key"})


def env_variable(field: str) -> str:
    """The variable a setting is read from (its first alias, else AFTERHACK_ and its name)."""
    info = Settings.model_fields.get(field)
    alias = info.validation_alias if info is not None else None
    if isinstance(alias, AliasChoices) and isinstance(alias.choices[0], str):
        return alias.choices[0]
    return "AFTERHACK_" + field.upper()


def unknown_line(name: str) -> str:
    """What is said of a name that is no setting. Its value is not repeated: a mistyped
    key's name would otherwise print the key."""
    variable = name.upper() if name.upper().startswith(PREFIX) else PREFIX + name.upper()
    near = nearest(variable)
    hint = f"did you mean {near}?" if near else "the settings are listed in the README"
    return f"{variable}: not a setting afterhack knows; {hint}"


def describe(exc: ValidationError) -> str:
    """One line per refused setting: its variable, the value given and what it may be."""
    lines = []
    for err in exc.errors():
        field = str(err["loc"][0]) if err["loc"] else "settings"
        if err["type"] == "extra_forbidden":
            lines.append(unknown_line(field))
            continue
        given = "" if field in _SECRET else f"={err.get('input')!r}"
        lines.append(f"{env_variable(field)}{given}: {err['msg']}.")
    return "Invalid settings:\n" + "\n".join(f"  {line}" for line in lines)


def load_settings(**overrides: object) -> Settings:
    """The settings from the environment with ``overrides``; SettingsError names every bad
    one."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise SettingsError(describe(exc)) from None


@lru_cache
def get_settings() -> Settings:
    return load_settings()
