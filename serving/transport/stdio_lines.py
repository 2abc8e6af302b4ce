"""MCP over this process's stdin and stdout, one JSON-RPC message a line, where every line gets
an answer.

The SDK's own stdio transport hands a line it cannot read (a 5,000-digit integer, nesting past its
parser's limit, text that is not JSON) to the session as an exception, which the session only
logs: the client never hears back and waits for ever. Here such a line is answered at once with a
JSON-RPC error (-32700 when the line is not JSON the parser reads, -32600 when it is JSON but no
JSON-RPC message), its ``id`` when one can be read from the line, else null, as JSON-RPC 2.0 says.

As in the SDK, while serving fd 0 reads the null device and fd 1 writes to stderr, so stray reads
and prints of the process miss the wire; both are restored on exit.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from io import TextIOWrapper
from typing import Any, BinaryIO

import anyio
import mcp.types as types
from pydantic import ValidationError

from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage

PARSE_ERROR, INVALID_REQUEST = -32700, -32600
_ID = re.compile(r'"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,18})\s*[,}]')


def line_error(line: str, error: ValidationError) -> types.JSONRPCError:
    """The JSON-RPC error answering a line the message adapter refused."""
    unreadable = any(item.get("type") == "json_invalid" for item in error.errors())
    code = PARSE_ERROR if unreadable else INVALID_REQUEST
    detail = error.errors()[0].get("msg", "") if error.errors() else ""
    message = (f"parse error: {detail[:200]}" if unreadable else
               "invalid request: send one JSON-RPC 2.0 message a line")
    return types.JSONRPCError(jsonrpc="2.0", id=_request_id(line),
                              error=types.ErrorData(code=code, message=message))


def _request_id(line: str) -> int | str | None:
    found = _ID.search(line[:4096])
    if found is None:
        return None
    try:
        value = json.loads(found.group(1))
    except ValueError:
        return None
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def _claim(fd: int, mode: str, divert: Callable[[], int]) -> tuple[BinaryIO, Callable[[], None]]:
    """Serve the wire from a private duplicate of ``fd`` and point ``fd`` at ``divert()``."""
    private = os.dup(fd)
    os.set_inheritable(private, False)
    diversion = divert()
    os.dup2(diversion, fd)
    os.close(diversion)
    return os.fdopen(private, mode, closefd=False), lambda: os.dup2(private, fd)


@asynccontextmanager
async def stdio_streams() -> AsyncIterator[tuple[Any, Any]]:
    """``(read_stream, write_stream)`` for ``Server.run``, over the process's stdin and stdout."""
    stdin_raw, restore_stdin = _claim(0, "rb", lambda: os.open(os.devnull, os.O_RDONLY))
    stdout_raw, restore_stdout = _claim(1, "wb", lambda: os.dup(2))
    stdin = anyio.wrap_file(TextIOWrapper(stdin_raw, encoding="utf-8", errors="replace"))
    stdout = anyio.wrap_file(TextIOWrapper(stdout_raw, encoding="utf-8"))
    read_writer, read_stream = create_context_streams[SessionMessage | Exception](0)
    write_stream, write_reader = create_context_streams[SessionMessage](0)
    writing = anyio.Lock()

    async def emit(message: Any) -> None:
        text = message.model_dump_json(by_alias=True, exclude_unset=True)
        async with writing:
            await stdout.write(text + "\n")
            await stdout.flush()

    async def reader() -> None:
        async with read_writer:
            async for line in stdin:
                if not line.strip():
                    continue
                try:
                    message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                except ValidationError as error:
                    await emit(line_error(line, error))
                    continue
                await read_writer.send(SessionMessage(message))

    async def writer() -> None:
        async with write_reader:
            async for session_message in write_reader:
                await emit(session_message.message)

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(reader)
            group.start_soon(writer)
            yield read_stream, write_stream
    finally:
        restore_stdout()
        restore_stdin()
