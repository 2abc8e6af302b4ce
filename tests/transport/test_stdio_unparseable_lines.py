"""``--stdio`` answers every line: one it cannot read (a 5,000-digit integer, 10^5 levels of nesting,
text that is not JSON, JSON that is no JSON-RPC message) gets a JSON-RPC error at once, with the
line's id when one can be read, and the server goes on answering; before, such a line got no
answer at all and the client waited for ever."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from typing import Any

from transport_servers import STDIO_SERVER_SCRIPT

ANSWER_TIMEOUT_SECONDS = 20


def test_unreadable_lines_get_a_json_rpc_error_and_the_server_keeps_answering() -> None:
    server = subprocess.Popen([sys.executable, str(STDIO_SERVER_SCRIPT)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    timer = threading.Timer(ANSWER_TIMEOUT_SECONDS * 3, server.kill)  # a hang fails the test, never blocks it
    timer.start()
    try:
        def ask(line: str) -> dict[str, Any]:
            assert server.stdin is not None and server.stdout is not None
            server.stdin.write(line.encode() + b"\n")
            server.stdin.flush()
            reply = server.stdout.readline()
            assert reply, "the server closed stdout without answering"
            return json.loads(reply)

        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        assert "result" in ask(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}))
        cases = [
            ('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"n":'
             + "1" * 5000 + "}}}", 7, -32700),
            ('{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"x":' + "[" * 100_000 + "]" * 100_000 + "}}",
             "deep", -32700),
            ("not json", None, -32700),
            ("[1, 2]", None, -32600),
        ]
        for line, rid, code in cases:
            reply = ask(line)
            assert reply["id"] == rid and reply["error"]["code"] == code, reply
            assert reply["error"]["message"]
        assert ask('{"jsonrpc":"2.0","id":9,"method":"ping"}') == {"jsonrpc": "2.0", "id": 9, "result": {}}
    finally:
        timer.cancel()
        server.stdin.close()
        server.wait(ANSWER_TIMEOUT_SECONDS)
