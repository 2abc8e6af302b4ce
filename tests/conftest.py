"""Shared pytest configuration: rule fixtures become test cases (``pytest -k <rule id>``);
the test process reaches only loopback; the real captures' bundles are built once per session."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from capenv.interpreter.bundle.io import write_bundle
from capenv.interpreter.rules_engine import load_rules
from support import loopback_only
from support.rules_copy import copy_rules
from support.served import built_capture

loopback_only.install()
# Under CI the property tests draw the same examples on every run: a failure there is the code's and
# reproducible, never a seed's that the next run passes; run locally, they draw anew each time.
hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")
# The compiled rule tables' disk cache stays out of the user's home (and the suite's results):
# off unless a test turns it on (tests/rules/test_rules_cache.py).
os.environ["CAPENV_CACHE_DIR"] = ""


def _fixture_cases() -> list:
    ruleset = load_rules(with_fixtures=True)
    params = []
    for table_name, (display, fixture) in sorted(ruleset.fixtures.items()):
        for rule_id, cases in fixture.cases.items():
            for case_name, case in cases.items():
                params.append(pytest.param(ruleset, table_name, rule_id, case_name, case,
                                           id=f"{rule_id}::{case_name}"))
    return params


def _table_cases() -> list:
    ruleset = load_rules(with_fixtures=True)
    return [pytest.param(ruleset, table_name, case, id=f"{table_name}::{case.name}")
            for table_name, (_, fixture) in sorted(ruleset.fixtures.items()) for case in fixture.table_cases]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.function.__name__ == "test_rule_case":
        metafunc.parametrize("ruleset,table_name,rule_id,case_name,case", _fixture_cases())
    elif metafunc.function.__name__ == "test_table_case":
        metafunc.parametrize("ruleset,table_name,case", _table_cases())


@pytest.fixture
def rules_dir(tmp_path):
    """An editable copy of the packaged rule tables (see ``support.rules_copy``)."""
    return copy_rules(tmp_path)


@pytest.fixture(scope="session")
def bundle_dir(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``bundle_dir("json-server")``: that real capture's bundle directory, built on first use
    and shared by every test directory in the session."""
    built: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in built:
            directory = tmp_path_factory.mktemp(f"bundle-{name}")
            write_bundle(directory, built_capture(name))
            built[name] = directory
        return built[name]

    return get


_live_startups: list[tuple[str, float]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Collects the startups of live applications (tests/live/conftest.py's user property): in the
    process printing the summary, whichever worker ran the test."""
    if report.when == "teardown":
        _live_startups.extend(value for name, value in report.user_properties if name == "live_startup_seconds")


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if _live_startups:
        figures = ", ".join(f"{name} {seconds:.1f}s" for name, seconds in _live_startups)
        terminalreporter.write_line(f"live applications started (fresh, seeded): {figures}")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="the long runs too: the ≥10,000-call fuzz over HTTP and MCP (tests/transport/test_fuzz_surfaces.py)")


@pytest.fixture(scope="session")
def slow_run(request: pytest.FixtureRequest) -> bool:
    """True under ``pytest --slow``: long runs use their full sizes."""
    return bool(request.config.getoption("--slow"))
