"""Values the application draws anew at each start, paired entity by entity with the recorded ones.

An application whose seed makes its ids at start (a UUID per flow, a random token per user) holds,
once started again, the same entities under other ids. Before any write, both sides answer a read
of the seed: the live application's list and the model's hold the same entities, possibly in
another order. An entity of one is paired with an entity of the other when the two agree on every
member that is no generated value and no clock reading (``values``), and no other entity of either
answer agrees with it so: then each generated value the model's state held at the start pairs with
the live value at the same place. Entities that two or more of the other side's agree with are left
unpaired: a probe addressing one of them is skipped, never sent to another entity.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

from capenv.interpreter.bundle.jsonvalue import canonical, texts_in
from capenv.interpreter.bundle.pointers import escape_token

from .jsondiff import ValueMap
from .values import clock_format, drawn_format


def seeded_pairs(live: Any, model: Any, seeded: frozenset[Any]) -> list[tuple[Any, Any]]:
    """(live value, model value) for each value of ``seeded`` (generated values the model's state
    held at the start) the model's answer holds where the live answer holds a value of its shape, in
    the same member of the same document, or of an entity paired as the module says."""
    found: list[tuple[Any, Any]] = []
    _walk(live, model, seeded, found)
    # a value of the seed the live answer holds too, anywhere: the application did not draw it anew
    # (a seed writing fixed ids), and one random-shaped value names one thing
    paired = {model_value for _, model_value in found}
    live_values = _strings(live)
    found += [(value, value) for value in sorted(_strings(model) & live_values & seeded - paired)]
    return found


def first_seen_pairs(live: Any, model: Any, seeded: frozenset[Any], written: dict[str, set[Any]],
                     values: ValueMap) -> list[tuple[Any, Any]]:
    """``seeded_pairs`` of a read after the writes, of values no write sent or answered on either side
    (``written``, per side) and neither paired yet: a seed entity no read paired before the writes (a room
    seeded with no alias, its id drawn anew at the live start, shown before only where the model answered
    none). A value a write made or drew (the id it made, the context it drew) pairs with nothing here."""
    return [(live_value, model_value) for live_value, model_value in seeded_pairs(live, model, seeded)
            if live_value not in written["live"] and model_value not in written["model"]
            and values.live_value(model_value) == model_value and values.model_value(live_value) == live_value]


def _strings(value: Any) -> set[str]:
    """The strings of a JSON value, its members' names included."""
    return texts_in(value)


def _walk(live: Any, model: Any, seeded: frozenset[Any], found: list[tuple[Any, Any]]) -> None:
    if isinstance(live, dict) and isinstance(model, dict):
        for name, value in model.items():
            if name in live:
                _walk(live[name], value, seeded, found)
        # an object keyed by ids drawn at the start ({"<uuid>": {...}}): its members paired as entities are
        keyed = [name for name in model if name in seeded and name not in live]
        others = [name for name in live if name not in model]
        if keyed and others:
            for live_name, model_name in _matched_members(live, model, keyed, others):
                if drawn_format(live_name) == drawn_format(model_name):
                    found.append((live_name, model_name))
                    _walk(live[live_name], model[model_name], seeded, found)
        return
    if isinstance(live, list) and isinstance(model, list):
        for live_item, model_item in _matched_items(live, model):
            _walk(live_item, model_item, seeded, found)
        return
    if isinstance(model, str) and model in seeded:
        shape = drawn_format(model)
        if shape is not None and drawn_format(live) == shape:
            found.append((live, model))


def _matched_items(live: list[Any], model: list[Any]) -> Iterator[tuple[Any, Any]]:
    """The items of two arrays that agree once generated values and clocks are masked, each the only
    one of its array to read so."""
    live_keys = [_masked_key(item) for item in live]
    model_keys = [_masked_key(item) for item in model]
    live_count, model_count = Counter(live_keys), Counter(model_keys)
    at = {key: index for index, key in enumerate(live_keys)}
    for index, key in enumerate(model_keys):
        if model_count[key] == 1 and live_count[key] == 1:
            yield live[at[key]], model[index]


