"""The data plane's document (DESIGN.md §7): what data/get writes and data/add accepts.

data/get writes the state as one JSON object, compact, members in this order::

    {"evidence_id": "ev-…",
     "types": [{"name", "collection_template", "item_template", "id_field"}, …],
     "collections": [{"path", "type", "args", "entities": [{"id", "value", "records"}, …]}, …],
     "documents": [{"path", "value", "records"}, …]}

data/add loads that document back unchanged (data/get after it writes the same bytes). It
may omit ``evidence_id`` (the environment's is used), ``types`` (fixed by the bundle; given,
it must equal what data/get writes) and an entity's or document's ``records`` (citations of
the records that showed it; none for entities written since). Everything else is checked
before anything is installed, and a refusal names what is accepted:

* past ``max_state_bytes`` (32 MiB) of what data/get would write back, or values nested past
  ``max_nesting``: ``resource_constraint``;
* not UTF-8 JSON (a lone surrogate escape included), NaN/Infinity, a number past what the codec
  reads (an integer of more than 4,300 digits, an exponent no decimal holds), a ``__proto__`` member, missing or extra members, a type the
  environment does not have, a collection path that does not fit its type's template or
  whose ``args`` differ from the path's, an id that is not the entity's ``id_field`` value,
  duplicate collection paths, entity ids or document paths: ``invalid``.

Numbers stay exact: floats are ``JsonNumber``\\s that write back as their text.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.bundle.jsonvalue import JsonError, ProtoMemberError, depth, dumps, loads
from capenv.interpreter.bundle.models import (
    Budgets, CollectionState, DocumentState, Entity, EntityType, StateSnapshot,
)
from capenv.interpreter.bundle.paths import split_path

from capenv.interpreter.bundle.values import same_json, same_spelling
from capenv.serving.runtime_api import DataPlaneRefusal
from capenv.serving.state.index import key_of

from .read_call import json_kind_of

SHAPE = ('a state document as data/get writes it: {"evidence_id"?, "types"?, "collections": [{"path", "type", '
         '"args", "entities": [{"id", "value", "records"?}]}], "documents": [{"path", "value", "records"?}]}')


def types_document(types: tuple[EntityType, ...]) -> list[dict[str, Any]]:
    return [{"name": t.name, "collection_template": t.collection_template, "item_template": t.item_template,
             "id_field": t.id_field} for t in types]


def state_document(snapshot: StateSnapshot, types: tuple[EntityType, ...]) -> dict[str, Any]:
    return {
        "evidence_id": snapshot.evidence_id,
        "types": types_document(types),
        "collections": [{"path": c.path, "type": c.type, "args": dict(c.args),
                         "entities": [{"id": e.id, "value": e.value, "records": list(e.records)} for e in c.entities]}
                        for c in snapshot.collections],
        "documents": [{"path": d.path, "value": d.value, "records": list(d.records)} for d in snapshot.documents],
    }


def encode_state(snapshot: StateSnapshot, types: tuple[EntityType, ...]) -> bytes:
    return dumps(state_document(snapshot, types))


class StateDocumentReader:
    """Parses and checks data/add documents for one environment (its types, evidence id, budgets)."""

    def __init__(self, types: tuple[EntityType, ...], evidence_id: str, budgets: Budgets) -> None:
        self.types = {t.name: t for t in types}
        self.type_order = types
        self.evidence_id = evidence_id
        self.budgets = budgets

    def read(self, document: bytes) -> tuple[StateSnapshot, bytes]:
        """The snapshot and what data/get will write for it, or ``DataPlaneRefusal``."""
        value = self._parse(document)
        snapshot = self._snapshot(value)
        try:
            encoded = encode_state(snapshot, self.type_order)
        except TypeError:  # the codec writes UTF-8 only
            raise DataPlaneRefusal("a string in the document holds a lone surrogate (a \\ud800-\\udfff escape "
                                   "without its pair), which is not UTF-8 and data/get cannot write") from None
        if len(encoded) > self.budgets.max_state_bytes:
            raise DataPlaneRefusal(
                f"the state would take {len(encoded)} bytes as data/get writes it, past the "
                f"{self.budgets.max_state_bytes}-byte data/add limit", DataPlaneRefusal.RESOURCE_CONSTRAINT)
        return snapshot, encoded

    def _parse(self, document: bytes) -> Any:
        if not isinstance(document, (bytes, bytearray)):
            raise DataPlaneRefusal(f"data/add takes the document as bytes, not {type(document).__name__}")
        try:
            value = loads(bytes(document), allow_proto=False)
        except ProtoMemberError:
            raise DataPlaneRefusal("a __proto__ member is not accepted anywhere in a state document") from None
        except JsonError as exc:
            if "nesting too deep" in str(exc):
                raise DataPlaneRefusal(f"the document nests past the limit of {self.budgets.max_nesting} levels",
                                       DataPlaneRefusal.RESOURCE_CONSTRAINT) from None
            raise DataPlaneRefusal(f"not JSON this environment accepts: {exc} (numbers must be finite; "
                                   f"NaN and Infinity are not JSON); expected {SHAPE}") from None
        # Numbers are exact by construction: the codec parses every float as a JsonNumber that
        # writes back as its own text, and refuses NaN and Infinity (no is_exact walk needed).
        return value

    def _snapshot(self, value: Any) -> StateSnapshot:
        root = _object(value, "the document", required=("collections", "documents"),
                       optional=("evidence_id", "types"))
        evidence_id = root.get("evidence_id", self.evidence_id)
        if not isinstance(evidence_id, str) or not evidence_id:
            raise DataPlaneRefusal(f'"evidence_id" must be a non-empty string (this environment\'s is '
                                   f'"{self.evidence_id}")')
        if "types" in root and not same_json(root["types"], types_document(self.type_order)):
            raise DataPlaneRefusal('"types" must be left out or equal the environment\'s types as data/get writes '
                                   f"them; types: {', '.join(self.types) or 'none'}")
        collections = _array(root["collections"], '"collections"')
        documents = _array(root["documents"], '"documents"')
        held = tuple(self._collection(item, f"collections[{i}]") for i, item in enumerate(collections))
        _unique([c.path for c in held], "collection path")
        docs = tuple(self._document(item, f"documents[{i}]") for i, item in enumerate(documents))
        _unique([d.path for d in docs], "document path")
        return StateSnapshot.model_construct(evidence_id=evidence_id, collections=held, documents=docs)

    def _collection(self, value: Any, where: str) -> CollectionState:
        item = _object(value, where, required=("path", "type", "args", "entities"))
        type_name = item["type"]
        if not isinstance(type_name, str) or type_name not in self.types:
            raise DataPlaneRefusal(f'{where}.type: {_show(type_name)} is not a type of this environment; '
                                   f"types: {', '.join(self.types) or 'none'}")
        entity_type = self.types[type_name]
        path = item["path"]
        args = _fitting_args(path, entity_type.collection_template)
        if args is None:
            raise DataPlaneRefusal(f'{where}.path: {_show(path)} does not fit {type_name}\'s collection template '
                                   f'"{entity_type.collection_template}"')
        if not isinstance(item["args"], dict) or item["args"] != args:
            raise DataPlaneRefusal(f"{where}.args must be the path's arguments {_show(args)}, "
                                   f"not {_show(item['args'])}")
        entities = tuple(self._entity(e, f"{where}.entities[{i}]", entity_type)
                         for i, e in enumerate(_array(item["entities"], f"{where}.entities")))
        _unique([key_of(e.id) for e in entities], f"entity id in {where} ({path})")
        # Every member was checked above: construct without validating (and copying) again.
        return CollectionState.model_construct(path=path, type=type_name, args=args, entities=entities)

    def _entity(self, value: Any, where: str, entity_type: EntityType) -> Entity:
        item = _object(value, where, required=("id", "value"), optional=("records",))
        entity_id, entity = item["id"], item["value"]
        if not isinstance(entity, dict):
            raise DataPlaneRefusal(f"{where}.value must be an object (the entity), not {json_kind_of(entity)}")
        if isinstance(entity_id, (dict, list, bool)) or entity_id is None:
            raise DataPlaneRefusal(f"{where}.id must be a string or a number, not {json_kind_of(entity_id)}")
        field = entity_type.id_field
        if field not in entity or not same_json(entity[field], entity_id):
            shown = _show(entity[field]) if field in entity else "missing"
            raise DataPlaneRefusal(f'{where}.id {_show(entity_id)} does not match the entity\'s "{field}" ({shown})')
        self._nesting(entity, where)
        held = entity[field]
        if type(held) is type(entity_id) and (type(held) is int or type(held) is str) and held == entity_id:
            entity_id = held  # one object for both, not two kept per entity (it writes back the same)
        return Entity.model_construct(id=entity_id, value=entity, records=_records(item.get("records", []), where))

    def _document(self, value: Any, where: str) -> DocumentState:
        item = _object(value, where, required=("path", "value"), optional=("records",))
        path = item["path"]
        if not isinstance(path, str) or not path.startswith("/"):
            raise DataPlaneRefusal(f"{where}.path must be a path starting with /, not {_show(path)}")
        self._nesting(item["value"], where)
        return DocumentState.model_construct(path=path, value=item["value"],
                                             records=_records(item.get("records", []), where))

    def _nesting(self, value: Any, where: str) -> None:
        levels = depth(value)
        if levels > self.budgets.max_nesting:
            raise DataPlaneRefusal(f"{where}.value nests {levels} levels, past the limit of "
                                   f"{self.budgets.max_nesting}", DataPlaneRefusal.RESOURCE_CONSTRAINT)


def _fitting_args(path: Any, template: str) -> dict[str, str] | None:
    if not isinstance(path, str) or not path.startswith("/"):
        return None
    parts, pattern = split_path(path), split_path(template)
    if len(parts) != len(pattern):
        return None
    args = {}
    for part, piece in zip(parts, pattern):
        if piece.startswith("{") and piece.endswith("}"):
            if not part:
                return None
            args[piece[1:-1]] = part
        elif not same_spelling(part, piece):
            return None
    return args


def _object(value: Any, where: str, *, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DataPlaneRefusal(f"{where} must be an object, not {json_kind_of(value)}; expected {SHAPE}")
    missing = [name for name in required if name not in value]
    extra = [name for name in value if name not in required and name not in optional]
    if missing or extra:
        problems = ([f"lacks {', '.join(repr(m) for m in missing)}"] if missing else []) + (
            [f"has unknown {', '.join(repr(e) for e in extra)}"] if extra else [])
        members = ", ".join(list(required) + [f"{o} (optional)" for o in optional])
        raise DataPlaneRefusal(f"{where} {' and '.join(problems)}; its members are {members}")
    return value


def _array(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise DataPlaneRefusal(f"{where} must be an array, not {json_kind_of(value)}; expected {SHAPE}")
    return value


def _records(value: Any, where: str) -> tuple[int, ...]:
    if value == []:
        return ()
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise DataPlaneRefusal(f"{where}.records must be an array of record ordinals (integers)")
    return tuple(value)


def _unique(keys: list[str], what: str) -> None:
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            raise DataPlaneRefusal(f"duplicate {what} {_show(key)}; each may appear once")
        seen.add(key)


def _show(value: Any) -> str:
    text = dumps(value).decode("utf-8", errors="replace")
    return excerpt(text, 80)
