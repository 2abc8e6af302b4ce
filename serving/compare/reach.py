"""What one diverging write reached, per side (``WriteReach``), and the parts of its request body that name
what it wrote (``session`` builds one per write; ``divergence`` reads them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .jsondiff import ValueMap
from .naming import Foreign, a_number, a_scalar, plain_segments, spellings


@dataclass(frozen=True)
class WriteReach:
    """What one write reached, per side (``live``, ``model``): its own path's segments when it is
    no create in a collection (a create's path is the whole collection, which it reaches only by
    the entity it adds), and the values naming the entities it addressed or made."""
    index: int
    own_paths: dict[str, tuple[str, ...]] = field(default_factory=dict)
    entities: dict[str, frozenset[Any]] = field(default_factory=dict)
    named: dict[str, frozenset[tuple[str, str]]] = field(default_factory=dict)
    """The (member, string) pairs of its request body: a create names the entity it makes so (a slug,
    a code), and an object holding them (``named_by``) is that entity."""
    links: dict[str, frozenset[str]] = field(default_factory=dict)
    """The paths and URLs its answer holds: the entities the written one links to (its translation, its
    parent), whose counts and clocks the write changes."""
    parents: dict[str, frozenset[str]] = field(default_factory=dict)
    """The values of its path's parameters before the last (the entities it sits under): their counts and
    clocks the write changes."""
    affects: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    """Its probe's ``affects`` (what the probe file says it changes, a cascade): the counts and clocks of
    what is read at or under them; and, read with a query naming one of its entities, that entity's."""
    id_members: frozenset[str] = frozenset()
    """The members naming its entities by number (where its probe saved one, or its answer held one):
    a number elsewhere (a category 4 beside a new thread 4) names another thing."""
    batch: dict[str, tuple[frozenset[tuple[str, str]], ...]] = field(default_factory=dict)
    """Of a create whose body is one list of objects (``{"rows": [{...}, {...}]}``), the (member, string)
    pairs of each: every one of them an entity it made, named as ``named`` names one."""
    sent: dict[str, frozenset[tuple[str, Any]]] = field(default_factory=dict)
    """The (member, value) leaves its request body sent at any depth (a bare value: under its path's last
    segment, the member it replaces): where they landed is what it changed."""
    labels: dict[str, frozenset[tuple[str, str]]] = field(default_factory=dict)
    """The (member, string) pairs at the top of its request body, of any method: what names the object it
    wrote (a route's ``@id``), wherever a read shows that object."""
    succeeded: frozenset[str] = frozenset()
    """The sides that answered it with a success: only there did it change anything."""
    collection: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The collection a create made in or a delete removed from (its path's segments), per side."""
    deletes: bool = False
    """A DELETE: what its probe ``affects`` it may have removed (a cascade)."""
    tally: int = 0
    """How many more entities that collection holds on the live side than on the model's for this write
    alone: 1 for a create only the live side made (or a delete only the model made), -1 the other way."""
    referents: dict[str, frozenset[Any]] = field(default_factory=dict)
    """Of a delete, the generated ids the last read of its entity showed on that side but its own (the
    kernel a session ran): what the cascade its probe names may have removed with it (``affects``)."""
    items: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    """Of a write to a collection, the objects its body sent as a list (the body itself, or a list member
    of it: ``{"rev": ..., "flows": [...]}``), per side: a read of that collection answering them and
    nothing else on the one side it succeeded on is the document it replaced whole (``replaced_whole``)."""


def groups(reach: WriteReach, side: str) -> tuple[frozenset[tuple[str, str]], ...]:
    """The (member, string) groups naming the entities a write made on ``side``: its body's, each of a batch's."""
    own = (reach.named[side],) if reach.named.get(side) else ()
    return own + reach.batch.get(side, ())


def labels_alone(reaches: list[WriteReach], side: str) -> tuple[frozenset[tuple[str, str]], ...]:
    """The labels (``WriteReach.labels``) of each write that succeeded on ``side`` alone."""
    return tuple(r.labels[side] for r in reaches if r.succeeded == {side} and r.labels.get(side))


def reached_by(reaches: list[WriteReach], values: ValueMap) -> dict[str, frozenset[Any]]:
    """Per side, the entities the writes reached, and the other side's as this side names them (the
    value paired with each): an id the application gave anew to a later entity after deleting the one
    it named (a sequence reusing a freed number) is set aside with its counterpart, on both sides."""
    own = {side: frozenset().union(*(r.entities.get(side, frozenset()) for r in reaches)) for side in ("live", "model")}
    # a path's segment is percent-encoded text, the answer's name decoded, its id maybe the number it spells
    own = {side: own[side] | spellings(v for v in own[side] if isinstance(v, str)) for side in own}
    spelled = {side: {*own[side], *(int(v) for v in own[side] if isinstance(v, str) and v.isdigit()),
                      *(str(v) for v in own[side] if isinstance(v, int) and not isinstance(v, bool))}
               for side in own}
    paired_live = {values.live_value(v) for v in spelled["model"] if values.maps(values.live_value(v), v)}
    paired_model = {values.model_value(v) for v in spelled["live"] if values.maps(v, values.model_value(v))}
    return {"live": frozenset(spelled["live"]) | paired_live, "model": frozenset(spelled["model"]) | paired_model}


def foreign_numbers(reaches: list[WriteReach], side: str, read_path: tuple[str, ...],
                    values: ValueMap) -> Foreign | None:
    """Of a read of a collection a write made in, removed from or wrote an item of (its own list's items are
    that collection's entities), the numbers only writes to other collections reached on ``side``, or the other
    side's such numbers as ``side`` names them (``reached_by`` sets their pairs aside too), each with the members
    naming those writes' own entities (``naming.Foreign``); None for any other read."""
    read = plain_segments(read_path)
    if not any((home := _home(reach, name)) is not None and plain_segments(home) == read
               for reach in reaches for name in ("live", "model")):
        return None
    split = {name: _ours_and_theirs(reaches, name, read) for name in ("live", "model")}
    other = "model" if side == "live" else "live"
    ours, theirs = split[side]
    ours = set(ours) | {str(found) for number in split[other][0] if (found := _paired(number, side, values))}
    theirs = {number: set(members) for number, members in theirs.items()}
    for number, members in split[other][1].items():
        found = _paired(number, side, values)
        if found is not None:
            theirs.setdefault(str(found), set()).update(members)
    return {number: frozenset(members) for number, members in theirs.items() if number not in ours}


def _ours_and_theirs(reaches: list[WriteReach], side: str,
                     read: tuple[str, ...]) -> tuple[set[str], dict[str, set[str]]]:
    """The numbers (as text) writes to the read collection (or to no known one) reached on ``side``, and those
    only writes to other collections reached, each with those writes' ``id_members``."""
    ours: set[str] = set()
    theirs: dict[str, set[str]] = {}
    for reach in reaches:
        home = _home(reach, side)
        numbers = {str(value) for value in reach.entities.get(side, ()) if a_number(value)}
        if home is None or plain_segments(home) == read:
            ours |= numbers
        else:
            for number in numbers:
                theirs.setdefault(number, set()).update(reach.id_members)
    return ours, theirs


def _paired(number: str, side: str, values: ValueMap) -> Any:
    """The value ``side`` names the other side's ``number`` by (a pair of ``values``), or None."""
    for spelled in (int(number), number) if number.isdigit() else (number,):
        found = values.model_value(spelled) if side == "model" else values.live_value(spelled)
        if (values.maps(spelled, found) if side == "model" else values.maps(found, spelled)):
            return found
    return None


def _home(reach: WriteReach, side: str) -> tuple[str, ...] | None:
    """The collection a write's entity belongs to: the one it created in or deleted from, or its own path's."""
    if reach.collection.get(side):
        return reach.collection[side]
    own = reach.own_paths.get(side)
    return own[:-1] if own else None


def sent_items(body: Any) -> tuple[Any, ...]:
    """The objects a JSON value holds as a list: itself, or its list members' (``WriteReach.items``)."""
    lists = [body] if isinstance(body, list) else [v for v in body.values() if isinstance(v, list)] \
        if isinstance(body, dict) else []
    return tuple(item for found in lists for item in found if isinstance(item, dict))


def replaced_whole(reach: WriteReach, side: str, read_path: tuple[str, ...], answer: Any) -> bool:
    """Whether the read of the collection a write sent a list of objects to answers, on the one side it
    succeeded on, exactly those objects (each holding every member it was sent with) and no other: the
    write replaced the whole document there (Node-RED's deploy of ``/flows``), where capenv took a create."""
    sent = reach.items.get(side, ())
    if not sent or reach.succeeded != {side} or reach.collection.get(side) != read_path:
        return False
    read = sent_items(answer)
    return len(read) == len(sent) and all(
        any(all(item.get(name) == value for name, value in one.items()) for item in read) for one in sent)


def batch_groups(body: Any) -> tuple[frozenset[tuple[str, str]], ...]:
    """Of a body that is one list of objects (``{"rows": [{...}, {...}]}``), each object's (member, string)
    pairs: the entities a batch create names (``WriteReach.batch``)."""
    if not (isinstance(body, dict) and len(body) == 1 and isinstance(items := next(iter(body.values())), list)):
        return ()
    return tuple(group for item in items if isinstance(item, dict)
                 and (group := frozenset((n, v) for n, v in item.items() if isinstance(v, str))))


def batch_names(body: Any) -> frozenset[str]:
    """Of a body that is one list of strings (``{"scopes": ["metrics", "support"]}``), those strings: the
    entities a batch create of names makes."""
    if not (isinstance(body, dict) and len(body) == 1 and isinstance(items := next(iter(body.values())), list)):
        return frozenset()
    return frozenset(item for item in items if isinstance(item, str) and item)


def sent_leaves(body: Any, member: str) -> frozenset[tuple[str, Any]]:
    """The (member, value) leaves of a request body at any depth (``WriteReach.sent``); a bare value is
    under ``member`` (the path's last segment, which it replaces)."""
    found: set[tuple[str, Any]] = set()
    stack: list[tuple[str, Any]] = [(member, body)]
    while stack:
        name, value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.items())
        elif isinstance(value, list):
            stack.extend((name, item) for item in value)
        elif a_scalar(value):
            found.add((name, value))
    return frozenset(found)


def top_labels(body: Any) -> frozenset[tuple[str, str]]:
    """The (member, string) pairs at the top of a request body (``WriteReach.labels``); of a JSON Patch
    (RFC 6902), the top members it replaces or adds (``{"op": "replace", "path": "/name", "value": ...}``)."""
    if isinstance(body, dict):
        return frozenset((n, v) for n, v in body.items() if isinstance(v, str) and v)
    if isinstance(body, list) and body and all(isinstance(op, dict) and set(op) == {"op", "path", "value"}
                                               for op in body):
        return frozenset((op["path"][1:], op["value"]) for op in body if op["op"] in ("add", "replace")
                         and isinstance(op["path"], str) and op["path"].count("/") == 1
                         and isinstance(op["value"], str) and op["value"])
    return frozenset()
