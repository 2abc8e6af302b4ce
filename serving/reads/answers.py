"""Answer a read from the state: an item, a list line or a document rendered into its view.

The read gate and the serving runtime both answer through here, so what the gate proved is
exactly what serving answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import DocumentLine, EntityType, ListLine, Locator, ReadView, Recording
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import MISSING, locate
from capenv.serving.call_refused import CallRefused
from capenv.serving.frozen_values import direct_init
from capenv.serving.state.edits import members_held
from capenv.serving.state.index import HeldCollection, StateIndex
from capenv.serving.state.shallow import item_collection_path

from .default_pages import capped_members
from .entity_headers import state_headers
from .envelope import collection_digest, render_envelope
from .queries import evaluate_queries, pages
from .render import first_lacking, project, render_entities, render_into, sorted_fields, with_references


@direct_init
@dataclass(frozen=True)
class Answer:
    status: int
    content_type: str | None
    headers: tuple[tuple[str, str], ...]
    body: Any
    is_json: bool = True
    text: str | None = None
    source: str = "state"
    missing_field: str | None = None
    """A field every recording of the view carried that the rendered entity lacks (refuse)."""
    unheld: str | None = None
    """Why a member of a list's envelope cannot be rendered from the state (refuse)."""
    unshown_field: str | None = None
    """A field the entity holds that the item view's projection would drop unproven (refuse)."""
    empty_unproven: str | None = None
    """Why a listing of nothing is not answered: no recording proves how the application answers one (refuse)."""


def from_recording(recording: Recording, source: str = "replay") -> Answer:
    """The recorded answer; a recording whose body the capture did not keep is refused, never
    answered empty."""
    if not recording.retained:
        raise CallRefused(f"the capture kept no body for the recorded answer this call would be given (record "
                          f"{recording.ordinal}, {recording.status}: the recorder left out its text), so what the "
                          "application answered is unknown: record the capture again keeping response bodies to "
                          "have it answered", http_status=501)
    if recording.binary:
        raise CallRefused(f"the recorded answer this call would be given (record {recording.ordinal}, {recording.status}, "
                          f"{recording.content_type or 'no media type'}) is binary, bytes that are no text, which this "
                          "environment does not keep: it cannot answer what the application sent", http_status=501)
    return Answer(recording.status, recording.content_type, recording.headers, recording.body,
                  recording.is_json, recording.text, source)


def _lacking(entity: dict[str, Any], required: tuple[str, ...]) -> str | None:
    return next((name for name in required if name not in entity), None)


def answer_item(view: ReadView, entity_type: EntityType, state: StateIndex, path: str) -> Answer | None:
    """The item view rendered with the entity the path names; None when the state lacks it."""
    collection = state.find_collection(item_collection_path(state, path, entity_type, view.key_field),
                                       entity_type.name)
    if collection is None:
        return None
    raw_id = split_path(path)[-1]
    found = state.find_entity(collection, raw_id, view.key_field or entity_type.id_field, entity_type.id_field,
                              entity_type.either_key, entity_type.address)
    if found is None:
        return None
    key, entity = found
    base = view.base
    shown = project(sorted_fields(entity, view.sorted_arrays), view.shown_fields)
    body = with_item_members(render_into(base.body, view.locator or Locator(kind="root"), shown), view, raw_id)
    records = collection.records.get(key, ())
    headers = state_headers(base.headers)
    tag = view.entity_tag.of(entity) if view.entity_tag is not None else None
    if tag is not None:  # the version the state holds, spelled as the recorded tags spell it
        headers = headers + ((view.entity_tag.header, tag),)
    return Answer(base.status, base.content_type, headers, body,
                  missing_field=_lacking(entity, view.required_fields) or _lacking_unread(entity, records, view),
                  unshown_field=_unshown_held(entity, records, view, collection))


def _lacking_unread(entity: dict[str, Any], records: tuple[int, ...], view: ReadView) -> str | None:
    """A member the state left out of entities only a list showed, as the list's own projection
    (``view/projected_state``), which an entity only other reads showed (its citations name
    recordings, none of this view's) lacks: the view cannot tell what the entity holds there (a
    folder listed without the files the folder's read shows). A member those reads showed in full
    and the entity lacks is truly lacking, and the entity is answered without it."""
    if not view.withheld_fields or not records or not set(records).isdisjoint(view.record_ordinals):
        return None
    return next((name for name in view.withheld_fields if name not in entity), None)


