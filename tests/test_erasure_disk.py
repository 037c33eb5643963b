"""An erasure through the API, down to the disk: Ana's number said in a chat and quoted by
a document, searched for, then erased as a string with ``?wait=disk``. The answer's record
says ``disk: "clean"``; then no byte of the number is under the data dir, nor after the app
and its FalkorDB start again, and the rest of the memory is as it was.

The app runs its own embedded FalkorDB in a temporary data dir, its snapshots written
uncompressed so a search of bytes sees what they hold (tests/support/bytescan.py).
"""

from __future__ import annotations

from pathlib import Path

import redis

from tests.support.api import add_source, app_client, read_json
from tests.support.bytescan import scan
from tests.support.commands import command
from tests.support.settings import EMBED_INLINE, make_settings

NUMBER = "0170 4455667"
CHAT = [{"speaker": "Ana", "text": "Hello everyone, I will lead the launch."},
        {"speaker": "Ana", "text": f"My phone number is {NUMBER}."}]
CONTACTS = (f"Contacts for the launch. Ana can be reached at {NUMBER}. "
            "The venue is the Harbour Hall.")


def test_an_erased_string_is_in_no_file_once_the_record_says_clean_nor_after_a_restart(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    settings = make_settings(falkordb_url=None, data_dir=data, **EMBED_INLINE)
    with app_client(settings) as client:
        url = (data / "falkordb.url").read_text()
        with redis.Redis(unix_socket_path=url.removeprefix("unix://")) as c:
            command(c, "CONFIG", "SET", "rdbcompression", "no")
        ws = client.post("/api/workspaces", json={"name": "launch"}).json()["id"]
        r = client.post(f"/api/workspaces/{ws}/sources", json={"title": "Chat",
                                                               "messages": CHAT})
        assert r.status_code == 201, r.text
        add_source(client, ws, CONTACTS, title="Contacts")
        read_json(client, f"/api/workspaces/{ws}/claims", q=NUMBER)
        assert scan(data, NUMBER) != []

        target = {"text": NUMBER}
        p = client.post(f"/api/workspaces/{ws}/erasures/preview", json={"target": target})
        assert p.status_code == 200, p.text
        r = client.post(f"/api/workspaces/{ws}/erasures", params={"wait": "disk"},
                        json={"target": target, "impact_token": p.json()["impact_token"]})

        assert r.status_code == 201, r.text
        record = r.json()["erasure"]
        assert record["disk"] == "clean" and record["disk_clean_at"] >= record["applied_at"]
        assert scan(data, NUMBER) == [], [str(h) for h in scan(data, NUMBER)]
    with app_client(settings) as client:
        assert scan(data, NUMBER) == []
        again = read_json(client, f"/api/workspaces/{ws}/erasures/{record['id']}")
        assert again["disk"] == "clean"
        found = read_json(client, f"/api/workspaces/{ws}/claims", q="Harbour Hall")
        assert [c["statement"] for c in found["items"]] == ["The venue is the Harbour Hall."]
