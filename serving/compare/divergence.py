"""Whether an earlier diverging write explains a difference, or the difference is a *suspect*.

A read under the scope of a write the two sides did not make alike (``session``'s ``diverged_by``)
may differ because of that write, but only where the write reached: the resource at the write's own
path (an update, an action, a document); an entity it addressed by a path parameter, made (a value
saved from, or generated in, its answer) or named in its body (a create's slug), and an href ending
in the path it wrote at; the membership and count of a collection listing those; the numbers and
clocks of an entity it links to (an href in its answer, the entity it sits under) or of
a read its probe ``affects`` (and a member of theirs one side holds null, which it set first). A difference
anywhere else follows from no diverging write: a wrong answer may hide behind it.

How it is decided, per side (each side's own ids): a read at or under the write's own path, or of one
of its entities (named in its path, or an object holding it), is explained whole; one of the entity
the write sits under (a parameter before the last) is linked.
Otherwise every array item holding one of the write's entities, and every object member keyed by one,
at any depth, is set aside in both bodies, and the rest compared again: what still differs is
unexplained, but for numbers whose live minus model equals the items set aside on the live side minus
the model side (a count of the collection), as many last items of a page missing on the side holding
more of them (a page of a fixed size the added entity pushed one off), numbers and clocks of a read the write links to, and a
value a later write's answer drew on both sides (an id from a sequence the divergence moved).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from capenv.interpreter.bundle.pointers import member_at

from .jsondiff import ABSENT, Difference, ValueMap, diff_json
from .judge import in_one_order, parsed_body
from .sides import Observed
from .values import as_decimal, clock_format, drawn_format

_INDEX = re.compile(r"/\d+(?=/|$)")


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
    a code), and an object holding them (``_named_by``) is that entity."""
    links: dict[str, frozenset[str]] = field(default_factory=dict)
    """The paths and URLs its answer holds: the entities the written one links to (its translation, its
    parent), whose counts and clocks the write changes."""
    parents: dict[str, frozenset[str]] = field(default_factory=dict)
    """The values of its path's parameters before the last (the entities it sits under): their counts and
    clocks the write changes."""
    affects: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    id_members: frozenset[str] = frozenset()
    """The members naming its entities by number (where its probe saved one, or its answer held one):
    a number elsewhere (a category 4 beside a new thread 4) names another thing."""
    """Its probe's ``affects`` (what the probe file says it changes, a cascade): the counts and clocks of
    what is read at or under them."""


def unexplained(reaches: list[WriteReach], read_paths: dict[str, tuple[str, ...]], live: Observed,
                model: Observed, differences: list[Difference], values: ValueMap,
                unordered: tuple[str, ...] = (), volatile: frozenset[str] = frozenset(),
                drawn: dict[str, frozenset[Any]] | None = None,
                read_before: dict[str, tuple[frozenset[tuple[str, str]], ...]] | None = None) -> list[Difference]:
    """The differences of a call (``read_paths``: each side's path segments, read as capenv reads them)
    that none of the diverging writes ``reaches`` explains; [] when they explain all of them. ``drawn``:
    of a write, per side, the values its answer showed first that its request did not send: the id a
    create drew, which follows how many each side created before (a sequence the divergence moved).
    ``read_before``: per side, the (member, text) pairs of each written entity as a read of its own path
    answered them on that side: the one item of a list projecting it (Pulp's ``?fields=name``, a list of
    names where the entity's id is not shown) is that entity."""
    if not differences:
        return []
    linked = False
    for reach in reaches:
        for side, path in read_paths.items():
            own = reach.own_paths.get(side)
            names = {str(v) for v in reach.entities.get(side, frozenset())} | {v for _, v in reach.named.get(side, ())}
            if (own is not None and path[:len(own)] == own) or names & set(path):
                return []  # the entity itself, or what lies under it (its posts embedding it, a cascade)
            linked = linked or _links_to(reach.links.get(side, frozenset()), path) \
                or bool(reach.parents.get(side, frozenset()) & set(path)) \
                or any(path[:len(scope)] == scope for scope in reach.affects.get(side, ()))
    (live_json, live_body), (model_json, model_body) = parsed_body(live), parsed_body(model)
    if not (live_json and model_json):
        return list(differences)
    bodies = {"live": live_body, "model": model_body}
    reached = _reached(reaches, values)
    id_members = frozenset().union(*(r.id_members for r in reaches))
    for side, body in bodies.items():  # the read answers the entity itself, wherever its path put it
        entities = reached[side]
        named = tuple(r.named[side] for r in reaches if r.named.get(side))
        # a number names too much at the top of an answer (a count, a position): the entity is named there
        # by a string id, an href or its body's members
        named_by_text = frozenset(e for e in entities if isinstance(e, str) and not e.isdigit())
        if isinstance(body, dict) and _holds(body, named_by_text, named, id_members):
            return []
    heads = [d for d in differences if not d.pointer.startswith("/") and d.pointer != ""]
    kept, set_aside = {}, {}
    for side, body in bodies.items():
        entities = reached[side]
        named = tuple(r.named[side] for r in reaches if r.named.get(side))
        seen = (read_before or {}).get(side, ())
        kept[side], set_aside[side] = _set_aside(in_one_order(body, unordered), entities, named, id_members, seen)
    counted = set_aside["live"] - set_aside["model"]
    volatile_shapes = {_INDEX.sub("/*", p) for p in volatile}
    rest = [d for d in diff_json(kept["live"], kept["model"], values)
            if _INDEX.sub("/*", d.pointer) not in volatile_shapes and not _a_count(d, counted)
            and not (linked and (_aggregate(d) or _a_tally(d, kept))) and not _both_drawn(d, drawn)]
    return heads + _without_pushed_off(rest, counted)


