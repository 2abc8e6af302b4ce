"""Projection queries (``fields=id,title``): a read's answer with each entity left with the members
the call names, as the view learned the application does it (``Projection``, ``view-projection-queries``).

A call is answered as the same call without the projection's parameters, then each entity of the
answer is projected: the members named and those the application keeps, in the entity's order.
Only what the recordings proved is answered; the rest is refused with what would be accepted:
a member no read of the view shows, a path into a member (``author.name``), a wildcard no
recording used, another spelling of the parameter than the recorded one, or a value leaving out a
member whose fate the recordings never showed (always named there). The read gate and the build's
learning project through here too, so what they prove is what serving answers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from capenv.interpreter.bundle.models import Locator, Projection, ReadView
from capenv.interpreter.bundle.values import MISSING, locate

from .answers import Answer
from .queries import decoded
from .render import place

Pairs = tuple[tuple[str, str], ...]

WILDCARD_MARK = "*"
"""A value holding this is read as a wildcard (``*``, ``author.*``): answered only as a recording proved it."""


@dataclass(frozen=True)
class Projecting:
    """One call's projection: the learned projection, the values its parameters sent (decoded),
    and the call's other query pairs, as sent."""

    projection: Projection
    values: tuple[str, ...]
    rest: Pairs


class ProjectionRefused(Exception):
    """A projection value or spelling the recordings do not prove; the message says what is accepted."""


def root_of(name: str) -> str:
    """The name before any bracket (``fields`` of ``fields[0]``)."""
    return name.split("[", 1)[0]


def sends(projection: Projection, name: str) -> bool:
    """``name`` (decoded) is one the projection's parameter is sent as."""
    if projection.form != "indexed":
        return name == projection.param
    root, _, tail = name.partition("[")
    return root == projection.root and tail.endswith("]") and tail[:-1].isdigit()


def spelled(projection: Projection) -> str:
    """How a call sends the projection, for messages."""
    joined = f" (several joined by {projection.separator!r})" if projection.separator else ""
    if projection.form == "indexed":
        return f"{projection.root}[0]=member&{projection.root}[1]=member…{joined}"
    once = projection.separator and projection.form in ("plain", "typed") and not projection.repeats_proven
    repeatable = ", once" if once else ", the name repeatable"
    return f"{projection.param}=member{joined}{repeatable}"


def projecting(projections: tuple[Projection, ...], query: Pairs) -> Projecting | None:
    """The call's projection (None: it sends none); ``ProjectionRefused`` when it sends a
    projection's root in a spelling no recording used (``fields[]`` where ``fields`` was recorded)."""
    if not projections or not query:
        return None
    names = [name for name, _ in decoded(query)]
    found = next((p for p in projections if any(sends(p, n) for n in names)), None)
    if found is None:
        roots = {p.root: p for p in projections}
        other = next((n for n in names if root_of(n) in roots), None)
        if other is not None:
            projection = roots[root_of(other)]
            raise ProjectionRefused(f"{other!r} is not a spelling of the projection the capture shows; accepted: "
                                    f"{spelled(projection)}")
        return None
    values, rest = [], []
    for (name, value), raw in zip(decoded(query), query):
        if sends(found, name):
            values.append(value)
        elif root_of(name) == found.root:
            raise ProjectionRefused(f"{name!r} mixes another spelling of {found.root!r} with the recorded one; "
                                    f"accepted: {spelled(found)}")
        else:
            rest.append(raw)
    if len(values) > 1 and found.separator and found.form in ("plain", "typed") and not found.repeats_proven:
        raise ProjectionRefused(f"{found.param!r} is sent {len(values)} times, and no recording sent it more than "
                                f"once: the application may read the first value, the last, all of them or refuse "
                                f"the call; send one value naming every member, joined by {found.separator!r}")
    return Projecting(found, tuple(values), tuple(rest))


