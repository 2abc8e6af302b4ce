"""Learned sorted string arrays (DESIGN §5 "sorted_arrays"; seeds write-effects, "The gate").

An app may store a string array sorted while the gate's copy keeps it in the order a write
sent it. A failed item or list read the gate counts then passes when sorting some string-array
fields of the rendered entities reproduces it, and each such field qualifies: the recorded
order is sorted and differs from both the written order and the order the values were first
held in (else the read shows how the values arrived, not a sort). The fewest fields that make
the read reproduce join the type's set; every view of the type sorts them, except a view some
read showed the field unsorted in (that read rules it out for its view). A create whose own
answer showed a sent array sorted (its echo sorts, ``field.sorted-echo``) teaches its field too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Iterable

from capenv.interpreter.bundle.models import EntityType, ReadView, StateSnapshot, ViewResult, WritePlan
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.view.read_gate import answer_read, compare
from capenv.serving.reads.render import is_string_array
from capenv.serving.state.index import StateIndex

"""Candidates beyond this many are tried all together only (subsets would grow as 2**n)."""


@dataclass
class SortedArrays:
    initial: StateSnapshot | None = None
    learned: dict[str, set[str]] = field(default_factory=dict)
    """Entity type -> fields the type's views sort (what made reads pass)."""
    ruled_out: dict[str, set[str]] = field(default_factory=dict)
    """View tool -> fields a read of that view listed unsorted."""
    held: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)
    """(type, key, field) -> the field's values in the order the gate first held them."""
    _initial_values: dict[tuple[str, str], dict[str, Any]] | None = None
    exhaustive_up_to: int = 0
    """Set from the ``gate`` setting ``sorted_arrays_exhaustive_up_to``: every subset of candidate fields is
    tried up to this many candidates; past it only all of them together."""

    @classmethod
    def scan(cls, records: dict[int, Record], views: dict[str, ReadView], tool_of: dict[int, str],
             initial: StateSnapshot | None = None) -> SortedArrays:
        """Rule out, before replay, every field a read the gate may count lists unsorted: a
        ruling taken later would leave earlier passes relying on a sort its view no longer does."""
        found = cls(initial=initial)
        for ordinal, record in records.items():
            view = views.get(tool_of.get(ordinal, ""))
            if view is None or view.kind not in ("item", "list") or not view.state_backed:
                continue
            if not record.primary or record.method != "GET" or not record.succeeded or not record.response.is_json:
                continue
            for entity in _shown_entities(record, view):
                for name, value in entity.items():
                    # every member of every entity every read shows: the cheap test first
                    if isinstance(value, list) and is_string_array(value) and value != sorted(value):
                        found.ruled_out.setdefault(view.tool, set()).add(name)
        return found

    def learn_from_plans(self, plans: Iterable[WritePlan]) -> None:
        """A create whose answer showed a sent string array sorted (its echo rule sorts it): the
        type's views sort that field too, so a later write's echo reads back as the app shows it."""
        for plan in plans:
            if plan.effect != "create" or not plan.type or plan.build_reason is not None:
                continue
            for rule in plan.fields:
                if rule.op == "echo" and rule.params.get("sorted"):
                    self.learned.setdefault(plan.type, set()).add(rule.field)

    def fields_for(self, view: ReadView) -> tuple[str, ...]:
        return tuple(sorted(self.learned.get(view.type or "", set()) - self.ruled_out.get(view.tool, set())))

    def current(self, view: ReadView | None) -> ReadView | None:
        """The view as the gate renders it now: sorting what its type learned so far."""
        if view is None or view.kind not in ("item", "list"):
            return view
        fields = self.fields_for(view)
        return view if fields == view.sorted_arrays else view.model_copy(update={"sorted_arrays": fields})

    def note_written(self, copy: StateIndex, applied: Iterable[tuple]) -> None:
        """After a modelled write: each string-array value it left joins the first-held order."""
        for target in applied:
            if target[0] != "entity":
                continue
            _, type_name, key = target
            for held in copy.collections_of(type_name):
                entity = held.entities.get(key)
                if entity is None:
                    continue
                for name, value in entity.items():
                    if is_string_array(value):
                        order = self._first_held(type_name, key, name)
                        order.extend(v for v in value if v not in order)

    def passing_view(self, record: Record, view: ReadView, entity_type: EntityType, copy: StateIndex,
                     types: dict[str, EntityType], line: Any, absence_statuses: tuple[int, ...]) -> ReadView | None:
        """The view sorting the fewest qualifying fields more that makes this failed read
        reproduce (subsets by size, then by name), its type learning them; None when none does."""
        candidates = self._candidates(record, view, entity_type, copy)
        if not candidates:
            return None
        sizes = range(1, len(candidates) + 1) if len(candidates) <= self.exhaustive_up_to else [len(candidates)]
        base = set(view.sorted_arrays)
        for size in sizes:
            for subset in combinations(candidates, size):
                trial = view.model_copy(update={"sorted_arrays": tuple(sorted(base | set(subset)))})
                answer, is_list, _ = answer_read(trial, record, types, copy, line=line)
                if compare(answer, record, trial, is_list=is_list, absence_statuses=absence_statuses) is None:
                    self.learned.setdefault(entity_type.name, set()).update(subset)
                    return trial
        return None

    def _candidates(self, record: Record, view: ReadView, entity_type: EntityType, copy: StateIndex) -> list[str]:
        """Fields some shown entity records sorted, in another order than the copy holds it
        (the written order) and than the first-held order; an entity whose recorded order is
        explained otherwise disqualifies the field."""
        if not record.succeeded or not record.response.is_json:
            return []
        excluded = self.ruled_out.get(view.tool, set()) | set(view.sorted_arrays)
        qualifying: set[str] = set()
        disqualified: set[str] = set()
        for shown in _shown_entities(record, view):
            key = shown.get(entity_type.id_field)
            held = _held_value(copy, entity_type.name, key) if key is not None else None
            if held is None:
                continue
            for name, recorded in shown.items():
                written = held.get(name)
                if name in excluded or not is_string_array(recorded) or not is_string_array(written):
                    continue
                if recorded == written or recorded != sorted(written):
                    continue  # the same order, or other values: sorting is not what differs
                first = self.held.get((entity_type.name, str(key), name)) or self._initial(entity_type.name, key, name)
                if first is not None and [v for v in first if v in recorded] == recorded:
                    disqualified.add(name)
                else:
                    qualifying.add(name)
        return sorted(qualifying - disqualified)

    def _first_held(self, type_name: str, key: str, name: str) -> list[str]:
        slot = (type_name, key, name)
        if slot not in self.held:
            self.held[slot] = list(self._initial(type_name, key, name) or [])
        return self.held[slot]

    def _initial(self, type_name: str, key: Any, name: str) -> list[str] | None:
        """The field's value in the initial state (indexed on first need: most builds never ask)."""
        if self._initial_values is None:
            self._initial_values = {(c.type, str(e.id)): e.value for c in (self.initial.collections if self.initial
                                                                          else ()) for e in c.entities}
        value = self._initial_values.get((type_name, str(key)), {}).get(name)
        return list(value) if is_string_array(value) else None


def _shown_entities(record: Record, view: ReadView) -> list[dict[str, Any]]:
    if view.locator is None:
        return []
    located = locate(record.response.json_value, view.locator)
    if view.kind == "item":
        return [located] if isinstance(located, dict) else []
    return [m for m in located if isinstance(m, dict)] if isinstance(located, list) else []


def _held_value(copy: StateIndex, type_name: str, key: Any) -> dict[str, Any] | None:
    for held in copy.collections_of(type_name):
        if str(key) in held.entities:
            return held.entities[str(key)]
    return None


def with_sorted_arrays(view: ViewResult, learned: SortedArrays) -> ViewResult:
    """The bundle's views, each sorting the fields its type learned (less those ruled out for it)."""
    if not learned.learned:
        return view
    views = tuple(learned.current(v) for v in view.views)
    return view.model_copy(update={"views": views})
