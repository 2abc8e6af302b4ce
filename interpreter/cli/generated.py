"""Generated files (docs/rules.md, docs/verification.md): write them, or check they are current."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from capenv.interpreter.bundle.errors import UserError


def write_or_check(output: Path, text: str, *, check: bool, regenerate: str, detail: str = "",
                   as_json: dict[str, Any] | None = None) -> int:
    """With ``check``, fail (exit 2) when ``output`` differs from ``text``; else write it.

    With ``as_json`` (the command's own members), the outcome is one JSON object on stdout:
    ``{"file", "checked", "up_to_date", "written", …}``; a stale file still exits 2."""
    suffix = f" ({detail})" if detail else ""
    if check:
        current = output.read_text(encoding="utf-8") if output.exists() else None
        stale = current != text
        if as_json is not None:
            _print(output, checked=True, up_to_date=not stale, written=False, members=as_json)
        if stale:
            raise UserError(f"{output} is stale: {regenerate} and commit it")
        if as_json is None:
            print(f"ok: {output} is up to date{suffix}")
        return 0
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    if as_json is not None:
        _print(output, checked=False, up_to_date=True, written=True, members=as_json)
    else:
        print(f"wrote {output}{suffix}")
    return 0


def _print(output: Path, *, checked: bool, up_to_date: bool, written: bool, members: dict[str, Any]) -> None:
    from .commands_env import print_json

    print_json({"file": str(output), "checked": checked, "up_to_date": up_to_date, "written": written, **members})
