"""Answer a read from the current state, where the view proved it may (DESIGN.md §5,
write-effects "Missing entities", "Lists of a whole collection").

``StateReads.answer`` returns a ``Served`` answer, raises ``CallRefused``, or returns None when
the call is not one the state answers (it then replays):

* **item**: a state-backed item view answers calls whose query is one its checked reads used
  (usually none; a query the gate never saw, such as ``_embed``, may change the shape, so it
  replays). An entity the state does not hold answers with a recorded absence (400/404/410
  or a 2xx JSON null) labelled ``view: "missing"``: the one recorded for this very call when
  there is one (its body may name the id), else the view's latest for an id it covers
  (``absence_shapes``); with none, a tool error naming what the collection holds.
* **list**: the state-backed line the call's path and query match (verbatim spellings first,
  then recorded order). A call with no query and no such line answers from a whole line of
  the collection its path names (labelled ``replay.exact_match: false``, since that line's
  query differs). A call whose query no line matches is evaluated when the view's learned
  queries cover every argument. A whole line that pages answers from its recording once the
  collection holds more entities than its page. A listing of nothing is answered only where the
  view's ``empty_answer`` proves how the application answers one (else refused: Alerta answers an
  empty list with a message and 0 pages, never recorded beside a listing).
* **document**: the state-backed document line the call matches, from the document held at
  that line's path.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable
from urllib.parse import quote

from capenv.interpreter.bundle.models import (
    EitherKey, EntityType, ListLine, ReadView, RecordedCall, Recording, ReplayTable, ViewResult,
)
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.structured_queries import expanded
from capenv.interpreter.bundle.values import decode_once
from capenv.serving.read_call import CallRefused, ReadCall, Served, quoted
from capenv.serving.state.index import StateIndex, key_of
from capenv.serving.state.shallow import item_collection_path
from capenv.serving.state.spellings import held_spelled_otherwise, other_spelling_refusal

from .absence import (absence_answer, named_value, provenance, refuse_other_key_spelling,
                      refuse_reserved_collection, refuse_unshaped_absence)
from .absence_shapes import AbsenceShapesCache
from .id_layouts import unproven_layout
from .key_aliases import refuse_aliased_key
from .list_places import refuse_unplaced
from .malformed_ids import refuse_malformed_shape, replays_malformed
from .collection_headers import unheld_headers
from .answers import Answer, answer_document, answer_item, answer_list, from_recording, line_digest, listed_members
from .call_match import decoded_pairs, path_fit, same_query, single_valued
from .parents import missing_parent, refuse_held_elsewhere, refuse_unlike_holders, unheld_collection
from .projection import (
    Projecting, ProjectionRefused, known_members, named_members, projected_answer, projecting, without_projection,
)
from .queries import containers, held_texts, unproven, unproven_tie, value_kinds
from .redrawn import redrawn_refusal
from .replay import Replayer
from .initial_sightings import InitialSightings
from .skipped_numbers import refuse_skipped
from .summaries import Summaries

PAGE_SIZE_KINDS = ("limit", "end")


class StateReads:
    def __init__(self, view: ViewResult, replay: ReplayTable, replayer: Replayer) -> None:
        self._replayer = replayer
        self._values_quoted = view.budgets.values_quoted
        self._held_values_quoted = view.budgets.held_values_quoted
        self._absence_statuses = view.budgets.absence_statuses
        self._absence_shapes = AbsenceShapesCache(replayer)
        self._evidence_id = view.evidence_id
        self._sightings = InitialSightings(view, replay)
        self._summaries = Summaries(view.state)
        self._types = {t.name: t for t in view.types}
        queries = {c.ordinal: c.query for calls in replay.tools.values() for c in calls}
        # The queries each item view's read gate checked: the only ones it answers from state (a
        # learned projection left out: the entity is projected after).
        self._item_queries = {v.tool: [without_projection(v.projections, queries.get(o, ()))
                                       for o in v.entity_query_ordinals()] or [()]
                              for v in view.views if v.kind == "item"}

    def answer(self, view: ReadView, call: ReadCall, state: StateIndex) -> Served | None:
        try:
            projection = projecting(view.projections, call.query)
        except ProjectionRefused as refused:
            return self._refuse_projection(view, call, refused)
        if projection is None:
            return self._answer(view, call, state)
        return self._projected(view, call, projection, state)

    def _projected(self, view: ReadView, call: ReadCall, projection: Projecting, state: StateIndex) -> Served | None:
        """The call answered without its projection, each entity then projected (a learned absence as it
        is); a value naming what no recording proves is refused before the entity is looked up."""
        try:
            named_members(projection, known_members(view, projection.projection))
        except ProjectionRefused as refused:
            return self._refuse_projection(view, call, refused)
        served = self._answer(view, replace(call, query=projection.rest), state)
        shown = served.provenance.get("state", {}).get("view") if served is not None else None
        if shown not in ("item", "list"):  # a learned absence stands; a recording (a page past its size) is
            return served if shown is not None else None  # not projected: replay answers the call itself
        try:
            answer = projected_answer(served.answer, view, projection)
        except ProjectionRefused as refused:
            return self._refuse_projection(view, call, refused)
        return Served(answer, {**served.provenance, "projection": {
            "param": projection.projection.param, "rule": projection.projection.rule_id,
            "records": list(projection.projection.record_ordinals)}})

    def _refuse_projection(self, view: ReadView, call: ReadCall, refused: ProjectionRefused) -> None:
        """A projection the recordings do not prove: refused, unless this very call was recorded (replay answers it)."""
        found = self._replayer.find(call)
        if found is not None and found[1]:
            return None
        raise CallRefused(f"this {view.type or view.tool} {view.kind} query is not answered: {refused}",
                          http_status=400)

    def _answer(self, view: ReadView, call: ReadCall, state: StateIndex) -> Served | None:
        if view.kind == "item" and view.state_backed and view.type in self._types:
            return self._item(view, self._types[view.type], call, state)
        if view.kind == "list" and view.type in self._types:
            return self._list(view, self._types[view.type], call, state)
        if view.kind == "document":
            return self._document(view, call, state)
        return None

    # --- items --------------------------------------------------------------------------

    def _item(self, view: ReadView, entity_type: EntityType, call: ReadCall, state: StateIndex) -> Served | None:
        if not any(same_query(q, call.query) for q in self._item_queries.get(view.tool, [()])):
            return None
        collection_path = item_collection_path(state, call.path, entity_type, view.key_field)
        refuse_unlike_holders(state, call.path, entity_type, view.key_field)
        raw_id = split_path(call.path)[-1]
        collection = state.find_collection(collection_path, entity_type.name)
        found = None
        if collection is not None:
            _refuse_shared_key(view, entity_type, collection, raw_id, state)
            found = state.find_entity(collection, raw_id, view.key_field or entity_type.id_field, entity_type.id_field,
                                      entity_type.either_key, entity_type.address)
        answered_path, folded = call.path, None
        if found is None and collection is not None and view.letter_case_reads and call.path.endswith(raw_id):
            folded = _held_in_other_letter_case(collection, raw_id, view, entity_type)
            if folded is not None:  # the capture proves the application reads this spelling as the held id
                answered_path = call.path[: len(call.path) - len(raw_id)] + quote(str(folded), safe="")
                found = state.find_entity(collection, quote(str(folded), safe=""),
                                          view.key_field or entity_type.id_field, entity_type.id_field,
                                          entity_type.either_key, entity_type.address)
        held_path = collection.path if collection is not None else collection_path
        if found is None:
            label = _item_label("missing", entity_type, held_path, decode_once(raw_id))
            spelled = call.tool.spelled(call.path)  # the path as the client spelled it, for the checks below
            # an initial recording showing the entity the state never took in (nested in another's
            # answer) outweighs an absence recorded for this very call later, after writes the state
            # may not model (a move away): neither tells what the application holds now
            self._sightings.refuse_shown(entity_type, held_path, call.path, raw_id,
                                         view.key_field or entity_type.id_field, spelled,
                                         call.tool.template, scoped=view.other_parent_absence is not None)
            replayed = self._replayer.find(call)  # once, for the two questions below
            recorded = self._recorded_absence(view, call, replayed)
            if recorded is not None:
                return Served(from_recording(recorded, source="state"), {"state": label})
            if replays_malformed(view, replayed):
                return None  # refused for its id's shape when recorded: replay answers this very call
            refuse_malformed_shape(view, self._replayer.calls(view.tool),
                                   (c.ids[k] for c in state.collections_of(entity_type.name) for k in c.order),
                                   raw_id, entity_type.name)
            if collection is not None and (held := held_spelled_otherwise(
                    collection, raw_id, _looked_up_by(view, entity_type, raw_id), entity_type.id_field)):
                raise CallRefused(other_spelling_refusal(entity_type.name, raw_id, held), http_status=409)
            unlike = self._absence_shapes.unlike(view, view.tool, call.path, raw_id)
            if unlike is not None:
                raise CallRefused(unlike, http_status=404)
            parent = missing_parent(call.path, self._types, state, _keyed_type(view, entity_type))
            if parent is not None and (view.absence is not None or view.missing is not None):
                raise CallRefused(f"nothing was recorded for {spelled}: {parent}, and the capture shows how "
                                  "the application answers a missing entity only under one it holds",
                                  http_status=404)
            unheld = unheld_collection(held_path, entity_type, state) if collection is None else None
            if unheld is not None and (view.absence is not None or view.missing is not None):
                raise CallRefused(f"nothing was recorded for {spelled}: {unheld}", http_status=404)
            if view.absence is not None or view.missing is not None:
                refuse_held_elsewhere(call.path, entity_type, raw_id, view.key_field or entity_type.id_field, state,
                                      scoped=view.other_parent_absence is not None)
            if view.absence is not None:
                refuse_reserved_collection(view.absence, held_path, spelled)
                refuse_unshaped_absence(view.absence, raw_id, state, type_name=entity_type.name,
                                        field=view.key_field or entity_type.id_field, id_field=entity_type.id_field,
                                        address=entity_type.address)
            laid_out = unproven_layout(view.unproven_id_shapes, raw_id, type_name=entity_type.name)
            if laid_out is not None:
                raise CallRefused(laid_out, http_status=404)
            if view.absence is not None or view.missing is not None:
                refuse_skipped(view.skipped_numbers, raw_id, type_name=entity_type.name,
                               held_initially=self._sightings.held_initially(
                                   entity_type.name, held_path, raw_id, entity_type.id_field, entity_type.id_field,
                                   anywhere=bool(entity_type.shallow_items)))
            if view.absence is not None or view.missing is not None:
                refuse_aliased_key(view, raw_id, type_name=entity_type.name, field=view.key_field or entity_type.id_field)
            if view.absence is not None:
                refuse_other_key_spelling(_either_for(view, entity_type), named_value(view.absence), raw_id,
                                          type_name=entity_type.name, path=spelled)
                answer = absence_answer(view.absence, raw_id, evidence_id=self._evidence_id, tool=view.tool,
                                        path=call.path)
                return Served(answer, {"state": label, "absence": provenance(view.absence)})
            if view.missing is not None:
                return Served(from_recording(view.missing, source="state"), {"state": label})
            raise CallRefused(self._not_held(entity_type, view, collection, raw_id, state), http_status=404)
        if (redrawn := redrawn_refusal(entity_type, found[0], collection.ids.get(found[0], found[0]))) is not None:
            raise CallRefused(redrawn, http_status=501)
        answer = answer_item(view, entity_type, state, answered_path)
        assert answer is not None  # the lookup above found the entity
        _refuse_lacking(answer, entity_type)
        provenance_of = {"state": _item_label("item", entity_type, held_path, collection.ids[found[0]])}
        if folded is not None:
            provenance_of["letter_case"] = {"held": key_of(folded), "records": list(view.letter_case_reads)}
        return Served(answer, provenance_of)

    def _recorded_absence(self, view: ReadView, call: ReadCall,
                          found: tuple[RecordedCall, bool] | None) -> Recording | None:
        """The absence recorded for this very call (its body may name the id), if any; ``found``:
        the recording replay answers the call with (``Replayer.find``)."""
        if found is not None and found[1] and (is_absence(found[0].response, self._absence_statuses)
                                               or found[0].ordinal in view.absence_records):
            return found[0].response
        return None

    def _not_held(self, entity_type: EntityType, view: ReadView, collection: Any, raw_id: str,
                  state: StateIndex) -> str:
        field = view.key_field or entity_type.id_field
        what = f'the state holds no {entity_type.name} whose "{field}" is "{decode_once(raw_id)}"'
        if collection is None:
            held = [c.path for c in state.collections_of(entity_type.name)]
            return (f"{what}: no such collection; {entity_type.name} collections held: "
                    f"{quoted(held, self._values_quoted)}")
        values = [collection.entities[k].get(field, k) for k in collection.order]
        return f'{what} in {collection.path}; it holds "{field}" values {quoted(values, self._held_values_quoted)}'

    # --- lists --------------------------------------------------------------------------

    def _list(self, view: ReadView, entity_type: EntityType, call: ReadCall, state: StateIndex) -> Served | None:
        backed = [line for line in view.lines if line.state_backed]
        fits = [(fit, index, line) for index, line in enumerate(backed)
                if (fit := path_fit(line.path, call.path)) is not None]
        fits.sort(key=lambda item: (-item[0], item[1]))  # verbatim spellings first, then recorded order
        exact = next((line for _, _, line in fits if same_query(line.query, call.query)), None)
        if exact is not None:
            return self._from_line(view, entity_type, exact, call, state, query=exact.query, exact=True)
        if not call.query:
            whole = [line for _, _, line in fits if line.membership == "all"]
            whole.sort(key=lambda line: bool(line.query))  # a line with no query before one that pages
            if whole:
                return self._from_line(view, entity_type, whole[0], call, state, query=whole[0].query, exact=False)
            return None
        return self._learned(view, entity_type, call, state, [line for _, _, line in fits])

    def _from_line(self, view: ReadView, entity_type: EntityType, line: ListLine, call: ReadCall,
                   state: StateIndex, *, query: Any, exact: bool) -> Served | None:
        if line.membership == "all" and line.query and not line.queries:
            size = _page_size(line, view)
            held = state.find_collection(line.collection or line.path, entity_type.name)
            if size is not None and held is not None and len(held.order) > size:
                # The page no longer covers the whole collection: its recording is the answer.
                return Served(from_recording(line.base), {"replay": {"exact_match": exact, "record": line.base.ordinal}})
        refuse_unplaced(state.find_collection(line.collection or line.path, entity_type.name), entity_type.name)
        if line.queries:
            held = state.find_collection(line.collection or line.path, entity_type.name)
            _refuse_tie(line.queries, query if query is not None else line.query, listed_members(line, held), entity_type)
        answer = answer_list(view, line, entity_type, state, query, as_recorded=exact, link_at=call.link_at)
        if answer is None:
            return None
        _refuse_lacking(answer, entity_type)
        _refuse_collection_headers(answer, entity_type, lambda: exact and line.held_digest is not None
                                   and line_digest(line, entity_type, state) == line.held_digest)
        if line.membership == "recorded" and line.query and not line.queries and not line.pages_only \
                and line.held_digest is not None and line_digest(line, entity_type, state) != line.held_digest:
            raise CallRefused(_unlearned_filter(view, entity_type, line), http_status=501)
        provenance: dict[str, Any] = {"state": self._list_label(entity_type, line, state)}
        if not exact:
            provenance["replay"] = {"exact_match": False, "record": line.base.ordinal}
        return Served(answer, provenance)

    def _learned(self, view: ReadView, entity_type: EntityType, call: ReadCall, state: StateIndex,
                 lines: list[ListLine]) -> Served | None:
        recorded = self._replayer.find(call)
        if recorded is not None and recorded[1] and 400 <= recorded[0].response.status < 500:
            # The application refused this very query (a value of a shape it does not take, uuid=not-a-uuid
            # answered 400) where the learned query would list what matches: replay answers the call as
            # recorded, or refuses it once a served write may have changed what its recording shows
            return None
        specs = {spec.param: spec for spec in view.learned_queries}
        values = single_valued(decoded_pairs(call.query))
        split = expanded(tuple(values.items()), containers(view.learned_queries)) if values is not None else None
        if split is not None:  # a container's members, each named as learned (``q.order_column``)
            values = dict(split[0])
        if not specs or values is None or split is None or any(name not in specs for name in values):
            return None
        # a whole listing to evaluate over: one with no query, else one whose query only paged and
        # listed everything (as the learned queries were proven against it)
        whole = next((line for line in lines if line.membership == "all" and not line.query), None) \
            or next((line for line in lines if line.membership == "all" and line.pages_only), None)
        if whole is None:
            return None
        held = state.find_collection(whole.collection or whole.path, entity_type.name)
        refuse_unplaced(held, entity_type.name)
        members = listed_members(whole, held)
        fields = {name for member in members for name in member}
        reason = unproven(view.learned_queries, call.query, fields, value_kinds(members), held_texts(members))
        if reason is not None:
            raise CallRefused(f"this {entity_type.name} list query is not answered: {reason}", http_status=400)
        evaluated = whole.model_copy(update={"queries": tuple(specs[name] for name in values),
                                             "membership": "recorded"})
        _refuse_tie(evaluated.queries, call.query, members, entity_type)
        answer = answer_list(view, evaluated, entity_type, state, call.query, as_recorded=False, link_at=call.link_at)
        if answer is None:
            return None
        _refuse_lacking(answer, entity_type)
        _refuse_collection_headers(answer, entity_type, lambda: False)
        return Served(answer, {"state": self._list_label(entity_type, whole, state)})

    def _list_label(self, entity_type: EntityType, line: ListLine, state: StateIndex) -> dict[str, Any]:
        held = state.find_collection(line.collection or line.path, entity_type.name)
        return {"source": "state", "view": "list", "type": entity_type.name,
                "collection": held.path if held is not None else (line.collection or line.path), "id": None}

    # --- documents ----------------------------------------------------------------------

    def _document(self, view: ReadView, call: ReadCall, state: StateIndex) -> Served | None:
        fits = sorted(((fit, index, line) for index, line in enumerate(view.documents)
                       if line.state_backed and (fit := path_fit(line.path, call.path)) is not None
                       and same_query(line.query, call.query)), key=lambda item: (-item[0], item[1]))
        for _, _, line in fits:
            if line.summarises:
                self._summaries.refuse_changed(view.tool, line, state)
            answer = answer_document(line, state)
            if answer is not None:
                return Served(answer, {"state": {"source": "state", "view": "document", "type": None,
                                                 "collection": None, "id": None, "path": line.path}})
        return None


def _item_label(kind: str, entity_type: EntityType, collection: str, entity_id: Any) -> dict[str, Any]:
    return {"source": "state", "view": kind, "type": entity_type.name, "collection": collection, "id": entity_id}


def is_absence(recording: Recording, statuses: tuple[int, ...]) -> bool:
    """What the read gate accepts as an entity's absence: one of ``statuses`` (the budget
    ``absence_statuses``: 400, 404, 410), or a 2xx JSON null."""
    return recording.status in statuses or (
        200 <= recording.status < 300 and recording.is_json and recording.body is None)


def _page_size(line: ListLine, view: ReadView) -> int | None:
    """The page a whole line's query asks for, when a learned query says which parameter sizes it."""
    kinds = {spec.param: spec.kind for spec in view.learned_queries}
    for name, value in line.query:
        if kinds.get(name) in PAGE_SIZE_KINDS:
            try:
                size = int(value)
            except ValueError:
                continue
            if size > 0:
                return size
    return None


