"""The HTTP mock surface (DESIGN.md §7): the application's own paths answered as the MCP tool
would, with the recorded status, headers and content type, and JSON written by the exact
codec so numbers keep their recorded spelling.

A path no served tool answers is a 404 JSON error naming the tools; a path a tool answers for
other methods (a write, in this issue) is a 405 with ``allow``; a refused call is the refusal's
status (400 for bad arguments, 404 for what the state does not hold) with its message.

A recorded header no HTTP/1.1 server can send (an HTTP/2 pseudo-header such as ``:status``, a
name that is not a token, a value with a NUL or another control character) is dropped, and
``capenv report`` names it (``unsendable_header``); surrounding blanks of a value are trimmed.
Sent as recorded, the server would fail after the write committed and the client get no status.

A path argument holding a percent-escape of an unreserved character (a letter, a digit, ``-``,
``.``, ``_``, ``~``; RFC 3986 2.3: clients never escape them) is refused: applications differ (most
routers decode it, so ``/messages/%33`` is message 3; Koa's leaves it as written, so Feathers
answers 404 for id ``%33``), and a capture of ordinary clients shows neither. A capture whose
recorded calls sent such a spelling shows how the application takes it (the gate judged those
calls), and the paths are then matched as the spec says (either spelling once decoded).
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import Any

from capenv.interpreter.bundle.header_fields import unsendable_header
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.manifest.routes import RouteTable
from capenv.serving.catalog.tools import Catalog, CatalogEntry
from capenv.serving.reads.answers import Answer
from capenv.serving.runtime_api import HttpAnswer, HttpRequest

# Headers that described the recorded bytes on the wire, not the body answered now: the
# transport sets the length, and the body is never re-compressed.
DROPPED_HEADERS = frozenset({"content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"})
SENDABLE_HEADERS_KEPT = 4096
"""How many recordings' sendable headers are kept worked out (``sendable_headers``).
Not a budget: the size of a memo of a pure function, shared by every bundle the process serves (a
fleet's instances) and sized at import, so it cannot follow one bundle's budgets; no answer depends
on it, only how often the same work is done again."""
ESCAPED_UNRESERVED = re.compile(r"%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[Dd]|2[Ee]|5[Ff]|7[Ee])")
"""A percent-escape of an RFC 3986 unreserved character (A-Z a-z 0-9 - . _ ~)."""


def sends_escaped_unreserved(paths: Any) -> bool:
    """Whether a recorded request path escapes an unreserved character."""
    return any(ESCAPED_UNRESERVED.search(path) for path in paths)


def route(routes: RouteTable, catalog: Catalog, request: HttpRequest, escapes_recorded: bool = False
          ) -> tuple[CatalogEntry, dict[str, str], HttpRequest] | HttpAnswer:
    """The catalog entry answering the request, its raw path arguments and the request as capenv
    reads it (its path without the format suffix the application spells paths with), or the
    error answer. ``escapes_recorded``: a recorded call escaped an unreserved character in its
    path (``sends_escaped_unreserved``), so such a path value is matched, not refused."""
    # a HEAD the capture recorded is its own tool (a membership check answering 204 or 404); a
    # HEAD it did not record is refused: applications differ (most answer it as their GET, some 404
    # or 405 it), and nothing recorded shows which this one does
    found = routes.route(request.method, request.path)
    if found is not None and found[0].name in catalog.entries:
        entry = catalog.entries[found[0].name]
        escaped = None if escapes_recorded else next((v for v in found[1].values() if ESCAPED_UNRESERVED.search(v)),
                                                     None)
        if escaped is not None:
            return error(400, "refused", f"path value {escaped!r} escapes a character clients send as it is (a "
                         f"letter, digit, '-', '.', '_' or '~'): applications differ (most decode it, some match it "
                         f"as written and find nothing), and the capture shows neither; send it unescaped",
                         tool=entry.name)
        return entry, found[1], request if found[2] == request.path else replace(request, path=found[2])
    allowed = sorted(m for m in routes.methods
                     if (routed := routes.route(m, request.path)) is not None and routed[0].name in catalog.entries)
    if allowed:
        message = f"{request.method} {request.path} is not served; this path answers {', '.join(allowed)}"
        if request.method == "HEAD" and "GET" in allowed:
            message += (": the capture recorded no HEAD here, and applications differ in how they answer one"
                        " (as their GET, or 404 or 405); send GET")
        return error(405, "method_not_allowed", message, (("allow", ", ".join(allowed)),))
    if found is not None:
        message = (f"{request.method} {found[0].spelled_template} ({found[0].name}) is a write this environment"
                   " does not serve")
        return error(405, "method_not_allowed", message)
    return error(404, "not_found", f"no tool answers {request.method} {request.path}; {tools_named(catalog)}")


def tools_named(catalog: Catalog) -> str:
    """The served paths, the first ``catalog.paths_named`` of them (the budget ``paths_named``)."""
    entries, most = list(catalog.entries.values()), catalog.paths_named
    named = ", ".join(f"{e.tool.method} {e.tool.spelled_template}" for e in entries[:most])
    more = f" and {len(entries) - most} more" if len(entries) > most else ""
    return f"served paths: {named}{more}" if entries else "this environment serves no paths"


def answer_bytes(answer: Answer) -> bytes:
    if answer.is_json:
        return dumps(answer.body)
    return (answer.text or "").encode("utf-8")


def http_answer(answer: Answer) -> HttpAnswer:
    try:
        headers = sendable_headers(answer.headers, answer.content_type)
    except TypeError:  # headers that are not a tuple of pairs cannot be a cache key
        headers = sendable_headers.__wrapped__(tuple(map(tuple, answer.headers)), answer.content_type)
    return HttpAnswer(answer.status, headers, answer_bytes(answer))


@functools.lru_cache(maxsize=SENDABLE_HEADERS_KEPT)
def sendable_headers(recorded: tuple[tuple[str, str], ...], content_type: str | None) -> tuple[tuple[str, str], ...]:
    """A recording's headers as they are sent: framing, encoding and unsendable ones dropped, values
    trimmed, the content type added when none is recorded. The same few recordings answer call after
    call, so each one's headers are worked out once (a sixth of an item read's time otherwise); a
    set seen first (a create's, naming its new entity in a Location) judges each header once too."""
    headers = [kept for name, value in recorded if (kept := sendable_header(name, value)) is not None]
    if content_type and not any(name.lower() == "content-type" for name, _ in headers):
        headers.append(("content-type", content_type))
    return tuple(headers)


@functools.lru_cache(maxsize=SENDABLE_HEADERS_KEPT)
def sendable_header(name: str, value: str) -> tuple[str, str] | None:
    """One recorded header as it is sent (its value trimmed), or None when it is dropped."""
    if name.lower() in DROPPED_HEADERS or unsendable_header(name, value) is not None:
        return None
    return name, value.strip(" \t")


def error(status: int, kind: str, message: str, headers: tuple[tuple[str, str], ...] = (), **details: Any) -> HttpAnswer:
    body = dumps({"error": kind, "message": message, **details})
    return HttpAnswer(status, (("content-type", "application/json"), *headers), body)
