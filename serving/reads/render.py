"""Render views from state and compare answers: the one code path the read gate and serving share.

A view keeps a base recording; rendering places an entity (item view) or a collection's
members (list line) into it at the view's locator. Comparison is by JSON value: object member
order never matters, array order does.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Collection, Iterable

from capenv.interpreter.bundle.models import Locator
from capenv.interpreter.bundle.pointers import escape_token, without_member_at
from capenv.interpreter.bundle.values import MISSING, locate, same_json

def place(body: Any, locator: Locator, value: Any) -> Any:
    """A copy of ``body`` with ``value`` at ``locator`` (the base recording is never edited)."""
    if locator.kind == "root":
        return value
    result = dict(body) if isinstance(body, dict) else {}
    holder = result
    for name in locator.within:  # each object on the way copied, never the base recording's
        inner = holder.get(name)
        holder[name] = dict(inner) if isinstance(inner, dict) else {}
        holder = holder[name]
    if locator.omits_empty and value == []:
        holder.pop(locator.member, None)  # the application leaves an empty list out
        return result
    holder[locator.member] = [value] if locator.kind == "singleton" else value
    return result


def project(entity: dict[str, Any], shown_fields: Iterable[str]) -> dict[str, Any]:
    """The entity with only the fields a view shows, in the entity's own order."""
    shown = set(shown_fields)
    if not shown:
        return dict(entity)
    return {key: value for key, value in entity.items() if key in shown}


def render_entities(entities: list[dict[str, Any]], shown_fields: Iterable[str], sorted_arrays: Iterable[str],
                    constants: dict[str, Any], *, held: Collection[str] | None = None) -> list[dict[str, Any]]:
    """``[with_constants(project(sorted_fields(e, sorted_arrays), shown_fields), constants) for e in
    entities]``, its plan made once per answer rather than once per entity.

    An entity the view shows whole is listed as the state holds it, not copied (a list of
    10,000 entities was a third copies): the state never edits an entity in place (``edits``
    puts a new one in its place, so an answer already handed out keeps what it listed), and
    nothing edits an answer (every later step builds its own: ``place``, ``with_observed``).
    ``held``: every member name the entities may hold (their collection's ``member_counts``);
    when the view shows them all, no entity is looked at to know it is shown whole."""
    shown = frozenset(shown_fields)
    names = tuple(sorted_arrays)
    if names:
        entities = [sorted_fields(entity, names) for entity in entities]
    if not shown or (held is not None and shown.issuperset(held)):
        rendered = list(entities)
    else:
        rendered = [entity if entity.keys() <= shown else
                    {key: value for key, value in entity.items() if key in shown} for entity in entities]
    if constants:
        rendered = [with_constants(entity, constants) for entity in rendered]
    return rendered


def with_constants(entity: dict[str, Any], constants: dict[str, Any]) -> dict[str, Any]:
    """The listed entity with the members the line shows as one constant (its own projection,
    ``ListLine.projected_members``) in place of the state's values, and where the entity lacks
    them (one only such a list showed, ``projected_state``)."""
    if not constants:
        return entity
    rendered = {key: copy.deepcopy(constants[key]) if key in constants else value for key, value in entity.items()}
    rendered.update((key, copy.deepcopy(value)) for key, value in constants.items() if key not in entity)
    return rendered


def with_references(entities: list[dict[str, Any]], references: dict[str, str]) -> tuple[list[dict[str, Any]], str | None]:
    """The listed entities with each member a line shows as a reference (``ListLine.projected_members``,
    role ``reference``: ``{member: inner}``) as the ``inner`` member of the object the state holds
    there (null stays null), new objects, never the held ones edited; and the first such member an
    entity holds otherwise (a scalar, an object without ``inner``), which the state does not tell
    how the list shows: the answer is then refused as lacking it."""
    if not references:
        return entities, None
    rendered = []
    for entity in entities:
        projected = entity
        for name, inner in references.items():
            value = entity.get(name)
            if value is None:
                continue
            if not isinstance(value, dict) or inner not in value:
                return entities, name
            if projected is entity:
                projected = dict(entity)
            projected[name] = value[inner]
        rendered.append(projected)
    return rendered, None


