"""The AgentEnv framework's surface over a runtime: its card and its JSON-RPC data plane.

``AgentEnvRuntime`` wraps a runtime, and the HTTP transport serves it as it serves any runtime
(MCP, ``/_capenv/data/…``, the application's own paths). Two paths of the application's surface
become the framework's: ``GET /.well-known/agent-env.json`` (the card, ``agentenv_card``) and
``POST /agentenv``, JSON-RPC 2.0 with

* ``data/get`` → ``{"parts": [{"kind": "data", "data": <the state document>}]}``, the document
  spliced in as data/get writes it, so its bytes (exact numbers included) are capenv's own;
* ``data/reset`` → ``{}``, the initial state back (clock, counter and sequences too);
* ``data/add`` ``{"parts": [one part]}`` → ``{}``: a data part holding the document, or a file
  part with its bytes (base64) or a ``file://`` URI naming a regular file under the directory the
  operator named (``--data-root``; none named, file URIs are refused: ``agentenv_files``); it
  replaces the state. A refused file's document is not quoted back (its keys or values could be
  another file's secrets): the refusal names its kind only.

Errors follow the protocol's SDK: -32700 unreadable JSON, -32600 not a JSON-RPC request, -32601
no such method, -32602 params of the wrong shape, -32000 a refused document (``data.code`` is
``add_failed``, ``data.reason`` the refusal's kind), the state unchanged. Every call reaches the
wrapped runtime on the transport's one worker thread, so the framework's data plane and an
agent's MCP calls see one state; a data/add is read, checked and built beside it first
(``prepare_http``, as ``/_capenv/data/add`` is), so only its install waits with other calls.
"""

from __future__ import annotations

import base64
import binascii
import functools
import logging
from pathlib import Path
from collections.abc import Callable
from typing import Any

from capenv.interpreter.bundle.jsonvalue import JsonError, dumps, loads
from capenv.interpreter.bundle.models import Budgets

from capenv.serving.http_surface import error
from capenv.serving.runtime_api import DataPlaneRefusal, HttpAnswer, HttpRequest, Runtime, ToolAnswer, ToolSpec
from capenv.serving.transport.agentenv_card import (
    METHOD_ADD, METHOD_GET, METHOD_RESET, METHODS, RPC_PATH, WELL_KNOWN_PATH, environment_card,
)
from capenv.serving.transport.agentenv_files import FileRefused, read_staged
from capenv.serving.transport.agent_limits import AgentLimits

logger = logging.getLogger(__name__)

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, SERVER_ERROR = -32700, -32600, -32601, -32602, -32000
JSON_HEADERS = (("content-type", "application/json"),)
ACCEPTED_PARTS = ('data/add takes one part: {"kind": "data", "data": <the state document>}, or {"kind": "file", '
                  '"file": {"bytes": <the document in base64>}} or {"kind": "file", "file": {"uri": "file:///…"}}')


class InvalidParams(Exception):
    """The params are not of the shape the method takes (-32602)."""


class PartRefused(Exception):
    """The part is well formed but holds no document capenv can read (-32000, add_failed)."""

    def __init__(self, message: str, kind: str = DataPlaneRefusal.INVALID) -> None:
        super().__init__(message)
        self.kind = kind


