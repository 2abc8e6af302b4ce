"""Write a small HAR 1.2 capture from a few lines of calls, for tests.

    from support.har_builder import HarBuilder

    har = (HarBuilder()
           .call("POST", "/posts", body={"title": "a"}, status=201, response={"id": 1, "title": "a"})
           .call("GET", "/posts/1", response={"id": 1, "title": "a"}))
    evidence = parse_har_bytes(har.bytes(), source="test.har")   # or load_evidence(har.write(tmp_path / "x.har"))

Each call appends one entry that starts ``step_ms`` after the previous call's start (the first
at ``start``), unless ``started`` gives its time. JSON bodies are written with
``jsonvalue.dumps``, so a ``JsonNumber`` keeps its exact text. ``.entries`` is the list of entry
dicts: tweak one directly for a case the builder does not cover (a bad date, a base64 text…).
"""

from __future__ import annotations

import base64
import gzip
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from dateutil.parser import isoparse

from capenv.interpreter.bundle import jsonvalue

Pairs = dict[str, str] | list[tuple[str, str]]


class HarBuilder:
    def __init__(self, origin: str = "http://127.0.0.1:3000", start: str | datetime = "2026-01-01T00:00:00.000Z",
                 step_ms: float = 100) -> None:
        self.origin = origin
        self.step = timedelta(milliseconds=step_ms)
        self._next_start = _moment(start)
        self.entries: list[dict[str, Any]] = []
        self.creator: dict[str, str] = {"name": "capenv-tests", "version": "1"}
        """``log.creator``: the recorder, whose timing conventions ingest follows."""

    def call(self, method: str, path: str, *, query: str | Pairs | None = None, body: Any = None,
             status: int = 200, response: Any = None, response_type: str = "application/json",
             request_type: str = "application/json", headers: Pairs | None = None,
             response_headers: Pairs | None = None, duration_ms: float = 20, started: str | datetime | None = None,
             redirect_url: str = "", retained: bool = True, origin: str | None = None,
             response_retained: bool = True) -> HarBuilder:
        """Append one exchange; returns ``self`` so calls chain.

        ``query``: a raw string (written as is, after ``?``) or pairs (percent-encoded).
        ``body`` / ``response``: ``None`` for no body; ``str`` written as is; ``bytes`` written as
        base64 (``encoding: base64``); anything else is a JSON value. ``retained=False`` keeps
        the request body's media type and size but drops its text; ``response_retained=False`` the
        answer's (as an exporter does for a body it did not keep). ``origin`` overrides the
        builder's for this call only.
        """
        start = _moment(started) if started is not None else self._next_start
        self._next_start = start + self.step
        url = (origin or self.origin) + path
        if query:
            url += "?" + (query if isinstance(query, str) else urlencode(list(_pairs(query))))
        host = url.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0]
        request: dict[str, Any] = {
            "method": method, "url": url, "httpVersion": "HTTP/1.1", "cookies": [],
            "headers": _header_list([("Host", host)], headers), "queryString": [], "headersSize": -1, "bodySize": 0,
        }
        if body is not None:
            text, encoding = _text(body)
            size = len(body) if isinstance(body, bytes) else len(text.encode())
            request["headers"] += _header_list([("Content-Type", request_type), ("Content-Length", str(size))])
            request["bodySize"] = size
            request["postData"] = {"mimeType": request_type, **({"text": text} if retained else {}),
                                   **({"encoding": encoding} if encoding else {})}
        content: dict[str, Any] = {"size": 0, "mimeType": ""}
        answer_headers: list[dict[str, str]] = []
        if response is not None:
            text, encoding = _text(response)
            size = len(response) if isinstance(response, bytes) else len(text.encode())
            content = {"size": size, "mimeType": response_type, **({"text": text} if response_retained else {}),
                       **({"encoding": encoding} if encoding and response_retained else {})}
            answer_headers = _header_list([("Content-Type", response_type), ("Content-Length", str(size))])
        self.entries.append({
            "startedDateTime": start.isoformat(timespec="microseconds").replace("+00:00", "Z"),
            "time": duration_ms,
            "request": request,
            "response": {
                "status": status, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [],
                "headers": answer_headers + _header_list([], response_headers),
                "content": content, "redirectURL": redirect_url, "headersSize": -1, "bodySize": content["size"],
            },
            "cache": {},
            "timings": {"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0, "wait": duration_ms, "receive": 0},
        })
        return self

    def har(self) -> dict[str, Any]:
        return {"log": {"version": "1.2", "creator": self.creator,
                        "pages": [], "entries": self.entries}}

    def bytes(self) -> bytes:
        return jsonvalue.dumps(self.har())

    def write(self, path: str | Path) -> Path:
        """Write the HAR; a name ending in ``.gz`` is gzipped."""
        path = Path(path)
        data = self.bytes()
        path.write_bytes(gzip.compress(data) if path.suffix == ".gz" else data)
        return path


def _moment(value: str | datetime) -> datetime:
    moment = isoparse(value) if isinstance(value, str) else value
    return moment.astimezone(timezone.utc)


def _text(value: Any) -> tuple[str, str | None]:
    """Body text and its HAR encoding."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii"), "base64"
    if isinstance(value, str):
        return value, None
    return jsonvalue.dumps(value).decode(), None


def _pairs(pairs: Pairs) -> list[tuple[str, str]]:
    return list(pairs.items()) if isinstance(pairs, dict) else list(pairs)


def _header_list(first: list[tuple[str, str]], more: Pairs | None = None) -> list[dict[str, str]]:
    return [{"name": name, "value": value} for name, value in first + _pairs(more or [])]
