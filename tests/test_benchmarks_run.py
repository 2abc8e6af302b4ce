"""The benchmarks run (issue 15: CI checks only that they run, at a small size; they are never
timed tests): `python -m benchmarks --quick` takes every section end to end and writes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NEEDS = {  # section -> what it starts besides capenv
    "http": "json-server", "lists": "json-server",
}


def _json_server_ready() -> bool:
    from benchmarks.servers import json_server_binary

    return json_server_binary() is not None


@pytest.mark.parametrize("section", ["build", "serving", "http", "soak", "fleet", "lists"])
def test_a_quick_run_of_each_section_finishes_and_writes_nothing(section: str, tmp_path: Path) -> None:
    if NEEDS.get(section) == "json-server" and not _json_server_ready():
        if os.environ.get("CI") == "true":
            pytest.fail("json-server is required under CI=true (bash .ci/live-apps.sh install)", pytrace=False)
        pytest.skip("json-server is not installed (bash .ci/live-apps.sh install)")
    output = tmp_path / "benchmarks.md"
    done = subprocess.run([sys.executable, "-m", "benchmarks", section, "--quick", "--output", str(output)],
                          cwd=REPO, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "## (" in done.stdout  # the section's figures were printed
    assert not output.exists()


def test_quick_is_refused_when_the_sections_were_imported_full_size() -> None:
    from benchmarks import runner

    env_before = os.environ.pop("CAPENV_BENCHMARKS_QUICK", None)
    try:
        with pytest.raises(SystemExit) as exit_info:
            runner.main(["--quick"], {})
        assert exit_info.value.code == 2
    finally:
        if env_before is not None:
            os.environ["CAPENV_BENCHMARKS_QUICK"] = env_before
