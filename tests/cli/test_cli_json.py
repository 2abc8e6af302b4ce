"""``--json`` on every command that prints a result (issue #13 item 7), in one shape: one JSON value on
stdout (an object; ``report`` on several targets an array of them) and nothing else there, the
figures agreeing with what the command did; bad input stays one line on stderr with exit 2. And
``capenv serve``'s banner explains its tool count against the manifest's that ``report`` counts."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
from pathlib import Path

from capenv.interpreter.bundle.io import read_bundle
from capenv.interpreter.cli.commands_serve import tool_count_note
from capenv.interpreter.cli.main import build_parser
from capenv.serving.runtime import EnvironmentRuntime
from support.har_builder import HarBuilder
from support.served import STOP_TIMEOUT_SECONDS, capenv, capenv_command, quiet_env

REPO = Path(__file__).resolve().parents[2]
NO_RESULT = {("serve",)}
"""Commands that print no result: ``serve`` runs a server (its banner is for people)."""


def small_capture(tmp_path: Path) -> Path:
    return (HarBuilder()
            .call("GET", "/posts", response=[{"id": 1, "title": "a"}])
            .call("POST", "/posts", body={"title": "b"}, status=201, response={"id": 2, "title": "b"})
            .call("GET", "/posts/2", response={"id": 2, "title": "b"})).write(tmp_path / "small.har")


def one_object(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stderr
    value = json.loads(done.stdout)  # the whole of stdout is one JSON value
    assert isinstance(value, dict)
    return value


def _leaves(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()):
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield words, parser
        return
    for name, child in subs[0].choices.items():
        yield from _leaves(child, words + (name,))


def test_every_command_that_prints_a_result_takes_json() -> None:
    leaves = dict(_leaves(build_parser()))
    assert ("data", "reset") in leaves and ("rules", "check") in leaves  # the walk reaches nested verbs
    missing = [" ".join(words) for words, parser in leaves.items()
               if words not in NO_RESULT and "--json" not in parser._option_string_actions]
    assert missing == []


def test_data_verbs_print_their_outcome(tmp_path: Path) -> None:
    har = small_capture(tmp_path)
    bundle = tmp_path / "b"
    assert capenv("build", str(har), "-o", str(bundle)).returncode == 0
    store = f"sqlite:{tmp_path / 'state.db'}"
    got = one_object(capenv("data", "get", "--bundle", str(bundle), "--store", store, "--json"))
    assert got["verb"] == "get" and got["done"] is True and got["bundle"] == str(bundle)
    document = got["document"]
    assert json.loads(capenv("data", "get", "--bundle", str(bundle), "--store", store).stdout) == document
    saved = tmp_path / "state.json"
    into_file = one_object(capenv("data", "get", str(saved), "--bundle", str(bundle), "--store", store, "--json"))
    assert into_file["file"] == str(saved) and into_file["bytes"] == saved.stat().st_size
    assert "document" not in into_file and json.loads(saved.read_bytes()) == document
    added = one_object(capenv("data", "add", str(saved), "--bundle", str(bundle), "--store", store, "--json"))
    assert added == {"verb": "add", "done": True, "bundle": str(bundle), "store": store, "file": str(saved),
                     "bytes": saved.stat().st_size}
    reset = one_object(capenv("data", "reset", "--bundle", str(bundle), "--store", store, "--json"))
    assert reset == {"verb": "reset", "done": True, "bundle": str(bundle), "store": store}
    refused = capenv("data", "add", str(tmp_path / "none.json"), "--bundle", str(bundle), "--store", store, "--json")
    assert refused.returncode == 2 and refused.stdout == b"" and len(refused.stderr.splitlines()) == 1


def test_rules_check_and_doc(tmp_path: Path, rules_dir: Path) -> None:
    checked = one_object(capenv("rules", "check", "--json"))
    text = capenv("rules", "check").stdout.decode()
    assert checked["ok"] is True and checked["problems"] == []
    assert f"{checked['tables']} tables, {checked['rules']} rules" in text and checked["revision"] in text
    doc = tmp_path / "rules.md"
    written = one_object(capenv("rules", "doc", "--output", str(doc), "--json"))
    assert written["file"] == str(doc) and written["written"] is True and doc.read_text().strip()
    assert written["rules"] == checked["rules"]
    current = one_object(capenv("rules", "doc", "--output", str(doc), "--check", "--json"))
    assert (current["checked"], current["up_to_date"], current["written"]) == (True, True, False)
    doc.write_text("stale\n")
    stale = capenv("rules", "doc", "--output", str(doc), "--check", "--json")
    assert stale.returncode == 2 and json.loads(stale.stdout)["up_to_date"] is False
    assert doc.read_text() == "stale\n"
    fixture = rules_dir / "fixtures" / "body-envelopes.yaml"
    fixture.write_text(fixture.read_text().replace("    match_ghost:", "    no_match_ghost:"))  # no match case left
    broken = capenv("rules", "check", str(rules_dir), "--json")
    assert broken.returncode == 2 and len(broken.stderr.splitlines()) == 1
    problems = json.loads(broken.stdout)
    assert problems["ok"] is False and any("body-envelope.singleton-array" in p for p in problems["problems"])


def test_verify_prints_each_captures_figures(tmp_path: Path) -> None:
    har = small_capture(tmp_path)
    output = tmp_path / "verification.md"
    outcome = one_object(capenv("verify", str(har), "--output", str(output), "--json"))
    assert outcome["file"] == str(output) and outcome["written"] is True and output.exists()
    [row] = outcome["captures"]
    report = json.loads(capenv("report", str(har), "--json").stdout)
    assert row["evidence_id"] == report["evidence_id"] and row["tools"] == len(report["tools"])
    assert row["writes_served"] == sum(1 for w in report["writes"] if w["served"])
    assert row["reads_from_state"] == sum(1 for r in report["reads"] if r["state_backed"])
    assert row["servable"] is None  # no ground-truth.yaml beside it
    checked = one_object(capenv("verify", str(har), "--output", str(output), "--check", "--json"))
    assert checked["up_to_date"] is True and checked["captures"] == outcome["captures"]
    to_stdout = capenv("verify", str(har), "--output", "-", "--json")
    assert to_stdout.returncode == 2 and to_stdout.stdout == b""


def test_openapi_to_a_file(tmp_path: Path, bundle_dir) -> None:
    output = tmp_path / "openapi.json"
    outcome = one_object(capenv("openapi", str(bundle_dir("json-server")), "-o", str(output), "--json"))
    document = json.loads(output.read_bytes())
    assert outcome["file"] == str(output) and outcome["openapi"] == document["openapi"]
    assert outcome["operations"] == sum(len(item) for item in document["paths"].values())
    assert outcome["not_served"] == [n["tool"] for n in document["x-capenv-not-served"]]


def test_the_banner_explains_the_tool_count(bundle_dir) -> None:
    bundle = read_bundle(bundle_dir("json-server"))
    runtime = EnvironmentRuntime(bundle)
    unserved = [p.tool for p in bundle.view.writes if not p.served]
    try:
        note = tool_count_note(runtime)
        assert unserved and f"the manifest's {len(bundle.manifest.tools)} tools" in note
        assert f"{len(unserved)} write tool" in note and all(name in note for name in unserved)
        assert len(runtime.catalog.entries) + len(unserved) == len(bundle.manifest.tools)
    finally:
        runtime.close()
    command = capenv_command() + ["serve", str(bundle_dir("json-server")), "--http", "127.0.0.1:0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=quiet_env())
    try:
        lines = [process.stdout.readline() for _ in range(6)]
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=STOP_TIMEOUT_SECONDS)
    assert lines[0].startswith(f"capenv: {len(bundle.manifest.tools) - len(unserved)} tools listed")
    assert lines[1] == note + "\n"
    openapi = next(line for line in lines if "OpenAPI" in line)
    assert "/openapi.json and " in openapi and "/_capenv/openapi.json" in openapi
