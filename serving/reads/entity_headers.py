"""The headers an answer rendered from the state may carry over from the recording it renders into.

A view's base recording (and a write plan's exemplar answer) was one entity's answer. Some of its
headers describe that entity, not the body: its version (``ETag``, ``Last-Modified``) and its
address (``Location``, ``Content-Location``). Sent with another entity, or with the same entity
after a write, they would name a version or an address the state does not hold, so an answer
rendered from the state leaves them out; a replay, which answers with the recording itself,
keeps them.
"""

from __future__ import annotations

import functools

ENTITY_HEADERS = frozenset({"etag", "last-modified", "location", "content-location"})
KEPT = 4096
"""How many recordings' header sets are kept worked out: the same few bases answer call after call."""

Pairs = tuple[tuple[str, str], ...]


def state_headers(recorded: Pairs) -> Pairs:
    """``recorded`` less the headers that describe the recorded entity."""
    try:
        return _without_entity_headers(recorded)
    except TypeError:  # pairs held as lists (a bundle read back from JSON) cannot be a cache key
        return _without_entity_headers.__wrapped__(tuple(map(tuple, recorded)))


@functools.lru_cache(maxsize=KEPT)
def _without_entity_headers(recorded: Pairs) -> Pairs:
    if not any(name.lower() in ENTITY_HEADERS for name, _ in recorded):
        return recorded
    return tuple((name, value) for name, value in recorded if name.lower() not in ENTITY_HEADERS)
