"""The initial state less what only a list's own projection showed (``view-list-projections``).

The state takes an entity's members from every read of the window, item reads last. Where a list
shows a member as its own projection (ZenML's list items show ``metadata: null`` where the item
read shows the group; Label Studio's task list ``annotators: []``), an entity that no item read of
the window showed holds the list's value, which is not the entity's own: the item view would
render it as the entity's (a wrong answer). Such an entity is left without the member, so serving
refuses its item read as lacking a field every recording of the view carried, and a later read or
write that shows the member brings it in. The item views of the type are told which members the
state left out (``ReadView.withheld_fields``): an entity only other reads showed that lacks one of
them may hold it, so its item read is refused even where the member is optional.
"""

from __future__ import annotations

from capenv.interpreter.bundle.models import CollectionState, Entity, ReadView, StateSnapshot


def _projected_by_record(views: list[ReadView]) -> dict[int, frozenset[str]]:
    """Per list recording, the members its line shows as the list's own projection."""
    found: dict[int, frozenset[str]] = {}
    for view in views:
        if view.kind != "list":
            continue
        for line in view.lines:
            names = frozenset(m.name for m in line.projected_members)
            if names:
                for ordinal in line.record_ordinals:
                    found[ordinal] = found.get(ordinal, frozenset()) | names
    return found


def _item_records(views: list[ReadView]) -> frozenset[int]:
    return frozenset(o for v in views if v.kind == "item" for o in v.record_ordinals if o not in v.absence_records)


def without_list_projections(state: StateSnapshot, views: list[ReadView],
                             id_fields: dict[str, str]) -> tuple[StateSnapshot, list[ReadView]]:
    """``state`` with each entity no item read showed left without the members a list that showed
    it projects (``id_fields``: each type's identity field, never left out), and ``views`` with
    each item view naming the members left out of its type's entities."""
    projected = _projected_by_record(views)
    if not projected:
        return state, views
    withheld: dict[str, set[str]] = {}
    items = _item_records(views)
    collections = []
    for collection in state.collections:
        entities = []
        for entity in collection.entities:
            drop: frozenset[str] = frozenset()
            if not any(o in items for o in entity.records):
                for ordinal in entity.records:
                    drop |= projected.get(ordinal, frozenset())
            drop -= {id_fields.get(collection.type, "")}
            if drop & set(entity.value):
                withheld.setdefault(collection.type, set()).update(drop & set(entity.value))
                entity = Entity(id=entity.id, value={k: v for k, v in entity.value.items() if k not in drop},
                                records=entity.records)
            entities.append(entity)
        collections.append(CollectionState(path=collection.path, type=collection.type, args=collection.args,
                                           entities=tuple(entities)))
    views = [v.model_copy(update={"withheld_fields": tuple(sorted(withheld[v.type]))})
             if v.kind == "item" and v.type in withheld else v for v in views]
    return state.model_copy(update={"collections": tuple(collections)}), views
