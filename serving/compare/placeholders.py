"""``{name}`` placeholders: identities an earlier probe saved, filled in on each side separately.

The live application and the model each generate their own ids; a probe that reads "the post
created above" names it ``{post}`` and each side gets the id *it* answered. The syntax is
``str.format``'s, restricted to plain names: ``{{`` and ``}}`` are literal braces.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from capenv.interpreter.bundle.pointers import MISSING, resolve_text  # one RFC 6901 implementation

_TOKEN = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}|[{}]")
_WHOLE = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]*)\}$")
WHOLE_PLACEHOLDER = _WHOLE  # a probe's path that is one saved value: an href the application answered
# What a path segment may hold unescaped (as the serving side spells path arguments).
_SEGMENT_SAFE = "!$&'()*+,;=:@~-._"
SEGMENT_SAFE = _SEGMENT_SAFE

# MISSING: a saved name with no value on a side (its probe answered without the pointer).


def names_in(text: str) -> list[str]:
    """The placeholder names of ``text``; ``ValueError`` for a stray brace."""
    names = []
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token in ("{{", "}}"):
            continue
        if match.group(1) is None:
            raise ValueError(f"stray {token!r} at offset {match.start()} (write {token * 2} for a literal brace)")
        names.append(match.group(1))
    return names


def fill(text: str, values: dict[str, Any], *, escape_segment: bool = False) -> tuple[str, list[str]]:
    """``text`` with each ``{name}`` replaced; returns the text and the names that had no value
    (left as written). ``escape_segment`` percent-escapes what a path segment cannot hold."""
    unresolved: list[str] = []

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        name = match.group(1)
        value = values.get(name, MISSING)
        if value is MISSING:
            unresolved.append(name)
            return token
        text_value = as_text(value)
        return quote(text_value, safe=_SEGMENT_SAFE) if escape_segment else text_value

    return _TOKEN.sub(replace, text), unresolved


def fill_json(value: Any, values: dict[str, Any]) -> tuple[Any, list[str]]:
    """A JSON body with its strings filled; a string that is exactly ``{name}`` becomes the
    saved value itself, so an integer id stays an integer."""
    unresolved: list[str] = []

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            whole = _WHOLE.match(item)
            if whole and values.get(whole.group(1), MISSING) is not MISSING:
                return values[whole.group(1)]
            filled, missing = fill(item, values)
            unresolved.extend(missing)
            return filled
        if isinstance(item, dict):
            return {key: walk(member) for key, member in item.items()}
        if isinstance(item, list):
            return [walk(member) for member in item]
        return item

    return walk(value), unresolved


def as_text(value: Any) -> str:
    """How a saved value reads inside a path or a string: JSON's spelling for non-strings."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    from capenv.interpreter.bundle.jsonvalue import dumps

    return dumps(value).decode()


def resolve_pointer(document: Any, pointer: str) -> Any:
    """RFC 6901: the value at ``pointer`` in ``document``, or ``MISSING``."""
    return resolve_text(document, pointer)
