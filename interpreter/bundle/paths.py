"""Paths and queries as recorded, split the one way the capture's reader, the manifest and
serving's HTTP surface all split them."""

from __future__ import annotations

import re

UNRESERVED = re.compile(r"[A-Za-z0-9._~-]*")
"""A path segment, query name or value every URL encoder spells alike (RFC 3986 unreserved
characters only): page links are learned and rendered only where re-encoding cannot differ."""


def lies_below(path: str, template: str) -> bool:
    """``path`` lies strictly below ``template``: it begins with the template's segments, a
    parameter matching any non-empty segment (``/lists/7/roster`` below ``/lists/{id}``)."""
    parts, pieces = split_path(path), split_path(template)
    return len(parts) > len(pieces) and all(
        part == piece or (piece.startswith("{") and part != "") for part, piece in zip(parts, pieces))


def split_path(path: str) -> list[str]:
    """``/a/b/`` -> ``["a", "b"]``, ``/`` -> ``[]``: a trailing slash is part of a path's
    spelling, not a segment (``/api/projects/`` and ``/api/projects/1/`` are a collection and one
    of its items); ``has_trailing_slash`` and ``Tool.trailing_slash`` keep the spelling."""
    if not path.startswith("/"):
        path = "/" + path
    parts = path[1:].split("/")
    if parts[-1] == "":
        parts.pop()
    return parts


def has_trailing_slash(path: str) -> bool:
    """``/a/b/`` is spelled with a trailing slash; the root ``/`` is not (it has no segment)."""
    return len(path) > 1 and path.endswith("/")


def spell_path(parts: list[str] | tuple[str, ...], trailing_slash: bool) -> str:
    """The path of some segments, spelled with or without a trailing slash."""
    return "/" + "/".join(parts) + ("/" if trailing_slash and parts else "")


def split_query(query: str) -> tuple[tuple[str, str], ...]:
    """Raw pairs of a query string, nothing decoded: ``a=1&b=%20&c`` -> ``(("a", "1"), ("b",
    "%20"), ("c", ""))``. Empty pieces (``a=1&&b=2``) carry no pair and are skipped. The capture's
    reader and serving's HTTP surface split a query the same way, so it lives beside split_path."""
    pairs = []
    for piece in query.split("&"):
        if piece:
            name, _, value = piece.partition("=")
            pairs.append((name, value))
    return tuple(pairs)


def normalised_accept(value: str | None) -> str:
    """An Accept header as replay compares it: lower case, no spaces; none (or empty) is ``*/*``."""
    text = "".join((value or "").split()).lower()
    return text or "*/*"
