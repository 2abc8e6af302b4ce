"""The memory store's record ids: what an exact retry returns, kept by the types a commit wrote,
and bounded by count (``MemoryStore.bound_records``; the budget ``memory_store_commits``).

Each record is filed under its commit's **stamp**: the types it wrote, each with the generation
of the rows that type had then (a replace gives its types new rows, so a new generation). A
record stays while one type of its stamp still has those rows; a replace that leaves no type of a
stamp as it was drops the stamp's whole group in one step (``drop_replaced``): nothing is walked
under the store's lock, however many records the replaced state had, and the groups go to the
caller to free after it.

With a bound, the oldest records beyond it are forgotten in commit order (``evictions``): their
ids are kept as 64-bit fingerprints (eight bytes each once merged, ``Fingerprints``), so a retry
of a forgotten id is refused (``RecordForgotten``), never committed again as a new request. A
fingerprint lasts as long as its record would have: a replace that drops a stamp's group drops
its fingerprints too (a record id belongs to the state it was used on, as before the bound).
"""

from __future__ import annotations

import bisect
from array import array
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

Stamp = tuple[tuple[str, int], ...]
"""The types a commit wrote, each with the generation of its rows then, sorted."""

Record = tuple[Any, Any]
"""(what an exact retry must repeat, the commit as accepted)."""

MERGE_AT = 4096
"""Fingerprints held in a set before they are merged into the sorted array (8 bytes each):
a set costs ~60 bytes a member, the merge is linear; not a heuristic, a memory/time trade."""


class Fingerprints:
    """A set of 64-bit fingerprints of record ids (``hash``: stable within the process, which is
    all a memory store lives), recent ones in a set, the rest merged into one sorted array."""

    __slots__ = ("_recent", "_merged")

    def __init__(self) -> None:
        self._recent: set[int] = set()
        self._merged = array("q")

    def add(self, record_id: str) -> None:
        self._recent.add(hash(record_id))
        if len(self._recent) >= MERGE_AT:
            self._merged = array("q", sorted([*self._merged, *self._recent]))
            self._recent = set()

    def __contains__(self, record_id: str) -> bool:
        fingerprint = hash(record_id)
        if fingerprint in self._recent:
            return True
        merged = self._merged
        if not merged:
            return False
        at = bisect.bisect_left(merged, fingerprint)
        return at < len(merged) and merged[at] == fingerprint

    def __len__(self) -> int:
        return len(self._recent) + len(self._merged)


class Records:
    """Record id -> ``Record``, grouped by stamp, with the order they were committed in."""

    def __init__(self) -> None:
        self.groups: dict[Stamp, dict[str, Record]] = {}
        self.forgotten: dict[Stamp, Fingerprints] = {}
        self.order: deque[tuple[Stamp, str]] = deque()  # (stamp, record id), oldest first, kept with a limit
        self.limit: int | None = None

    def find(self, record_id: str) -> Record | None:
        for group in self.groups.values():
            found = group.get(record_id)
            if found is not None:
                return found
        return None

    def was_forgotten(self, record_id: str) -> bool:
        for fingerprints in self.forgotten.values():  # asked on every commit once one was forgotten
            if record_id in fingerprints:
                return True
        return False

    def add(self, stamp: Stamp, record_id: str, record: Record) -> None:
        group = self.groups.get(stamp)
        if group is None:
            group = self.groups[stamp] = {}
        group[record_id] = record
        if self.limit is not None:
            self.order.append((stamp, record_id))

    def evictions(self) -> Iterator[Any]:
        """Forget the oldest records past the limit, yielding each one's commit (its history
        entries are the store's to prune)."""
        limit = self.limit
        if limit is None:
            return
        order = self.order
        while len(order) > limit:
            stamp, record_id = order.popleft()
            group = self.groups.get(stamp)
            record = group.pop(record_id, None) if group is not None else None
            if record is None:
                continue  # dropped by a replace or a compaction already
            if not group:
                del self.groups[stamp]
            fingerprints = self.forgotten.get(stamp)
            if fingerprints is None:
                fingerprints = self.forgotten[stamp] = Fingerprints()
            fingerprints.add(record_id)
            yield record[1]

    def evict(self, record_id: str) -> Any | None:
        """Forget one record now, as ``evictions`` would (its place in ``order``, if any, is passed
        over then); its commit, or None when no record has this id."""
        for stamp, group in self.groups.items():
            record = group.pop(record_id, None)
            if record is not None:
                if not group:
                    del self.groups[stamp]
                fingerprints = self.forgotten.get(stamp)
                if fingerprints is None:
                    fingerprints = self.forgotten[stamp] = Fingerprints()
                fingerprints.add(record_id)
                return record[1]
        return None

    def drop_replaced(self, kept: Callable[[str, int], bool]) -> list[Any]:
        """Drop every group (and its fingerprints) no type of whose stamp is ``kept`` (still has
        the rows of that generation); the dropped containers, to free outside the lock."""
        dropped: list[Any] = []
        for table in (self.groups, self.forgotten):
            for stamp in [s for s in table if not any(kept(t, g) for t, g in s)]:
                dropped.append(table.pop(stamp))
        if not self.groups and self.order:  # every entry names a dropped record: the order goes too
            dropped.append(self.order)
            self.order = deque()
        return dropped

    def stamps_touching(self, types: set[str]) -> list[Stamp]:
        return [stamp for stamp in self.groups if any(t in types for t, _ in stamp)]

    def drop_unnamed(self, stamps: list[Stamp], named: set[str]) -> None:
        """Forget the records of these stamps not in ``named`` without a trace (a compaction:
        their ids are free again)."""
        for stamp in stamps:
            group = self.groups[stamp]
            for record_id in [r for r in group if r not in named]:
                del group[record_id]
            if not group:
                del self.groups[stamp]

    def drop_fingerprints(self, types: set[str]) -> None:
        """Forget the fingerprints of every stamp all of whose types are in ``types``."""
        for stamp in [s for s in self.forgotten if all(t in types for t, _ in s)]:
            del self.forgotten[stamp]

    def __len__(self) -> int:
        return sum(len(group) for group in self.groups.values())