def _without_pushed_off(differences: list[Difference], counted: int) -> list[Difference]:
    """``differences`` without the last items of a page the side holding more of the writes' entities lacks,
    as many as it holds more of them: a page of a fixed size whose entity the write added pushed the last
    one off to the next page (Misago's threads page of two, a new pinned thread first)."""
    if counted == 0:
        return differences
    short = "live" if counted > 0 else "model"
    tails: dict[str, list[Difference]] = {}
    for difference in differences:
        head, _, index = difference.pointer.rpartition("/")
        if index.isdigit() and getattr(difference, short) is ABSENT:
            tails.setdefault(head, []).append(difference)
    pushed = {id(d) for items in tails.values() if len(items) <= abs(counted) for d in items}
    return [d for d in differences if id(d) not in pushed]


def _reached(reaches: list[WriteReach], values: ValueMap) -> dict[str, frozenset[Any]]:
    """Per side, the entities the writes reached, and the other side's as this side names them (the
    value paired with each): an id the application gave anew to a later entity after deleting the one
    it named (a sequence reusing a freed number) is set aside with its counterpart, on both sides."""
    own = {side: frozenset().union(*(r.entities.get(side, frozenset()) for r in reaches)) for side in ("live", "model")}
    # a path's segment is text, the answer's id may be the number it spells
    spelled = {side: {*own[side], *(int(v) for v in own[side] if isinstance(v, str) and v.isdigit())}
               for side in own}
    paired_live = {values.live_value(v) for v in spelled["model"] if values.maps(values.live_value(v), v)}
    paired_model = {values.model_value(v) for v in spelled["live"] if values.maps(v, values.model_value(v))}
    return {"live": own["live"] | paired_live, "model": own["model"] | paired_model}


def _both_drawn(difference: Difference, drawn: dict[str, frozenset[Any]] | None) -> bool:
    if not drawn or isinstance(difference.live, (dict, list, bool)) or isinstance(difference.model, (dict, list, bool)):
        return False
    if difference.live not in drawn.get("live", frozenset()) or difference.model not in drawn.get("model", frozenset()):
        return False
    # of an identifier's shape: both integers (a sequence), or both of a drawn shape (a token, an encoded id)
    return all(isinstance(v, int) for v in (difference.live, difference.model)) \
        or all(drawn_format(v) is not None for v in (difference.live, difference.model))


def _links_to(links: frozenset[str], path: tuple[str, ...]) -> bool:
    """Whether one of a write's links names the entity read at ``path`` (ends with its path)."""
    if not path:
        return False
    spelled = "/" + "/".join(path)
    return any(link.rstrip("/").endswith(spelled) for link in links)


def _aggregate(difference: Difference) -> bool:
    """Both sides a number (no boolean), or both a clock reading: what a write to an entity linked to
    this one changes here (a count of its translated units, the time of its last change); or null on one
    side and a text or number on the other: a member the write set for the first time there (Weblate's
    translation's ``last_author``, null until one of its units is changed)."""
    sides = (difference.live, difference.model)
    return all(as_decimal(v) is not None and not isinstance(v, bool) for v in sides) \
        or all(clock_format(v) is not None for v in sides) \
        or any(v is None for v in sides) and any(isinstance(v, (str, int, float)) and not isinstance(v, bool)
                                                 for v in sides)


