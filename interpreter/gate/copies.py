"""State types holding copies of one another's entities (the ``type-copies`` table; seeds: "Not
modelled": side effects on copies of entities in other collections).

A content API beside an admin API shows each entity again: a write through one changes what the
other answers, and serving, which changes one type, would leave the other answering as before.
The initial state shows the relation before any write, so it holds even where the capture never
read the copy after a write. Entities pair by the id both types key them under, or else by the
type's identity as the other's entity shows it under the identity field's name (spelled in another
letter case, or alike where the other keys its entities by another member): a second API keying
the same networks by id where the first keys them by name.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import ViewResult
from capenv.interpreter.predicates.type_copies import TypeCopyContext, fold
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "type-copies"


def copied_types(view: ViewResult, ruleset: RuleSet) -> dict[str, tuple[tuple[str, ...], tuple[TraceEvent, ...]]]:
    """Per state type, the other types holding copies of its entities, and the decisions that say so."""
    id_fields = {t.name: t.id_field for t in view.types}
    held: dict[str, dict[str, dict[str, Any]]] = {}
    for collection in (view.state.collections if view.state is not None else ()):
        for entity in collection.entities:
            if isinstance(entity.value, dict):
                held.setdefault(collection.type, {})[str(entity.id)] = entity.value
    result: dict[str, tuple[tuple[str, ...], tuple[TraceEvent, ...]]] = {}
    for name, mine in held.items():
        copies: list[str] = []
        events: list[TraceEvent] = []
        for other, theirs in held.items():
            pairs = [(value, theirs[key]) for key, value in mine.items() if key in theirs] if other != name else []
            if not pairs and other != name:  # the other keys them by another identity, spelled otherwise
                pairs = _pairs_by_spelling(mine, theirs, id_fields.get(name, "id"),
                                           alike=id_fields.get(other, "id") != id_fields.get(name, "id"))
            if not pairs:
                continue
            context = TypeCopyContext(type_name=name, other_type=other, id_field=id_fields.get(name, "id"),
                                      other_id_field=id_fields.get(other, "id"), pairs=pairs)
            decision = evaluate(ruleset, TABLE, context, subject=f"{name} and {other}")
            if decision.yields.get("copy"):
                copies.append(other)
                events.extend(decision.events)
        if copies:
            result[name] = (tuple(copies), tuple(events))
    return result


def _pairs_by_spelling(mine: dict[str, dict[str, Any]], theirs: dict[str, dict[str, Any]],
                       id_field: str, alike: bool = False) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The entities of ``theirs`` whose member spelled as ``id_field`` in another letter case (or
    with underscores) holds the key of one of ``mine``, paired with it. ``alike``: the other type
    is keyed by another member, so ``id_field`` spelled alike pairs too (notes keyed by name read
    again at ``/notes/slug/{slug}``, taken for a type of its own keyed by slug)."""
    pairs = []
    for entity in theirs.values():
        names = [n for n in entity if fold(n) == fold(id_field) and (alike or n != id_field)]
        if len(names) != 1:
            continue
        value = entity[names[0]]
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value) in mine:
            pairs.append((mine[str(value)], entity))
    return pairs
