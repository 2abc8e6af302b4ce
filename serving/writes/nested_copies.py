"""Refuse an update (or a delete) that would leave a copy of the entity stale in another entity.

Applications often answer another entity with a reference object copying members of the one it
names: an issue shows ``fixed_version: {"id": 3, "name": "beta"}``, a book its author's name. An
update changing ``name`` of version 3 changes what those reads show too, which a write of the one
entity does not model: the state would answer the old name there, a wrong answer. The build side
judges the copies the capture's own writes show (``write-copies``); this check covers what the
held state shows at the time of the call: an object nested in another held entity (or a
document, or the document itself: ``/users/me`` answering the caller's user) carrying the written entity's identity at the type's identity field, or one of its own links (a member holding its identity as a token that no other entity holds: an href), and, at a member
the update changes (for a delete: any member), the value the entity holds now. Such a write is
refused, state unchanged, naming where the copy is held. A document that summarises the written
type's collections (``DocumentLine.summarises``: devpi's root listing of the users keyed by name)
holds no copy that could go stale: serving refuses it once a served write has changed them.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from capenv.interpreter.bundle.values import same_json
from capenv.serving.read_call import quoted
from capenv.serving.state.edits import nesting_keys
from capenv.serving.state.index import HeldCollection, StateIndex

from .calls import WriteRefusal


def refuse_nested_copies(state: StateIndex, collection: HeldCollection, key: str, entity: dict[str, Any],
                        updated: dict[str, Any] | None, id_field: str, type_name: str,
                        summarising: frozenset[str], listed: int, name_characters: int = 0) -> None:
    """``entity``: the written entity as held; ``updated``: as the update would leave it (None: a
    delete, which leaves every copy of it stale); ``summarising``: the paths of the documents that
    summarise the type, which are refused rather than answered stale; ``listed``: the copied
    fields the refusal names at most (the budget ``values_quoted``); ``name_characters``: how long a
    text names the entity in another type's entity under its id (the budget ``copy_name_characters``;
    0: not looked for)."""
    if id_field not in entity:
        return
    if updated is None:
        changed = [f for f in entity if f != id_field]
    else:
        changed = [f for f, v in updated.items() if f != id_field and f in entity and not same_json(entity[f], v)]
    if not changed:
        return
    what = "a delete" if updated is None else "an update changing them"
    refused = f"so {what} is not served" + ("" if updated is None else "; an update of other members is")
    identity = entity[id_field]
    links = _own_links(collection, key, entity, id_field)
    for where, holder, whole in _holders(state, collection, key, summarising):
        for nested in _copies_in(holder, whole, entity):
            if not (id_field in nested and same_json(nested[id_field], identity)) and not any(
                    isinstance(nested.get(name), str) and nested[name] == value for name, value in links.items()):
                continue
            if _another_object(nested, entity, id_field):
                continue
            copied = [f for f in changed if f in nested and same_json(nested[f], entity[f])]
            renamed = _under_other_names(nested, entity, [f for f in changed if f not in nested])
            if copied or renamed:
                shown = quoted(copied + list(renamed), listed)
                also = "".join(f", {quoted([f], 1)} as {quoted([m], 1)}" for f, m in renamed.items())
                raise WriteRefusal(
                    f"{where} holds a copy of the {type_name} entity {identity!r} showing "
                    f"{shown} as it holds it now{also}: the application changes or drops "
                    f"that copy with it, which this environment does not model, {refused}")
    # a delete in a collection below another entity (a group's member, a link) removes that link, not
    # the entity another type shows: only a rename, or a delete of a top-level entity, leaves it stale
    if name_characters and (updated is not None or not collection.args):
        _refuse_other_type_copy(state, collection, key, entity, changed, id_field, type_name, refused, listed,
                                name_characters)


def _another_object(nested: dict[str, Any], entity: dict[str, Any], id_field: str) -> bool:
    """Whether the object numbered alike shows every text member it shares with the entity otherwise
    (a name, a slug, a link): another kind of object under the same number (Weblate's translation
    nests its component 1, ``category: null``, beside category 1), not a copy, which shows at least
    one of them as the entity holds it."""
    shared = [name for name, value in nested.items() if name != id_field and isinstance(value, str)
              and isinstance(entity.get(name), str)]
    return bool(shared) and all(nested[name] != entity[name] for name in shared)


def _under_other_names(nested: dict[str, Any], entity: dict[str, Any], changed: list[str]) -> dict[str, str]:
    """Per changed member the copy leaves out, a member of the copy's own (one the entity does not hold)
    showing its value as the entity holds it now, a text of 3 characters or more: a summary naming it
    otherwise (Plone lists a link's remoteUrl as getRemoteUrl), which the update would leave stale."""
    found: dict[str, str] = {}
    for field in changed:
        value = entity[field]
        if not isinstance(value, str) or len(value) < 3:
            continue
        own = next((name for name, held in nested.items() if name not in entity and held == value), None)
        if own is not None:
            found[field] = own
    return found


def _refuse_other_type_copy(state: StateIndex, collection: HeldCollection, key: str, entity: dict[str, Any],
                            changed: list[str], id_field: str, type_name: str, refused: str, listed: int,
                            name_characters: int) -> None:
    """Another type's entity under the same id showing every member it shares with the entity alike,
    among them a changed one holding a name (a text of ``name_characters`` or more no other entity of
    the collection holds): one search hit ``{id, title, score}`` beside the item it found, which the
    type-level copies (``type-copies``, two entities at least) cannot tell from a coincidence."""
    identity = entity[id_field]
    for held in state.collections.values():
        other = held.entities.get(key) if held.type != type_name else None
        if not isinstance(other, dict) or not same_json(other.get(id_field), identity):
            continue
        if not all(same_json(value, entity[name]) for name, value in other.items() if name in entity):
            continue
        named = [f for f in changed if f in other and _names_entity(collection, key, entity[f], f, name_characters)]
        if named:
            raise WriteRefusal(
                f"the {held.type} entity {held.ids.get(key, key)!r} of {held.path} shows {quoted(named, listed)} of the "
                f"{type_name} entity {identity!r} as it holds it now, under the same {id_field}: it may be a copy the "
                f"application changes or drops with it, which this environment does not model, {refused}")


def _names_entity(collection: HeldCollection, key: str, value: Any, member: str, name_characters: int) -> bool:
    """A text at least ``name_characters`` long that no other entity of the collection holds at ``member``."""
    return isinstance(value, str) and len(value) >= name_characters and not any(
        isinstance(other, dict) and other.get(member) == value
        for other_key, other in collection.entities.items() if other_key != key)


def _own_links(collection: HeldCollection, key: str, entity: dict[str, Any], id_field: str) -> dict[str, str]:
    """The entity's members that name it alone: a string holding its identity as a delimited token
    (``/pulp/api/v3/groups/1/``, ``prn:core.group:1``) that no other entity of its collection holds
    at that member. A nested object showing one of them is a copy of the entity although it leaves
    the identity member out (Pulp's user shows its groups as ``{name, pulp_href, prn}``)."""
    identity = entity.get(id_field)
    if isinstance(identity, bool) or not isinstance(identity, (str, int)) or str(identity) == "":
        return {}
    links: dict[str, str] = {}
    for name, value in entity.items():
        if name == id_field or not isinstance(value, str) or str(identity) not in _TOKEN.split(value):
            continue
        if any(isinstance(other, dict) and other.get(name) == value
               for other_key, other in collection.entities.items() if other_key != key):
            continue
        links[name] = value
    return links


_TOKEN = re.compile(r"[^0-9A-Za-z_.~-]+")
"""What separates the tokens of a link: every character a path segment or name leaves unescaped but
letters, digits and the unreserved marks (RFC 3986), so ``/groups/1/`` holds the token ``1``."""


def _holders(state: StateIndex, collection: HeldCollection, key: str,
             summarising: frozenset[str]) -> Iterator[tuple[str, Any, bool]]:
    """The held entities (in state order) and documents an object may be nested in, each with
    whether the holder itself may be the copy (a document: ``/users/me`` answering the caller's
    user whole; an entity is never a copy of another by itself being one)."""
    for held in state.collections.values():
        nesting = nesting_keys(held)
        if not nesting:
            continue
        for other in held.order:
            if other not in nesting or (held is collection and other == key):
                continue
            yield f"the {held.type} entity {held.ids.get(other, other)!r} of {held.path}", held.entities[other], False
    for path, document in state.documents.items():
        if path not in summarising:
            yield f"the document {path}", document, True


def _copies_in(holder: Any, whole: bool, entity: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The objects that may copy ``entity``: those nested in ``holder``, and ``holder`` itself when
    ``whole`` (a document) and it shows every member it shares with the entity alike: the same
    entity read at another path, not another kind of object numbered alike (WordPress's
    /users/me, user 1, beside category 1)."""
    if whole and isinstance(holder, dict) and all(same_json(value, entity[name]) for name, value in holder.items()
                                                  if name in entity):
        yield holder
    yield from _nested_objects(holder)


def _nested_objects(value: Any) -> Iterator[dict[str, Any]]:
    """The objects nested inside ``value`` (not ``value`` itself), at any depth."""
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        if isinstance(child, dict):
            yield child
        if isinstance(child, (dict, list)):
            yield from _nested_objects(child)