def named_members(projecting_call: Projecting, known: tuple[str, ...]) -> frozenset[str] | None:
    """The members the call names (None: every member, a proven wildcard); ``ProjectionRefused``
    for a value naming what the recordings do not prove."""
    projection = projecting_call.projection
    shown = set(known)
    named: set[str] = set()
    for value in projecting_call.values:
        if value in projection.wildcards:
            return None
        for name in value.split(projection.separator) if projection.separator else [value]:
            if name in shown:
                named.add(name)
                continue
            accepted = f"members among {', '.join(repr(m) for m in sorted(shown)[:30])}"
            if not name:
                raise ProjectionRefused(f"{projection.root} names an empty member; accepted: {accepted}")
            if WILDCARD_MARK in name:
                proven = (f"the wildcards it shows are {', '.join(repr(w) for w in projection.wildcards)}"
                          if projection.wildcards else "it shows no wildcard")
                raise ProjectionRefused(f"{projection.root}={name!r} is a wildcard no recording proves ({proven});"
                                        f" accepted: {accepted}")
            if "." in name:
                raise ProjectionRefused(f"{projection.root}={name!r} is a path into a member, which no recording "
                                        f"proves; accepted: {accepted}")
            raise ProjectionRefused(f"{projection.root} names {name!r}, no member of the entities this read shows; "
                                    f"accepted: {accepted}")
    if not named:
        raise ProjectionRefused(f"{projection.root} names no member; accepted: {spelled(projection)}")
    return frozenset(named)


def project_entity(entity: dict[str, Any], named: frozenset[str] | None, projection: Projection) -> dict[str, Any]:
    """The entity with the members named and kept (inside ``inside`` when set), in its own order;
    ``ProjectionRefused`` when the recordings never show what the application does with one of its members."""
    if named is None:
        return entity
    if projection.inside is None:
        return _kept_members(entity, named, projection)
    held = entity.get(projection.inside)
    if not isinstance(held, dict):
        raise ProjectionRefused(f"an entity holds no object {projection.inside!r}, where the members "
                                f"{projection.root} names are")
    return {**entity, projection.inside: _kept_members(held, named, projection)}


def _kept_members(entity: dict[str, Any], named: frozenset[str], projection: Projection) -> dict[str, Any]:
    lacking = next((name for name in sorted(named) if name not in entity), None)
    if lacking is not None:
        raise ProjectionRefused(f"an entity lacks {lacking!r}: the capture does not show how the application "
                                f"answers a projection naming a member the entity does not hold")
    kept, dropped = set(projection.kept), set(projection.dropped)
    unknown = next((key for key in entity if key not in named and key not in kept and key not in dropped), None)
    if unknown is not None:
        raise ProjectionRefused(f"no recording shows whether the application answers {unknown!r} when "
                                f"{projection.root} does not name it; name {unknown!r} too")
    return {key: value for key, value in entity.items() if key in named or key in kept}


def projected_body(body: Any, locator: Locator | None, named: frozenset[str] | None,
                   projection: Projection) -> Any:
    """The answer's body with each entity at the locator projected (a list's members, or the item)."""
    where = locator or Locator(kind="root")
    located = locate(body, where)
    if located is MISSING:
        return body
    if isinstance(located, list):
        return place(body, where, [project_entity(m, named, projection) if isinstance(m, dict) else m
                                   for m in located])
    if isinstance(located, dict):
        return place(body, where, project_entity(located, named, projection))
    return body


def known_members(view: ReadView, projection: Projection) -> tuple[str, ...]:
    """The members a call may name: those the view's reads show, or inside ``inside`` those its proofs showed."""
    return projection.members if projection.inside is not None else view.shown_fields


def projected_answer(answer: Answer, view: ReadView, call: Projecting) -> Answer:
    """The answer to the call without its projection, projected as the call asks."""
    named = named_members(call, known_members(view, call.projection))
    return replace(answer, body=projected_body(answer.body, view.locator, named, call.projection))


def without_projection(projections: tuple[Projection, ...], query: Pairs) -> Pairs:
    """The query less any projection parameter (what the entity's own reads are sent with)."""
    if not projections:
        return query
    return tuple(raw for raw, (name, _) in zip(query, decoded(query))
                 if not any(sends(p, name) for p in projections))