def _unlearned_filter(view: ReadView, entity_type: EntityType, line: ListLine) -> str:
    learned = sorted(spec.param for spec in view.learned_queries)
    accepted = (f"queries over {', '.join(repr(n) for n in learned[:20])}, which the capture proves, answer from the state"
                if learned else "no query of this list is proven over the state; the list without a query answers")
    return (f"this {entity_type.name} list is not modelled over the current state for this query: its recording lists"
            f" the members it selected when it was recorded ({line.reason or 'its query is not learned'}), and the"
            f" {entity_type.name} collection has changed since; {accepted}")


def _refuse_collection_headers(answer: Answer, entity_type: EntityType, still_recorded: Callable[[], bool]) -> None:
    """Refuse an answer whose base's headers count or page the collection as recorded
    (``collection_headers``), unless it is the recording's own answer."""
    reason = unheld_headers(answer.headers, still_recorded)
    if reason:
        raise CallRefused(f"this {entity_type.name} list is not modelled over the current state: {reason}; the "
                          "query it was recorded with is answered while the collection holds what it recorded",
                          http_status=501)


def _refuse_lacking(answer: Answer, entity_type: EntityType) -> None:
    if answer.unheld:
        raise CallRefused(f"this {entity_type.name} list is not modelled over the current state: {answer.unheld}"
                          " (it is answered while the state holds what its recording showed, for the query it"
                          " was recorded with)", http_status=501)
    if answer.missing_field:
        raise CallRefused(f'the {entity_type.name} entity lacks "{answer.missing_field}", a field every recording '
                          "of this view carried, or one this view showed of another entity where only other reads "
                          "showed this one, so the state cannot answer it", http_status=501)
    if answer.unshown_field:
        raise CallRefused(f'the {entity_type.name} entity holds "{answer.unshown_field}", which only a list showed: '
                          "no item read of this view showed that field of any entity, so whether the application "
                          "answers it here is not known; the list answers this entity", http_status=501)
    if answer.empty_unproven:
        raise CallRefused(f"this {entity_type.name} list is not answered from the current state: {answer.empty_unproven};"
                          " a non-empty listing of it is answered, and an empty one would be once the capture records"
                          " this list (or one answering the same envelope) listing nothing", http_status=501)


