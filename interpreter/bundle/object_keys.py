"""The keys one object leaves out of another, and the members an object holds given values: what
the ``update-object-merges`` table judges an update's recorded objects by and serving checks a
call's object by (``serving/writes/object_merges``), computed alike on both sides."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .pointers import escape_token


def left_out(held: Any, sent: Any, pointer: str = "") -> Iterator[str]:
    """The pointers of the keys ``held`` holds (at any depth of objects both hold) that ``sent`` lacks."""
    if not isinstance(held, dict) or not isinstance(sent, dict):
        return
    for key, value in held.items():
        if key not in sent:
            yield f"{pointer}/{escape_token(key)}"
        else:
            yield from left_out(value, sent[key], f"{pointer}/{escape_token(key)}")


def holding(sent: Any, values: tuple[Any, ...] | list[Any], pointer: str = "") -> Iterator[str]:
    """The pointers of the members nested in the object ``sent`` (at any depth of objects) holding
    one of ``values`` (of its JSON kind: 0 is not false)."""
    if not isinstance(sent, dict):
        return
    for key, value in sent.items():
        at = f"{pointer}/{escape_token(key)}"
        if any(type(value) is type(v) and value == v for v in values):
            yield at
        yield from holding(value, values, at)
