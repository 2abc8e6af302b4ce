"""Which ids an item view's learned absence is not given for (``AbsenceAnswer.reserved_prefixes``).

A learned absence answers any id the item path names. The application may keep routes of its own
beside the item path (``/_all_dbs`` beside ``/{db}``); an id starting like them (``/_uuids``) may
be another such route, which the application answers, not a missing entity. The
``view-reserved-ids`` table names the leading characters of those routes no id of the type starts
with, and serving refuses the absence for an id starting with one (``serving/reads/from_state``).
So is every id in a held collection holding an entity whose id is empty text, which the
application names by an id the capture does not show. Views with neither keep their bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import unquote

from capenv.interpreter.bundle.models import CollectionState, EntityType, ReadView
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.predicates.reserved_ids import ReservedIdContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-reserved-ids"


def _is_param(segment: str) -> bool:
    return segment.startswith("{") and segment.endswith("}")


def siblings(manifest: Manifest, template: str) -> list[str]:
    """The decoded literal last segments of other tools' templates at ``template``'s depth whose
    literal segments before it agree with ``template``'s."""
    own = split_path(template)
    found = set()
    for tool in manifest.tools:
        parts = split_path(tool.template)
        if len(parts) != len(own) or not parts or _is_param(parts[-1]) or tool.template == template:
            continue
        if all(_is_param(mine) or mine == theirs for mine, theirs in zip(own[:-1], parts[:-1])):
            found.add(unquote(parts[-1]))
    return sorted(found)


def with_reserved_ids(view: ReadView, manifest: Manifest, types: dict[str, EntityType],
                      collections: Iterable[CollectionState], records: dict[int, Record], ruleset: RuleSet,
                      traces: list[TraceEvent]) -> ReadView:
    """The item view with its absence's reserved prefixes, when the table names some."""
    if view.kind != "item" or view.absence is None or view.type not in types or TABLE not in ruleset.tables:
        return view
    template = manifest.tool(view.tool).template
    routes = siblings(manifest, template)
    collections = list(collections)
    empty = sorted({c.path for c in collections if c.type == view.type and any(str(e.id) == "" for e in c.entities)})
    if not routes and not empty:
        return view
    ids = {str(e.id) for c in collections if c.type == view.type for e in c.entities}
    ids |= {unquote(split_path(records[o].path)[-1]) for o in view.record_ordinals
            if o in records and split_path(records[o].path)}
    if view.absence.id_value is not None:
        ids.add(view.absence.id_value)
    decision = evaluate(ruleset, TABLE, ReservedIdContext(siblings=routes, ids=sorted(ids), empty_id_collections=empty),
                        subject=f"{view.tool} absence answer")
    traces.extend(decision.events)
    matched = [e for e in decision.events if e.outcome == "match"]
    prefixes = sorted({p for e in matched for p in e.evidence["prefixes"]})
    reserved = sorted({c for e in matched for c in e.evidence.get("collections", ())})
    if not prefixes and not reserved:
        return view
    absence = view.absence.model_copy(update={"reserved_prefixes": tuple(prefixes),
                                              "reserved_collections": tuple(reserved)})
    return view.model_copy(update={"absence": absence})
