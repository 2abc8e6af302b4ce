"""The architecture's import rules, checked on the import graph (docs/architecture.md).

The contracts live in pyproject.toml ([tool.importlinter]); `lint-imports` runs them in
.ci/run and this test runs them under pytest. The graph is grimp's (what import-linter builds
on): it reads the source, so an import inside a function counts as much as one at the top."""

from __future__ import annotations

from pathlib import Path

import grimp
from importlinter.cli import lint_imports

REPO = Path(__file__).resolve().parents[1]


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every set of modules that import one another in a circle (strongly connected, > 1)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(start: str) -> None:  # Tarjan, iterative: the graph is deep
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append((other, iter(sorted(graph.find_modules_directly_imported_by(other)))))
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == module:
                            break
                    if len(members) > 1:
                        cycles.append(sorted(members))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return cycles


def _graph(*packages: str) -> grimp.ImportGraph:
    return grimp.build_graph(*packages, include_external_packages=False, cache_dir=None)


def test_the_import_contracts_are_kept() -> None:
    assert lint_imports(config_filename=str(REPO / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def test_no_module_imports_itself_through_a_circle(monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(REPO))  # benchmarks/ is run from the repository root
    graph = _graph("capenv.interpreter", "capenv.serving", "benchmarks")
    assert len(graph.modules) > 200
    assert import_cycles(graph) == []


def _write_package(root: Path, name: str, modules: dict[str, str]) -> None:
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    for module, text in modules.items():
        (package / f"{module}.py").write_text(text)


def test_a_circle_through_an_import_in_a_function_is_found(tmp_path: Path, monkeypatch) -> None:
    _write_package(tmp_path, "circle_sample", {
        "first": "from circle_sample.second import b\n",
        "second": "def b():\n    from circle_sample import first\n    return first\n",
        "third": "from circle_sample import first\n",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles(_graph("circle_sample")) == [["circle_sample.first", "circle_sample.second"]]


def test_a_serving_module_importing_the_evaluator_lazily_is_seen(tmp_path: Path, monkeypatch) -> None:
    """What the serving contract rests on: grimp sees an import in a function body."""
    _write_package(tmp_path, "lazy_sample", {
        "served": "def answer():\n    from lazy_sample.evaluator import evaluate\n    return evaluate\n",
        "evaluator": "def evaluate():\n    return 1\n",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = _graph("lazy_sample")
    assert graph.direct_import_exists(importer="lazy_sample.served", imported="lazy_sample.evaluator")
