"""Bad bundles, bad output paths and unknown fields exit 2 with one line (never exit 1)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_cli_main import assert_bad_input, capenv, small_capture


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("bundles")
    har = small_capture().write(root / "small.har")
    result = capenv("build", str(har), "-o", str(root / "bundle"))
    assert result.returncode == 0, result.stderr
    return root / "bundle"


def broken_copy(built: Path, tmp_path: Path, name: str, content: bytes | None) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(built, copy)
    if content is None:
        (copy / name).unlink()
    else:
        (copy / name).write_bytes(content)
    return copy


@pytest.mark.parametrize("verb", ["explain", "report", "serve"])
@pytest.mark.parametrize("name, content, phrase", [
    ("bundle.json", b'{"evidence_id": "ev-', "bundle.json"),
    ("view.json", None, "view.json: missing"),
    ("manifest.json", b"{}", "invalid bundle"),
])
def test_a_damaged_bundle_is_bad_input(built, tmp_path, verb, name, content, phrase):
    damaged = broken_copy(built, tmp_path, name, content)
    assert_bad_input(capenv(verb, str(damaged)), phrase)


@pytest.mark.parametrize("target", ["missing", "har", "plain-directory"])
def test_explain_on_what_is_not_a_bundle_is_bad_input(built, tmp_path, target):
    path = {"missing": tmp_path / "nothing-here",
            "har": small_capture().write(tmp_path / "x.har"),
            "plain-directory": tmp_path}[target]
    assert_bad_input(capenv("explain", str(path)), "not a bundle directory")


def test_build_into_an_existing_file_is_bad_input(tmp_path):
    har = small_capture().write(tmp_path / "small.har")
    (tmp_path / "taken").write_text("mine")
    assert_bad_input(capenv("build", str(har), "-o", str(tmp_path / "taken")), "is not a directory")
    assert (tmp_path / "taken").read_text() == "mine"


def test_build_under_a_file_is_bad_input(tmp_path):
    har = small_capture().write(tmp_path / "small.har")
    (tmp_path / "file").write_text("x")
    assert_bad_input(capenv("build", str(har), "-o", str(tmp_path / "file" / "b")), "cannot write the bundle")


def test_build_into_someone_elses_directory_needs_force(tmp_path):
    har = small_capture().write(tmp_path / "small.har")
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "notes.txt").write_text("keep me")
    assert_bad_input(capenv("build", str(har), "-o", str(theirs)), "not a bundle", "--force")
    assert sorted(p.name for p in theirs.iterdir()) == ["notes.txt"]
    forced = capenv("build", str(har), "-o", str(theirs), "--force")
    assert forced.returncode == 0, forced.stderr
    assert (theirs / "bundle.json").is_file() and (theirs / "notes.txt").read_text() == "keep me"
    again = capenv("build", str(har), "-o", str(theirs))  # a bundle now: rebuilt in place
    assert again.returncode == 0, again.stderr


def test_explain_an_unknown_field_is_bad_input(built):
    line = assert_bad_input(capenv("explain", str(built), "--field", "no_such_field"), "'no_such_field'")
    assert "no decision about a field" in line
