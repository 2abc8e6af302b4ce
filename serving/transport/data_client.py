"""The client side of ``capenv data get|reset|add --url URL``.

``URL`` is the server's base URL as ``capenv serve --http`` prints it
(``http://127.0.0.1:8123``); the routes under ``/_capenv/data/`` are appended. Uses
``httpx2``, the HTTP client the MCP SDK itself depends on, so nothing is added.
Every failure is a ``DataPlaneError`` whose message is one line fit for a terminal.
"""

from __future__ import annotations

import json

import httpx2

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.serving.runtime_api import DATA_PLANE_PREFIX

DEFAULT_TIMEOUT_SECONDS = 120.0
"""Generous: installing a 32 MiB document takes the server a while."""


class DataPlaneError(Exception):
    """A data plane call failed. ``status`` and ``kind`` are set when the server answered."""

    def __init__(self, message: str, *, status: int | None = None, kind: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.kind = kind


def route_url(url: str, verb: str) -> str:
    base = url.strip().rstrip("/")
    if base.endswith(DATA_PLANE_PREFIX.rstrip("/")):  # tolerate the data plane URL itself
        base = base[: -len(DATA_PLANE_PREFIX.rstrip("/"))]
    return f"{base}{DATA_PLANE_PREFIX}{verb}"


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return excerpt(line, limit)


def _server_refusal(verb: str, response: httpx2.Response) -> DataPlaneError:
    kind = message = None
    try:
        answer = json.loads(response.content)
        if isinstance(answer, dict):
            kind, message = answer.get("error"), answer.get("message")
    except ValueError:
        pass
    if not isinstance(message, str):
        message = _one_line(response.text) or response.reason_phrase or "no message"
    label = f"{response.status_code} {kind}" if isinstance(kind, str) else str(response.status_code)
    return DataPlaneError(
        f"data/{verb} refused ({label}): {_one_line(message)}",
        status=response.status_code,
        kind=kind if isinstance(kind, str) else None,
    )


def _call(verb: str, url: str, *, method: str, content: bytes | None = None, timeout: float,
          token: str | None = None) -> bytes:
    target = route_url(url, verb)
    headers = {"content-type": "application/json"} if content is not None else {}
    if token:
        headers["authorization"] = f"Bearer {token}"
    try:
        # trust_env off: a proxy from the environment must not sit between us and a
        # server on loopback.
        with httpx2.Client(timeout=timeout, trust_env=False) as client:
            response = client.request(method, target, content=content, headers=headers)
    except httpx2.ConnectError as exc:
        raise DataPlaneError(f"cannot reach a capenv server at {target}: {_one_line(str(exc))}") from exc
    except httpx2.TimeoutException as exc:
        raise DataPlaneError(f"data/{verb} at {target} timed out after {timeout:g}s") from exc
    except (httpx2.InvalidURL, httpx2.UnsupportedProtocol) as exc:
        raise DataPlaneError(f"not a usable server URL: {url!r} ({_one_line(str(exc))})") from exc
    except httpx2.HTTPError as exc:
        raise DataPlaneError(f"data/{verb} at {target} failed: {_one_line(str(exc)) or type(exc).__name__}") from exc
    if not response.is_success:
        raise _server_refusal(verb, response)
    return response.content


def data_get(url: str, *, token: str | None = None, timeout: float = DEFAULT_TIMEOUT_SECONDS) -> bytes:
    """The server's whole state as one JSON document (``token``: the grader's bearer token)."""
    return _call("get", url, method="GET", timeout=timeout, token=token)


def data_reset(url: str, *, token: str | None = None, timeout: float = DEFAULT_TIMEOUT_SECONDS) -> None:
    """Put the server back on its initial state."""
    _call("reset", url, method="POST", content=b"", timeout=timeout, token=token)


def data_add(url: str, document: bytes, *, token: str | None = None,
             timeout: float = DEFAULT_TIMEOUT_SECONDS) -> None:
    """Install ``document`` (a state document as ``data_get`` returns it)."""
    _call("add", url, method="POST", content=bytes(document), timeout=timeout, token=token)