class AgentEnvRuntime(Runtime):
    """``runtime`` with the AgentEnv card and data plane on its HTTP surface; everything else delegated."""

    def __init__(self, runtime: Runtime, name: str, *, data_root: Path | None = None) -> None:
        """``data_root``: the directory whose regular files a ``file://`` part may name (none: no file URIs)."""
        if not name.strip():
            raise ValueError("the environment needs a non-blank name for its AgentEnv card")
        self.runtime, self.name, self.data_root = runtime, name, data_root
        self._card: bytes | None = None

    def tools(self) -> list[ToolSpec]:
        return self.runtime.tools()

    def call_tool(self, name: str, arguments: dict[str, Any], *, idempotency_key: str | None = None) -> ToolAnswer:
        return self.runtime.call_tool(name, arguments, idempotency_key=idempotency_key)

    def call_tool_on_loop(self, name: str, arguments: dict[str, Any], *,
                          idempotency_key: str | None = None) -> ToolAnswer | None:
        return self.runtime.call_tool_on_loop(name, arguments, idempotency_key=idempotency_key)

    def nonblocking_calls(self) -> bool:
        return bool(getattr(self.runtime, "nonblocking_calls", lambda: False)())

    def budgets(self) -> Budgets | None:
        """The served bundle's: the transport bounds sessions, bodies and connections by them."""
        return self.runtime.budgets()

    def data_get(self) -> bytes:
        return self.runtime.data_get()

    def data_reset(self) -> None:
        self.runtime.data_reset()

    def data_add(self, document: bytes) -> None:
        self.runtime.data_add(document)

    def prepare_add(self, document: bytes) -> Callable[[], None]:
        return self.runtime.prepare_add(document)

    def prepare_reset(self) -> Callable[[], None]:
        return self.runtime.prepare_reset()

    def prepare_http(self, request: HttpRequest) -> Callable[[], HttpAnswer] | None:
        """A JSON-RPC data/add in two steps (the document read, checked and its state built now,
        aside; installed by the function returned, on the runtime's thread); None for the rest."""
        if request.path != RPC_PATH or request.method != "POST":
            return None
        try:
            message = loads(request.body)
        except JsonError:
            return None  # ``http`` answers the parse error
        if not is_request(message) or message["method"] not in (METHOD_ADD, METHOD_RESET):
            return None
        rid, params = message.get("id"), message.get("params") or {}
        if message["method"] == METHOD_RESET:
            reset = self.runtime.prepare_reset()
            commit = getattr(reset, "aside", None)
            if commit is not None:
                commit()
            after = functools.partial(_after, reset, rpc_result(rid, b"{}"))
            after.release = getattr(reset, "release", None)  # type: ignore[attr-defined]
            return after
        try:
            install = self._prepare_add(rid, params)
            commit = getattr(install, "aside", None)
            if commit is not None:  # committed here too, where the store allows it
                commit()
        except _Answered as answered:
            return functools.partial(_same, answered.answer)
        except Exception:
            logger.exception("AgentEnv data/add failed inside the runtime")
            return lambda: rpc_error(rid, SERVER_ERROR, "internal error", {"code": "add_failed"})

        def answer() -> HttpAnswer:
            try:
                install()
            except DataPlaneRefusal as refusal:
                return self._refused(rid, params, refusal)
            except Exception:
                logger.exception("AgentEnv data/add failed inside the runtime")
                return rpc_error(rid, SERVER_ERROR, "internal error", {"code": "add_failed"})
            return rpc_result(rid, b"{}")
        answer.release = getattr(install, "release", None)  # type: ignore[attr-defined]
        return answer

    def reserved_mcp_path(self) -> str:
        return self.runtime.reserved_mcp_path()

    def grader_paths(self) -> tuple[str, ...]:
        return (RPC_PATH,)

    def tool_for(self, method: str, path: str) -> str | None:
        return self.runtime.tool_for(method, path)

    def openapi(self) -> bytes | None:
        return self.runtime.openapi()

    def http(self, request: HttpRequest) -> HttpAnswer:
        if request.path == WELL_KNOWN_PATH:
            return self._card_answer(request)
        if request.path == RPC_PATH:
            return self._rpc_answer(request)
        return self.runtime.http(request)

    def http_on_loop(self, request: HttpRequest) -> HttpAnswer | None:
        """The application's paths as the runtime answers them on the loop; the card and the
        JSON-RPC data plane always on the runtime's thread (None)."""
        if request.path in (WELL_KNOWN_PATH, RPC_PATH):
            return None
        return self.runtime.http_on_loop(request)

    def card(self) -> bytes:
        if self._card is None:  # the tools never change while the runtime serves
            self._card = dumps(environment_card(self.name, self.reserved_mcp_path(), self.tools()))
        return self._card

    def _card_answer(self, request: HttpRequest) -> HttpAnswer:
        if request.method not in ("GET", "HEAD"):
            return error(405, "method_not_allowed", f"{WELL_KNOWN_PATH} takes GET, not {request.method}",
                         (("allow", "GET"),))
        return HttpAnswer(200, JSON_HEADERS, self.card())

    def _rpc_answer(self, request: HttpRequest) -> HttpAnswer:
        if request.method != "POST":
            return error(405, "method_not_allowed", f"{RPC_PATH} takes POST (JSON-RPC 2.0), not {request.method}",
                         (("allow", "POST"),))
        try:
            message = loads(request.body)  # the exact codec: a document's numbers keep their text
        except JsonError as exc:
            return rpc_error(None, PARSE_ERROR, f"parse error: {exc}")
        if not is_request(message):
            rid = message.get("id") if isinstance(message, dict) else None
            return rpc_error(rid, INVALID_REQUEST, 'invalid request: send one object {"jsonrpc": "2.0", "id": …, '
                             f'"method": …, "params": {{…}}}} with a method of {", ".join(METHODS)}')
        rid, method = message.get("id"), message["method"]
        if method not in METHODS:
            return rpc_error(rid, METHOD_NOT_FOUND, f"method not found: {method}; methods: {', '.join(METHODS)}")
        try:
            return self._dispatch(rid, method, message.get("params") or {})
        except Exception:
            logger.exception("AgentEnv %s failed inside the runtime", method)
            return rpc_error(rid, SERVER_ERROR, "internal error", {"code": f"{method.split('/')[1]}_failed"})

    def _dispatch(self, rid: Any, method: str, params: Any) -> HttpAnswer:
        if method == METHOD_GET:
            return rpc_result(rid, b'{"parts":[{"kind":"data","data":' + bytes(self.runtime.data_get()) + b"}]}")
        if method == METHOD_RESET:
            self.runtime.data_reset()
            return rpc_result(rid, b"{}")
        try:
            install = self._prepare_add(rid, params)
        except _Answered as answered:
            return answered.answer
        try:
            install()
        except DataPlaneRefusal as refusal:
            return self._refused(rid, params, refusal)
        return rpc_result(rid, b"{}")

    def _prepare_add(self, rid: Any, params: Any) -> Callable[[], None]:
        """data/add's first step (``Runtime.prepare_add``); raises ``_Answered`` with the refusal."""
        try:
            document = document_of(params, self.data_root, AgentLimits.of(self.runtime).data_request_bytes)
        except InvalidParams as exc:
            raise _Answered(rpc_error(rid, INVALID_PARAMS, "invalid_request", {"detail": str(exc)})) from None
        except PartRefused as exc:
            raise _Answered(rpc_error(rid, SERVER_ERROR, str(exc), {"code": "add_failed", "reason": exc.kind})) from None
        try:
            return self.runtime.prepare_add(document)
        except DataPlaneRefusal as refusal:
            raise _Answered(self._refused(rid, params, refusal)) from None

    @staticmethod
    def _refused(rid: Any, params: Any, refusal: DataPlaneRefusal) -> HttpAnswer:
        message = (f"data/add refused the staged file: it is not a state document this environment accepts "
                   f"({refusal.kind}); check it with `capenv data add FILE --bundle B --store URL`"
                   if names_a_file(params) else f"data/add refused: {refusal.message}")
        return rpc_error(rid, SERVER_ERROR, message, {"code": "add_failed", "reason": refusal.kind})


