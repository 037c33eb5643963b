"""Files are sources too (docs/rules.md, rule 11): Markdown, HTML, PDF and DOCX files the
tests make, added through the API on the real FalkorDB; refused files keep nothing."""

from __future__ import annotations

import hashlib
from typing import Any

from fastapi.testclient import TestClient

from afterhack.config import Settings
from afterhack.files import DOCX, HTML, MARKDOWN, PDF
from afterhack_tools.pdfwriter import Page, pdf
from tests.support.api import app_client
from tests.support.files import (
    HTML_FILE,
    MARKDOWN_FILE,
    PNG,
    annual_report_pdf,
    docx_file,
    pdf_file,
)
from tests.support.graphs import snapshot, violations


def upload(client: TestClient, ws: str, name: str, data: bytes,
           content_type: str = "application/octet-stream", **form: str) -> Any:
    """The upload's response, whatever its status."""
    return client.post(f"/api/workspaces/{ws}/sources/files",
                       files={"file": (name, data, content_type)}, data=form)


def _claim(body: dict[str, Any], statement: str) -> dict[str, Any]:
    return next(c for c in body["claims"] if c["statement"] == statement)


def _fragment(body: dict[str, Any], claim: dict[str, Any]) -> dict[str, Any]:
    frags = body["source"]["versions"][-1]["fragments"]
    return next(f for f in frags if f["id"] == claim["fragment_id"])


def _check_quotes(body: dict[str, Any]) -> None:
    text = body["source"]["versions"][-1]["text"]
    assert body["claims"]
    for c in body["claims"]:
        assert text[c["quote_start"]:c["quote_end"]] == c["evidence_quote"]
        frag = _fragment(body, c)
        assert frag["start"] <= c["quote_start"] and c["quote_end"] <= frag["end"]


def test_each_kind_of_file_gives_exact_quotes_with_page_or_heading(
        client: TestClient, ws: str, falkordb: str) -> None:
    md = upload(client, ws, "plan.md", MARKDOWN_FILE, "text/markdown")
    assert md.status_code == 201, md.text
    body = md.json()
    _check_quotes(body)
    version = body["source"]["versions"][0]
    assert body["source"]["kind"] == "file" and body["source"]["title"] == "plan"
    assert body["source"]["origin_name"] == "plan.md"
    assert version["media_type"] == MARKDOWN and version["file_name"] == "plan.md"
    assert version["file_size"] == len(MARKDOWN_FILE)
    assert version["file_hash"] == "sha256:" + hashlib.sha256(MARKDOWN_FILE).hexdigest()
    venue = _claim(body, "The venue is the Grand Hotel in Lisbon.")  # no Markdown syntax
    assert _fragment(body, venue)["section"] == "Venue"
    launch = _claim(body, "The launch is planned for June 12.")
    assert _fragment(body, launch)["section"] == "Launch plan"

    html = upload(client, ws, "plan.html", HTML_FILE).json()
    _check_quotes(html)
    assert html["source"]["versions"][0]["media_type"] == HTML
    assert "June 1." not in html["source"]["versions"][0]["text"]  # no script text
    speaker = _claim(html, "The keynote speaker is Maria Lopez.")
    assert _fragment(html, speaker)["section"] == "People"

    report = upload(client, ws, "report.pdf", pdf_file(), "application/pdf").json()
    _check_quotes(report)
    assert report["source"]["versions"][0]["media_type"] == PDF
    lisbon = _claim(report, "The Lisbon office opens in June 2026.")
    assert _fragment(report, lisbon)["page"] == 2
    assert _fragment(report, _claim(report, "The Berlin office opened in March 2024."))[
        "page"] == 1

    word = upload(client, ws, "offices.docx", docx_file()).json()
    _check_quotes(word)
    assert word["source"]["versions"][0]["media_type"] == DOCX
    hires = _claim(word, "The team hires 3 engineers in July.")
    assert _fragment(word, hires)["section"] == "Hiring"

    # The claim's evidence says where it stands in the original.
    ev = client.get(f"/api/workspaces/{ws}/claims/{lisbon['id']}").json()["evidence"][0]
    assert ev["page"] == 2 and ev["media_type"] == PDF and ev["origin_name"] == "report.pdf"
    # And the original is kept, byte for byte.
    source = report["source"]
    got = client.get(f"/api/workspaces/{ws}/sources/{source['id']}/versions/"
                     f"{source['versions'][0]['id']}/file")
    assert got.status_code == 200 and got.content == pdf_file()
    assert got.headers["content-type"] == PDF
    # The graph views draw a file's version without its bytes.
    internal = client.get(f"/api/workspaces/{ws}/graph", params={"view": "internal"}).json()
    versions = [n["data"] for n in internal["nodes"] if n["type"] == "SourceVersion"]
    assert versions and all("file_data" not in d and "text" not in d for d in versions)
    assert {d.get("media_type") for d in versions} >= {PDF, DOCX}
    assert violations(falkordb, ws) == []


