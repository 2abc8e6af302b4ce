"""ASGI messages to and from the runtime's ``HttpRequest`` / ``HttpAnswer``.

The application's clients must reach the model exactly as they reached the
application, so the path and query are taken from the bytes as sent (the scope's
``raw_path`` and ``query_string``), never from the decoded ``path``: ``/a%2Fb`` and
``/a/b`` are different requests to most applications.
"""

from __future__ import annotations

import functools
import json
from typing import Any
from urllib.parse import quote

from starlette.types import Message, Receive, Scope, Send

from capenv.interpreter.bundle.paths import split_query
from capenv.serving.runtime_api import HttpAnswer, HttpRequest

# Framing belongs to this hop: a recorded answer's length or chunking no longer
# describes the body the runtime hands back (it may be decoded or rewritten).
FRAMING_HEADERS = frozenset({"content-length", "transfer-encoding", "connection", "keep-alive"})


ENCODED_HEADERS_KEPT = 4096
"""How many answers' header sets are kept encoded (``_encoded_headers``). Not a budget: the size of
a memo of a pure function, shared by every bundle the process serves (a fleet's instances) and
sized at import, so it cannot follow one bundle's budgets; no answer depends on it, only how often
the same work is done again."""
HEADERS_KEY = "capenv.headers"
"""Where ``scope_headers`` keeps a request's decoded headers in its scope."""
TARGET_KEY = "capenv.raw_target"
"""Where ``raw_target`` keeps a request's path and query in its scope (ASGI lets a server or app add
keys of its own)."""


class ClientDisconnected(Exception):
    """The client went away before its request body was complete."""


