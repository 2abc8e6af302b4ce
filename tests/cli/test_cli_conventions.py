"""Command-line conventions (issue #13): ``--json`` on build and export prints one JSON object on
stdout and nothing else there; ``rules doc`` and ``verify`` write into the capenv checkout they
belong to, whatever the current directory, and an installation without a checkout asks for
``--output`` instead of writing beside the user."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from capenv.interpreter.bundle.errors import UserError
from capenv.interpreter.cli.main import main
from capenv.interpreter.cli.project import project_file, project_root
from support.har_builder import HarBuilder
from support.served import capenv

REPO = Path(__file__).resolve().parents[2]


def small_capture() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/posts", response=[{"id": 1, "title": "a"}])
            .call("POST", "/posts", body={"title": "b"}, status=201, response={"id": 2, "title": "b"})
            .call("GET", "/posts/2", response={"id": 2, "title": "b"}))


def test_build_json_is_one_object_agreeing_with_the_report(tmp_path: Path) -> None:
    har = small_capture().write(tmp_path / "small.har")
    done = capenv("build", str(har), "-o", str(tmp_path / "b"), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    report = json.loads(capenv("report", str(tmp_path / "b"), "--json").stdout)
    assert summary["bundle"] == str(tmp_path / "b") and summary["evidence_id"] == report["evidence_id"]
    assert summary["tools"] == len(report["tools"]) and summary["writes"] == len(report["writes"])
    assert summary["writes_served"] == sum(1 for w in report["writes"] if w["served"])
    assert summary["writes_not_served"] == [{"tool": w["tool"], "reason": w["reason"]}
                                            for w in report["writes"] if not w["served"]]


def test_export_json_names_the_files_written(tmp_path: Path) -> None:
    har = small_capture().write(tmp_path / "small.har")
    done = capenv("export", str(har), "-o", str(tmp_path / "env"), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["directory"] == str(tmp_path / "env")
    assert {"Dockerfile", "README.md", "bundle.json"} <= set(summary["files"])
    assert sorted(summary["files"]) == sorted(p.name for p in (tmp_path / "env").iterdir())
    assert summary["tools"] == summary["reads"] + summary["writes_served"]


def test_rules_doc_checks_the_projects_file_from_any_directory(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["rules", "doc", "--check"]) == 0
    assert str(REPO / "docs" / "rules.md") in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []  # nothing written where the command ran


def test_the_checkout_is_found_from_the_package() -> None:
    assert project_root() == REPO
    assert project_file("docs/verification.md") == REPO / "docs" / "verification.md"


def test_without_a_checkout_an_output_is_asked_for(tmp_path: Path) -> None:
    package = tmp_path / "site-packages" / "capenv" / "interpreter"
    package.mkdir(parents=True)
    assert project_root(package) is None
    with pytest.raises(UserError, match="give --output FILE"):
        project_file("docs/rules.md", package_dir=package)
    (tmp_path / "site-packages" / "capenv" / "pyproject.toml").write_text('[project]\nname = "other"\n')
    (tmp_path / "site-packages" / "capenv" / "docs").mkdir()
    assert project_root(package) is None  # another project's checkout is not ours
