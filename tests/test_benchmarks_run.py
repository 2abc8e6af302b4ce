"""The benchmarks run (issue 15: CI checks only that they run, at a small size; they are never
timed tests): `python -m benchmarks --quick` takes every section end to end and writes nothing."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NEEDS = {  # section -> what it starts besides capenv
    "http": "json-server", "lists": "json-server",
}
SECTIONS = ["build", "serving", "http", "mcp", "soak", "fleet", "lists", "rss", "add"]


def _json_server_ready() -> bool:
    from benchmarks.servers import json_server_binary

    return json_server_binary() is not None


@pytest.mark.parametrize("section", SECTIONS)
def test_a_quick_run_of_each_section_finishes_and_writes_nothing(section: str, tmp_path: Path) -> None:
    if NEEDS.get(section) == "json-server" and not _json_server_ready():
        if os.environ.get("CI") == "true":
            pytest.fail("json-server is required under CI=true (bash .ci/live-apps.sh install)", pytrace=False)
        pytest.skip("json-server is not installed (bash .ci/live-apps.sh install)")
    output = tmp_path / "benchmarks.md"
    done = subprocess.run([sys.executable, "-m", "benchmarks", section, "--quick", "--output", str(output)],
                          cwd=REPO, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "## (" in done.stdout  # the section's figures were printed
    assert not output.exists()


def test_every_section_the_runner_knows_is_run_by_the_smoke_test() -> None:
    from benchmarks import document

    assert list(document.ORDER) == SECTIONS


def test_quick_is_refused_when_the_sections_were_imported_full_size() -> None:
    from benchmarks import runner

    env_before = os.environ.pop("CAPENV_BENCHMARKS_QUICK", None)
    try:
        with pytest.raises(SystemExit) as exit_info:
            runner.main(["--quick"], {})
        assert exit_info.value.code == 2
    finally:
        if env_before is not None:
            os.environ["CAPENV_BENCHMARKS_QUICK"] = env_before


def test_the_goals_table_is_rebuilt_from_the_sections_kept_in_the_file(tmp_path: Path) -> None:
    """A section's goal lines travel in its part of the file, so rerunning one section keeps the
    others' lines in the table at the top; a row no section measured says so."""
    from benchmarks import document
    from benchmarks.goals import Goal
    from benchmarks.section import Section

    output = tmp_path / "benchmarks.md"
    http = Section("http", "(c) http", "python -m benchmarks http",
                   goals=[Goal("http-floor", "default store", [0.5, 0.6, 0.7], "{:.2f}×", "≥ 0.7×", False,
                               measured="capenv 600 calls/s", bound="`serving/x.py:f` 40%")])
    document.write(output, [http])
    mcp = Section("mcp", "(g) mcp", "python -m benchmarks mcp",
                  goals=[Goal("mcp", "1 client", [0.95], "{:.2f}×", "≥ 0.9×", True)])
    document.write(output, [mcp])
    text = output.read_text(encoding="utf-8")
    table = text[text.index("## Goals"):text.index("## How to run")]
    floor_line = next(line for line in table.splitlines() if "transport floor" in line)
    assert "| 0.50× | 0.60× | 0.70× | 3 |" in floor_line and "**missed**" in floor_line
    assert "`serving/x.py:f` 40%" in floor_line
    assert "| 0.95× | 0.95× | 0.95× | 1 |" in next(line for line in table.splitlines() if "echo server" in line)
    assert "not measured in this file" in next(line for line in table.splitlines() if "json-server 0.17.4" in line)


def test_notes_rewrite_the_text_and_keep_every_figure_and_the_machine_they_were_measured_on(tmp_path: Path) -> None:
    """``python -m benchmarks --notes`` runs no section: the sections kept as they were, the
    machine part too (the figures' machine, not the one rewriting the text), the text the
    generator's."""
    from benchmarks import document, runner
    from benchmarks.section import Section

    output = tmp_path / "benchmarks.md"
    document.write(output, [Section("add", "(i) add", "python -m benchmarks add", lines=["figures of run 1"])])
    measured_on = "## Machine\n\n- capenv commit: 0123456789ab\n- CPUs (`nproc`): 64\n"
    text = re.sub(r"## Machine\n.*?\n(?=\n<!-- section:)", measured_on, output.read_text(encoding="utf-8"), flags=re.S)
    output.write_text(text.replace(document.HEADER, "## How to run\n\nold text\n"), encoding="utf-8")
    assert runner.main(["--notes", "--output", str(output)], {}) == 0
    rewritten = output.read_text(encoding="utf-8")
    assert document.HEADER in rewritten and "old text" not in rewritten
    assert measured_on in rewritten and "figures of run 1" in rewritten
    with pytest.raises(SystemExit):
        runner.main(["--notes", "add", "--output", str(output)], {"add": lambda: None})


def test_the_instruction_count_script_serves_its_creates_on_every_store(tmp_path: Path) -> None:
    """``benchmarks.write_instructions`` counts what its script runs; the script itself (without
    valgrind, which takes minutes) must serve every create on each store it names, or the count
    would be of refusals."""
    from benchmarks import write_instructions

    from capenv.interpreter.bundle.io import write_bundle
    from capenv.interpreter.pipeline import build_bundle

    bundle_dir = tmp_path / "bundle"
    write_bundle(bundle_dir, build_bundle(write_instructions.CAPTURE))
    for store in write_instructions.STORES:
        done = subprocess.run([sys.executable, "-m", "benchmarks.write_instructions", "--serve", str(bundle_dir),
                               store, "2"], cwd=REPO, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
    with pytest.raises(SystemExit):
        write_instructions.main(["--calls", "500,100"])


@pytest.mark.parametrize("store", ["default", "sqlite", "floor"])
def test_the_http_instruction_count_serves_every_call_of_its_sequence(tmp_path: Path, store: str) -> None:
    """``benchmarks.http_instructions`` counts a server answering the CRUD sequence; without
    valgrind (minutes) the same run must get json-server's statuses (the floor's 200s) for every
    call, or the count would be of refusals; and its arguments are checked."""
    from benchmarks import http_instructions
    from benchmarks.servers import free_port

    from capenv.interpreter.bundle.io import write_bundle
    from capenv.interpreter.pipeline import build_bundle

    bundle_dir = tmp_path / "bundle"
    write_bundle(bundle_dir, build_bundle(http_instructions.CAPTURE))
    http_instructions.serve_sequences(bundle_dir, store, 1, free_port(), wrapper=())
    with pytest.raises(SystemExit):
        http_instructions.main(["--sequences", "50,10"])


@pytest.mark.parametrize("store", ["default", "sqlite"])
def test_the_data_add_instruction_count_installs_the_measured_state(tmp_path: Path, store: str) -> None:
    """``benchmarks.add_instructions`` counts a data/add over a large state and on a fresh runtime;
    without valgrind (minutes) its script must install the measured state on each store, or the
    count would be of a refusal; and its arguments are checked."""
    from benchmarks import add_instructions

    from capenv.interpreter.bundle.io import write_bundle
    from capenv.interpreter.pipeline import build_bundle

    bundle_dir = tmp_path / "bundle"
    write_bundle(bundle_dir, build_bundle(add_instructions.CAPTURE))
    for kind in add_instructions.KINDS:
        runtime = add_instructions.script(bundle_dir, store, kind, 30)
        try:
            state = json.loads(runtime.data_get())
        finally:
            runtime.close()
        posts = next(c for c in state["collections"] if c["path"] == "/posts")
        assert len(posts["entities"]) == add_instructions.SMALL
    with pytest.raises(SystemExit):
        add_instructions.main(["--stores", "postgres"])
