"""The distribution as a user gets it (issue #13, packaging): the sdist and the wheel built as
``python -m build`` builds them (sdist first, the wheel from the sdist), the wheel installed
into a fresh virtual environment, and ``capenv`` run from another directory: ``--help``, a
build, a report, the OpenAPI description, the packaged rule tables, and ``serve --http``
answering over loopback.

Offline by design (tests reach only loopback): the build runs without isolation on this
environment's setuptools, and the fresh environment takes capenv's dependencies from this
one's site-packages through a path file (never capenv itself: the wheel's copy is the one
imported, which the test checks). CI's isolated, networked ``python -m build`` is in .ci/run.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import signal
import site
import subprocess
import sys
import tarfile
import urllib.request
import zipfile
from pathlib import Path

import pytest

from support.har_builder import HarBuilder

REPO = Path(__file__).resolve().parents[1]
TIMEOUT = 300

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("build") is None,
                                 reason="the `build` package is not installed (pip install -e '.[test]')")]


def _source_tree(target: Path) -> Path:
    """The files a release is made of: git's tracked files in a checkout, else this tree."""
    if (REPO / ".git").exists() and shutil.which("git"):
        listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, check=True).stdout
        for name in filter(None, listed.decode().split("\0")):
            source = REPO / name
            if source.is_file():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)
        return target
    shutil.copytree(REPO, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns(
        ".venv", "__pycache__", "*.egg-info", "node_modules", "build", "dist", ".pytest_cache"))
    return target


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """(sdist, wheel) of a clean copy of the sources."""
    root = tmp_path_factory.mktemp("dist")
    source = _source_tree(root / "src")
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(root / "dist"),
                           str(source)], capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return next((root / "dist").glob("*.tar.gz")), next((root / "dist").glob("*.whl"))


def test_the_sdist_holds_what_its_tests_need(built) -> None:
    sdist, _ = built
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in ("pyproject.toml", "LICENSE", "README.md", "Dockerfile", "tests/conftest.py",
                   "captures/json-server/capture.har", "docs/rules.md", "docs/verification.md",
                   "rules/fixtures/body-envelopes.yaml", "tests/transport/inspector_cli/package-lock.json"):
        assert needed in names, needed
    assert len({n.split("/")[1] for n in names if n.startswith("captures/") and n.endswith("capture.har")}) >= 1
    assert not any("node_modules" in n or "__pycache__" in n for n in names)


def test_the_wheel_ships_every_package_and_its_metadata(built) -> None:
    _, wheel = built
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        entry_points = archive.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "capenv/interpreter/cli/main.py" in names and "capenv/serving/runtime.py" in names
    assert any(n.startswith("capenv/rules/") and n.endswith(".yaml") for n in names)
    assert any(n.startswith("capenv/rules/fixtures/") and n.endswith(".yaml") for n in names)
    assert not any(n.startswith(("tests/", "captures/")) for n in names)
    assert "License-Expression: Apache-2.0" in metadata and "Classifier: " in metadata
    for requirement in ("mcp", "jsonschema", "jsonpointer", "uvicorn", "starlette", "anyio", "httpx2"):
        assert f"Requires-Dist: {requirement}" in metadata, requirement
    assert "capenv = capenv.interpreter.cli.main:main" in entry_points


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; its ``bin`` directory."""
    _, wheel = built
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=TIMEOUT)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True, timeout=TIMEOUT)
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    (Path(purelib) / "zz_capenv_test_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return venv / "bin"


def _run(bin_dir: Path, cwd: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(bin_dir / "capenv"), *argv], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT,
                          env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(cwd)})


def test_the_installed_command_works_from_another_directory(installed: Path, tmp_path: Path) -> None:
    where = subprocess.run([str(installed / "python"), "-c", "import capenv.interpreter as p; print(p.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert str(installed.parent) in where and str(REPO) not in where  # the wheel's copy, not the checkout
    assert _run(installed, tmp_path, "--help").returncode == 0
    (HarBuilder().call("GET", "/posts", response=[{"id": 1, "title": "a"}])
     .call("POST", "/posts", body={"title": "b"}, status=201, response={"id": 2, "title": "b"})
     .call("GET", "/posts/2", response={"id": 2, "title": "b"})).write(tmp_path / "small.har")
    built_run = _run(installed, tmp_path, "build", "small.har", "-o", "env", "--json")
    assert built_run.returncode == 0, built_run.stderr
    assert json.loads(built_run.stdout)["tools"] == 3
    report = _run(installed, tmp_path, "report", "env", "--json")
    assert report.returncode == 0 and json.loads(report.stdout)["records"] == 3
    assert json.loads(_run(installed, tmp_path, "openapi", "env").stdout)["openapi"] == "3.1.0"
    assert _run(installed, tmp_path, "rules", "check").returncode == 0  # the tables shipped as package data
    doc = _run(installed, tmp_path, "rules", "doc")
    assert doc.returncode == 2 and "give --output FILE" in doc.stderr and not (tmp_path / "docs").exists()


def test_the_installed_server_answers(installed: Path, tmp_path: Path) -> None:
    (HarBuilder().call("GET", "/items", response=[{"id": 1}])
     .call("GET", "/items/1", response={"id": 1})).write(tmp_path / "c.har")
    process = subprocess.Popen([str(installed / "capenv"), "serve", "c.har", "--http", "127.0.0.1:0", "-q",
                                "--data-token", "t"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        first = process.stdout.readline()
        assert first.startswith("capenv serving on "), first + process.stderr.read()
        with urllib.request.urlopen(first.split()[-1] + "/items/1", timeout=30) as answer:
            assert json.loads(answer.read()) == {"id": 1}
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
