"""The command line's contract (DESIGN.md §10): exit 0 on success, 2 on bad input with one
line naming the file and the problem (never a traceback), 1 on an internal error."""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.errors import UserError
from capenv.interpreter.cli import main as cli_main
from capenv.interpreter.cli.errors import exit_code_for, message_for

CAPTURES = Path(__file__).resolve().parents[2] / "captures"


def capenv(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    script = Path(sys.executable).with_name("capenv")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "capenv.interpreter.cli.main"]
    env = {k: v for k, v in os.environ.items() if k != "CAPENV_DEBUG"}
    return subprocess.run(command + list(argv), capture_output=True, text=True, timeout=120, env=env, cwd=cwd)


def assert_bad_input(result: subprocess.CompletedProcess, *phrases: str) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for phrase in phrases:
        assert phrase in lines[0], lines[0]
    return lines[0]


def small_capture() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/posts", response=[{"id": 1}, {"id": 2}])
            .call("GET", "/posts/1", response={"id": 1})
            .call("GET", "/posts/2", response={"id": 2})
            .call("GET", "/logo.png", origin="http://cdn.example", response=b"\x89PNG", response_type="image/png"))


# --- success -------------------------------------------------------------------------------

def test_version():
    result = capenv("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"capenv {version('capenv')}"


def test_inspect_text_lists_the_origins_and_marks_the_primary_one(tmp_path):
    har = small_capture().write(tmp_path / "small.har")
    result = capenv("inspect", str(har))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{har}: 4 records, evidence ev-")
    primary = [line for line in lines if "(primary)" in line]
    assert len(primary) == 1 and "origin http://127.0.0.1:3000: 3 records" in primary[0]
    assert any("origin http://cdn.example: 1 records" in line and "(primary)" not in line for line in lines)
    assert "2 tools:" in result.stdout
    assert any(line.split()[:3] == ["get_posts_by_post_id", "GET", "/posts/{post_id}"] for line in lines)


def test_inspect_text_on_a_real_capture(tmp_path):
    result = capenv("inspect", str(CAPTURES / "kinto" / "capture.har"))
    assert result.returncode == 0, result.stderr
    assert "origin http://127.0.0.1:8888: 145 records  (primary)" in result.stdout


def test_inspect_reads_gzipped_captures(tmp_path):
    har = small_capture().write(tmp_path / "small.har.gz")
    assert gzip.decompress(har.read_bytes())  # really gzipped
    result = capenv("inspect", str(har), "--json")
    assert result.returncode == 0, result.stderr
    assert '"primary_origin": "http://127.0.0.1:3000"' in result.stdout


def test_origin_option_picks_the_primary_origin(tmp_path, capsys):
    har = small_capture().write(tmp_path / "small.har")
    assert cli_main.main(["inspect", str(har), "--origin", "http://cdn.example"]) == 0
    out = capsys.readouterr().out
    assert "origin http://cdn.example: 1 records  (primary)" in out


# --- bad input: exit 2, one line, no traceback ---------------------------------------------

def test_missing_file(tmp_path):
    missing = tmp_path / "absent.har"
    assert_bad_input(capenv("inspect", str(missing)), str(missing))


def test_directory_instead_of_a_file(tmp_path):
    assert_bad_input(capenv("inspect", str(tmp_path)), str(tmp_path))


def test_file_that_is_not_json(tmp_path):
    path = tmp_path / "notes.har"
    path.write_text("hello\n", encoding="utf-8")
    assert_bad_input(capenv("inspect", str(path)), str(path), "JSON")


def test_json_that_is_not_a_har(tmp_path):
    path = tmp_path / "x.har"
    path.write_text('{"log": {"entries": 3}}', encoding="utf-8")
    assert_bad_input(capenv("inspect", str(path)), str(path), "log.entries")


def test_bad_entry_names_its_index(tmp_path):
    builder = small_capture()
    builder.entries[1]["startedDateTime"] = "yesterday"
    path = builder.write(tmp_path / "x.har")
    assert_bad_input(capenv("inspect", str(path)), str(path), "entry 1", "startedDateTime")


def test_rules_directory_that_is_not_one(tmp_path):
    har = small_capture().write(tmp_path / "small.har")
    assert_bad_input(capenv("inspect", str(har), "--rules", str(tmp_path / "nowhere")), "nowhere")


@pytest.mark.parametrize("argv", [["bogus"], ["inspect"], ["inspect", "a.har", "--frobnicate"], []])
def test_usage_errors_exit_2(argv):
    result = capenv(*argv)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "usage:" in result.stderr


# --- internal errors: exit 1, one line; the traceback only with CAPENV_DEBUG=1 ---------------

def _broken(monkeypatch):
    """An internal fault: manifest inference raises something that is no bad-input error."""
    from capenv.interpreter.manifest import infer

    def build_manifest(*args, **kwargs):
        raise RuntimeError("something\nbroke")

    monkeypatch.setattr(infer, "build_manifest", build_manifest)  # the verb imports it when it runs


def test_internal_error_exits_1_with_one_line(monkeypatch, capsys, tmp_path):
    _broken(monkeypatch)
    monkeypatch.delenv("CAPENV_DEBUG", raising=False)
    har = small_capture().write(tmp_path / "small.har")
    assert cli_main.main(["inspect", str(har)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("capenv: internal error: RuntimeError: something broke")


def test_capenv_debug_shows_the_traceback(monkeypatch, tmp_path):
    _broken(monkeypatch)
    monkeypatch.setenv("CAPENV_DEBUG", "1")
    har = small_capture().write(tmp_path / "small.har")
    with pytest.raises(RuntimeError, match="broke"):
        cli_main.main(["inspect", str(har)])


def test_error_classification():
    assert exit_code_for(UserError("x")) == 2
    assert exit_code_for(ValueError("x")) == 1
    assert message_for(UserError("a\n  b")) == "a b"


@pytest.mark.parametrize("verb, unwanted", [("data", "capenv.interpreter.pipeline"),
                                            ("serve", "capenv.interpreter.pipeline"),
                                            ("inspect", "capenv.interpreter.view.build"),
                                            ("rules", "capenv.serving.runtime")])
def test_a_verb_imports_only_what_it_runs(verb, unwanted):
    code = ("import sys\nfrom capenv.interpreter.cli.main import build_parser\n"
            f"build_parser({verb!r})\nprint({unwanted!r} in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_every_verb_has_its_module_listed():
    from capenv.interpreter.cli.main import MODULE_OF_VERB, build_parser

    whole = build_parser()
    verbs = set(next(a for a in whole._actions if isinstance(a, argparse._SubParsersAction)).choices)
    assert verbs == set(MODULE_OF_VERB), "a verb registered but not in MODULE_OF_VERB loads every module"


def test_build_profile_prints_each_phase(tmp_path):
    har = small_capture().write(tmp_path / "small.har")
    result = capenv("build", str(har), "-o", str(tmp_path / "b"), "--profile")
    assert result.returncode == 0, result.stderr
    phases = [line.split()[0] for line in result.stderr.splitlines() if line.rstrip().endswith("%")]
    assert phases == ["rules", "evidence", "manifest", "read-only", "view", "plans", "report", "write"]
    assert any(line.strip().startswith("total") for line in result.stderr.splitlines())
