"""Documents nobody here wrote, as Debian packages install them, read as people read them
through the real app. A test whose document is not installed is skipped and says which
package installs it (scripts/test installs them where it can)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.graphs import violations

LIBTASN1 = Path("/usr/share/doc/libtasn1-doc/libtasn1.pdf")
USERS_AND_GROUPS = Path("/usr/share/doc/base-passwd/users-and-groups.html")
# A line of the manual's table of contents as the old reading made a claim of it: a page
# number, a section number, the section's title and the last dot of its leader
# ("22 4.5 Auxilliary functions .").
TOC_CLAIM = re.compile(r"\A\d+ (?:[A-Z]\.)?\d+(?:\.\d+)* .*\.\Z")


def _ingest(client: TestClient, ws: str, path: Path, package: str) -> Any:
    if not path.exists():
        pytest.skip(f"{path} is not installed: apt-get install {package}")
    r = client.post(f"/api/workspaces/{ws}/sources/files",
                    files={"file": (path.name, path.read_bytes())})
    assert r.status_code == 201, r.text
    return r.json()


def test_libtasn1_manual_makes_no_claim_of_its_contents_and_joins_its_broken_words(
        client: TestClient, ws: str, falkordb: str) -> None:
    body = _ingest(client, ws, LIBTASN1, "libtasn1-doc")
    version = body["source"]["versions"][-1]
    text = version["text"]
    assert "Distinguished Encoding Rules (DER) manipulation." in text
    assert "If an element is OPTIONAL and this returns" in text
    assert "manip-ulation" not in text and "OP- TIONAL" not in text
    assert "Copyright © 2001–2022" in text and "c©" not in text
    by_id = {f["id"]: f for f in version["fragments"]}
    # The table of contents is page 3 (after the page number "i"): kept, and not extracted.
    contents = [f for f in version["fragments"] if f["page"] == 3]
    assert contents[1]["text"].startswith("Table of Contents")
    assert {f["extraction"] for f in contents} == {"none"}
    assert "4.5 Auxilliary functions" in "".join(f["text"] for f in contents)
    assert body["claims"]
    for claim in body["claims"]:
        quote = claim["evidence_quote"]
        assert by_id[claim["fragment_id"]]["extraction"] == "done"
        assert ". . ." not in quote and not TOC_CLAIM.match(quote), quote
        assert "Chapter 4: Function reference" not in quote, quote
    assert violations(falkordb, ws) == []


def test_users_and_groups_gives_each_description_its_subject_and_the_licence_its_section(
        client: TestClient, ws: str) -> None:
    body = _ingest(client, ws, USERS_AND_GROUPS, "base-passwd")
    sections = {f["id"]: f["section"] for f in body["source"]["versions"][-1]["fragments"]}
    claims = {c["statement"]: sections[c["fragment_id"]] for c in body["claims"]}
    assert claims["fetchmail: Used by the fetchmail program."] == "Chapter 2. Users and Groups"
    licence = next(s for s in claims if s.startswith("This document is free"))
    assert claims[licence] == "Users and Groups in the Debian System"
