"""A conversation said to message by message, through the API."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

T0 = 1_780_000_000_000
MINUTE = 60_000


def post(client: TestClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post(path, json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def claim_said(body: dict[str, Any], statement: str) -> dict[str, Any]:
    """The claim of an answer with this statement."""
    return next(c for c in body["claims"] if c["statement"] == statement)


class Chat:
    """One conversation, said to message by message."""

    def __init__(self, client: TestClient, ws: str) -> None:
        self.client, self.ws = client, ws
        self.id: str | None = None

    def say(self, speaker: str, text: str, at: int) -> dict[str, Any]:
        base = f"/api/workspaces/{self.ws}/sources"
        msg = {"messages": [{"speaker": speaker, "text": text, "at": at}]}
        if self.id is None:
            made = post(self.client, base, {"title": "Team chat", **msg})
            self.id = made["source"]["id"]
            return made
        return post(self.client, f"{base}/{self.id}/messages", msg)
