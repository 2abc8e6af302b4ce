"""The runtime's sequence state, apart from the ``sequence`` op (``sequences.py``) that draws from it.

A served sequence value is one more than the largest of three numbers (seeds, "Clock and
generators"): the largest value of the field now held in its scope, the largest the state
started with at its last reset or load, and the largest value served so far — so a deleted
entity's value is not reused, as database sequences do not reuse values.

The runtime keeps one ``SequenceState`` (the last two numbers, per scope), stores it as JSON
beside the clock and the counter, and rebuilds it with ``restart`` on data/reset and data/add.
Where no entity holds the largest number any more (its entity was deleted since), the draft says
so (``deleted_largest``): an application may give that number again, which the ``sequence`` op
refuses to claim it does not unless the capture proved it.
Each served write works on a ``SequenceDraft``: it reads through to the state and keeps what
the write generated apart, so a refused write leaves the state as it was; ``commit`` applies
it in the write's commit. ``OpContext`` carries the draft, so this module imports no op.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Literal, Mapping, NamedTuple

from capenv.interpreter.bundle.global_ids import encode_global_id, global_id
from capenv.interpreter.bundle.jsonvalue import JsonNumber

ScopeKind = Literal["collection", "type"]
_GROUPED_DIGITS = re.compile(r"\d+(?:-\d+)*")
SEQUENCE_LIMIT = 2**64 - 1
"""The largest sequence value: past it the state (meta, the entity) could not be written as JSON
integers. A held value past it counts as the limit (never turned into a Python integer of any
size: ``1e999999999`` or a 10,000-digit string stay cheap); the ``sequence`` op refuses to draw
past it."""
_LIMIT_DIGITS = len(str(SEQUENCE_LIMIT))


class SequenceScope(NamedTuple):
    """Where a sequence counts: a field of one held collection, or of the whole type
    (``collection`` None). A named tuple: one is built per sequence value served."""

    type_name: str
    field: str
    collection: str | None = None


def sequence_number(value: Any) -> int | None:
    """The integer a held value spells: an integer, an integral exact number, a string of
    digits, ``-``-separated digit groups (``000-005`` is 5), or a Relay global id (base64 of
    ``Project:5`` is 5), at most ``SEQUENCE_LIMIT`` (a larger one counts as the limit); None for
    anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return min(value, SEQUENCE_LIMIT)
    if isinstance(value, str):
        if value.isdigit() and value.isascii():
            return _bounded_digits(value)
        if _GROUPED_DIGITS.fullmatch(value):
            return _bounded_digits(value.replace("-", ""))
        decoded = global_id(value)
        return _bounded_digits(decoded[1]) if decoded is not None else None
    if isinstance(value, JsonNumber) and value.is_integral():
        return SEQUENCE_LIMIT if value.value > SEQUENCE_LIMIT else int(value.value)
    return None


def _bounded_digits(digits: str) -> int:
    significant = digits.lstrip("0")
    return SEQUENCE_LIMIT if len(significant) > _LIMIT_DIGITS else min(int(digits), SEQUENCE_LIMIT)


def largest_sequence(values: Iterable[Any]) -> int | None:
    """The largest number among ``values`` (see ``sequence_number``), or None."""
    largest = None
    for value in values:
        number = sequence_number(value)
        if number is not None and (largest is None or number > largest):
            largest = number
    return largest


def format_sequence(number: int, groups: list[int] | None = None, as_string: bool = False,
                    encoded_prefix: str | None = None) -> int | str:
    """``number`` as the field records it: an integer, a string of digits, zero-padded
    ``-``-separated groups of the recorded widths, where digits that outgrow them lead
    (``[3, 3]``: 6 -> ``000-006``, 1000000 -> ``1000-000``), or a Relay global id of
    ``encoded_prefix`` (``Project:``)."""
    if encoded_prefix is not None:
        return encode_global_id(encoded_prefix, number)
    if not groups:
        return str(number) if as_string else number
    digits = str(number).zfill(sum(groups))
    parts, end = [], len(digits)
    for width in reversed(groups[1:]):
        parts.append(digits[end - width:end])
        end -= width
    parts.append(digits[:end])
    return "-".join(reversed(parts))


def sequence_fields(plans: Iterable[Any]) -> set[tuple[str, str, ScopeKind]]:
    """``(type, field, scope kind)`` of every sequence the plans generate (a ``sequence`` rule,
    or an ``identity`` rule of format ``sequence``): what ``SequenceState.restart`` measures."""
    found: set[tuple[str, str, ScopeKind]] = set()
    for plan in [v for p in plans for v in (getattr(p, "variants", ()) or (p,))]:
        for rule in plan.fields:
            params = rule.params
            if rule.op == "sequence" or (rule.op == "identity" and params.get("format") == "sequence"):
                found.add((plan.type, rule.field, params.get("scope", "collection")))
    return found