class BodyTooLarge(Exception):
    """The request body is longer than the limit; ``limit`` says how long it may be."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the request body is larger than {limit} bytes")
        self.limit = limit


def _ascii_as_sent(raw: bytes) -> str:
    # Clients should send only ASCII in a request target; if one sends other bytes,
    # percent-encode just those so the text stays lossless and JSON-safe.
    try:
        return raw.decode("ascii")
    except UnicodeDecodeError:
        return quote(raw, safe=bytes(range(0x21, 0x7F)))


def raw_target(scope: Scope) -> tuple[str, str]:
    """The request path and query string exactly as sent (the path without the query); worked out
    once per request (kept in the scope under ``TARGET_KEY``)."""
    # Kept with the raw path it was read from: an app that mounts another (the fleet's
    # /i/{id}/...) hands it a copy of the scope with another path, and the copy keeps our key.
    kept = scope.get(TARGET_KEY)
    raw_path = scope.get("raw_path")
    if kept is None or kept[0] is not raw_path or kept[1] is not scope.get("query_string"):
        kept = scope[TARGET_KEY] = (raw_path, scope.get("query_string"), _raw_target(scope))
    return kept[2]


def _raw_target(scope: Scope) -> tuple[str, str]:
    raw_path = scope.get("raw_path")
    if raw_path is None:  # a server that does not give raw_path: the best available
        raw_path = quote(scope.get("path", "/")).encode("ascii")
    path_bytes = raw_path.split(b"?", 1)[0]  # some servers leave the query on raw_path
    return _ascii_as_sent(path_bytes), _ascii_as_sent(scope.get("query_string", b""))


def scope_headers(scope: Scope) -> tuple[tuple[str, str], ...]:
    """The request's headers as text (names lower case), in the order sent; decoded once per request
    (kept in the scope under ``HEADERS_KEY``, with the header list they were read from)."""
    raw = scope["headers"]
    kept = scope.get(HEADERS_KEY)
    if kept is None or kept[0] is not raw:  # a copied scope with other headers reads them
        decoded = tuple([(name.decode("latin-1").lower(), value.decode("latin-1")) for name, value in raw])
        kept = scope[HEADERS_KEY] = (raw, decoded)
    return kept[1]


def declared_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def expects_continue(scope: Scope) -> bool:
    return any(name.lower() == b"expect" and value.lower() == b"100-continue" for name, value in scope["headers"])


async def read_body(scope: Scope, receive: Receive, limit: int, drain: int) -> bytes:
    """The whole request body, read in chunks; ``BodyTooLarge`` past ``limit`` bytes.

    Refuses on a declared ``content-length`` before reading anything, and otherwise as
    soon as the running total passes the limit, so at most ``limit`` bytes are held.
    A refused body is then read and dropped up to ``drain`` bytes more (budget ``drain_bytes``),
    so the client, which writes its whole request before reading, sees the 413 rather than a
    reset connection; a body declared longer than both is not read at all.
    """
    length = declared_length(scope)
    if length is not None and length > limit:
        # A client waiting on "expect: 100-continue" (curl does, for large uploads)
        # has sent nothing yet: answering now spares it the upload. Reading would
        # make the server send the 100 and invite the whole body.
        if not expects_continue(scope) and length - limit <= drain:
            await _drain(receive, drain)
        raise BodyTooLarge(limit)
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnected()
        body += message.get("body", b"")
        if len(body) > limit:
            if message.get("more_body", False):
                await _drain(receive, drain)
            raise BodyTooLarge(limit)
        if not message.get("more_body", False):
            return bytes(body)


async def _drain(receive: Receive, budget: int) -> None:
    drained = 0
    while drained < budget:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        drained += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


def request_from_scope(scope: Scope, body: bytes) -> HttpRequest:
    path, query_string = raw_target(scope)
    headers = scope_headers(scope)
    host = next((value for name, value in headers if name == "host"), None)
    scheme = scope.get("scheme") or "http"
    return HttpRequest(
        method=scope["method"],
        path=path,
        query=split_query(query_string),
        headers=headers,
        body=body,
        query_string=query_string,
        origin=f"{scheme}://{host}{scope.get('root_path', '')}" if host else None,
    )


def answer_messages(answer: HttpAnswer, *, head: bool = False) -> tuple[Message, Message]:
    """The ASGI start and body messages for the runtime's answer, with this hop's own
    framing (see ``FRAMING_HEADERS``). Built before anything is sent, so a malformed
    answer raises while the caller can still send a 500 instead."""
    if not isinstance(answer, HttpAnswer):
        raise TypeError(f"the runtime answered an HTTP request with {type(answer).__name__}, not an HttpAnswer")
    body = bytes(answer.body)
    try:
        encoded = _encoded_headers(answer.headers)
    except TypeError:  # headers that are not a tuple of pairs cannot be a cache key
        encoded = _encoded_headers.__wrapped__(answer.headers)
    headers = [*encoded, (b"content-length", str(len(body)).encode("ascii"))]
    status = int(answer.status)
    if not 100 <= status <= 999:
        raise ValueError(f"HTTP status {status} is out of range")
    start: Message = {"type": "http.response.start", "status": status, "headers": headers}
    return start, {"type": "http.response.body", "body": b"" if head else body}


@functools.lru_cache(maxsize=ENCODED_HEADERS_KEPT)
def _encoded_headers(headers: tuple[tuple[str, str], ...]) -> tuple[tuple[bytes, bytes], ...]:
    """Headers as ASGI sends them (lower-case latin-1 bytes), this hop's framing left out. The
    runtime answers with the same recorded headers call after call, so each set is encoded once;
    a set seen first (a create's, naming its new entity in a Location) encodes each header once too."""
    return tuple([encoded for name, value in headers if (encoded := _encoded_header(name, value)) is not None])


@functools.lru_cache(maxsize=ENCODED_HEADERS_KEPT)
def _encoded_header(name: str, value: str) -> tuple[bytes, bytes] | None:
    """One header as ASGI sends it, or None for this hop's framing."""
    lowered = name.lower()
    return None if lowered in FRAMING_HEADERS else (lowered.encode("latin-1"), value.encode("latin-1"))


async def send_answer(send: Send, answer: HttpAnswer, *, head: bool = False) -> None:
    for message in answer_messages(answer, head=head):
        await send(message)


async def send_json(send: Send, status: int, document: Any, headers: tuple[tuple[str, str], ...] = ()) -> None:
    """Send ``document`` (a JSON value, or JSON text already encoded as bytes)."""
    body = document if isinstance(document, bytes) else json.dumps(document).encode("utf-8")
    await send_answer(send, HttpAnswer(status, (("content-type", "application/json"), *headers), body))