def _a_tally(difference: Difference, bodies: dict[str, Any]) -> bool:
    """A number on one side, absent on the other, in an object holding only numbers on the side holding it:
    a tally per value the write changed in an entity it reached (Alerta's ``statusCounts``, an acknowledged
    alert counted under ``ack``, a tally of 0 left out)."""
    present = [side for side in ("live", "model") if getattr(difference, side) is not ABSENT]
    if len(present) != 1:
        return False
    value = getattr(difference, present[0])
    if as_decimal(value) is None or isinstance(value, bool):
        return False
    holder = member_at(bodies[present[0]], difference.pointer.rpartition("/")[0])
    return isinstance(holder, dict) and all(as_decimal(v) is not None and not isinstance(v, bool)
                                            for v in holder.values())


def _a_count(difference: Difference, counted: int) -> bool:
    live, model = as_decimal(difference.live), as_decimal(difference.model)
    if counted == 0 or live is None or model is None or isinstance(difference.live, bool) \
            or isinstance(difference.model, bool):
        return False
    return live - model == counted


Named = tuple[frozenset[tuple[str, str]], ...]
"""Per write, the (member, string) pairs its body sent."""


def _set_aside(body: Any, entities: frozenset[Any], named: Named, id_members: frozenset[str],
               seen: Named = ()) -> tuple[Any, int]:
    """``body`` without the array items holding one of ``entities`` (or every pair of one ``named``, or the
    only item of its array holding every pair of one ``seen``) and the object members keyed by one (a copy),
    and how many array items were set aside."""
    if not entities and not named and not seen:
        return body, 0
    body = copy.deepcopy(body)
    return body, _prune(body, entities, named, id_members, seen)


def _prune(value: Any, entities: frozenset[Any], named: Named, id_members: frozenset[str], seen: Named = ()) -> int:
    removed = 0
    if isinstance(value, list):
        projected = {id(item) for item in _projections(value, seen)}
        kept = [item for item in value if id(item) not in projected and not _holds(item, entities, named, id_members)]
        removed = len(value) - len(kept)
        value[:] = kept
        for item in kept:
            removed += _prune(item, entities, named, id_members, seen)
    elif isinstance(value, dict):
        for name in [n for n in value if n in entities]:
            del value[name]
        for member in value.values():
            removed += _prune(member, entities, named, id_members, seen)
    return removed


def _projections(items: list[Any], seen: Named) -> list[Any]:
    """The items of a list that are a written entity as a read showed it, each the only item of the list
    holding its values (a list projecting a few members: a value many items share names none of them)."""
    found = []
    for group in seen:
        holding = [item for item in items if isinstance(item, dict) and _named_by(item, group)]
        if len(holding) == 1:
            found.append(holding[0])
    return found


def _holds(value: Any, entities: frozenset[Any], named: Named, id_members: frozenset[str] = frozenset()) -> bool:
    """Whether an array item is one of the entities or names one: itself, a member of it, or of an
    object inside it (a wrapper), never an item of a list inside it (its children naming the entity)."""
    if isinstance(value, dict):
        return any(_named_by(value, group) for group in named) or any(
            _holds(member, entities, named, id_members) if isinstance(member, dict)
            else _leaf_in(member, entities) and (name in id_members or not id_members or not _a_number(member))
            for name, member in value.items())
    return _leaf_in(value, entities)


def _a_number(value: Any) -> bool:
    """A number, or text spelling one: what names an entity only under a member known to (``id_members``)."""
    if isinstance(value, str):
        return value.isdigit()
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _named_by(value: dict[str, Any], group: frozenset[tuple[str, str]]) -> bool:
    """Whether an object is the entity a create's body named: every member of the body it holds has the
    value sent, and it holds one at least (an answer shows what was sent by other names too: a member's
    ``subscriber`` as its ``email``)."""
    held = [(name, sent) for name, sent in group if name in value]
    return bool(held) and all(value[name] == sent for name, sent in held)


def _leaf_in(value: Any, entities: frozenset[Any]) -> bool:
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return False
    if isinstance(value, str):  # an entity given as a path (``/``...): an href ending so names it
        return value in entities or any(isinstance(e, str) and e.startswith("/") and value.rstrip("/").endswith(e)
                                        for e in entities)
    return str(value) in entities or value in entities
