"""Headers of a list answer that describe the listed collection as recorded (``rules/list-headers.yaml``).

A list's base recording may carry headers that count or page what it listed: json-server's
``X-Total-Count``, WordPress's ``X-WP-Total`` and ``X-WP-TotalPages``, a ``Link`` naming the next
page. Rendered from the state for another query, or after the collection changed, they would
count a collection the state no longer holds: such an answer is not given (the reason names the
header), while the answer to the very query of the recording, over the collection it recorded,
keeps them as recorded.
"""

from __future__ import annotations

import functools
import re
from typing import Callable

from capenv.interpreter.bundle.rule_data import setting_value

Pairs = tuple[tuple[str, str], ...]
_REL = re.compile(r"""rel\s*=\s*"?([^";,]+)"?""", re.IGNORECASE)


HEADER_SETS_KEPT = 4096
"""How many recordings' header sets are kept judged (``collection_headers``). Not a budget: the
size of a memo of a pure function, shared by every bundle the process serves (a fleet's instances)
and sized at import, so it cannot follow one bundle's budgets; no answer depends on it, only how
often the same work is done again."""


def collection_headers(headers: Pairs) -> tuple[str, ...]:
    """The headers (as recorded) that describe the listed collection. The same few recordings
    answer list after list, so each one's headers are judged once."""
    try:
        return _collection_headers(headers)
    except TypeError:  # headers that are not a tuple of pairs cannot be a cache key
        return _collection_headers.__wrapped__(tuple(map(tuple, headers)))


@functools.lru_cache(maxsize=HEADER_SETS_KEPT)
def _collection_headers(headers: Pairs) -> tuple[str, ...]:
    names, relations = _describing()
    found = []
    for name, value in headers:
        lower = name.lower()
        if lower in names:
            found.append(name)
        elif lower == "link" and any(rel in relations for match in _REL.finditer(value)
                                     for rel in match.group(1).lower().split()):
            found.append(name)
    return tuple(found)


@functools.cache
def _describing() -> tuple[frozenset[str], frozenset[str]]:
    """The header names (lower case) and the ``Link`` relations that describe a listed collection."""
    return (frozenset(name.lower() for name in setting_value("list-headers", "collection_headers")),
            frozenset(rel.lower() for rel in setting_value("list-headers", "paging_link_relations")))


def unheld_headers(headers: Pairs, still_recorded: Callable[[], bool]) -> str | None:
    """Why the answer cannot carry its base's headers (None: it can): a header describing the
    collection, unless ``still_recorded()`` says the answer is the recording's own."""
    found = collection_headers(headers)
    if not found or still_recorded():
        return None
    return (f"its recording's {', '.join(sorted(set(found)))} header(s) describe the collection as recorded, which "
            "the state cannot say for this call (another query, or the collection has changed since)")