def test_the_same_file_again_is_unchanged_and_a_new_one_a_version(client: TestClient,
                                                                   ws: str) -> None:
    first = upload(client, ws, "plan.md", MARKDOWN_FILE).json()
    sid = first["source"]["id"]
    again = upload(client, ws, "plan.md", MARKDOWN_FILE, source_id=sid)
    assert again.status_code == 200 and again.json()["status"] == "unchanged"
    changed = MARKDOWN_FILE.replace(b"June 12", b"June 19")
    moved = upload(client, ws, "plan.md", changed, source_id=sid)
    assert moved.status_code == 201 and moved.json()["status"] == "versioned"
    body = moved.json()
    assert [v["file_hash"] for v in body["source"]["versions"]] == [
        "sha256:" + hashlib.sha256(d).hexdigest() for d in (MARKDOWN_FILE, changed)]
    assert [r["statement"] for r in body["retired"]] == ["The launch is planned for June 12."]


def test_two_different_files_of_one_name_are_two_sources_each_keeping_its_claims(
        client: TestClient, ws: str, falkordb: str) -> None:
    a = upload(client, ws, "a/notes.txt", b"The depot opens at 9 am.")
    b = upload(client, ws, "b/notes.txt", b"The canteen closes at 3 pm.")
    assert (a.status_code, b.status_code) == (201, 201)
    assert a.json()["status"] == b.json()["status"] == "created"
    ids = {a.json()["source"]["id"], b.json()["source"]["id"]}
    assert len(ids) == 2
    claims = client.get(f"/api/workspaces/{ws}/claims").json()["items"]
    assert sorted((c["statement"], c["source_id"] in ids) for c in claims) == [
        ("The canteen closes at 3 pm.", True), ("The depot opens at 9 am.", True)]
    # The very same bytes again, under any name, are the source they already are.
    again = upload(client, ws, "copy of notes.txt", b"The depot opens at 9 am.")
    assert again.status_code == 200 and again.json()["status"] == "unchanged"
    assert again.json()["source"]["id"] == a.json()["source"]["id"]
    assert len(client.get(f"/api/workspaces/{ws}/sources").json()["items"]) == 2
    assert violations(falkordb, ws) == []


def test_a_long_file_name_is_cut_for_the_title_and_one_past_the_form_refused_clearly(
        client: TestClient, ws: str) -> None:
    long = upload(client, ws, "n" * 4000 + ".txt", b"The depot opens at 9 am.")
    assert long.status_code == 201, long.text
    source = long.json()["source"]
    assert len(source["title"]) == len(source["origin_name"]) == 500
    assert source["title"].endswith("…")
    assert source["versions"][0]["file_name"] == "n" * 4000 + ".txt"  # kept whole
    longer = upload(client, ws, "n" * 8000 + ".txt", b"The depot opens at 9 am.")
    assert longer.status_code == 422
    message = longer.json()["error"]["message"]
    assert "multipart/form-data" in message and "file name" in message
    assert "UTF-8 JSON" not in message


