"""RFC 6901 JSON pointers, one implementation for both sides (issue #13 item 3).

Parsing, escaping and the array-index rule are the ``jsonpointer`` package's own
(``JsonPointer``, ``escape``, ``JsonPointer.get_part``): ``/a/01`` names no array element
(a leading zero is no index), ``/a/²`` names the member "²" of an object and nothing in an
array, ``~1`` is "/" and ``~0`` is "~", decoded in that order. What this module adds is the
answer for a pointer the document does not hold: ``MISSING`` rather than an exception, since
the callers ask whether a value is there far more often than they expect it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from jsonpointer import JsonPointer, JsonPointerException, escape


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""What ``resolve`` gives for a pointer the document does not hold."""


class PointerError(ValueError):
    """A text that is not a JSON pointer (it must be empty or start with "/")."""


@lru_cache(maxsize=4096)
def parse(text: str) -> tuple[str, ...]:
    """``"/a/b~1c"`` -> ``("a", "b/c")``; ``""`` is the whole value."""
    try:
        return tuple(JsonPointer(text).parts)
    except JsonPointerException as exc:
        raise PointerError(f"not a JSON pointer: {text!r} ({exc})") from None


def spell(tokens: Iterable[str]) -> str:
    """The pointer text of ``tokens`` (each escaped)."""
    return "".join("/" + escape(str(token)) for token in tokens)


def escape_token(token: str) -> str:
    return escape(token)


def step(value: Any, token: str) -> Any:
    """The member or element ``token`` names in ``value``, or ``MISSING``."""
    if isinstance(value, dict):
        return value.get(token, MISSING)
    if isinstance(value, list):
        try:
            index = JsonPointer.get_part(value, token)
        except JsonPointerException:
            return MISSING
        return value[index] if isinstance(index, int) and index < len(value) else MISSING
    return MISSING


def resolve(document: Any, tokens: Iterable[str]) -> Any:
    """The value at ``tokens``, or ``MISSING``."""
    value = document
    for token in tokens:
        value = step(value, token)
        if value is MISSING:
            return MISSING
    return value


def resolve_text(document: Any, pointer: str) -> Any:
    """The value at the pointer text ``pointer``, or ``MISSING`` (also for a text that is no pointer)."""
    try:
        tokens = parse(pointer)
    except PointerError:
        return MISSING
    return resolve(document, tokens)


def member_at(body: Any, pointer: str) -> Any:
    """The value at ``pointer`` through objects only (an envelope's members), or ``MISSING``."""
    value = body
    for token in parse(pointer):
        if not isinstance(value, dict) or token not in value:
            return MISSING
        value = value[token]
    return value


def member_through(body: Any, pointer: str) -> Any:
    """As ``member_at``, and a ``0`` token steps into the one element of a one-element array (an
    entity answered as a list of one, ``{"posts": [{…}]}``: the pointer ``/posts/0``)."""
    value = body
    for token in parse(pointer):
        if isinstance(value, list) and token == "0" and len(value) == 1:
            value = value[0]
        elif isinstance(value, dict) and token in value:
            value = value[token]
        else:
            return MISSING
    return value


def with_member_through(body: dict[str, Any], pointer: str, value: Any) -> dict[str, Any]:
    """``with_member_at`` through what ``member_through`` reads (a one-element array copied too)."""
    tokens = parse(pointer)
    result = dict(body)
    holder: Any = result
    for token in tokens[:-1]:
        key: Any = 0 if isinstance(holder, list) else token
        holder[key] = list(holder[key]) if isinstance(holder[key], list) else dict(holder[key])
        holder = holder[key]
    holder[0 if isinstance(holder, list) else tokens[-1]] = value
    return result


def with_member_at(body: dict[str, Any], pointer: str, value: Any) -> dict[str, Any]:
    """A copy of ``body`` with ``value`` at ``pointer``, the objects along the way copied (the
    rest shared): the members on the way must be there (``member_at`` says so first)."""
    tokens = parse(pointer)
    result = dict(body)
    holder = result
    for token in tokens[:-1]:
        holder[token] = dict(holder[token])
        holder = holder[token]
    holder[tokens[-1]] = value
    return result


def without_member_at(body: Any, pointer: str) -> Any:
    """A copy of ``body`` less the member at ``pointer`` through objects (the objects along the
    way copied, the rest shared); ``body`` itself where it holds no such member."""
    tokens = parse(pointer)
    if not tokens or member_at(body, pointer) is MISSING:
        return body
    result = dict(body)
    holder = result
    for token in tokens[:-1]:
        holder[token] = dict(holder[token])
        holder = holder[token]
    del holder[tokens[-1]]
    return result
