"""``capenv serve`` and ``capenv data`` on the command line: summaries, offline data plane on a
memory or SQLite store, and bad input as one line with exit 2."""

from __future__ import annotations

import re

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from capenv.interpreter.bundle.errors import UserError
from capenv.interpreter.cli.commands_serve import parse_listen

CAPTURES = Path(__file__).resolve().parents[2] / "captures"


def capenv(*argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    script = Path(sys.executable).with_name("capenv")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "capenv.interpreter.cli.main"]
    env = {k: v for k, v in os.environ.items() if k != "CAPENV_DEBUG"}
    return subprocess.run(command + list(argv), input=stdin, capture_output=True, timeout=120, env=env)


def one_line_error(result: subprocess.CompletedProcess, *phrases: str) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr)
    text = result.stderr.decode()
    assert "Traceback" not in text
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    for phrase in phrases:
        assert phrase in lines[0], lines[0]
    return lines[0]


def test_serve_a_capture_over_stdio_builds_it_and_says_how_many_tools() -> None:
    result = capenv("serve", str(CAPTURES / "json-server" / "capture.har"), "--stdio")  # stdin at EOF: ends
    assert result.returncode == 0, result.stderr
    assert result.stdout == b""  # stdout carries only MCP messages
    assert re.search(rb"capenv: (\d+) tools listed \((\d+) from the state\) for capture.har", result.stderr), result.stderr
    tools, from_state = map(int, re.search(rb"capenv: (\d+) tools listed \((\d+) from the state\)", result.stderr).groups())
    assert tools - from_state == 2  # the two reads that replay; every served write answers from the state


@pytest.mark.parametrize("argv, phrases", [
    (["serve", "/no/such/bundle"], ["/no/such/bundle: no such file or bundle directory"]),
    (["serve", "{bundle}", "--http", "localhost:http"], ["--http localhost:http: expected HOST:PORT"]),
    (["serve", "{bundle}", "--http", "70000"], ["port 70000 is out of range"]),
    (["serve", "{bundle}", "--store", "bogus:x"], ["--store", "accepted forms"]),
    (["data", "get"], ["needs --url URL", "--bundle BUNDLE"]),
    (["data", "get", "--url", "http://127.0.0.1:1", "--bundle", "{bundle}"], ["needs --url URL"]),
    (["data", "get", "--url", "http://127.0.0.1:1", "--store", "memory:"], ["--store goes with --bundle"]),
    (["data", "get", "--url", "http://127.0.0.1:1"], ["cannot reach a capenv server"]),
    (["data", "add", "/no/such/doc.json", "--bundle", "{bundle}", "--store", "sqlite:{tmp}/s.db"],
     ["/no/such/doc.json: cannot read"]),
    (["data", "reset", "--bundle", "{bundle}"], ["needs --store URL naming a lasting store", "throwaway"]),
    (["data", "add", "-", "--bundle", "{bundle}", "--store", "memory:"], ["needs --store URL naming a lasting store"]),
])
def test_bad_input_is_one_line_and_exit_2(json_server_dir, tmp_path, argv, phrases) -> None:
    one_line_error(capenv(*[a.replace("{bundle}", str(json_server_dir)).replace("{tmp}", str(tmp_path))
                            for a in argv]), *phrases)


def test_offline_data_plane_on_a_sqlite_store(json_server_dir, tmp_path) -> None:
    store = f"sqlite:{tmp_path / 'state.db'}"
    initial = capenv("data", "get", "--bundle", str(json_server_dir), "--store", store)
    assert initial.returncode == 0, initial.stderr
    document = json.loads(initial.stdout)
    next(c for c in document["collections"] if c["path"] == "/users")["entities"].pop()
    (tmp_path / "fewer.json").write_text(json.dumps(document))
    added = capenv("data", "add", str(tmp_path / "fewer.json"), "--bundle", str(json_server_dir), "--store", store)
    assert added.returncode == 0, added.stderr
    kept = capenv("data", "get", str(tmp_path / "kept.json"), "--bundle", str(json_server_dir), "--store", store)
    assert kept.returncode == 0
    assert json.loads((tmp_path / "kept.json").read_bytes()) == document
    assert capenv("data", "reset", "--bundle", str(json_server_dir), "--store", store).returncode == 0
    assert capenv("data", "get", "--bundle", str(json_server_dir), "--store", store).stdout == initial.stdout


def test_offline_refusal_is_one_line_with_its_kind(json_server_dir, tmp_path) -> None:
    store = ("--store", f"sqlite:{tmp_path / 'state.db'}")
    result = capenv("data", "add", "-", "--bundle", str(json_server_dir), *store, stdin=b'{"collections": []}')
    one_line_error(result, "data/add refused (invalid)", "lacks 'documents'")
    deep = b'{"collections": [], "documents": [{"path": "/p", "value": ' + b"[" * 80 + b"]" * 80 + b"}]}"
    one_line_error(capenv("data", "add", "-", "--bundle", str(json_server_dir), *store, stdin=deep),
                   "data/add refused (resource_constraint)")


def test_parse_listen() -> None:
    assert parse_listen("8080") == ("127.0.0.1", 8080)
    assert parse_listen(":0") == ("127.0.0.1", 0)
    assert parse_listen("0.0.0.0:9") == ("0.0.0.0", 9)
    assert parse_listen("[::1]:9") == ("::1", 9)
    with pytest.raises(UserError):
        parse_listen("host:")