def _keyed_type(view: ReadView, entity_type: EntityType) -> str | None:
    """The view's type when it names its entity by another key than the identity (its path's
    literal sub-path names no entity of the type), else None."""
    return entity_type.name if view.key_field and view.key_field != entity_type.id_field else None


def _looked_up_by(view: ReadView, entity_type: EntityType, raw_id: str) -> str:
    """The member a path value names its entity by: the view's key, else the identity, or the
    either-key member for a value not shaped as the identity (a user read by name beside by id),
    so another spelling of a held name is found where the lookup looked."""
    field = view.key_field or entity_type.id_field
    either = entity_type.either_key
    if either is not None and field == entity_type.id_field and not either.names_identity(decode_once(raw_id)):
        return either.member
    return field


def _refuse_shared_key(view: ReadView, entity_type: EntityType, collection: Any, raw_id: str,
                       state: StateIndex) -> None:
    """A read naming its entity by another key than the identity (a name, or a value not shaped as
    an id where the item path takes either) that two or more held entities hold names no one entity:
    refused, since answering with either could be another entity's."""
    field = view.key_field or entity_type.id_field
    either = entity_type.either_key
    if field == entity_type.id_field and either is not None and not either.names_identity(decode_once(raw_id)):
        field = either.member
    if field == entity_type.id_field:
        return
    holders = state.entities_holding(collection, raw_id, field)
    if len(holders) > 1:
        ids = ", ".join(repr(collection.ids.get(k, k)) for k, _ in holders[:3])
        raise CallRefused(f'{len(holders)} {entity_type.name} entities hold "{field}" "{decode_once(raw_id)}" '
                          f"({ids}{' and more' if len(holders) > 3 else ''}): the path names one entity by its "
                          f'"{field}", so it names none of them; read it by its "{entity_type.id_field}"',
                          http_status=409)


