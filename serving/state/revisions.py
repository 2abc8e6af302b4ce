"""The revision of each state subject a process's copy holds (``StateMirror.revisions``): what the
next write of that subject expects.

Kept by subject type, then by subject id: an install's thousands of entity subjects are keyed by
the id strings the store's rows share, not by a ``(type, id)`` tuple each, which a data/add over a
large state had to build with it and free with it (10,000 tuples: a tenth of freeing the state a
data/add replaced). Read and written by ``(type, id)`` keys, as a dict of them would be.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SubjectKey = tuple[str, str]


class Revisions:
    __slots__ = ("by_type",)

    def __init__(self, items: Iterable[tuple[SubjectKey, int]] = ()) -> None:
        self.by_type: dict[str, dict[str, int]] = {}
        for key, revision in items:
            self[key] = revision

    @classmethod
    def at(cls, keys: Iterable[SubjectKey], revision: int) -> Revisions:
        """Every one of ``keys`` at ``revision`` (what an install leaves)."""
        made = cls()
        by_type = made.by_type
        for subject_type, subject_id in keys:
            ids = by_type.get(subject_type)
            if ids is None:
                ids = by_type[subject_type] = {}
            ids[subject_id] = revision
        return made

    def get(self, key: SubjectKey) -> int | None:
        ids = self.by_type.get(key[0])
        return None if ids is None else ids.get(key[1])

    def __contains__(self, key: SubjectKey) -> bool:
        ids = self.by_type.get(key[0])
        return ids is not None and key[1] in ids

    def __getitem__(self, key: SubjectKey) -> int:
        return self.by_type[key[0]][key[1]]

    def __setitem__(self, key: SubjectKey, revision: int) -> None:
        ids = self.by_type.get(key[0])
        if ids is None:
            ids = self.by_type[key[0]] = {}
        ids[key[1]] = revision

    def pop(self, key: SubjectKey, default: int | None = None) -> int | None:
        ids = self.by_type.get(key[0])
        return default if ids is None else ids.pop(key[1], default)

    def items(self) -> Iterator[tuple[SubjectKey, int]]:
        for subject_type, ids in self.by_type.items():
            for subject_id, revision in ids.items():
                yield (subject_type, subject_id), revision

    def __len__(self) -> int:
        return sum(len(ids) for ids in self.by_type.values())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Revisions):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Revisions({dict(self.items())!r})"
