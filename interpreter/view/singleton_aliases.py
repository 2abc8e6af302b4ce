"""List reads at a literal path that name one entity another read shows at its own path
(``view-singleton-aliases``): ``/users/me`` or ``/current-user`` answered ``{"users": [{…}]}``,
``/books/{id}/author`` answered ``{"author": [{…}]}``. Such a read is the same entity named
otherwise; answered bare it is a document holding that entity's copy, and so it is read here too,
rather than as a collection type whose copies of the other type's entities would leave every write
of that type unserved (write-effects: copies of entities in other collections)."""

from __future__ import annotations

from typing import Any, Callable

from capenv.interpreter.bundle.values import locate, same_json
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Tool
from capenv.interpreter.predicates.singleton_aliases import ShownElsewhere, SingletonAliasContext
from capenv.interpreter.rules_engine import evaluate

from .shapes import ShapeReader

TABLE = "view-singleton-aliases"


def singleton_aliases(shapes: dict[str, Any], answers_of: Callable[[Any], list[Record]], reader: ShapeReader,
                      structural: Callable[[Any], str], tools: list[Tool]) -> set[str]:
    """The list tools (at a path whose last segment is literal) the table reads as an alias of an
    entity another read shows; ``structural(segments)`` keys a tool's collection path, ``tools``
    are the manifest's (its writes tell a collection that gains members)."""
    if TABLE not in reader.ruleset.tables:
        return set()
    found = set()
    for shape in list(shapes.values()):
        tool = shape.tool
        if shape.kind != "list" or not tool.segments or tool.segments[-1].is_param or shape.id_field is None:
            continue
        groups = [locate(r.response.json_value, shape.locator) for r in answers_of(tool)]
        listed = [len(g) if isinstance(g, list) else 0 for g in groups]
        singles = [g[0] for g in groups if isinstance(g, list) and len(g) == 1 and isinstance(g[0], dict)]
        objects = _shown_elsewhere(shape, singles, shapes, answers_of, structural) \
            if len(singles) == len(groups) else []
        writes = [w.name for w in tools if w.changes_state and _at_or_below(tool.segments, w.segments)]
        context = SingletonAliasContext(tool=tool.name, listed=listed, objects=objects, writes_at_or_below=writes)
        decision = evaluate(reader.ruleset, TABLE, context, subject=f"{tool.name} singleton alias")
        reader.traces.extend(decision.events)
        if decision.yields.get("alias"):
            found.add(tool.name)
    return found


def _at_or_below(read: Any, write: Any) -> bool:
    """The write's path is the read's or lies beneath it: each literal segment of the read spelled
    alike in the write, a parameter of the read matching any (a write at ``/users/{id}`` is not one
    at ``/users/me``)."""
    return len(write) >= len(read) and all(
        r.is_param or (not w.is_param and r.text() == w.text()) for r, w in zip(read, write))


def _shown_elsewhere(shape: Any, singles: list[dict], shapes: dict[str, Any], answers_of: Callable[[Any], list[Record]],
                     structural: Callable[[Any], str]) -> list[ShownElsewhere]:
    """For each distinct listed object, the read of another collection path showing most of its
    members with equal values under its identity value (two types of one schema numbered from 1
    share ids and member names, not values)."""
    id_field = shape.id_field
    own = structural(shape.tool.segments)
    others = [s for s in shapes.values() if s is not shape and s.kind in ("item", "list")
              and structural(s.tool.segments[:-1] if s.kind == "item" else s.tool.segments) != own]
    wanted = {str(obj.get(id_field)): obj for obj in singles if id_field in obj}
    best: dict[str, tuple[int, str | None, int]] = {key: (0, None, 0) for key in wanted}
    for other in others:
        for record in answers_of(other.tool):
            located = locate(record.response.json_value, other.locator) if other.locator else None
            for candidate in (located if isinstance(located, list) else [located]):
                if not isinstance(candidate, dict) or id_field not in candidate:
                    continue
                key = str(candidate[id_field])
                if key in wanted:
                    shared = sum(1 for name, value in wanted[key].items()
                                 if name != id_field and name in candidate and same_json(candidate[name], value))
                    # a member the other read answers null that this one fills: a fuller projection
                    # of the same entity (a listing leaving the caller's own settings null)
                    filled = sum(1 for name, value in wanted[key].items()
                                 if name != id_field and value is not None and name in candidate
                                 and candidate[name] is None)
                    if shared > best[key][0] or best[key][1] is None:
                        best[key] = (shared, other.tool.name, filled)
    return [ShownElsewhere(identity=key, other_tool=best[key][1], shared_members=best[key][0],
                           filled_members=best[key][2], members=sum(1 for name in obj if name != id_field))
            for key, obj in wanted.items()]
