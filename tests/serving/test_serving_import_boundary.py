"""Serving never imports the build side's evaluator: only bundle models, the JSON codec and
the manifest models (DESIGN.md §1). Checked on the source, so a lazy import counts too."""

from __future__ import annotations

import ast
from pathlib import Path

SERVING = Path(__file__).resolve().parents[2] / "serving"
ALLOWED_BUILD_SIDE = ("capenv.interpreter.bundle", "capenv.interpreter.manifest.models")


def imported_modules(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names
                      if node.module in ("capenv.interpreter", "capenv.interpreter.manifest")]
    return found


def test_serving_imports_only_bundle_and_manifest_models_from_the_build_side() -> None:
    offenders = []
    files = sorted(SERVING.rglob("*.py"))
    assert files, SERVING
    for path in files:
        for line, module in imported_modules(path):
            if module.startswith("capenv.interpreter") and not any(
                    module == allowed or module.startswith(allowed + ".") for allowed in ALLOWED_BUILD_SIDE):
                offenders.append(f"{path.relative_to(SERVING.parent)}:{line} imports {module}")
    assert not offenders, "serving must not import the build side:\n" + "\n".join(offenders)


def test_the_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from capenv.interpreter.rules_engine import evaluate\n"
                      "from capenv.interpreter import view\n"
                      "import capenv.interpreter.manifest.infer\n"
                      "from capenv.interpreter.bundle.models import ViewResult\n")
    modules = [m for _, m in imported_modules(sample)]
    assert "capenv.interpreter.rules_engine" in modules
    assert "capenv.interpreter.view" in modules
    assert "capenv.interpreter.manifest.infer" in modules
