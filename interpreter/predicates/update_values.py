"""Value shapes the update predicates read: instants, UUIDs, opaque tokens, slugs, plain text,
and walks over JSON values. Pure helpers; no predicate is registered here.

Clock formats are learned by ``plans/clock_formats`` (shared with creates); slugs and markup
are read by serving's own text helpers, so a rule is judged by the value serving would give.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any, Iterator

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.interpreter.bundle.pointers import escape_token
from capenv.interpreter.bundle.values import entity_tag_opaque, holds_at_any_depth

from .clock_formats import clock_limit, is_epoch, learn_clock_format, parse_instant as instant_in
# A rule is judged by the slug and text serving would write (slugify is re-exported).
from capenv.interpreter.bundle.text import slugify, strip_markup  # noqa: F401


UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]+")


def instant_and_format(value: Any) -> tuple[datetime, dict[str, Any]] | None:
    """The instant a value names and how it is written (a ``ClockFormat`` as a dict), or None.

    The format is learned as creates learn it (``plans/clock_formats``); an epoch number is an
    instant only within the years 2001-2286, so a small count never reads as a clock.
    """
    fmt = learn_clock_format(value)
    moment = instant_in(value, fmt) if fmt is not None else None
    if moment is None:
        return None
    first, last = clock_limit("epoch_years")
    if is_epoch(fmt) and not first <= moment.year <= last:
        return None
    return moment, fmt.model_dump()


def brief(value: Any) -> str:
    """A value as a miss or note quotes it: its repr, cut to 60 characters."""
    return excerpt(repr(value), 60)


def aware(moment: datetime) -> datetime:
    """A naive datetime is taken as UTC, so recorded start times compare with instants."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def names_call_second(value: Any, started_at: datetime, slack_seconds: int) -> bool:
    """A whole-second instant that is the second the call began in (or up to ``slack`` later,
    for a call that ran across a second boundary)."""
    parsed = instant_and_format(value)
    if parsed is None or parsed[0].microsecond:
        return False
    start = aware(started_at).replace(microsecond=0)
    return start <= parsed[0] <= start + timedelta(seconds=slack_seconds)


def is_uuid(value: Any) -> bool:
    return isinstance(value, str) and UUID_RE.fullmatch(value) is not None


def is_opaque_token(value: Any, min_length: int, max_length: int) -> bool:
    """16-64 letters, digits, ``_`` or ``-``, holding letters and digits both; or an HTTP entity
    tag (``"…"``, ``W/"…"``) around such a token."""
    value = entity_tag_opaque(value) or value
    return (isinstance(value, str) and min_length <= len(value) <= max_length
            and _TOKEN_RE.fullmatch(value) is not None
            and any(c.isalpha() for c in value) and any(c.isdigit() for c in value))


def same_value(a: Any, b: Any) -> bool:
    """JSON equality, with a UUID equal to itself in another letter case (a sent value)."""
    if type(a) is str and type(b) is str:  # the usual case: the UUID pattern only when they differ
        return a == b or (is_uuid(a) and is_uuid(b) and a.lower() == b.lower())
    if is_uuid(a) and is_uuid(b):
        return a.lower() == b.lower()
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, JsonNumber)) and isinstance(b, (int, JsonNumber)):
        return a == b
    return type(a) is type(b) and a == b


def plain_text(text: str) -> str:
    """The text markup aside, as serving strips it, with whitespace runs read as one space."""
    return re.sub(r"\s+", " ", strip_markup(text)).strip()


def has_markup(text: str) -> bool:
    return re.search(r"<[A-Za-z/][^>]*>", text) is not None


def leaves(value: Any, pointer: str = "") -> Iterator[tuple[str, Any]]:
    """Every scalar under ``value`` with its JSON pointer (``/rows/0/id``)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, f"{pointer}/{_escape(key)}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, f"{pointer}/{index}")
    else:
        yield pointer, value


def _escape(key: str) -> str:
    return escape_token(key)


def same_shape(a: Any, b: Any) -> bool:
    """The same object keys and array lengths all the way down (scalars may differ)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_shape(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_shape(x, y) for x, y in zip(a, b))
    return not isinstance(a, (dict, list)) and not isinstance(b, (dict, list))


def changed_leaves(old: Any, new: Any) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """Both values' leaves by pointer, and the pointers whose value changed (``same_shape``
    values: every pointer of ``new`` is one of ``old``)."""
    old_leaves, new_leaves = dict(leaves(old)), dict(leaves(new))
    return old_leaves, new_leaves, [p for p in new_leaves if not same_value(old_leaves[p], new_leaves[p])]


def any_index(pointer: str) -> str:
    """A pointer with every array index as ``*`` (``/rows/0/id`` -> ``/rows/*/id``)."""
    return "/".join("*" if part.isdigit() else part for part in pointer.split("/"))


def holds(haystack: Any, needle: Any) -> bool:
    """``needle`` equals ``haystack`` or a value anywhere inside it (UUIDs in either case)."""
    return holds_at_any_depth(haystack, needle, same_value)


def name_words(name: str) -> list[tuple[int, int, str]]:
    """The words of a member name split on ``_``, ``-``, ``.`` and case: (start, end, lower word)."""
    return [(m.start(), m.end(), m.group().lower())
            for m in re.finditer(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", name)]
