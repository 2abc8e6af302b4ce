"""Documents that summarise the collections below them (``DocumentLine.summarises``).

A document read at a path above a type's collection (a database page at ``/blog`` over the
tables at ``/blog/tags``, an API root over its resources), at the collection's own path (a listing
the view cannot read as a list, such as an object keyed by the entities' ids: devpi's ``/`` of the
users at ``/{user}``, OctoPrint's ``/api/printerprofiles``), or one literal segment below it, beside
its items (LoopBack's ``/todos/count``, a ``/posts/stats``), or anywhere when it holds a number under
a collection's own word or a member name holding that word (``{"kernels": 1}`` beside ``/api/kernels``,
``{"tag_count": 2}`` beside ``/api/v1/tag``), or names the collection's entities by their ids (an object
keyed by them, ``{"<uuid>": {...}}``, or a list of them, ``{"overdue": ["<uuid>"]}``), may show what
those collections hold: row counts, names, totals, the entities themselves. The state holds the document as recorded and no plan writes it when
an entity below changes, so serving answers it from the state only while those collections are
as the capture began (``serving/reads/from_state``), unless the capture itself shows the
document unchanged across a write: two successful recordings of the line, a write between
them, always the same answer, and none across a write answering otherwise.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any

from capenv.interpreter.bundle.models import DocumentLine, EntityType, ReadView
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.evidence.records import Record


def with_summarised_types(view: ReadView, types: dict[str, EntityType], records: dict[int, Record],
                          writes: list[int], held_ids: dict[str, frozenset[str]] | None = None) -> ReadView:
    """The view with each document line's ``summarises`` set (``writes``: the write ordinals, sorted;
    ``held_ids``: per type, the ids (as text) the initial state holds)."""
    if view.kind != "document":
        return view
    lines = tuple(_line(line, types, records, writes, held_ids or {}) for line in view.documents)
    return view.model_copy(update={"documents": lines})


def _line(line: DocumentLine, types: dict[str, EntityType], records: dict[int, Record],
          writes: list[int], held_ids: dict[str, frozenset[str]]) -> DocumentLine:
    body = _first_answer(line, records)
    below = tuple(name for name, t in types.items()
                  if _at_or_below(t.collection_template, line.path) or _beside_items(t.collection_template, line.path)
                  or _counts(body, t.collection_template) or _names_entities(body, held_ids.get(name, frozenset())))
    if not below or _unchanged_across_writes(line, records, writes):
        return line
    return line.model_copy(update={"summarises": below})


def _at_or_below(template: str, path: str) -> bool:
    """The collection lies below the path, or at it: a document read at the collection's own path is
    a read of the collection in a shape the view does not list."""
    theirs = [s for s in split_path(template) if s]
    mine = [s for s in split_path(path) if s]
    return len(theirs) >= len(mine) and all(t == m or t.startswith("{") for t, m in zip(theirs, mine))


def _beside_items(template: str, path: str) -> bool:
    """The path is the collection's followed by one more segment (``/todos/count`` beside
    ``/todos/{id}``): a read of the collection as a whole, not of a document of its own."""
    theirs = [s for s in split_path(template) if s]
    mine = [s for s in split_path(path) if s]
    return len(mine) == len(theirs) + 1 and all(t == m or t.startswith("{") for t, m in zip(theirs, mine))


def _first_answer(line: DocumentLine, records: dict[int, Record]) -> object:
    answered = [records[o] for o in sorted(line.record_ordinals)
                if o in records and records[o].succeeded and records[o].response.is_json]
    return answered[0].response.json_value if answered else None


def _counts(body: object, template: str) -> bool:
    """The document holds a number under the collection's own word (Jupyter Server's ``/api/status``
    ``{"kernels": 1}`` beside ``/api/kernels``): a count of it, wherever the document lies."""
    literal = [s for s in split_path(template) if s and not s.startswith("{")]
    if not literal or not isinstance(body, dict):
        return False
    word = literal[-1].lower()
    return any(isinstance(value, int) and not isinstance(value, bool) and word in _words(name)
               for name, value in body.items())


def _words(name: str) -> set[str]:
    """A member name's words, lower case: split at what is no letter or digit and before a capital
    (``tag_count``, ``tagCount``, ``tag-count`` and ``tag`` all hold ``tag``)."""
    return {w.lower() for w in re.split(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])", name) if w}


def _names_entities(body: object, ids: frozenset[str]) -> bool:
    """The document names an entity the collection holds by its id, anywhere in it: as a member
    name (an object keyed by id) or as text in a list (a list of ids)."""
    if not ids:
        return False
    stack: list[Any] = [body]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if any(key in ids for key in value):
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            if any(isinstance(item, str) and item in ids for item in value):
                return True
            stack.extend(value)
    return False


def _unchanged_across_writes(line: DocumentLine, records: dict[int, Record], writes: list[int]) -> bool:
    answered = [records[o] for o in sorted(line.record_ordinals) if o in records and records[o].succeeded]
    across = [(a, b) for i, a in enumerate(answered) for b in answered[i + 1:]
              if bisect_right(writes, a.ordinal) < bisect_right(writes, b.ordinal)]
    return bool(across) and all(_same(a, b) for a, b in across)


def _same(left: Record, right: Record) -> bool:
    if left.status != right.status or left.response.is_json != right.response.is_json:
        return False
    if left.response.is_json:
        return same_json(left.response.json_value, right.response.json_value)
    return left.response.text == right.response.text