def _either_for(view: ReadView, entity_type: EntityType) -> EitherKey | None:
    """The type's ``EitherKey`` where this view names its entity by the identity's item path (a view
    keyed by another member names it one way only)."""
    return entity_type.either_key if (view.key_field or entity_type.id_field) == entity_type.id_field else None


def _refuse_tie(specs: Any, query: Any, members: list[dict[str, Any]], entity_type: EntityType) -> None:
    """A sorted list whose page or order depends on a tie the capture never showed broken is
    refused (``queries.unproven_tie``): the state's order there would be a guess at the application's."""
    reason = unproven_tie(specs, query, members, entity_type.id_field)
    if reason is not None:
        raise CallRefused(f"this {entity_type.name} list is not answered: {reason}", http_status=501)


def _held_in_other_letter_case(collection: Any, raw_id: str, view: ReadView, entity_type: EntityType) -> Any:
    """The one held identity the path's value spells in another letter case only, or None (none, or
    several: ``Ab`` and ``aB`` both held leave the spelling ambiguous, refused as before)."""
    wanted = decode_once(raw_id).casefold()
    held = [value for value in held_spelled_otherwise(collection, raw_id, view.key_field or entity_type.id_field,
                                                      entity_type.id_field)
            if str(key_of(value)).casefold() == wanted]
    return held[0] if len(held) == 1 else None