def first_lacking(entities: Iterable[dict[str, Any]], required: Iterable[str]) -> str | None:
    """The first required field the first entity lacking one lacks (None: every entity has them all)."""
    wanted = tuple(required)
    if not wanted:
        return None
    every = frozenset(wanted)
    for entity in entities:
        if not entity.keys() >= every:
            return next(name for name in wanted if name not in entity)
    return None


def sorted_fields(entity: dict[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    """The entity with each named string-array field sorted (a view's learned ``sorted_arrays``).

    The state keeps the order values were written in; the app showed them sorted, so the view
    sorts at render time (other values of those fields are left as they are)."""
    names = [name for name in fields if is_string_array(entity.get(name))]
    if not names:
        return entity
    result = dict(entity)
    for name in names:
        result[name] = sorted(result[name])
    return result


def is_string_array(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def first_difference(left: Any, right: Any, path: str = "") -> str | None:
    """A JSON pointer to the first place two values differ, or None when they are the same."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in list(left) + [k for k in right if k not in left]:
            if key not in left:
                return f"{path}/{_escape(key)} (only recorded)"
            if key not in right:
                return f"{path}/{_escape(key)} (only rendered)"
            found = first_difference(left[key], right[key], f"{path}/{_escape(key)}")
            if found is not None:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list):
        for index, (a, b) in enumerate(zip(left, right)):
            found = first_difference(a, b, f"{path}/{index}")
            if found is not None:
                return found
        if len(left) != len(right):
            return f"{path} (rendered {len(left)} items, recorded {len(right)})"
        return None
    return None if same_json(left, right) else (path or "/")


def _escape(key: str) -> str:
    return escape_token(key)


def without_members(body: Any, members: Iterable[str]) -> Any:
    """The body object less some per-response envelope members: a top-level member by its name,
    one inside the envelope by its JSON pointer (``/data/query_ms``: ``views._per_response``)."""
    drop = set(members)
    if not drop or not isinstance(body, dict):
        return body
    result = {k: v for k, v in body.items() if k not in drop}
    for pointer in sorted(drop):
        if pointer.startswith("/") and pointer not in body:
            result = without_member_at(result, pointer)
    return result


def with_observed(rendered: Any, recorded: Any, locator: Locator | None, volatile: Iterable[str],
                  *, is_list: bool) -> Any:
    """The rendered body with volatile entity fields taking the recorded values (for comparison)."""
    volatile = set(volatile)
    if not volatile or locator is None:
        return rendered
    mine, theirs = locate(rendered, locator), locate(recorded, locator)
    if mine is MISSING or theirs is MISSING:
        return rendered
    if is_list:
        if not isinstance(mine, list) or not isinstance(theirs, list):
            return rendered
        merged = [_take_volatile(a, b, volatile) for a, b in zip(mine, theirs)] + mine[len(theirs):]
    else:
        merged = _take_volatile(mine, theirs, volatile)
    return place(copy.copy(rendered), locator, merged)


def _take_volatile(mine: Any, theirs: Any, volatile: set[str]) -> Any:
    if not isinstance(mine, dict) or not isinstance(theirs, dict):
        return mine
    result = dict(mine)
    for field in volatile:
        if field in theirs and field in result and same_kind_family(result[field], theirs[field]):
            result[field] = theirs[field]
    return result


def same_kind_family(mine: Any, theirs: Any) -> bool:
    """Whether a volatile value may stand for the recorded one: a volatile member changes its value,
    not what it is, so a scalar where the recording shows an object (an id sent where the read
    embeds the entity it names) stays a difference; null, and any two scalars, may."""
    if mine is None or theirs is None:
        return True
    return _container(mine) == _container(theirs)


def _container(value: Any) -> str:
    return "object" if isinstance(value, dict) else "array" if isinstance(value, list) else "scalar"


def render_into(base: Any, locator: Locator, value: Any) -> Any:
    """The base recording's body with ``value`` placed at the locator."""
    return place(base, locator, value)