def _unshown_held(entity: dict[str, Any], records: tuple[int, ...], view: ReadView,
                  collection: HeldCollection) -> str | None:
    """A field an entity only other reads showed (a list) holds, which no recording of this item
    view carried and no entity this view did read holds either: the view's projection was learned
    on other entities, so whether the item read shows that field is not known (a list of templates
    showing one built-in template's ``properties``, where only custom templates were read by item).
    A field some entity read by this view holds while its item reads left it out is proven dropped."""
    if not view.shown_fields or not records or not set(records).isdisjoint(view.record_ordinals):
        return None
    shown = set(view.shown_fields)
    unshown = [name for name in entity if name not in shown]
    if not unshown:
        return None
    read_here = set(view.record_ordinals)
    proven = {name for key, other in collection.entities.items()
              if not read_here.isdisjoint(collection.records.get(key, ())) for name in unshown if name in other}
    return next((name for name in unshown if name not in proven), None)


def with_item_members(body: Any, view: ReadView, raw_id: str) -> Any:
    """The rendered item with each member the view learned follows the entity (``ItemMember``)
    set for the one the path names: its path value, percent-decoded."""
    if not view.item_members or not isinstance(body, dict):
        return body
    value = unquote(raw_id)
    for member in view.item_members:
        body = _set_within(body, member.within, member.member, _path_value(member.form, value))
    return body


def _set_within(body: Any, within: tuple[str, ...], name: str, value: Any) -> Any:
    """``body`` (not changed) with ``name`` set to ``value`` in the object its envelope members
    ``within`` lead to; as it was where they lead to no object."""
    if not isinstance(body, dict):
        return body
    if not within:
        return {**body, name: value}
    inner = body.get(within[0])
    if not isinstance(inner, dict):
        return body
    return {**body, within[0]: _set_within(inner, within[1:], name, value)}


def _path_value(form: str, value: str) -> Any:
    if form == "singleton":
        return [value]
    if form == "number":  # learned only where the path names the entity by its integer id alone
        return int(value) if value.isascii() and value.isdigit() else value
    return value


def list_members(view: ReadView, line: ListLine, entity_type: EntityType, state: StateIndex,
                 query: tuple[tuple[str, str], ...] | None = None) -> list[dict[str, Any]] | None:
    """The members a line lists from the state, in collection order, as it shows them (None:
    collection not held)."""
    return _members(line, state.find_collection(line.collection or line.path, entity_type.name), query,
                    _references(line))[0]


def _members(line: ListLine, collection: HeldCollection | None, query: tuple[tuple[str, str], ...] | None,
             references: dict[str, str]) -> tuple[list[dict[str, Any]] | None, str | None]:
    """The entities the line lists, each member it shows as a reference already projected (so a
    learned query filters and sorts what the list shows: ``?playbook=1`` the files whose playbook
    has id 1), and the first member the state cannot project that way (``with_references``)."""
    if collection is None:
        return ([] if line.membership == "all" and not line.recorded_ids else None), None
    if line.queries:
        held, unprojected = _listable(collection, references)
        members = evaluate_queries(held, line.queries, query if query is not None else line.query)
    elif line.membership == "all":
        members, unprojected = _listable(collection, references)
    else:
        wanted = [str(i) for i in line.recorded_ids]
        members, unprojected = with_references([collection.entities[k] for k in wanted if k in collection.entities],
                                               references)
    return members, unprojected


def _listable(collection: HeldCollection | None, references: dict[str, str]) -> tuple[list[dict[str, Any]], str | None]:
    """The collection's entities as its lists show them (``with_references``)."""
    return with_references(_held_members(collection), references)


def listed_members(line: ListLine, collection: HeldCollection | None) -> list[dict[str, Any]]:
    """The collection's entities as ``line`` shows them before filtering: each member it shows as
    a reference projected (what its learned queries filter, sort and break ties on)."""
    return _listable(collection, _references(line))[0]


def _references(line: ListLine) -> dict[str, str]:
    return {p.name: p.reference_field for p in line.projected_members if p.role == "reference" and p.reference_field}


