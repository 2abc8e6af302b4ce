"""Grading an agent's session from two data/get documents (before and after).

``grade(before, after, expected_changes)`` returns the problems, one line each (none: pass):
every expected change happened exactly as expected, and nothing else in the state changed —
no other entity or document, no collection, no order of the entities left alone, nothing at
the top of the document. Entities are matched by collection path and id, documents by path.

An entity a write created or changed carries no record citations (write-effects "Data plane"),
so ``records`` is not compared for changed entities; it is for every other one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["create", "update", "delete", "document"]


@dataclass(frozen=True)
class ExpectedChange:
    kind: Kind
    where: str
    """The collection path (create, update, delete) or the document path."""
    id: Any = None
    fields: Mapping[str, Any] = field(default_factory=dict)
    """Values the entity (or document) must hold afterwards."""
    stamped: frozenset[str] = frozenset()
    """Fields the environment may set by itself on an update (clocks, versions)."""


Document = bytes | str | Mapping[str, Any]


def grade(before: Document, after: Document, expected_changes: list[ExpectedChange]) -> list[str]:
    old, new = _parsed(before), _parsed(after)
    problems = [f"{name} changed" for name in ("evidence_id", "types") if old.get(name) != new.get(name)]
    old_entities, new_entities = _entities(old), _entities(new)
    old_documents, new_documents = _documents(old), _documents(new)
    touched: set[tuple[str, str]] = set()
    touched_documents: set[str] = set()
    for change in expected_changes:
        if change.kind == "document":
            touched_documents.add(change.where)
            problems += _document_change(change, old_documents, new_documents)
        else:
            key = (change.where, _key(change.id))
            touched.add(key)
            problems += _entity_change(change, old_entities.get(key), new_entities.get(key))
    for key in sorted(set(old_entities) | set(new_entities)):
        if key not in touched and old_entities.get(key) != new_entities.get(key):
            problems.append(f"collateral change: {_name(key)} {_what(old_entities.get(key), new_entities.get(key))}")
    for path in sorted(set(old_documents) | set(new_documents)):
        if path not in touched_documents and old_documents.get(path) != new_documents.get(path):
            problems.append(f"collateral change: document {path}")
    problems += _collections_kept(old, new, touched)
    return problems


def _entity_change(change: ExpectedChange, old: dict | None, new: dict | None) -> list[str]:
    name = _name((change.where, _key(change.id)))
    if change.kind == "create":
        if old is not None:
            return [f"create: {name} was already held"]
        if new is None:
            return [f"create: {name} is not held afterwards"]
        return _holds(name, new["value"], change.fields)
    if change.kind == "delete":
        if old is None:
            return [f"delete: {name} was not held before"]
        return [f"delete: {name} is still held"] if new is not None else []
    if old is None or new is None:
        return [f"update: {name} is {'not held before' if old is None else 'gone afterwards'}"]
    problems = _holds(name, new["value"], change.fields)
    free = set(change.fields) | set(change.stamped)
    for field_name in sorted(set(old["value"]) | set(new["value"])):
        if field_name not in free and old["value"].get(field_name) != new["value"].get(field_name):
            problems.append(f"update: {name} field {field_name!r} changed, which the call did not write")
    return problems


def _document_change(change: ExpectedChange, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    if change.where not in new:
        return [f"document {change.where} is not held afterwards"]
    problems = _holds(f"document {change.where}", new[change.where]["value"], change.fields)
    before = old.get(change.where, {}).get("value", {})
    for name in sorted(set(before) | set(new[change.where]["value"])):
        if name not in change.fields and name not in change.stamped \
                and before.get(name) != new[change.where]["value"].get(name):
            problems.append(f"document {change.where} member {name!r} changed, which the call did not write")
    return problems


def _holds(name: str, value: Mapping[str, Any], fields: Mapping[str, Any]) -> list[str]:
    return [f"{name}: {field_name!r} is {value.get(field_name, '(missing)')!r}, expected {expected!r}"
            for field_name, expected in fields.items() if value.get(field_name, _MISSING) != expected]


def _collections_kept(old: dict, new: dict, touched: set[tuple[str, str]]) -> list[str]:
    """The same collections (a create may add one), each keeping its entities left alone in order."""
    problems = []
    old_paths = {c["path"]: c for c in old.get("collections", [])}
    new_paths = {c["path"]: c for c in new.get("collections", [])}
    created = {where for where, _ in touched}
    for path in sorted(set(old_paths) ^ set(new_paths)):
        if path not in created:
            problems.append(f"collection {path} {'appeared' if path in new_paths else 'disappeared'}")
    for path in sorted(set(old_paths) & set(new_paths)):
        if {k: v for k, v in old_paths[path].items() if k != "entities"} != \
                {k: v for k, v in new_paths[path].items() if k != "entities"}:
            problems.append(f"collection {path} changed its type or arguments")
        kept = [_key(e["id"]) for e in old_paths[path]["entities"] if (path, _key(e["id"])) not in touched]
        after = [_key(e["id"]) for e in new_paths[path]["entities"] if _key(e["id"]) in set(kept)]
        if after != [k for k in kept if k in set(after)]:
            problems.append(f"collection {path}: the entities left alone are in another order")
    return problems


_MISSING = object()


def _parsed(document: Document) -> dict[str, Any]:
    if isinstance(document, (bytes, str)):
        return json.loads(document)
    return dict(document)


def _key(entity_id: Any) -> str:
    """Ids compare by their JSON text, so 1 and "1" stay different entities."""
    return json.dumps(entity_id)


def _entities(document: dict) -> dict[tuple[str, str], dict]:
    return {(c["path"], _key(e["id"])): e for c in document.get("collections", []) for e in c["entities"]}


def _documents(document: dict) -> dict[str, dict]:
    return {d["path"]: d for d in document.get("documents", [])}


def _name(key: tuple[str, str]) -> str:
    return f"entity {key[1]} of {key[0]}"


def _what(old: dict | None, new: dict | None) -> str:
    if old is None:
        return "appeared"
    if new is None:
        return "disappeared"
    changed = sorted(n for n in set(old["value"]) | set(new["value"]) if old["value"].get(n) != new["value"].get(n))
    return f"changed {', '.join(changed)}" if changed else "changed its record citations"