class SequenceState:
    """Per scope: the largest value at the last reset or load, and the largest served since."""

    __slots__ = ("started", "generated", "started_rows")

    def __init__(self, started: Mapping[SequenceScope, int] | None = None,
                 generated: Mapping[SequenceScope, int] | None = None) -> None:
        self.started: dict[SequenceScope, int] = dict(started or {})
        self.generated: dict[SequenceScope, int] = dict(generated or {})
        # ``started`` as meta's rows, spelled once and shared as ``started`` is (only ever encoded,
        # never changed; ``WriteMeta.commit_json``); None until spelled, and after ``restart``.
        self.started_rows: list[dict[str, Any]] | None = None

    @classmethod
    def continuing(cls, state: SequenceState) -> SequenceState:
        """A write's own copy of ``state``: its own ``generated`` (what ``SequenceDraft.commit``
        changes), sharing ``started`` and its rows, which nothing changes in place (``restart``
        replaces them)."""
        copy = cls.__new__(cls)
        copy.started = state.started
        copy.started_rows = state.started_rows
        copy.generated = dict(state.generated)
        return copy

    def restart(self, fields: Iterable[tuple[str, str, ScopeKind]],
                collections: Iterable[tuple[str, str, Iterable[Mapping[str, Any]]]]) -> None:
        """Measure the state just reset or loaded and forget what was served before.

        ``fields`` as ``sequence_fields`` gives them; ``collections`` as ``(type, held
        collection path, entities)`` for every held collection (read once)."""
        wanted: dict[str, list[tuple[str, ScopeKind]]] = {}
        for type_name, field, kind in fields:
            wanted.setdefault(type_name, []).append((field, kind))
        started: dict[SequenceScope, int] = {}
        for type_name, path, entities in collections:
            scopes = wanted.get(type_name)
            if not scopes:
                continue
            held = list(entities)
            for field, kind in scopes:
                largest = largest_sequence(entity.get(field) for entity in held)
                if largest is None:
                    continue
                scope = SequenceScope(type_name, field, path if kind == "collection" else None)
                if scope not in started or largest > started[scope]:
                    started[scope] = largest
        self.started = started
        self.started_rows = None
        self.generated = {}

    def draft(self, scope_values: Callable[[SequenceScope], Iterable[Any]],
              holds: Callable[[SequenceScope, Iterable[Any]], bool] | None = None) -> SequenceDraft:
        """This write's view; ``scope_values(scope)`` gives the field's values held now in the
        scope (one collection, or every collection of the type), or the largest of them;
        ``holds(scope, spellings)`` whether an entity of the scope holds a value spelled one of
        those ways (None: not known, taken as held)."""
        return SequenceDraft(self, scope_values, holds)

    def apply(self, generated: Mapping[SequenceScope, int]) -> None:
        for scope, number in generated.items():
            if number > self.generated.get(scope, number - 1):
                self.generated[scope] = number

    def to_json(self) -> dict[str, Any]:
        def rows(table: dict[SequenceScope, int]) -> list[dict[str, Any]]:
            return [{"type": s.type_name, "field": s.field, "collection": s.collection, "value": v}
                    for s, v in table.items()]

        return {"started": rows(self.started), "generated": rows(self.generated)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SequenceState:
        def table(rows: Iterable[Mapping[str, Any]]) -> dict[SequenceScope, int]:
            return {SequenceScope(r["type"], r["field"], r.get("collection")): int(r["value"]) for r in rows}

        return cls(table(data.get("started", ())), table(data.get("generated", ())))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, SequenceState) and self.started == other.started
                and self.generated == other.generated)

    def __repr__(self) -> str:
        return f"SequenceState(started={self.started!r}, generated={self.generated!r})"


UNCOUNTED: Any = object()
"""``SequenceDraft``'s default for a scope's count the caller did not read (``counted``)."""


class SequenceDraft:
    """One write's sequences: reads the state and the held values, keeps its own numbers in
    ``pending`` until ``commit``."""

    __slots__ = ("state", "scope_values", "holds", "pending")

    def __init__(self, state: SequenceState, scope_values: Callable[[SequenceScope], Iterable[Any]],
                 holds: Callable[[SequenceScope, Iterable[Any]], bool] | None = None) -> None:
        self.state = state
        self.scope_values = scope_values
        self.holds = holds
        self.pending: dict[SequenceScope, int] = {}

    def largest_current(self, scope: SequenceScope) -> int | None:
        return largest_sequence(self.scope_values(scope))

    def largest_started(self, scope: SequenceScope) -> int | None:
        return self.state.started.get(scope)

    def largest_generated(self, scope: SequenceScope) -> int | None:
        pending, served = self.pending.get(scope), self.state.generated.get(scope)
        return served if pending is None else pending if served is None else max(pending, served)

    def counted(self, scope: SequenceScope) -> int | None:
        """The largest number the scope counts apart from this write's own draws: held now, started
        with at the last reset or load, or served before (None: none). A draw reads it once and
        hands it to ``deleted_largest`` and ``next_number`` (``sequences.generate_sequence``)."""
        largest = largest_sequence(self.scope_values(scope))
        for number in (self.state.started.get(scope), self.state.generated.get(scope)):
            if number is not None and (largest is None or number > largest):
                largest = number
        return largest

    def next_number(self, scope: SequenceScope, counted: int | None | object = UNCOUNTED) -> int:
        """One more than the largest of the scope's current, started, generated and pending numbers
        (1 for none); ``counted``: ``counted(scope)``, when the caller read it already."""
        largest = self.counted(scope) if counted is UNCOUNTED else counted
        pending = self.pending.get(scope)
        if pending is not None and (largest is None or pending > largest):
            largest = pending
        return 1 if largest is None else largest + 1

    def deleted_largest(self, scope: SequenceScope, spelled: Callable[[int], Any],
                        counted: int | None | object = UNCOUNTED) -> int | None:
        """The largest number the scope counts (held, started with, or served before this write)
        when no entity holds it any more, spelled as an integer, a string of digits or
        ``spelled(number)``: the entity holding it was deleted (or changed) since the last reset or
        load. None while it is held, or when held values are not known. ``counted``: as for
        ``next_number``."""
        largest = self.counted(scope) if counted is UNCOUNTED else counted
        if largest is None or self.holds is None or self.holds(scope, (largest, str(largest), spelled(largest))):
            return None
        return largest

    def record(self, scope: SequenceScope, number: int) -> None:
        if number > self.pending.get(scope, number - 1):
            self.pending[scope] = number

    def commit(self) -> None:
        """Apply this write's numbers to the state (in the write's commit)."""
        self.state.apply(self.pending)
        self.pending = {}
