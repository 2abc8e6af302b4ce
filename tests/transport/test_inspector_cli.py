"""The MCP Inspector's CLI (@modelcontextprotocol/inspector 2.12, pinned in
tests/transport/inspector_cli) accepts capenv's tools (issue #13 acceptance): over stdio it lists
them with titles, annotations and output schemas, and with ``--strict`` finds no tool-schema
portability problem of error severity; it calls a read tool with an integer id sent as the
Inspector sends arguments, and gets the structured answer. Skips without node or the Inspector
(``npm ci --prefix tests/transport/inspector_cli``; .ci/run does), and fails then under CI=true."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from capenv.interpreter.bundle.io import read_bundle
from capenv.serving.runtime import EnvironmentRuntime

PACKAGE = Path(__file__).parent / "inspector_cli"
INSPECTOR = PACKAGE / "node_modules" / ".bin" / "mcp-inspector"
STRICT_ERRORS = 6
"""The Inspector's exit code when ``--strict`` finds an error-severity schema problem."""


def inspector(tmp_path: Path, bundle: Path, *arguments: str) -> subprocess.CompletedProcess:
    if shutil.which("node") is None or not INSPECTOR.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("the MCP Inspector is not installed: .ci/run installs it (npm ci --prefix "
                        "tests/transport/inspector_cli)")
        pytest.skip("the MCP Inspector is not installed (npm ci --prefix tests/transport/inspector_cli)")
    capenv = Path(sys.executable).with_name("capenv")
    env = {**os.environ, "HOME": str(tmp_path)}  # its catalog and settings stay out of the user's home
    return subprocess.run([str(INSPECTOR), "--cli", *arguments, "--", str(capenv), "serve", str(bundle), "--stdio"],
                          capture_output=True, text=True, timeout=180, env=env, cwd=tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("capture", ["json-server", "prefect"])
def test_the_inspector_lists_tools_with_titles_annotations_and_output_schemas(capture: str, bundle_dir,
                                                                               tmp_path: Path) -> None:
    bundle = bundle_dir(capture)
    done = inspector(tmp_path, bundle, "--method", "tools/list", "--strict")
    assert done.returncode != STRICT_ERRORS, done.stderr[-3000:]
    assert done.returncode == 0, done.stderr[-3000:]
    tools = json.loads(done.stdout)["tools"]
    runtime = EnvironmentRuntime(read_bundle(bundle))
    try:
        assert [t["name"] for t in tools] == [spec.name for spec in runtime.catalog.specs()]
        for tool in tools:
            spec = runtime.catalog.get(tool["name"]).spec()
            assert tool["title"] == spec.title and tool["outputSchema"]["type"] == "object", tool["name"]
            assert tool["annotations"]["openWorldHint"] is False
            assert tool["annotations"]["readOnlyHint"] is (runtime.catalog.get(tool["name"]).plan is None)
            assert tool["inputSchema"] == json.loads(json.dumps(spec.input_schema))
    finally:
        runtime.close()


@pytest.mark.slow
def test_the_inspector_calls_a_read_tool(bundle_dir, tmp_path: Path) -> None:
    done = inspector(tmp_path, bundle_dir("json-server"), "--method", "tools/call",
                     "--tool-name", "get_posts_by_post_id", "--tool-arg", "post_id=1")
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert not result.get("isError"), result
    answer = result["structuredContent"]
    assert answer["status"] == 200 and answer["body"]["id"] == 1 and answer["state"]["source"] == "state"
