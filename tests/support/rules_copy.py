"""An editable copy of the packaged rule tables, as a maintainer would tune them (``--rules``),
and where a rule or key stands in a table file (a load error names its line)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

PACKAGED_RULES = Path(__file__).resolve().parents[2] / "rules"


def copy_rules(tmp_path: Path) -> Path:
    """The packaged tables and fixtures copied to ``tmp_path/rules``."""
    target = tmp_path / "rules"
    shutil.copytree(PACKAGED_RULES, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def edit_pattern(path: Path, pattern: str, replacement: str) -> None:
    """Replace the first match of ``pattern`` (dot matches newlines, ^/$ per line) in a table;
    the pattern must match, so an edit never silently does nothing."""
    text = path.read_text(encoding="utf-8")
    edited, count = re.subn(pattern, replacement, text, count=1, flags=re.S | re.M)
    assert count == 1, f"{pattern!r} matches nothing in {path.name}"
    path.write_text(edited, encoding="utf-8")


def line_of(path: Path, needle: str, *, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line of ``path`` holding ``needle`` (an ``id: X`` needle:
    exactly X, so ``id: a`` does not find ``id: ab``)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    hits = [i for i, line in enumerate(lines, 1)
            if ((line.strip().removeprefix("- ") == needle) if needle.startswith("id: ") else needle in line)]
    assert len(hits) >= nth, f"{needle!r} not found {nth} time(s) in {path.name}"
    return hits[nth - 1]
