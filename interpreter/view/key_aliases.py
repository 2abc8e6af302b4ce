"""Entities of an item view's type that another type holds under another key
(``view-key-aliases``; seeds: "Not modelled": copies of entities in other collections).

Docker's networks API keys networks by name and lists the default one as ``bridge``; libpod's
API beside it shows the same network (the same long ``Id``/``id``) as ``podman``, and either API
answers it under both names. A name the view's type lacks is then no proof that the application
lacks the entity, so the view keeps each such alias (``ReadView.key_aliases``) and serving
refuses a key the state does not hold instead of answering the recorded absence.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from capenv.interpreter.bundle.models import CollectionState, EntityType, KeyAlias, ReadView
from capenv.interpreter.predicates.key_aliases import AliasPair, KeyAliasContext
from capenv.interpreter.predicates.type_copies import fold
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-key-aliases"


def with_key_aliases(view: ReadView, types: dict[str, EntityType], collections: Iterable[CollectionState],
                     ruleset: RuleSet, traces: list[TraceEvent]) -> ReadView:
    """The item view with the entities of its type that another type holds under another key."""
    entity_type = types.get(view.type or "")
    if view.kind != "item" or entity_type is None or TABLE not in ruleset.tables:
        return view
    key_field = view.key_field or entity_type.id_field
    by_type: dict[str, list[dict[str, Any]]] = {}
    for collection in collections:
        by_type.setdefault(collection.type, []).extend(e.value for e in collection.entities if isinstance(e.value, dict))
    mine = by_type.get(entity_type.name, [])
    found: list[KeyAlias] = []
    for other, theirs in sorted(by_type.items()):
        if other == entity_type.name:
            continue
        pairs = _keyed_otherwise(mine, theirs, key_field)
        if not pairs:
            continue
        context = KeyAliasContext(type_name=entity_type.name, key_field=key_field, other_type=other, pairs=pairs)
        decision = evaluate(ruleset, TABLE, context, subject=f"{view.tool} keys in {other}")
        traces.extend(decision.events)
        for event in decision.events:
            if event.outcome == "match":
                found.extend(KeyAlias(rule_id=str(event.rule_id), other_type=other, key=here, other_key=there,
                                      identity_member=member) for here, there, member in event.evidence["aliases"]
                             if not any((a.other_type, a.key, a.other_key) == (other, here, there) for a in found))
    return view.model_copy(update={"key_aliases": tuple(found)}) if found else view


def _unique_texts(entities: list[dict[str, Any]], skip: str) -> dict[tuple[str, str], tuple[str, dict[str, Any]]]:
    """Per (folded member name, text value) held by exactly one entity: the member as spelled and
    that entity. A value two entities hold names neither."""
    seen: dict[tuple[str, str], dict[str, tuple[str, dict[str, Any]]]] = {}
    for entity in entities:  # one entity held in two collections (two parents' lists) counts once
        keys = [str(v) for n, v in entity.items() if fold(n) == skip]
        for name, value in entity.items():
            if isinstance(value, str) and fold(name) != skip:
                seen.setdefault((fold(name), value), {})[keys[0] if len(keys) == 1 else str(len(seen))] = (name, entity)
    return {k: next(iter(v.values())) for k, v in seen.items() if len(v) == 1}


def _keyed_otherwise(mine: list[dict[str, Any]], theirs: list[dict[str, Any]], key_field: str) -> list[AliasPair]:
    key = fold(key_field)
    here, there = _unique_texts(mine, key), _unique_texts(theirs, key)
    pairs: list[AliasPair] = []
    for shared in sorted(here.keys() & there.keys()):
        (member, entity), (_, other) = here[shared], there[shared]
        other_keys = [v for n, v in other.items() if fold(n) == key and isinstance(v, (str, int))]
        own_key = entity.get(key_field)
        if len(other_keys) == 1 and own_key is not None and str(other_keys[0]) != str(own_key):
            pairs.append(AliasPair(identity_member=member, identity_value=shared[1], key_here=str(own_key),
                                   key_there=str(other_keys[0])))
    return pairs
