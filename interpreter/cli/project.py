"""Where generated files go: into the capenv project the running code belongs to, never the
current directory by accident (``capenv rules doc`` run from /tmp must not create /tmp/docs/).

The project is the checkout holding this package (``interpreter/`` beside a ``pyproject.toml``
naming the ``capenv`` distribution). An installed wheel has no project: then the file needs
an explicit ``--output``, and the error says so.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from capenv.interpreter.bundle.errors import UserError

DISTRIBUTION = "capenv"


def project_root(package_dir: Path | None = None) -> Path | None:
    """The checkout this code runs from, or None (an installed package)."""
    package = (package_dir or Path(__file__).resolve().parents[1])
    candidate = package.parent
    pyproject = candidate / "pyproject.toml"
    if not pyproject.is_file() or not (candidate / "docs").is_dir():
        return None
    try:
        name = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {}).get("name")
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    return candidate if name == DISTRIBUTION else None


def project_file(relative: str, option: str = "--output", package_dir: Path | None = None) -> Path:
    """``relative`` inside the project, or a ``UserError`` asking for ``option`` when there is none."""
    root = project_root(package_dir)
    if root is None:
        raise UserError(f"no capenv checkout holds this installation, so there is no project {relative} to "
                        f"write: give {option} FILE")
    return root / relative
