"""A non-editable install ships every package: pyproject lists each package directory of
``interpreter/``, ``serving/`` and ``rules/`` (as ``capenv.<dotted path>``), with its data."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = ("interpreter", "serving", "rules")


def _pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _package_dirs() -> dict[str, Path]:
    """``capenv.<root>.<sub…>`` for every directory under the roots that holds ``__init__.py``."""
    found = {}
    for root in ROOTS:
        for init in sorted((REPO / root).rglob("__init__.py")):
            directory = init.parent
            if any(part.startswith((".", "__pycache__")) for part in directory.relative_to(REPO).parts):
                continue
            found["capenv." + ".".join(directory.relative_to(REPO).parts)] = directory
    return found


def test_roots_are_mapped_under_the_capenv_namespace():
    package_dir = _pyproject()["tool"]["setuptools"]["package-dir"]
    assert {f"capenv.{root}": root for root in ROOTS}.items() <= package_dir.items()


def test_every_package_directory_is_listed():
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = _package_dirs()
    assert "capenv.interpreter.rules_engine" in found  # the walk sees nested packages
    missing = sorted(set(found) - listed)
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {missing}"


def test_every_listed_package_exists():
    listed = _pyproject()["tool"]["setuptools"]["packages"]
    for name in listed:
        parts = name.split(".")
        assert parts[0] == "capenv" and parts[1] in ROOTS, name
        assert (REPO.joinpath(*parts[1:])).is_dir(), f"{name} is listed but {'/'.join(parts[1:])} does not exist"


def test_rule_tables_and_fixtures_ship_as_package_data():
    data = _pyproject()["tool"]["setuptools"]["package-data"]
    assert "*.yaml" in data["capenv.rules"]
    assert "*.yaml" in data["capenv.rules.fixtures"]
    assert any((REPO / "rules").glob("*.yaml")) and any((REPO / "rules" / "fixtures").glob("*.yaml"))
    for path in (REPO / "rules").rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".py":
            assert path.suffix in {".yaml", ".json"}, f"{path} would not ship (package-data has *.yaml, *.json)"


def test_console_script_points_at_main():
    from capenv.interpreter.cli.main import main

    target = _pyproject()["project"]["scripts"]["capenv"]
    module, _, attribute = target.partition(":")
    assert (module, attribute) == ("capenv.interpreter.cli.main", "main")
    assert callable(main)
