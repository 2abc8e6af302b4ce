"""``capenv build``: a bundle directory, deterministic (same capture, same rules -> same bytes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from capenv.interpreter.bundle.io import FILES, read_bundle

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "captures"


def build(capture: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "capenv.interpreter.cli.main", "build", str(capture), "-o", str(out)],
                          capture_output=True, text=True, check=False)


@pytest.mark.parametrize("app", sorted(p.parent.name for p in CAPTURES.glob("*/capture.har")))
def test_the_same_capture_builds_the_same_bytes(app: str, tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    for out in (first, second):
        result = build(CAPTURES / app / "capture.har", out)
        assert result.returncode == 0, result.stderr
    for name in FILES:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    bundle = read_bundle(first)
    assert bundle.info.evidence_id == bundle.view.evidence_id == bundle.manifest.evidence_id
    assert bundle.report["evidence_id"] == bundle.info.evidence_id


def test_a_changed_capture_builds_another_bundle(tmp_path: Path) -> None:
    original = (CAPTURES / "json-server" / "capture.har").read_text()
    edited = tmp_path / "edited.har"
    edited.write_text(original.replace("First draft", "First draft!", 1))
    assert edited.read_text() != original
    assert build(CAPTURES / "json-server" / "capture.har", tmp_path / "a").returncode == 0
    assert build(edited, tmp_path / "b").returncode == 0
    assert (tmp_path / "a" / "view.json").read_bytes() != (tmp_path / "b" / "view.json").read_bytes()


def test_build_refuses_a_capture_that_is_not_there(tmp_path: Path) -> None:
    result = build(tmp_path / "missing.har", tmp_path / "out")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
