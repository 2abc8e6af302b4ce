"""Custom methods glued to a path's last segment with a colon (``/notes/5:archive``).

Many APIs (Google's AIP-136 and those that follow it) name an action on an entity or a collection
by a verb after a colon: ``POST /v1/notes/5:archive``, ``POST /v1/notes:batchDelete``. capenv
reads such a path as the action segment it stands for, the colon kept in the literal
(``/v1/notes/5/:archive``), so the entity is named before its action segment as for
``/notes/5/archive``; the verbs the capture proves (``path-colon-actions``) are read so in every
recorded path and every request path (``Manifest.fold_path``), and a tool whose last segment is
one of them is spelled glued again (``Tool.spelled_template``).
"""

from __future__ import annotations

from .paths import has_trailing_slash, spell_path, split_path

COLON = ":"


def colon_verb(segment: str) -> tuple[str, str] | None:
    """``("5", "archive")`` of ``5:archive``; None when the segment has no text on either side of
    its last colon."""
    stem, colon, verb = segment.rpartition(COLON)
    return (stem, verb) if colon and stem and verb else None


def split_action(path: str, verbs: tuple[str, ...]) -> str:
    """``/notes/5:archive`` -> ``/notes/5/:archive`` when ``archive`` is one of ``verbs``;
    unchanged otherwise (the trailing slash kept)."""
    if not verbs:
        return path
    parts = split_path(path)
    found = colon_verb(parts[-1]) if parts else None
    if found is None or found[1] not in verbs:
        return path
    return spell_path(parts[:-1] + [found[0], COLON + found[1]], has_trailing_slash(path))


def glued(template: str) -> str:
    """``/notes/{note_id}/:archive`` -> ``/notes/{note_id}:archive``: the action segment spelled
    as a client sends it."""
    head, slash, last = template.rstrip("/").rpartition("/")
    if not slash or not last.startswith(COLON):
        return template
    return head + last + ("/" if template.endswith("/") and len(template) > 1 else "")
