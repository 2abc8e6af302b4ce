"""The reference a query read is proven against: the latest whole listing of the same collection
that finished before the read began, else the first that began after the read ended, with no
write to a related path between the two (the collection is then as the read saw it)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, Callable

from capenv.interpreter.bundle.models import ListLine, ReadView
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import related_paths


@dataclass
class Reference:
    ordinal: int
    members: list[dict[str, Any]]


class References:
    """Finds references for one list view's query reads.

    Indexed because every recording of every query line looks one up: the whole listings are
    grouped by collection once, and the writes related to a line's path are kept as sorted
    ordinals once per path, so a lookup no longer scans all whole listings and all records."""

    def __init__(self, view: ReadView, whole: list[ListLine], whole_ordinals: list[int], records: list[Record],
                 by_ordinal: dict[int, Record], is_write: Callable[[Record], bool]):
        self._view, self._whole, self._whole_ordinals = view, whole, whole_ordinals
        self._records, self.by_ordinal, self._is_write = records, by_ordinal, is_write
        self._listings: dict[str, list[int]] = {}
        self._writes: dict[str, list[int]] = {}

    def reference(self, record: Record, line: ListLine) -> Reference | None:
        listings = [self.by_ordinal[o] for o in self._listings_of(line.collection)]
        before = next((r for r in reversed(listings) if r.finished_at <= record.started_at), None)
        if before is not None and not self._written_between(line.path, before.ordinal, record.ordinal):
            return self._members(before)
        after = next((r for r in listings if r.started_at >= record.finished_at), None)
        if after is not None and not self._written_between(line.path, record.ordinal, after.ordinal):
            return self._members(after)
        return None

    def _written_between(self, path: str, first: int, last: int) -> bool:
        writes = self._writes_related_to(path)
        index = bisect.bisect_right(writes, first)
        return index < len(writes) and writes[index] < last

    def _members(self, reference: Record) -> Reference | None:
        members = locate(reference.response.json_value, self._view.locator)
        return Reference(reference.ordinal, [m for m in members if isinstance(m, dict)]) if isinstance(members, list) else None

    def _listings_of(self, collection: str) -> list[int]:
        """Whole-listing ordinals of ``collection``, in ordinal order."""
        if collection not in self._listings:
            ordinals = {o for line in self._whole if line.collection == collection for o in line.all_record_ordinals}
            self._listings[collection] = [o for o in self._whole_ordinals if o in ordinals]
        return self._listings[collection]

    def _writes_related_to(self, path: str) -> list[int]:
        if path not in self._writes:
            self._writes[path] = sorted(r.ordinal for r in self._records if self._is_write(r) and related_paths(r.path, path))
        return self._writes[path]
