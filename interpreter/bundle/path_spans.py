"""Path parameters that span segments (a file path, a nested key: ``/api/contents/a/b/c.txt``).

A ``PathSpan`` names a prefix under which the rest of a path is one value, up to a literal word
the capture shows following such values (``/api/contents/a/b.txt/checkpoints``). Folding writes
that value as one segment, its inner slashes as ``%2F``: the capture's reader folds every
recorded path, serving folds every request path, so templates, ids and comparisons see one
segment whose decoded value is the whole path (``a/b/c.txt``), as the application's answers
spell it. ``path_for`` escapes a ``/`` in an argument the same way, so tool calls agree.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from .paths import has_trailing_slash, spell_path, split_path

SLASH = "%2F"


class PathSpan(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    prefix: tuple[str | None, ...]
    """The raw segments before the spanning value; None matches any one segment (a parameter)."""
    words: tuple[str, ...] = ()
    """Literal segments that end the value when they follow it (``checkpoints``)."""
    rule_id: str = ""


def _under(parts: list[str], prefix: tuple[str | None, ...]) -> bool:
    return len(parts) > len(prefix) and all(p is None or p == part for p, part in zip(prefix, parts))


def fold_parts(parts: list[str], spans: tuple[PathSpan, ...]) -> list[str]:
    """The segments with a spanning value folded into one (the first span whose prefix fits)."""
    for span in spans:
        if not _under(parts, span.prefix):
            continue
        start = len(span.prefix)
        tail = parts[start:]
        ends = [j for j in range(1, len(tail)) if tail[j] in span.words]
        end = ends[-1] if ends else len(tail)
        if end < 2:
            return parts
        return parts[:start] + [SLASH.join(tail[:end])] + tail[end:]
    return parts


def fold_path(path: str, spans: tuple[PathSpan, ...]) -> str:
    """``path`` with its spanning value folded into one segment (unchanged when no span fits)."""
    if not spans:
        return path
    parts = split_path(path)
    folded = fold_parts(parts, spans)
    return path if folded == parts else spell_path(folded, has_trailing_slash(path))
