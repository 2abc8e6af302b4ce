"""Texts of an absence answer that name the read's path values (``"No such token a2 for user
ada"``): which segment's value stands where, and whether the capture proves it.

``id_pointers`` (absence_bodies) carry the read's own id when it is the whole value or a
delimited token of 4+ characters. Any other delimited occurrence of a path value — a short id,
a parent's name — makes the text a template over the path: proven when another absence of the
same tool, naming other values at those segments, reads as the template filled with its own;
unproven otherwise, and then answered only for a call naming the recorded values (a recording
naming another entity is never answered for this one; docs/absence.md).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import AbsencePathText
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.manifest.models import Tool

from .absence_bodies import at_pointer, carries_id, leaves


def param_values(tool: Tool, path: str) -> dict[int, str]:
    """Segment index -> percent-decoded value, for the tool's parameter segments."""
    parts = split_path(path)
    if len(parts) != len(tool.segments):
        return {}
    return {index: unquote(parts[index]) for index, segment in enumerate(tool.segments) if segment.is_param}


def path_texts(body: Any, values: dict[int, str], id_value: str | None,
               others: list[tuple[Any, dict[int, str]]]) -> tuple[AbsencePathText, ...]:
    """The body's texts that name a path value as a delimited token, except those that only
    carry the id as ``id_pointers`` do; ``others``: the same tool's other absences (body, values)."""
    found = []
    for pointer, value in leaves(body):
        if not isinstance(value, str) or carries_id(value, id_value) and not _names_other(value, values, id_value):
            continue
        parts = _template(value, values)
        if parts is None:
            continue
        used = sorted({p for p in parts if isinstance(p, int)})
        proven = any(all(other_values.get(i) not in (None, values[i]) for i in used)
                     and at_pointer(other_body, pointer) == _fill(parts, other_values)
                     for other_body, other_values in others)
        contradicted = any(isinstance(at_pointer(other_body, pointer), str)
                           and at_pointer(other_body, pointer) != _fill(parts, other_values)
                           for other_body, other_values in others if all(i in other_values for i in used))
        found.append(AbsencePathText(pointer=pointer, parts=parts, proven=proven and not contradicted,
                                     recorded=tuple((i, values[i]) for i in used)))
    return tuple(found)


def _names_other(text: str, values: dict[int, str], id_value: str | None) -> bool:
    return any(value != id_value and _token(value).search(text) for value in values.values() if value)


def _token(value: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])")


def _template(text: str, values: dict[int, str]) -> tuple[str | int, ...] | None:
    """Literal parts and segment indices; None when no path value stands in the text. Longer
    values are matched first, and two segments with one value make the text ambiguous (None:
    kept as recorded, as any other constant)."""
    spans: list[tuple[int, int, int]] = []
    seen: dict[str, int] = {}
    for index, value in sorted(values.items(), key=lambda item: -len(item[1])):
        if not value:
            continue
        if value in seen:
            if _token(value).search(text):
                return None
            continue
        seen[value] = index
        for match in _token(value).finditer(text):
            if not any(start < match.end() and match.start() < end for start, end, _ in spans):
                spans.append((match.start(), match.end(), index))
    if not spans:
        return None
    parts: list[str | int] = []
    at = 0
    for start, end, index in sorted(spans):
        if start > at:
            parts.append(text[at:start])
        parts.append(index)
        at = end
    if at < len(text):
        parts.append(text[at:])
    return tuple(parts)


def _fill(parts: tuple[str | int, ...], values: dict[int, str]) -> str | None:
    if any(isinstance(p, int) and p not in values for p in parts):
        return None
    return "".join(values[p] if isinstance(p, int) else p for p in parts)
