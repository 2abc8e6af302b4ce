"""The differences a diverging write explains where it reached in part (``divergence``): the numbers, clocks
and versions of what it links to or sits under, the place it wrote inside a document, a value it sent on
the one side it succeeded on, a reference a delete cleared, ids both sides drew, texts quoting paired ids."""

from __future__ import annotations

import re
from typing import Any

from capenv.interpreter.bundle.pointers import member_at, parse as parse_pointer

from .jsondiff import ABSENT, Difference, ValueMap
from .naming import a_number, a_scalar, around, leaf_in, spellings
from .reach import WriteReach
from .values import as_decimal, clock_format, drawn_format


def a_count(difference: Difference, counts: set[int]) -> bool:
    live, model = as_decimal(difference.live), as_decimal(difference.model)
    if not counts or live is None or model is None or isinstance(difference.live, bool) \
            or isinstance(difference.model, bool):
        return False
    return live - model in counts


def aggregate(difference: Difference) -> bool:
    """Both sides a number (no boolean), or both a clock reading: what a write to an entity linked to
    this one changes here (a count of its translated units, the time of its last change); or null on one
    side and a text or number on the other: a member the write set for the first time there (Weblate's
    translation's ``last_author``, null until one of its units is changed)."""
    sides = (difference.live, difference.model)
    return all(as_decimal(v) is not None and not isinstance(v, bool) for v in sides) \
        or all(clock_format(v) is not None for v in sides) \
        or any(v is None for v in sides) and any(isinstance(v, (str, int, float)) and not isinstance(v, bool)
                                                 for v in sides)


def a_tally(difference: Difference, bodies: dict[str, Any]) -> bool:
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


def a_version(difference: Difference) -> bool:
    """A member at the top of the read both sides hold as a token of one drawn shape: the version of the
    whole a linked write changed (a document's ``rev``, a digest of what it holds), as its clock is."""
    return difference.pointer.count("/") == 1 and all(isinstance(v, str) for v in (difference.live, difference.model)) \
        and drawn_format(difference.live) is not None and drawn_format(difference.live) == drawn_format(difference.model)


def both_drawn(difference: Difference, drawn: dict[str, frozenset[Any]] | None) -> bool:
    if not drawn or isinstance(difference.live, (dict, list, bool)) or isinstance(difference.model, (dict, list, bool)):
        return False
    if difference.live not in drawn.get("live", frozenset()) or difference.model not in drawn.get("model", frozenset()):
        return False
    # of an identifier's shape: both integers (a sequence), or both of a drawn shape (a token, an encoded id)
    return all(isinstance(v, int) for v in (difference.live, difference.model)) \
        or all(drawn_format(v) is not None for v in (difference.live, difference.model))


def at_own_path(difference: Difference, reaches: list[WriteReach], read_paths: dict[str, tuple[str, ...]]) -> bool:
    """A difference inside a document read at the very place a write wrote (the read's path and the pointer
    together at or under the write's own path: ``/config`` read at ``/servers/a/routes/0`` after a delete
    of ``/config/servers/a/routes/0``), on both sides."""
    if not difference.pointer.startswith("/"):
        return False
    tokens = parse_pointer(difference.pointer)
    for reach in reaches:
        if all((own := reach.own_paths.get(side)) is not None
               and len(own) > len(path) and (*path, *tokens)[:len(own)] == own
               for side, path in read_paths.items()):
            return True
    return False


def sent_into_linked(difference: Difference, reaches: list[WriteReach], bodies: dict[str, Any],
                      reached: dict[str, frozenset[Any]]) -> bool:
    """A value a write sent, held where it differs by the side the write succeeded on (and only there), in
    an object naming what the write wrote (its entity, or another member its body sent): an item's
    ``tax_rate`` beside the ``tax_rule`` a refused update of that rule's ``rate`` named, a route named
    by the ``@id`` the write sent, showing the ``body`` it sent."""
    if not difference.pointer.startswith("/"):
        return False
    tokens = parse_pointer(difference.pointer)
    for reach in reaches:
        if len(reach.succeeded) != 1:
            continue  # both made it (then each holds what it made) or neither
        side = next(iter(reach.succeeded))
        value = getattr(difference, side)
        sent = reach.sent.get(side, frozenset())
        if not a_scalar(value) or not any(v == value and type(v) is type(value) for _, v in sent):
            continue
        names = {(m, v) for m, v in reach.labels.get(side, ()) if v != value}
        entities = {str(e) for e in reached[side]}
        for holder in reversed(around(bodies[side], tokens)):  # the objects around the value, innermost first
            if isinstance(holder, dict) and any(
                    name != tokens[-1] and a_scalar(member)
                    and ((name, member) in names or str(member) in entities)
                    for name, member in holder.items()):
                return True
    return False


