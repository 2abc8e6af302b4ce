"""Which replayed recordings were made after a write to their own place (DESIGN.md §5 "Replay").

A read recorded after a successful write at its path, beneath it (a key made in the directory it
lists) or above it (a directory deleted with what it holds), segment by segment once percent-decoded,
may show what that write did, whether or not its answer repeats anything the write sent (etcd's
``PUT /v2/keys/staging`` with ``dir=true``, then ``GET /v2/keys/staging``): replaying it would answer
with a place this environment never made, so replay refuses it. A recording made before any such
write (the state the capture began from) is not concerned.
"""

from __future__ import annotations

from typing import Iterable

from capenv.interpreter.bundle.models import RecordedCall
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once

from .written_values import READ_METHODS


def after_related_writes(calls: Iterable[RecordedCall], read_only_tools: set[str],
                         tool_of: dict[int, str]) -> dict[int, int]:
    """Ordinal of each later (not initial) recorded read -> the ordinal of the last successful write
    before it whose path is the read's, beneath it or above it."""
    written: list[tuple[int, tuple[str, ...]]] = []
    found: dict[int, int] = {}
    for call in sorted(calls, key=lambda c: c.ordinal):
        if not (call.method in READ_METHODS or tool_of.get(call.ordinal) in read_only_tools):
            if 200 <= call.response.status < 300:
                written.append((call.ordinal, _segments(call.path)))
            continue
        if call.initial or not written:
            continue
        read = _segments(call.path)
        related = [ordinal for ordinal, path in written if _related(read, path)]
        if related:
            found[call.ordinal] = related[-1]
    return found


def _related(read: tuple[str, ...], write: tuple[str, ...]) -> bool:
    shorter = min(len(read), len(write))
    return read[:shorter] == write[:shorter]


def _segments(path: str) -> tuple[str, ...]:
    return tuple(decode_once(part) for part in split_path(path.split("?", 1)[0]))