def answer_list(view: ReadView, line: ListLine, entity_type: EntityType, state: StateIndex,
                query: tuple[tuple[str, str], ...] | None = None, *, as_recorded: bool = True,
                link_at: tuple[str | None, str, tuple[tuple[str, str], ...]] | None = None) -> Answer | None:
    """The line rendered from the state; ``as_recorded``: the call asks what the line's recording
    asked (its envelope members only that recording shows may then stand while it holds);
    ``link_at``: the origin the call reached (None over MCP), its path and query as sent, for page links."""
    collection = state.find_collection(line.collection or line.path, entity_type.name)
    references = _references(line)
    members, unprojected = _members(line, collection, query, references)
    if members is None:
        return None
    every = members  # what counters count: the members before the default page caps them
    members, beyond_the_page = capped_members(view, line, query if query is not None else line.query, members)
    held = members_held(collection) if collection is not None else {}
    constants = {p.name: p.value for p in line.projected_members if p.role == "constant"}
    shown = render_entities(members, line.shown_fields or view.shown_fields, view.sorted_arrays, constants,
                            held=held)
    # A member the line renders as its own constant is the line's, not the entity's: an entity
    # lacking it (one only such a list showed) is listed all the same.
    required = tuple(name for name in view.required_fields if name not in constants)
    lacking = unprojected or (None if _every_one_holds(held, collection, required) else first_lacking(members, required))
    body = render_into(line.base.body, view.locator or Locator(kind="root"), shown)
    unheld = None
    if view.envelope_members:
        asked = query if query is not None else line.query
        whole = not pages(line.queries, asked) if line.queries else line.membership == "all"
        body, unheld = render_envelope(view, line, body, _counted(line, every, collection, asked),
                                       lambda: _digest(collection), whole=whole, as_recorded=as_recorded,
                                       asked=asked, listed=members, link_at=link_at)
    return Answer(line.base.status, line.base.content_type, state_headers(line.base.headers), body,
                  missing_field=lacking, unheld=beyond_the_page or unheld, empty_unproven=_empty_unproven(view, line, members))


def _empty_unproven(view: ReadView, line: ListLine, members: list[dict[str, Any]]) -> str | None:
    """Why an answer listing nothing is not the application's (None: it lists something, its base
    recording lists nothing too, or a recorded empty answer proves the envelope, ``view.empty_answer``)."""
    if members or view.empty_answer is not None:
        return None
    recorded = locate(line.base.body, view.locator or Locator(kind="root")) if line.base.is_json else MISSING
    if isinstance(recorded, list) and not recorded:
        return None  # the base is itself an empty answer of this line
    return (f"the list would list nothing, and the capture never showed {view.tool} (nor another list answering"
            " the same envelope) answering an empty listing, which an application may answer otherwise (another"
            " status, a message, other counters)")


def _every_one_holds(held: dict[str, int], collection: HeldCollection | None, required: tuple[str, ...]) -> bool:
    """Whether every entity of the collection (so every one a line lists from it) holds every
    required member, from its member counts: each required name held as many times as there are entities."""
    if collection is None:
        return True
    total = len(collection.entities)
    return all(held.get(name) == total for name in required)


def _counted(line: ListLine, members: list[dict[str, Any]], collection: Any,
             query: tuple[tuple[str, str], ...]) -> list[dict[str, Any]] | None:
    """What a list answer's counters count: the members its filters select before paging, or
    None where the state cannot say (a page of a filtered list no learned query evaluates).

    The collection's members are listed only where they are counted: a whole list counts the
    ``members`` it lists, and listing 10,000 again cost as much as encoding them."""
    if line.queries:
        return evaluate_queries(_listable(collection, _references(line))[0], line.queries, query, paged=False)
    if line.membership == "all":
        return members
    if line.pages_only:
        return _held_members(collection)
    return None


def _held_members(collection: HeldCollection | None) -> list[dict[str, Any]]:
    return collection.members() if collection is not None else []


def line_digest(line: ListLine, entity_type: EntityType, state: StateIndex) -> str:
    """The digest of the collection a line lists, as ``answer_list`` compares it."""
    return _digest(state.find_collection(line.collection or line.path, entity_type.name))


def _digest(collection: Any) -> str:
    if collection is None:
        return collection_digest(None)
    return collection_digest([(key, collection.entities[key]) for key in collection.order])


def answer_document(line: DocumentLine, state: StateIndex) -> Answer | None:
    if line.path not in state.documents:
        return None
    body = render_into(line.base.body, line.locator, state.documents[line.path])
    return Answer(line.base.status, line.base.content_type, state_headers(line.base.headers), body)
