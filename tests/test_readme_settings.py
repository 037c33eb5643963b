"""The README's settings table is the settings: every one of config.Settings is a row, with
the default and the limit the code gives it, and no row names a variable nothing reads."""

from __future__ import annotations

import re
import types
from typing import Any, Literal, Union, get_args, get_origin

from pydantic.fields import FieldInfo

from afterhack.config import Settings, env_variable
from tests.support.paths import ROOT

# Read by the CLI's options (cli/common.py), not by the app's settings.
CLI_VARIABLES = {"AFTERHACK_URL", "AFTERHACK_WORKSPACE", "AFTERHACK_API_KEY"}
ROW = re.compile(r"^\| `([A-Z_]+)` \| ([^|]*) \| ([^|]*) \| (.+) \|$")


def _table() -> dict[str, tuple[str, str]]:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Configuration", 1)[1]
    section = section.split("\n## ", 1)[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        m = ROW.match(line)
        if m:
            assert m.group(1) not in rows, f"{m.group(1)} has two rows"
            rows[m.group(1)] = (m.group(2).strip(), m.group(3).strip())
    return rows


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _default(field: FieldInfo) -> str:
    value: Any = field.get_default(call_default_factory=True)
    if value is None or value == []:
        return "unset"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, int | float):
        return f"`{_number(value)}`"
    return f"`{value}`"  # a string, or the data directory's path


def _bounds(field: FieldInfo) -> dict[str, float]:
    found: dict[str, float] = {}
    for m in field.metadata:
        for name in ("ge", "gt", "le", "lt"):
            bound = getattr(m, name, None)
            if bound is not None:
                found[name] = bound
    return found


def _limit(field: FieldInfo) -> str:
    kinds = [a for a in get_args(field.annotation) if a is not type(None)] \
        if get_origin(field.annotation) in (Union, types.UnionType) else [field.annotation]
    if kinds == [bool]:
        return "`true` or `false`"
    if len(kinds) == 1 and get_origin(kinds[0]) is Literal:
        words = [f"`{v}`" for v in get_args(kinds[0])]
        return " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 2 else words)
    b = _bounds(field)
    if "ge" in b and "le" in b:
        return f"{_number(b['ge'])} to {_number(b['le'])}"
    if "gt" in b and "le" in b:
        return f"more than {_number(b['gt'])}, at most {_number(b['le'])}"
    if "ge" in b:
        return f"at least {_number(b['ge'])}"
    if "gt" in b:
        return f"more than {_number(b['gt'])}"
    assert not b, b
    return "—"


def test_every_setting_is_in_the_readme_with_its_default_and_limit() -> None:
    rows = _table()
    for name, field in Settings.model_fields.items():
        variable = env_variable(name)
        assert variable in rows, f"{variable} ({name}) is missing from the README's settings"
        assert rows[variable] == (_default(field), _limit(field)), variable


def test_no_row_names_a_variable_nothing_reads() -> None:
    read = {env_variable(name) for name in Settings.model_fields} | CLI_VARIABLES
    assert set(_table()) - read == set()
    assert set(_table()) >= CLI_VARIABLES


def test_the_table_is_read_as_written() -> None:
    # The checks above would pass on an empty table: the parser must find the rows.
    rows = _table()
    assert rows["AFTERHACK_MAX_SOURCE_CHARS"] == ("`1000000`", "at least 1")
    assert rows["AFTERHACK_FALKORDB_DEADLINE_S"] == ("unset", "more than 0, at most 3600")
    assert rows["AFTERHACK_SUPPORT_POLICY"] == ("`independent`", "`independent` or `any`")
    assert len(rows) == len(Settings.model_fields) + len(CLI_VARIABLES)
