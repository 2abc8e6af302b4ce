"""What the capture shows of an id when a read (or a write) of it began: deleted, never-shown
or shown (``view-absence-answers``, ``write-absence-answers``).

``IdHistories`` indexes the capture once (the successful deletes by the id their path names,
the successful writes by every path segment and every identity-field value they show), so
each read's history looks up the few records naming its id instead of walking every record:
a capture of 4,000 records with 1,000 item reads was 4 million record checks.
"""

from __future__ import annotations

from typing import Any, Callable
from urllib.parse import unquote

from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import same_spelling
from capenv.interpreter.evidence.records import Record


class IdHistories:
    def __init__(self, records: list[Record], is_write: Callable[[Record], bool]) -> None:
        self._records, self._is_write = records, is_write
        self._shown: dict[str, set[str]] = {}
        self._deletes: dict[str, list[Record]] = {}
        self._writes: list[Record] = []
        self._by_segment: dict[str, list[Record]] = {}
        self._by_field: dict[str, dict[str, list[Record]]] = {}
        self._answers_by_field: dict[str, dict[str, list[int]]] = {}
        self._answer_values: dict[int, tuple[set[str], dict[str, set[str]]]] = {}
        self._answered_prefixes: set[tuple[str, ...]] = set()
        for record in records:
            if not record.succeeded:
                continue
            parts = tuple(split_path(record.path))
            self._answered_prefixes.update(parts[:n] for n in range(1, len(parts) + 1))
            if record.method == "DELETE":
                parts = split_path(record.path)
                if parts:
                    self._deletes.setdefault(unquote(parts[-1]), []).append(record)
            if is_write(record):
                self._writes.append(record)
                for segment in decoded_segments(record.path):
                    self._by_segment.setdefault(segment, []).append(record)

    def shown(self, fields: set[str]) -> dict[str, set[str]]:
        """Every value the capture shows under each of ``fields`` (any depth of any successful
        JSON answer), and every path segment a successful write named; each field's read once
        (the item reads' and the item writes' absences ask for the same identity fields)."""
        missing = fields - self._shown.keys()
        if missing:
            self._shown.update(shown_values(self._records, missing, self._is_write, self.values_in))
        return {field: self._shown[field] for field in fields}

    def values_in(self, record: Record, fields: set[str]) -> dict[str, set[str]]:
        """``shown_in`` of ``record``, kept: its answer is walked again only for fields not asked of
        it before (the absences ask the same identity fields of every answer in ``shown``, then
        again one field at a time in ``shown_only_by`` and the write index: each a walk of every
        answer, most of the view's absences)."""
        kept = self._answer_values.get(record.ordinal)
        if kept is None:
            kept = self._answer_values[record.ordinal] = (set(), {})
        asked, found = kept
        missing = fields - asked
        if missing:
            for field, values in shown_in(record, missing).items():
                found[field] = values
            asked |= missing
        return found

    def parent_shown(self, read: Record) -> bool:
        """Whether a successful call named a path at or below ``read``'s parent (its path without
        the last segment); a read at the root's first segment has the root as parent, always shown."""
        parent = tuple(split_path(read.path)[:-1])
        return not parent or parent in self._answered_prefixes

    def of(self, read: Record, id_value: str, field: str, shown: set[str]) -> str:
        """deleted, never-shown or shown: what the capture shows of ``id_value`` when ``read`` began."""
        collection = split_path(read.path)[:-1]
        last = None
        for record in self._deletes.get(id_value, ()):  # in capture order: the last that qualifies wins
            if record.finished_at <= read.started_at and _names(record.path, collection, id_value):
                last = record
        if last is not None and not self._named_since(last, read, id_value, field):
            return "deleted"
        return "shown" if id_value in shown else "never-shown"

    def shown_only_by(self, record: Record, id_value: str, field: str) -> bool:
        """Whether ``record`` alone shows ``id_value``: no other successful write names it in its
        path and no other successful answer holds it under ``field``. A write's own path makes
        its id shown (``shown``), which says nothing of whether the application held it before."""
        if any(other.ordinal != record.ordinal for other in self._by_segment.get(id_value, ())):
            return False
        index = self._answers_by_field.get(field)
        if index is None:
            index = self._answers_by_field[field] = {}
            for other in self._records:
                if other.succeeded:
                    for value in self.values_in(other, {field}).get(field, ()):
                        index.setdefault(value, []).append(other.ordinal)
        return all(ordinal == record.ordinal for ordinal in index.get(id_value, ()))

    def _named_since(self, last: Record, read: Record, id_value: str, field: str) -> bool:
        """A successful write other than ``last`` began in [last's finish, the read's start) and
        named the id in its path or showed it under ``field``."""
        for record in (*self._by_segment.get(id_value, ()), *self._field_index(field).get(id_value, ())):
            if record.ordinal != last.ordinal and last.finished_at <= record.started_at < read.started_at:
                return True
        return False

    def _field_index(self, field: str) -> dict[str, list[Record]]:
        index = self._by_field.get(field)
        if index is None:
            index = self._by_field[field] = {}
            for record in self._writes:
                for value in self.values_in(record, {field}).get(field, ()):
                    index.setdefault(value, []).append(record)
        return index


def _names(path: str, collection: list[str], id_value: str) -> bool:
    parts = split_path(path)
    return (len(parts) == len(collection) + 1 and unquote(parts[-1]) == id_value
            and all(same_spelling(a, b) for a, b in zip(parts, collection)))


def decoded_segments(path: str) -> set[str]:
    return {unquote(p) for p in split_path(path)}


def shown_values(records: list[Record], fields: set[str], is_write: Callable[[Record], bool],
                 values_in: Callable[[Record, set[str]], dict[str, set[str]]] | None = None) -> dict[str, set[str]]:
    """Every value the capture shows under an identity field (any depth of any successful JSON
    answer), and every path segment a successful write named. ``values_in``: a record's ``shown_in``
    kept (``IdHistories.values_in``)."""
    shown: dict[str, set[str]] = {f: set() for f in fields}
    for record in records:
        if not record.succeeded:
            continue
        if values_in is None:
            for field, values in shown_in(record, fields).items():
                shown[field] |= values
        else:
            every = values_in(record, fields)
            for field in fields:
                if field in every:
                    shown[field] |= every[field]
        if is_write(record):
            for field in fields:
                shown[field] |= decoded_segments(record.path)
    return shown


def shown_in(record: Record, fields: set[str]) -> dict[str, set[str]]:
    """The values ``record``'s JSON answer shows under each of ``fields`` (any depth; strings
    and integers, as text)."""
    found: dict[str, set[str]] = {}
    if not record.response.is_json:
        return found
    stack: list[Any] = [record.response.json_value]
    while stack:  # only objects and arrays are pushed: scalars are read where they are held
        value = stack.pop()
        if isinstance(value, dict):
            for field in fields:
                if field in value:
                    held = value[field]
                    if isinstance(held, (str, int)) and not isinstance(held, bool):
                        found.setdefault(field, set()).add(str(held))
            stack.extend(v for v in value.values() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            stack.extend(v for v in value if isinstance(v, (dict, list)))
    return found
