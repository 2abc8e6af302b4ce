"""Shallow nesting: an item path with no list of its own (``/versions/{id}``) beside the one list
under a parent with the same last word (``/projects/{project}/versions``), which lists and creates
what the item path reads, updates and deletes (Rails' ``shallow: true``). Decided by
``view-shallow-items`` from the two tools' own reads; the two are then one type, whose collections
are the parent's lists and whose item path finds an entity by its id in whichever holds it
(``serving/state/shallow``). The same table joins an item path in the singular to its plural list beside it (``/alert/{id}``
and ``/alerts``) when their reads show the same entities. Otherwise the item path stays a type of
its own."""

from __future__ import annotations

import bisect
from typing import Any, Callable

from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.shallow_items import ShallowItemContext
from capenv.interpreter.rules_engine import evaluate

from .shapes import ShapeReader

TABLE = "view-shallow-items"


def _last_word(template: str) -> str | None:
    words = [p for p in template.strip("/").split("/") if p and not p.startswith("{")]
    return words[-1] if words else None


def _beside(collection: str, list_key: str) -> bool:
    """The list's path is the item's collection path but for its last literal word (``/alerts``
    beside ``/alert``): where the table weighs a word in another number."""
    mine, other = collection.strip("/").split("/"), list_key.strip("/").split("/")
    return len(mine) == len(other) and mine[:-1] == other[:-1] and mine[-1] != other[-1] \
        and not other[-1].startswith("{")


Seen = list[tuple[int, dict[str, Any]]]


def _entities(shapes: list[Any], answers: Callable[[Any], list[Record]]) -> Seen:
    """(record ordinal, entity) of every entity the tools' successful answers show."""
    found: Seen = []
    for shape in shapes:
        for record in answers(shape.tool):
            located = locate(record.response.json_value, shape.locator)
            if isinstance(located, list):
                found += [(record.ordinal, o) for o in located if isinstance(o, dict)]
            elif isinstance(located, dict):
                found.append((record.ordinal, located))
    return found


def _pairs(items: Seen, listed: Seen, id_field: str, writes: list[int]) -> list[tuple[dict, dict]]:
    """Each item read's entity beside each list read's of the same identity value, read with no
    write between them."""
    by_id: dict[str, Seen] = {}
    for ordinal, entity in listed:
        if id_field in entity:
            by_id.setdefault(str(entity[id_field]), []).append((ordinal, entity))
    pairs = []
    for ordinal, entity in items:
        for other, shown in by_id.get(str(entity.get(id_field)), []) if id_field in entity else []:
            low, high = sorted((ordinal, other))
            if bisect.bisect_right(writes, low) == bisect.bisect_left(writes, high):
                pairs.append((entity, shown))
    return pairs


def _moving(shapes: list[Any], answers: Callable[[Any], list[Record]], id_field: str, writes: list[int]) -> set[str]:
    """Members one read tool showed changing on one entity with no write between its two reads:
    what the application moves by itself (a clock, a use counter), which says nothing of whether
    an item read and a list read show one entity."""
    moving: set[str] = set()
    for shape in shapes:
        last: dict[str, tuple[int, dict[str, Any]]] = {}
        for ordinal, entity in _entities([shape], answers):
            if id_field not in entity:
                continue
            key = str(entity[id_field])
            if key in last:
                before, shown = last[key]
                if bisect.bisect_right(writes, before) == bisect.bisect_left(writes, ordinal):
                    moving |= {name for name in set(shown) & set(entity) if shown[name] != entity[name]}
            last[key] = (ordinal, entity)
    return moving


def join_shallow_items(by_template: dict[str, dict[str, Any]], answers: Callable[[Any], list[Record]],
                       records: dict[int, Record], reader: ShapeReader) -> None:
    """Join each item-only entry to the one list entry the table says reads its entities: the list's
    entry takes its item shapes and says by which rule (``shallow``). ``answers(tool)``: a tool's
    successful JSON answers."""
    lists = {key: entry for key, entry in by_template.items()
             if entry["lists"] and not entry["items"] and not entry.get("keyed")}
    # any call that may change state parts the reads on either side (a read-only POST too: fewer pairs)
    writes = sorted(o for o, r in records.items() if r.changes_state)
    for key, entry in list(by_template.items()):
        if entry["lists"] or not entry["items"] or entry.get("keyed"):
            continue
        item_template = entry["items"][0].tool.template
        id_field = entry["items"][0].id_field or ""
        word = _last_word(key)
        joined: list[tuple[str, str]] = []
        for list_key, candidate in lists.items():
            if candidate.get("shallow") or not (_last_word(list_key) == word or _beside(key, list_key)):
                continue
            context = ShallowItemContext(
                item_template=item_template, list_template=candidate["spelling"], id_field=id_field,
                list_id_field=candidate["id_field"] or "",
                pairs=_pairs(_entities(entry["items"], answers), _entities(candidate["lists"], answers), id_field,
                             writes),
                moving=sorted(_moving(entry["items"], answers, id_field, writes)
                              | _moving(candidate["lists"], answers, candidate["id_field"] or "", writes)))
            decision = evaluate(reader.ruleset, TABLE, context, subject=f"{item_template} and {candidate['spelling']}")
            reader.traces.extend(decision.events)
            if decision.ok and (decision.yields.get("shallow") or decision.yields.get("singular_item")):
                joined.append((list_key, decision.rule_id or TABLE))
        if len(joined) != 1:
            continue  # none, or the word under two parents: which one holds an id is not the path's to say
        list_key, rule_id = joined[0]
        by_template[list_key]["items"] = list(entry["items"])
        # an item path in the singular beside its plural list (/alert/{id}, /alerts) lies outside its
        # collection as a shallow one does: serving finds its entity by id in the held collection
        by_template[list_key]["shallow"] = rule_id
        del by_template[key]
