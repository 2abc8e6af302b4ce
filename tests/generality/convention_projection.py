"""Projection queries of the convention application (``Conventions.projection``): the application
side (which members a read answers), the reads the session records with them, and the probes.

The session proves the projection on notes (a list and an item read, each beside a plain read of
the same path with no write between); the probes then read projections the session never sent,
after a create and an update, and send what no recording proves (a path into a member, a member
no note holds, a wildcard, another spelling), which the model must refuse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from . import convention_shapes as shapes

if TYPE_CHECKING:  # the application imports this module
    from .conventions import Conventions

Pairs = tuple[tuple[str, str], ...]

ROOT = "fields"


def _named(c: Conventions, query: Pairs, kind: str) -> list[str] | None:
    """The members the call names in the convention's spelling (None: no projection)."""
    if c.projection == "typed":
        values = [v for k, v in query if k == f"{ROOT}[{kind}]"]
        return [n for v in values for n in v.split(",")] if values else None
    if c.projection == "indexed":
        values = [v for k, v in query if k.startswith(f"{ROOT}[") and k[len(ROOT) + 1:-1].isdigit()]
        return values or None
    name = f"{ROOT}[]" if c.projection == "appended" else ROOT
    values = [v for k, v in query if k == name]
    return [n for v in values for n in v.split(",")] if values else None


def project(c: Conventions, entity: dict[str, Any], query: Pairs, kind: str) -> dict[str, Any] | str:
    """The entity as a read with ``query`` answers it, or why the application refuses the call
    (JSON:API's sparse fieldsets keep the resource's id and type: ``typed`` keeps the id)."""
    if c.projection == "none":
        return entity
    named = _named(c, query, kind)
    if named is None or "*" in named:
        return entity
    unknown = [n for n in named if n not in entity]
    if unknown:
        return f"unknown field {unknown[0]}"
    kept = set(named) | ({"id"} if c.projection in ("comma-keeps-id", "indexed", "typed") else set())
    return {k: v for k, v in entity.items() if k in kept}


def spelled(c: Conventions, *members: str) -> Pairs:
    """A projection of notes' ``members`` in the convention's spelling."""
    if c.projection == "typed":
        return ((f"{ROOT}[notes]", ",".join(members)),)
    if c.projection == "indexed":
        return tuple((f"{ROOT}[{i}]", m) for i, m in enumerate(members))
    if c.projection == "appended":
        return tuple((f"{ROOT}[]", m) for m in members)
    return ((ROOT, ",".join(members)),)


def other_spelling(c: Conventions) -> Pairs:
    return ((f"{ROOT}[]", "title"),) if c.projection != "appended" else ((ROOT, "title"),)


def record(c: Conventions, send: Callable[..., Any], note: Any) -> None:
    """The session's projected reads (after its writes): each member left out by one of them, beside
    a plain read of the same path."""
    if c.projection == "none":
        return
    notes, item = c.collection("notes"), c.item("notes", note)
    send("GET", notes)
    send("GET", notes, query=spelled(c, "title", "done"))
    send("GET", notes, query=spelled(c, *(("body",) if c.projection == "typed" else ("id", "body"))))
    if c.projection_wildcard_recorded:
        send("GET", notes, query=spelled(c, "*"))
    send("GET", item)
    send("GET", item, query=spelled(c, "title"))


SERVED = ("projected notes after the create", "the new note projected", "the updated note projected",
          "seeded note 2 projected")
"""The probes a model must answer as the application does, from its state (with a learned sort too:
"projected notes in a learned order")."""
REFUSED_FORMS = ("a path into a member", "a member no note holds", "another spelling")
"""The probes naming what no recording proves: the model refuses them (and ``*`` when unrecorded)."""


def probes(c: Conventions, keys: dict[str, list[Any]], key_pointer: str) -> list[dict[str, Any]]:
    """``key_pointer``: where a create's answer holds the new note's identity."""
    if c.projection == "none":
        return []
    notes = c.collection("notes")

    def read(name: str, path: str, query: Pairs) -> dict[str, Any]:
        return {"name": name, "method": "GET", "path": path, "query": [list(pair) for pair in query]}

    created = shapes.body(c, "notes", {"title": "Projected", "body": "only some members", "done": False})
    edited = shapes.body(c, "notes", {"title": "Projected, edited", "body": "edited", "done": True}, "{projected}")
    calls = [
        {"name": "create a projected note", "method": "POST", "path": notes, "body": created,
         "save": {"projected": key_pointer}},
        read("projected notes after the create", notes, spelled(c, "id", "title", "done")),
        read("the new note projected", c.item("notes", "{projected}"), spelled(c, "body", "done")),
        {"name": "update the projected note", "method": c.update, "path": c.item("notes", "{projected}"), "body": edited},
        read("the updated note projected", c.item("notes", "{projected}"), spelled(c, "id", "title", "done")),
        read("seeded note 2 projected", c.item("notes", keys["notes"][1]), spelled(c, "title", "body")),
        read("a path into a member", notes, spelled(c, "title", "author.name")),
        read("a member no note holds", notes, spelled(c, "title", "colour")),
        read("another spelling", notes, other_spelling(c)),
        read("every member", notes, spelled(c, "*")),
    ]
    if c.query_style == "order_by":
        calls.append(read("projected notes in a learned order", notes,
                          (("order_by", "-title"),) + spelled(c, "id", "title", "done")))
    return calls