def _matched_members(live: dict[str, Any], model: dict[str, Any], keyed: list[str],
                     others: list[str]) -> Iterator[tuple[str, str]]:
    """Members of two objects whose values agree once generated values and clocks are masked, each
    the only one of its object's ``keyed`` / ``others`` to read so."""
    live_keys = {name: _masked_key(live[name]) for name in others}
    model_keys = {name: _masked_key(model[name]) for name in keyed}
    live_count, model_count = Counter(live_keys.values()), Counter(model_keys.values())
    at = {key: name for name, key in live_keys.items()}
    for name, key in model_keys.items():
        if model_count[key] == 1 and live_count[key] == 1:
            yield at[key], name


def _masked_key(value: Any) -> bytes:
    return canonical(_masked(value))


def _masked(value: Any) -> Any:
    """``value`` with each generated value and clock reading replaced by the name of its shape."""
    if isinstance(value, dict):
        return {name: _masked(member) for name, member in value.items()}
    if isinstance(value, list):
        items = [_masked(item) for item in value]
        if all(not isinstance(item, (dict, list)) for item in items):  # strings or numbers: a set, maybe
            return sorted(items, key=canonical)
        return items
    shape = drawn_format(value)
    if shape is not None:
        return f"\x00generated:{shape}"
    clock = clock_format(value)
    if clock is not None:
        return f"\x00clock:{clock}"
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(value)  # an exact JSON number (jsonvalue.JsonNumber) as its text


def in_model_order(live: Any, model: Any, seeded: frozenset[Any]) -> tuple[Any, tuple[str, ...]]:
    """``live`` with each array of entities the application orders by a value it draws anew at each
    start put in the model's order, and the pointers of those arrays. An array qualifies when its
    entities agree one to one with the model's once those values are masked, in another order, and both sides
    hold them sorted by one member holding such values (the model's among ``seeded``), the same way
    up: the order then follows ids drawn at the start, not the state. Entities agreeing with each other
    but for such values (twins, left unpaired) are put in their live order among themselves: the
    judge then pairs their ids by place, for this answer alone."""
    moved: list[str] = []
    return _reordered(live, model, seeded, "", moved), tuple(moved)


def _reordered(live: Any, model: Any, seeded: frozenset[Any], pointer: str, moved: list[str]) -> Any:
    if isinstance(live, dict) and isinstance(model, dict):
        return {name: _reordered(value, model[name], seeded, f"{pointer}/{escape_token(name)}", moved)
                if name in model else value for name, value in live.items()}
    if not (isinstance(live, list) and isinstance(model, list)):
        return live
    if len(live) > 1 and len(live) == len(model) and all(isinstance(item, dict) for item in [*live, *model]):
        in_order = _in_order_of(live, model)  # the live items in the model's order, twins in their own order
        if in_order is not None and [id(i) for i in in_order] != [id(i) for i in live] \
                and _sorted_by_drawn(live, model, seeded):
            moved.append(pointer)
            live = in_order
    return [_reordered(item, model[index], seeded, f"{pointer}/{index}", moved) if index < len(model) else item
            for index, item in enumerate(live)]


def _in_order_of(live: list[Any], model: list[Any]) -> list[Any] | None:
    """``live``'s items in the order of the ``model`` items they agree with once generated values and
    clocks are masked (items agreeing alike keep their live order), or None when the two do not hold
    the same items so read."""
    waiting: dict[bytes, list[Any]] = {}
    for item in live:
        waiting.setdefault(_masked_key(item), []).append(item)
    ordered = []
    for item in model:
        alike = waiting.get(_masked_key(item))
        if not alike:
            return None
        ordered.append(alike.pop(0))
    return ordered


def _sorted_by_drawn(live: list[Any], model: list[Any], seeded: frozenset[Any]) -> bool:
    for name in model[0]:
        model_keys = [item.get(name) for item in model]
        live_keys = [item.get(name) if isinstance(item, dict) else None for item in live]
        if not all(isinstance(k, str) and k in seeded for k in model_keys) or not all(
                isinstance(k, str) for k in live_keys):
            continue
        for descending in (False, True):
            if model_keys == sorted(model_keys, reverse=descending) \
                    and live_keys == sorted(live_keys, reverse=descending):
                return True
    return False
