"""Shallow nesting: an item path with no list of its own (``/versions/{id}``) beside the one list
under a parent with the same last word (``/projects/{project}/versions``), which lists and creates
what the item path reads, updates and deletes (Rails' ``shallow: true``). Decided by
``view-shallow-items`` from the two tools' own reads; the two are then one type, whose collections
are the parent's lists and whose item path finds an entity by its id in whichever holds it
(``serving/state/shallow``). Otherwise the item path stays a type of its own."""

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
            if _last_word(list_key) != word or candidate.get("shallow"):
                continue
            context = ShallowItemContext(
                item_template=item_template, list_template=candidate["spelling"], id_field=id_field,
                list_id_field=candidate["id_field"] or "",
                pairs=_pairs(_entities(entry["items"], answers), _entities(candidate["lists"], answers), id_field,
                             writes))
            decision = evaluate(reader.ruleset, TABLE, context, subject=f"{item_template} and {candidate['spelling']}")
            reader.traces.extend(decision.events)
            if decision.ok and decision.yields.get("shallow"):
                joined.append((list_key, decision.rule_id or TABLE))
        if len(joined) != 1:
            continue  # none, or the word under two parents: which one holds an id is not the path's to say
        list_key, rule_id = joined[0]
        by_template[list_key]["items"] = list(entry["items"])
        by_template[list_key]["shallow"] = rule_id
        del by_template[key]