def test_a_pdf_read_as_people_read_it_makes_claims_of_its_prose_alone(
        client: TestClient, ws: str, falkordb: str) -> None:
    body = upload(client, ws, "report.pdf", annual_report_pdf()).json()
    _check_quotes(body)
    frags = body["source"]["versions"][-1]["fragments"]
    # Contents, running headers and page numbers are kept in the text, as fragments that
    # are not extracted (and not picked up by an extraction run later).
    aside = [f for f in frags if f["extraction"] == "none"]
    assert {f["text"].split("\n\n")[0] for f in aside} == {"Annual Report 2024", "Contents",
                                                             "1", "2", "3"}
    for c in body["claims"]:
        assert not any(f["start"] <= c["quote_start"] < f["end"] for f in aside), c
    statements = [c["statement"] for c in body["claims"]]
    assert any("their manipulation by the clerks" in s for s in statements)
    assert any("marked as OPTIONAL unless" in s for s in statements)
    meeting = next(c for c in body["claims"] if c["statement"].startswith("The committee"))
    assert meeting["statement"].endswith("the minutes of the meeting before, aloud and in full.")
    frag = _fragment(body, meeting)
    assert (frag["page"], frag["page_end"]) == (2, 3)
    evidence = client.get(f"/api/workspaces/{ws}/claims/{meeting['id']}").json()["evidence"]
    assert [(e["page"], e["page_end"]) for e in evidence] == [(2, 3)]
    again = client.post(f"/api/workspaces/{ws}/sources/{body['source']['id']}/extract")
    assert again.status_code == 200 and again.json()["claims"] == []
    assert violations(falkordb, ws) == []


def test_refused_files_keep_nothing(client: TestClient, ws: str, falkordb: str) -> None:
    before = snapshot(falkordb, ws)
    for name, data, status, code in (
            ("photo.png", PNG, 415, "unsupported_media_type"),
            ("report.pdf", PNG, 415, "unsupported_media_type"),  # a renamed binary
            ("notes.txt", b"\x00\x01\x02binary\x00" * 20, 415, "unsupported_media_type"),
            ("empty.txt", b"", 422, "unreadable_file"),
            ("latin.txt", "München".encode("latin-1"), 422, "unreadable_file"),
            ("scan.pdf", pdf([Page(image_only=True)]), 422, "unreadable_file")):
        r = upload(client, ws, name, data)
        assert r.status_code == status, (name, r.text)
        assert r.json()["error"]["code"] == code, (name, r.text)
        assert r.json()["error"]["message"]
    assert snapshot(falkordb, ws) == before


def test_a_file_over_the_source_limit_is_413_like_text(settings: Settings, ws: str,
                                                       falkordb: str) -> None:
    small = settings.model_copy(update={"max_source_chars": 50})
    with app_client(small) as c:
        before = snapshot(falkordb, ws)
        r = upload(c, ws, "plan.md", MARKDOWN_FILE)
        assert r.status_code == 413 and r.json()["error"]["code"] == "payload_too_large"
        assert r.json()["error"]["details"]["limit"] == 50
        t = c.post(f"/api/workspaces/{ws}/sources", json={"text": "x" * 60})
        assert t.status_code == 413 and t.json()["error"]["details"] == r.json()[
            "error"]["details"]
        assert snapshot(falkordb, ws) == before


def test_form_fields_are_checked_and_a_text_source_has_no_file(client: TestClient,
                                                               ws: str) -> None:
    r = client.post(f"/api/workspaces/{ws}/sources/files", data={"title": "x"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    r = upload(client, ws, "plan.md", MARKDOWN_FILE, title="bad\x00title")
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    text = client.post(f"/api/workspaces/{ws}/sources",
                       json={"text": "The launch is on June 12."}).json()
    source = text["source"]
    got = client.get(f"/api/workspaces/{ws}/sources/{source['id']}/versions/"
                     f"{source['versions'][0]['id']}/file")
    assert got.status_code == 404 and got.json()["error"]["code"] == "file_not_found"