def _same(answer: HttpAnswer) -> HttpAnswer:
    return answer


def _after(step: Callable[[], None], answer: HttpAnswer) -> HttpAnswer:
    step()
    return answer


class _Answered(Exception):
    """A request answered before its install: a refusal of its params or its document."""

    def __init__(self, answer: HttpAnswer) -> None:
        super().__init__("answered")
        self.answer = answer


def is_request(message: Any) -> bool:
    return isinstance(message, dict) and message.get("jsonrpc") == "2.0" and isinstance(message.get("method"), str)


def names_a_file(params: Any) -> bool:
    """True when the (already accepted) data/add params carry a ``file://`` part."""
    part = params["parts"][0]
    file = part.get("file") if part["kind"] == "file" else None
    return isinstance(file, dict) and not isinstance(file.get("bytes"), str) and isinstance(file.get("uri"), str)


def document_of(params: Any, data_root: Path | None, file_limit: int) -> bytes:
    """The state document a data/add request carries, as bytes for ``Runtime.data_add``;
    ``file_limit``: the most a staged ``file://`` part may hold (the budgets' data plane intake,
    ``AgentLimits.data_request_bytes``, as over HTTP)."""
    parts = params.get("parts") if isinstance(params, dict) else None
    if not isinstance(parts, list) or not parts:
        raise InvalidParams(f'the params are {{"parts": [...]}}; {ACCEPTED_PARTS}')
    if not all(isinstance(p, dict) and p.get("kind") in ("data", "file", "text") for p in parts):
        raise InvalidParams(f'each part is an object whose "kind" is data, file or text; {ACCEPTED_PARTS}')
    if len(parts) != 1:
        raise PartRefused(f"data/add installs one whole state document, not {len(parts)} parts; {ACCEPTED_PARTS}")
    part = parts[0]
    if part["kind"] == "data":
        if not isinstance(part.get("data"), dict):
            raise InvalidParams(f'a data part carries "data": an object (the state document); {ACCEPTED_PARTS}')
        return dumps(part["data"])
    if part["kind"] == "text":
        raise PartRefused(f"a text part holds no state document; {ACCEPTED_PARTS}")
    file = part.get("file")
    if isinstance(file, dict) and isinstance(file.get("bytes"), str):
        try:
            return base64.b64decode(file["bytes"], validate=True)
        except binascii.Error:
            raise PartRefused('the file part\'s "bytes" is not base64 text') from None
    if isinstance(file, dict) and isinstance(file.get("uri"), str):
        try:
            return read_staged(file["uri"], data_root, file_limit)
        except FileRefused as exc:
            raise PartRefused(str(exc), DataPlaneRefusal.RESOURCE_CONSTRAINT if exc.too_large
                              else DataPlaneRefusal.INVALID) from None
    raise InvalidParams(f'a file part carries "file": {{"bytes": …}} or {{"uri": …}}; {ACCEPTED_PARTS}')


def rpc_result(rid: Any, result: bytes) -> HttpAnswer:
    return HttpAnswer(200, JSON_HEADERS, b'{"jsonrpc":"2.0","id":' + dumps(rid) + b',"result":' + result + b"}")


def rpc_error(rid: Any, code: int, message: str, data: Any = None) -> HttpAnswer:
    body = {"code": code, "message": message, **({"data": data} if data is not None else {})}
    return HttpAnswer(200, JSON_HEADERS, dumps({"jsonrpc": "2.0", "id": rid, "error": body}))
