"""JSON pointers (RFC 6901) as the ops use them, with ``*`` for any array index (renewed).

Small and local rather than the ``jsonpointer`` package: the ops need a wildcard walk and
an in-place set on values they already copied, and parsing is cached per pointer text.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from .context import OpParamsError

ANY_INDEX = "*"


class _Missing:
    __slots__ = ()


MISSING: Any = _Missing()
"""What ``resolve`` gives for a pointer the document does not hold."""


@lru_cache(maxsize=4096)
def parse_pointer(text: str) -> tuple[str, ...]:
    """``"/a/b~1c"`` -> ``("a", "b/c")``; ``""`` is the whole value."""
    if text == "":
        return ()
    if not text.startswith("/"):
        raise OpParamsError(f"not a JSON pointer: {text!r} (it must start with '/')")
    return tuple(part.replace("~1", "/").replace("~0", "~") for part in text[1:].split("/"))


def _step(value: Any, token: str) -> Any:
    if isinstance(value, dict):
        return value.get(token, MISSING)
    if isinstance(value, list) and token.isdigit() and (token == "0" or not token.startswith("0")):
        index = int(token)
        return value[index] if index < len(value) else MISSING
    return MISSING


def resolve(document: Any, tokens: tuple[str, ...]) -> Any:
    """The value at ``tokens``, or ``MISSING``."""
    value = document
    for token in tokens:
        value = _step(value, token)
        if value is MISSING:
            return MISSING
    return value


def assign(document: Any, tokens: tuple[str, ...], value: Any) -> bool:
    """Replace the existing member at ``tokens`` (non-empty) in place; False when it is not held."""
    parent = resolve(document, tokens[:-1])
    last = tokens[-1]
    if isinstance(parent, dict) and last in parent:
        parent[last] = value
        return True
    if isinstance(parent, list) and _step(parent, last) is not MISSING:
        parent[int(last)] = value
        return True
    return False


def replace_each(document: Any, tokens: tuple[str, ...], replace: Callable[[Any], Any]) -> Any:
    """Every value at ``tokens`` (``*`` matching each index of an array) passed through
    ``replace``, in document order; edits ``document`` in place and returns it (or the
    replacement when ``tokens`` is empty). Paths the document does not hold are skipped."""
    if not tokens:
        return replace(document)
    token, rest = tokens[0], tokens[1:]
    if token == ANY_INDEX and isinstance(document, list):
        for index, item in enumerate(document):
            document[index] = replace_each(item, rest, replace)
        return document
    child = _step(document, token)
    if child is MISSING:
        return document
    updated = replace_each(child, rest, replace)
    if isinstance(document, dict):
        document[token] = updated
    else:
        document[int(token)] = updated
    return document
