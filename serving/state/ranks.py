"""Ranks: where an entity stands in its collection, kept in the entity's own subject.

A collection's order is the order of its entities' ranks. A rank is a non-empty list of
integers compared element by element (Python list order: a shorter list that is a prefix of
a longer one sorts first). Keeping the order as ranks, not as one list subject per
collection, means a create writes its own entity subject only: a list subject would be
rewritten, and kept again in the store's history, on every create, so a collection of n
entities would cost O(n) bytes per write.

``rank_between(before, after)`` gives a rank strictly between two neighbours (None: the open
end). Appending and prepending stay one integer long; inserting between two neighbours whose
first integers are adjacent adds one level.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

Rank = list[int]


def initial_ranks(count: int) -> list[Rank]:
    """The ranks of a collection installed whole (reset, add): its positions."""
    return [[position] for position in range(count)]


def rank_between(before: Sequence[int] | None, after: Sequence[int] | None) -> Rank:
    """A rank r with before < r < after (``before`` < ``after`` when both are given)."""
    if before is not None and after is not None and not list(before) < list(after):
        raise ValueError(f"no rank between {list(before)} and {list(after)}: they are not in order")
    return _between(list(before) if before else None, list(after) if after else None)


def _between(low: Rank | None, high: Rank | None) -> Rank:
    # None (or an exhausted list) stands for the open end on its side.
    if high is None:
        return [0] if low is None else [low[0] + 1]
    if low is None:
        return [high[0] - 1]
    if high[0] - low[0] >= 2:
        return [low[0] + 1]
    if high[0] - low[0] == 1:
        # Everything under low[0] that is greater than low lies between them.
        return [low[0], *_between(low[1:] or None, None)]
    # Same first integer: high is longer or greater further on; low[1:] empty means low is the prefix.
    return [low[0], *_between(low[1:] or None, high[1:])]


class InstalledRanks:
    """One collection's ranks as an install (reset, add) leaves them, each entity's position in the
    installed order (``initial_ranks``), read and written as a dict of them would be.

    Until a write or a catch-up first reads or changes one, they are kept as that order alone (a
    tuple of the keys): a data/add over a large state used to build a one-integer list per entity
    (four allocations each, more than a third of the objects of the state it then replaced) and
    free them all with it, though no write may ever read them. A writer of the collection takes
    them as the plain dict (``materialized``, ``StateMirror.ranks_of``); read here otherwise, each
    key's position is kept (an int), a rank assigned since as itself, read as ``[position]``."""

    __slots__ = ("_keys", "_held")

    def __init__(self, keys: Iterable[str]) -> None:
        self._keys: tuple[str, ...] | None = tuple(keys)
        self._held: dict[str, Any] | None = None

    def _ranks(self) -> dict[str, Any]:
        held = self._held
        if held is None:
            held = self._held = dict(zip(self._keys or (), range(len(self._keys or ()))))
            self._keys = None
        return held

    def materialized(self) -> dict[str, Rank]:
        """The plain dict of every rank these stand for (what a writer of the collection holds,
        ``StateMirror.ranks_of``: read and changed at dict speed from then on)."""
        if self._held is None:
            return {key: [position] for position, key in enumerate(self._keys or ())}
        return {key: [rank] if type(rank) is int else rank for key, rank in self._held.items()}

    def in_order(self, order: Sequence[str]) -> Iterator[Rank]:
        """The rank of each key of ``order`` in turn (the order the collection holds them in)."""
        keys = self._keys
        if keys is not None and len(keys) == len(order) and keys == tuple(order):
            return ([position] for position in range(len(keys)))  # nothing looked up, nothing kept
        return (self[key] for key in order)

    def __getitem__(self, key: str) -> Rank:
        rank = self._ranks()[key]
        return [rank] if type(rank) is int else rank

    def get(self, key: str, default: Any = None) -> Any:
        rank = self._ranks().get(key)
        return default if rank is None else [rank] if type(rank) is int else rank

    def __setitem__(self, key: str, rank: Rank) -> None:
        self._ranks()[key] = rank

    def pop(self, key: str, default: Any = None) -> Any:
        rank = self._ranks().pop(key, None)
        return default if rank is None else [rank] if type(rank) is int else rank

    def __contains__(self, key: object) -> bool:
        return key in self._ranks()

    def __len__(self) -> int:
        return len(self._keys) if self._keys is not None else len(self._ranks())

    def items(self) -> Iterator[tuple[str, Rank]]:
        for key in list(self._keys) if self._keys is not None else list(self._ranks()):
            yield key, self[key]

    def copy(self) -> InstalledRanks:
        """Another of these the copy may change: the installed order shared (a tuple), or the
        positions and ranks held copied (the rank lists shared, as ``dict.copy`` shares them:
        nothing changes a rank in place)."""
        copied = InstalledRanks(())
        copied._keys = self._keys
        copied._held = None if self._held is None else dict(self._held)
        return copied

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (InstalledRanks, dict)):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"InstalledRanks({self.copy()!r})"


def copy_ranks(ranks: dict[str, Rank] | InstalledRanks) -> dict[str, Rank] | InstalledRanks:
    """A collection's ranks for a copy of the state to change (an instance's, ``copy_mirror``)."""
    return ranks.copy()


def ranks_in_order(ranks: dict[str, Rank] | InstalledRanks, order: Sequence[str]) -> Iterator[Rank]:
    """The rank of each key of ``order`` in turn."""
    if type(ranks) is InstalledRanks:
        return ranks.in_order(order)
    return (ranks[key] for key in order)
