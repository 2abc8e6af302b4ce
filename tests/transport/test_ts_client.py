"""The official MCP TypeScript SDK (@modelcontextprotocol/sdk) accepts capenv's tools (issue #13
item 1): it lists them with titles, annotations and output schemas over stdio, and calls the read
tools that need no argument, validating each structured answer against the tool's output schema
(the SDK throws when an answer does not conform). Skips when node or the SDK is absent
(``npm ci --prefix tests/transport/ts_client`` installs it; .ci/run does, and under CI=true it fails then)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CLIENT = Path(__file__).parent / "ts_client"


@pytest.mark.slow
def test_typescript_sdk_lists_and_calls_tools(bundle_dir) -> None:
    node = shutil.which("node")
    if node is None or not (CLIENT / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        if os.environ.get("CI") == "true":  # .ci/run installs it: a skip there would hide the check
            pytest.fail("node or the TypeScript SDK is missing (npm ci --prefix tests/transport/ts_client)")
        pytest.skip("node or the TypeScript SDK is not installed (npm ci --prefix tests/transport/ts_client)")
    capenv = Path(sys.executable).with_name("capenv")
    done = subprocess.run([node, "list_tools.mjs", str(capenv), str(bundle_dir("json-server"))], cwd=CLIENT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["tools"] and all(t["title"] and t["hasOutputSchema"] for t in seen["tools"])
    assert all(t["annotations"]["openWorldHint"] is False for t in seen["tools"])
    reads = [t for t in seen["tools"] if t["annotations"]["readOnlyHint"]]
    writes = [t for t in seen["tools"] if not t["annotations"]["readOnlyHint"]]
    assert reads and writes
    assert any(t["annotations"]["destructiveHint"] for t in writes)
    assert seen["called"] and all(not c["isError"] and isinstance(c["status"], int) for c in seen["called"])
    assert any(c["status"] == 200 for c in seen["called"])
