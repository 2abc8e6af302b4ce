"""A non-editable install ships every package: pyproject lists each package directory of
``interpreter/``, ``serving/`` and ``rules/`` (as ``capenv.<dotted path>``), with its data."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = ("interpreter", "serving", "rules", "fleet")


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


# Import name -> distribution, where they differ; optional imports name their extra.
DISTRIBUTION_OF = {"yaml": "pyyaml", "dateutil": "python-dateutil"}
OPTIONAL = {"psycopg": "postgres", "agentenv_protocol": "test"}  # imported lazily, only with that extra


def _third_party_imports() -> set[str]:
    import ast
    import sys

    found: set[str] = set()
    for root in ROOTS:
        for source in (REPO / root).rglob("*.py"):
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                found |= {n.split(".")[0] for n in names}
    return {n for n in found if n not in sys.stdlib_module_names and n not in ("capenv", "__future__")}


def _requirement_names(requirements: list[str]) -> set[str]:
    import re

    return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_every_direct_import_is_declared():
    project = _pyproject()["project"]
    declared = _requirement_names(project["dependencies"])
    extras = {k: _requirement_names(v) for k, v in project["optional-dependencies"].items()}
    missing = []
    for name in sorted(_third_party_imports()):
        dist = DISTRIBUTION_OF.get(name, name).replace("_", "-")
        if name in OPTIONAL:
            if not any(dist in names or dist.startswith(tuple(names)) for names in extras.values()) \
                    and OPTIONAL[name] not in extras:
                missing.append(f"{name} (extra {OPTIONAL[name]})")
        elif dist not in declared:
            missing.append(name)
    assert "uvicorn" in _third_party_imports()  # the walk sees imports inside functions
    assert not missing, f"declare in pyproject [project] dependencies: {missing}"


def test_mcp_is_required_at_2_or_later_and_license_ships():
    project = _pyproject()["project"]
    mcp = next(r for r in project["dependencies"] if r.startswith("mcp"))
    assert ">=2." in mcp, mcp  # the low-level Server API serving uses is 2.x (1.x lacks ServerRequestContext)
    assert project["license"] == "Apache-2.0" and "Apache License" in (REPO / "LICENSE").read_text()
    assert any(c.startswith("Programming Language :: Python :: 3") for c in project["classifiers"])
