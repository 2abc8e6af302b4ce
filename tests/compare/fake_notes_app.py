"""A few-line "live application" on loopback, so ``capenv compare`` is tested without the real ones.

``/notes`` is a collection: seeded notes 1 and 2, creates get a UUID and a µs ISO clock,
PATCH merges, DELETE answers 204. ``quirky=True`` makes a second instance stand in for a
model that gets some things wrong: its PATCH answer upper-cases the title, and it refuses
DELETE the way capenv's HTTP surface does.
"""

from __future__ import annotations

import json
import ssl
import threading
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler
from typing import Any, Iterator

from support.loopback_server import on_loopback

SEED = [{"id": 1, "title": "first", "done": False}, {"id": 2, "title": "second", "done": True}]


class NotesApp:
    def __init__(self, quirky: bool = False) -> None:
        self.notes: list[dict[str, Any]] = [dict(note) for note in SEED]
        self.quirky = quirky
        self.lock = threading.Lock()

    def answer(self, method: str, path: str, body: bytes) -> tuple[int, Any]:
        parts = [p for p in path.split("?", 1)[0].split("/") if p]
        with self.lock:
            if parts == ["notes"] and method == "GET":
                return 200, self.notes
            if parts == ["notes"] and method == "POST":
                note = {**json.loads(body), "id": str(uuid.uuid4()),
                        "created": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")}
                self.notes.append(note)
                return 201, note
            if len(parts) == 2 and parts[0] == "notes":
                return self._item(method, parts[1], body)
        return 404, {"message": "no route"}

    def _item(self, method: str, wanted: str, body: bytes) -> tuple[int, Any]:
        note = next((n for n in self.notes if str(n["id"]) == wanted), None)
        if method == "DELETE" and self.quirky:
            return 405, {"error": "method_not_allowed", "message": f"DELETE /notes/{wanted} is not served"}
        if note is None:
            return 404, {"message": "no such note"}
        if method == "GET":
            return 200, note
        if method == "PATCH":
            note.update(json.loads(body))
            return 200, {**note, "title": note["title"].upper()} if self.quirky else note
        if method == "DELETE":
            self.notes.remove(note)
            return 204, None
        return 405, {"message": "method not allowed"}


def _handler(app: NotesApp) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            status, body = app.answer(self.command, self.path, self.rfile.read(length))
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            if body is not None:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PATCH = do_DELETE = _serve

        def log_message(self, *args: Any) -> None:  # quiet tests
            pass

    return Handler


@contextmanager
def serving(app: NotesApp, tls: ssl.SSLContext | None = None) -> Iterator[str]:
    """Serve ``app`` on a free loopback port; yields its base URL. ``tls``: a server context
    (its certificate loaded), so the app answers only HTTPS, as an application with its own
    self-signed certificate does."""
    with on_loopback(_handler(app), tls=tls) as url:
        yield url
