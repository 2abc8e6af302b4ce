"""Generated files (docs/rules.md, docs/verification.md): write them, or check they are current."""

from __future__ import annotations

from pathlib import Path

from capenv.interpreter.bundle.errors import UserError


def write_or_check(output: Path, text: str, *, check: bool, regenerate: str, detail: str = "") -> int:
    """With ``check``, fail (exit 2) when ``output`` differs from ``text``; else write it."""
    suffix = f" ({detail})" if detail else ""
    if check:
        current = output.read_text(encoding="utf-8") if output.exists() else None
        if current != text:
            raise UserError(f"{output} is stale: {regenerate} and commit it")
        print(f"ok: {output} is up to date{suffix}")
        return 0
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    print(f"wrote {output}{suffix}")
    return 0
