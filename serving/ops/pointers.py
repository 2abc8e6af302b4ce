"""JSON pointers (RFC 6901) as the ops use them, with ``*`` for any array index (renewed).

Parsing and each step are ``capenv.interpreter.bundle.pointers`` (the ``jsonpointer``
package's semantics, one implementation for the build side and serving); the ops add a
wildcard walk and an in-place set on values they already copied.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from capenv.interpreter.bundle.pointers import MISSING, PointerError, parse, resolve
from capenv.interpreter.bundle.pointers import step as _step

from .context import OpParamsError

ANY_INDEX = "*"

__all__ = ["ANY_INDEX", "MISSING", "assign", "parse_pointer", "replace_each", "resolve"]


# Not a budget: a memo of a pure function, shared by every bundle the process serves and sized at import;
# no answer depends on its size (the same few pointers are parsed call after call).
@lru_cache(maxsize=4096)
def parse_pointer(text: str) -> tuple[str, ...]:
    """``"/a/b~1c"`` -> ``("a", "b/c")``; ``""`` is the whole value."""
    try:
        return parse(text)
    except PointerError as exc:
        raise OpParamsError(f"{exc} (it must be empty or start with '/')") from None


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
