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

from collections.abc import Sequence

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
