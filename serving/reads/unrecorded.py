"""Replay within what the state allows (DESIGN.md §5 "Replay"): a replayed answer is never
another entity's recording, and never a recording the state has left behind.

* A call the replayer finds no recording for, whose path no recording names, is an item read
  of an entity no recording names: it answers the application's learned absence answer when
  the state does not hold the entity either (``state.view: "missing"``) and its id is one the
  absence covers (``absence_shapes``) and no initial recording shows it (``initial_sightings``),
  else it is a tool error (HTTP 404) saying nothing was recorded for it.
* A recording made after the capture's first write that shows a value one of the capture's
  writes sent (``written_values``) answers never: it shows the state the capture left.
* A recording made after a successful write at its path, beneath it or above it
  (``written_paths``) answers never: it may show what that write did.
* A recording made after the capture's first write that holds another number in a member every
  initial answer of its shape held alike (``moved_counters``: a store-wide write count) answers
  never: the capture's writes moved that counter.
* A recording of a document read whose view the state backs at other paths answers only when
  it was recorded before the capture's first write: a later one shows the document as the
  capture's writes left it (a write at its path, or through another API over the same data).
* A recording of a read beneath the path of a document the state holds that shows a part of it
  (``/settings/theme`` beside ``/settings``), or above it that holds it whole, answers only while that
  document is as the capture began: once a served write (or data/add) changed it, the recording shows
  it as it was.
* A recording of a read whose tool reads state types (``ReplayTable.reads_types``) answers only
  while it cannot contradict the state: it was recorded before the capture's first write, and
  no served write (nor data/add) has changed those types since. Otherwise the read is refused:
  it is not modelled over the current state.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import decode_once, holds_at_any_depth
from capenv.serving.read_call import CallRefused, ReadCall, Served, quoted
from capenv.serving.state.index import StateIndex
from capenv.serving.state.shallow import item_collection_path
from capenv.serving.state.spellings import held_spelled_otherwise, other_spelling_refusal

from .absence import absence_answer, named_value, provenance, refuse_other_key_spelling, refuse_unshaped_absence
from .absence_shapes import AbsenceShapesCache
from .id_layouts import unproven_layout
from .key_aliases import refuse_aliased_key
from .answers import from_recording
from .parents import missing_parent, refuse_held_elsewhere, unheld_collection, untracked_type
from .replay import Replayer
from .initial_sightings import InitialSightings
from .moved_counters import moved_counters
from .written_paths import after_related_writes
from .written_values import showing_writes


class GuardedReplay:
    def __init__(self, bundle: Bundle, replayer: Replayer, *, guarded: bool) -> None:
        self._replayer = replayer
        self._absence_shapes = AbsenceShapesCache(replayer)
        self._bundle = bundle
        self._views = {v.tool: v for v in bundle.view.views}
        self._types = {t.name: t for t in bundle.view.types}
        self._reads = bundle.replay.reads_types if guarded else {}
        self._guarded = guarded
        self._sightings = InitialSightings(bundle.view, bundle.replay)
        self._initial: dict[str, dict[str, list[dict[str, Any]]]] = {}
        self._initial_documents: dict[str, Any] = {}
        self._showing_writes: set[int] = set()
        self._after_writes: dict[int, int] = {}
        self._moved_counters: dict[int, str] = {}
        self._queries = {c.ordinal: c.query for calls in bundle.replay.tools.values() for c in calls}
        if guarded:
            tool_of = {call.ordinal: name for name, calls in bundle.replay.tools.items() for call in calls}
            self._showing_writes = showing_writes(
                (call for calls in bundle.replay.tools.values() for call in calls),
                {post.tool for post in bundle.view.read_only_posts}, tool_of)
            self._after_writes = after_related_writes(
                (call for calls in bundle.replay.tools.values() for call in calls),
                {post.tool for post in bundle.view.read_only_posts}, tool_of)
            self._moved_counters = moved_counters(call for calls in bundle.replay.tools.values() for call in calls)
            initial = StateIndex.from_snapshot(bundle.view.state)
            self._initial = {name: _held(initial, name) for name in self._types}
            self._initial_documents = dict(initial.documents)

    @cached_property
    def _initial_index(self) -> StateIndex:
        """The initial state, for the ids the capture shows when serving holds no state (--replay-only)."""
        return StateIndex.from_snapshot(self._bundle.view.state)

    def answer(self, call: ReadCall, state: StateIndex | None) -> Served:
        found = self._replayer.find(call)
        if found is None:
            if not self._replayer.same_path(call):
                missing = self._missing(call, state)
                if missing is not None:
                    return missing
            raise CallRefused(self._replayer.nothing_recorded(call), http_status=404)
        recorded, exact = found
        if state is not None:
            self._check(call, recorded, state)
        return Served(from_recording(recorded.response), {"replay": {"exact_match": exact, "record": recorded.ordinal}})

    def _missing(self, call: ReadCall, state: StateIndex | None) -> Served | None:
        """The learned absence answer for an entity no recording names, unless the state holds it
        (with no state, under --replay-only, the capture is all there is)."""
        view = self._views.get(call.tool.name)
        if view is None or view.kind != "item" or view.absence is None or view.type not in self._types:
            return None
        entity_type = self._types[view.type]
        raw_id = split_path(call.path)[-1]
        field = view.key_field or entity_type.id_field
        self._refuse_unproven_query(view, call)
        collection = state.find_collection(item_collection_path(state, call.path, entity_type, field),
                                           entity_type.name) if state else None
        if collection is not None and state is not None and state.find_entity(collection, raw_id, field, entity_type.id_field,
                                                                                  entity_type.either_key, entity_type.address):
            raise CallRefused(f'the state holds the {entity_type.name} whose "{field}" is "{decode_once(raw_id)}", '
                              f"but {call.tool.name} answers by replay ({view.reason}) and no recording names it, "
                              "so nothing was recorded for it", http_status=404)
        if collection is not None and (held := held_spelled_otherwise(collection, raw_id, field, entity_type.id_field)):
            raise CallRefused(other_spelling_refusal(entity_type.name, raw_id, held), http_status=409)
        parent = missing_parent(call.path, self._types, state, entity_type.name if field != entity_type.id_field
                                else None) if state is not None else None
        if parent is not None:
            raise CallRefused(f"nothing was recorded for {call.tool.spelled(call.path)}: {parent}, and the capture shows how the "
                              "application answers a missing entity only under one it holds", http_status=404)
        if state is not None:
            unheld = unheld_collection(item_collection_path(state, call.path, entity_type, field), entity_type,
                                       state) or untracked_type(entity_type, state) if collection is None else None
            if unheld is not None:
                raise CallRefused(f"nothing was recorded for {call.tool.spelled(call.path)}: {unheld}", http_status=404)
            refuse_held_elsewhere(call.path, entity_type, raw_id, field, state,
                                  scoped=view.other_parent_absence is not None)
        self._sightings.refuse_shown(entity_type, collection.path if collection is not None
                                     else item_collection_path(state, call.path, entity_type, field), call.path,
                                     raw_id, field, call.tool.spelled(call.path),
                                     scoped=view.other_parent_absence is not None)
        unlike = self._absence_shapes.unlike(view, call.tool.name, call.path, raw_id)
        if unlike is not None:
            raise CallRefused(unlike, http_status=404)
        refuse_unshaped_absence(view.absence, raw_id, state if state is not None else self._initial_index,
                                type_name=entity_type.name, field=field, id_field=entity_type.id_field,
                                address=entity_type.address)
        laid_out = unproven_layout(view.unproven_id_shapes, raw_id, type_name=entity_type.name)
        if laid_out is not None:
            raise CallRefused(laid_out, http_status=404)
        refuse_aliased_key(view, raw_id, type_name=entity_type.name, field=field)
        refuse_other_key_spelling(entity_type.either_key if field == entity_type.id_field else None,
                                  named_value(view.absence), raw_id, type_name=entity_type.name,
                                  path=call.tool.spelled(call.path))
        answer = absence_answer(view.absence, raw_id, evidence_id=self._bundle.view.evidence_id,
                                tool=call.tool.name, path=call.path)
        label = {"source": "state", "view": "missing", "type": entity_type.name,
                 "collection": collection.path if collection is not None else item_collection_path(
                     state, call.path, entity_type, field),
                 "id": decode_once(raw_id)}
        return Served(answer, {"state": label, "absence": provenance(view.absence)})

    def _refuse_unproven_query(self, view: Any, call: ReadCall) -> None:
        """A call sending a query parameter the read the view's absence answer was learned from did
        not send is refused: the query may scope the lookup (Mistral's ?namespace=) or be worded into
        the answer, which the learned absence, recorded without it, cannot show (``view/absence``)."""
        sent = {decode_once(name) for name, _ in call.query}
        if not sent:
            return
        chosen = view.absence.recording.ordinal
        proven = {decode_once(name) for name, _ in self._queries.get(chosen, ())}
        unproven = sorted(sent - proven)
        if unproven:
            raise CallRefused(f"nothing was recorded for {call.tool.spelled(call.path)} with query parameter "
                              f"{quoted(unproven, self._bundle.view.budgets.values_quoted)}: the application's "
                              "answer to a missing entity was recorded only for reads without it, and a query may "
                              "scope the lookup or be worded into the answer", http_status=404)

    def _check(self, call: ReadCall, recorded: Any, state: StateIndex) -> None:
        if recorded.ordinal in self._showing_writes:
            raise CallRefused(
                f"{call.tool.name} is not modelled over the current state: its recording (record "
                f"{recorded.ordinal}) was made after the capture's own writes and shows a value one of them sent, "
                "so it shows the state as the capture left it, not as this environment holds it", http_status=409)
        view = self._views.get(call.tool.name)
        if (self._guarded and not recorded.initial and view is not None and view.kind == "document"
                and any(line.state_backed for line in view.documents)):
            raise CallRefused(
                f"{call.tool.name} is not modelled over the current state at {call.path}: the state holds this "
                f"view's documents at other paths, and this one's recording (record {recorded.ordinal}) was made "
                "after the capture's own writes, so it shows the document as the capture left it, which any of "
                "those writes may have changed; the paths the state holds answer from it", http_status=409)
        if recorded.ordinal in self._after_writes:
            raise CallRefused(
                f"{call.tool.name} is not modelled over the current state at {call.path}: its recording (record "
                f"{recorded.ordinal}) was made after the capture's own write at its place (record "
                f"{self._after_writes[recorded.ordinal]}: that path, one beneath it or one above it), so it may show "
                "what that write did, not what this environment holds", http_status=409)
        if recorded.ordinal in self._moved_counters:
            raise CallRefused(
                f"{call.tool.name} is not modelled over the current state: its recording (record "
                f"{recorded.ordinal}) was made after the capture's own writes and holds another "
                f'"{self._moved_counters[recorded.ordinal]}" than every answer of its shape the capture made before '
                "them held alike (a counter those writes moved), so it shows the state as the capture left it",
                http_status=409)
        changed_document = self._changed_document_over(call.path, recorded.response, state) if self._guarded else None
        if changed_document is not None:
            raise CallRefused(
                f"{call.tool.name} is not modelled over the current state at {call.path}: its recording (record "
                f"{recorded.ordinal}) shows a part of the document the state holds at {changed_document} (or a whole "
                "holding it), and served writes (or data/add) have changed that document since the capture began, "
                "so the recording shows it as it was and nothing evaluates this read over the state (the state "
                f"answers {changed_document} itself; data/reset brings the recording back)", http_status=409)
        types = self._reads.get(call.tool.name, ())
        if not types:
            return
        if not recorded.initial:
            raise CallRefused(
                f"{call.tool.name} is not modelled over the current state: its recording (record "
                f"{recorded.ordinal}) was made after the capture's own writes, so it shows {_names(types)} as "
                "the capture left them, not as this environment holds them; no learned query evaluates this "
                "read over the state", http_status=409)
        changed = [name for name in types if _held(state, name) != self._initial.get(name)]
        if changed:
            raise CallRefused(
                f"{call.tool.name} is not modelled over the current state: its recording (record "
                f"{recorded.ordinal}) shows {_names(changed)} as the capture began, and served writes (or "
                "data/add) have changed them since; no learned query evaluates this read over the state "
                "(data/reset brings the recording back)", http_status=409)


    def _changed_document_over(self, path: str, recording: Any, state: StateIndex) -> str | None:
        """A document the state holds beneath ``path`` or above it (segment by segment, either spelling
        once percent-decoded) whose value is no longer the initial one, where the recording shows a part
        of it (a JSON value nested in the initial document: ``/settings/theme`` answering ``"dark"``
        beside ``/settings``) or holds it whole (``/config`` beside ``/config/sub``): the recording shows
        that part as it was. A related read that shows neither (an API root's index) is not its alias."""
        if not recording.is_json or recording.body is None:
            return None
        parts = _segments(path)
        for held_path, value in state.documents.items():
            held = _segments(held_path)
            beneath = len(held) < len(parts) and parts[:len(held)] == held
            above = len(parts) <= len(held) and held[:len(parts)] == parts
            if not (beneath or above):
                continue
            initial = self._initial_documents.get(held_path, _UNHELD)
            if initial is _UNHELD or value == initial:
                continue
            whole, part = (initial, recording.body) if beneath else (recording.body, initial)
            if holds_at_any_depth(whole, part):
                return held_path
        return None




_UNHELD = object()


def _segments(path: str) -> list[str]:
    return [decode_once(part) for part in split_path(path.split("?", 1)[0])]


def _held(state: StateIndex, type_name: str) -> dict[str, list[dict[str, Any]]]:
    return {c.path: c.members() for c in state.collections_of(type_name) if c.order}


def _names(types: Any) -> str:
    return ", ".join(f'"{t}"' for t in types)
