"""serving/ reads as the architecture's table (issue 12): families are packages, each opening
with a docstring of its one idea and what it may import; the top level keeps only the runtime's
entry modules; a module does not repeat its package's name."""

from __future__ import annotations

import ast
from pathlib import Path

SERVING = Path(__file__).resolve().parents[2] / "serving"
MAX_ENTRY_MODULES = 8


def _packages() -> list[Path]:
    return sorted(p.parent for p in SERVING.glob("*/__init__.py"))


def test_the_top_level_keeps_only_packages_and_a_few_entry_modules() -> None:
    modules = sorted(p.name for p in SERVING.glob("*.py") if p.name != "__init__.py")
    assert len(modules) <= MAX_ENTRY_MODULES, modules
    assert {"reads", "writes", "state", "catalog", "ops", "store", "transport"} <= {p.name for p in _packages()}


def test_each_package_says_its_idea_and_what_it_may_import() -> None:
    for package in _packages():
        doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
        assert doc, f"{package.name}/__init__.py has no docstring"
    for package in (p.name for p in _packages()):
        doc = ast.get_docstring(ast.parse((SERVING / package / "__init__.py").read_text())) or ""
        assert "May import" in doc, f"{package}/__init__.py does not say what it may import"


def test_no_module_repeats_its_package_name() -> None:
    repeating = []
    for package in _packages():
        stem = package.name.rstrip("s")  # writes/write_plans, reads/read_…, state/state_…
        repeating += [f"{package.name}/{m.name}" for m in package.glob("*.py")
                      if m.stem != "__init__" and m.stem.startswith((package.name, stem + "_"))]
    assert not repeating, repeating