def nulled_reference(difference: Difference, reaches: list[WriteReach], reached: dict[str, frozenset[Any]],
                      id_members: frozenset[str]) -> bool:
    """A member null on the one side a write succeeded on, an object holding that write's entity by its id on
    the other: the reference a delete cleared (a book's ``author`` after its author's delete)."""
    for nulled, held in (("live", "model"), ("model", "live")):
        value = getattr(difference, held)
        if getattr(difference, nulled) is not None or not isinstance(value, dict):
            continue
        entities = reached[held]
        if any(r.succeeded == {nulled} for r in reaches) and any(
                leaf_in(member, entities) and (name in id_members or not a_number(member))
                for name, member in value.items()):
            return True
    return False


def in_parent_item(difference: Difference, reaches: list[WriteReach], bodies: dict[str, Any],
                    id_members: frozenset[str]) -> bool:
    """A number or clock of an object naming an entity a write sat under (a parameter of its path before the
    last): a listed provider's ``generation`` after a write to one of its inventories."""
    if not difference.pointer.startswith("/"):
        return False
    tokens = parse_pointer(difference.pointer)
    for side in ("live", "model"):
        parents = frozenset().union(*(r.parents.get(side, frozenset()) for r in reaches))
        if parents and any(isinstance(holder, dict) and any(
                leaf_in(member, parents) and (name in id_members or not a_number(member))
                for name, member in holder.items()) for holder in around(bodies[side], tokens)):
            return True
    return False


_TOKEN_EDGE = r"(?<![0-9A-Za-z]){}(?![0-9A-Za-z])"


def echoes_paired(difference: Difference, values: ValueMap) -> bool:
    """Two texts alike but for the paired values they quote (``No record found for id '18'`` beside ``'16'``,
    where the two sides' ids of one entity are 18 and 16), each swapped where it stands whole."""
    live, model = difference.live, difference.model
    if not (isinstance(live, str) and isinstance(model, str)):
        return False
    for number, (live_value, model_value) in enumerate(values.pairs()):
        if str(live_value) == str(model_value) or not a_scalar(live_value) or not a_scalar(model_value):
            continue
        marker = f"\x00{number}\x00"
        live = re.sub(_TOKEN_EDGE.format(re.escape(str(live_value))), marker, live)
        model = re.sub(_TOKEN_EDGE.format(re.escape(str(model_value))), marker, model)
    return live == model and live != difference.live


def displaced_member(difference: Difference, reaches: list[WriteReach], bodies: dict[str, Any]) -> bool:
    """A member one side's object holds alone, where the other side's object (the read as answered) holds
    one member only, keyed by an entity a write succeeded on alone there: the one place that write gave its
    entity, which the other side still gives its former holder (``/defaultrealm`` keyed by ``partners`` after
    a POST /defaultrealm/partners only the live side made, by ``corp`` on the model's)."""
    if not difference.pointer.startswith("/"):
        return False
    name, parent = parse_pointer(difference.pointer)[-1], difference.pointer.rpartition("/")[0]
    for moved, kept in (("live", "model"), ("model", "live")):
        if getattr(difference, moved) is not ABSENT or getattr(difference, kept) is ABSENT:
            continue
        there, here = member_at(bodies[moved], parent), member_at(bodies[kept], parent)
        if not (isinstance(there, dict) and isinstance(here, dict) and len(there) == 1 and list(here) == [name]):
            continue
        key = next(iter(there))
        if key != name and any(r.succeeded == {moved} and key in spellings(str(e) for e in r.entities.get(moved, ()))
                               for r in reaches):
            return True
    return False
