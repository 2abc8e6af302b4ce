"""Refuse a create or update repeating the value another held entity of the type has in a member
whose every recorded value was distinct text (``WritePlan.distinct_members``, learned by
``interpreter/plans/distinct_values``): the application may refuse it as taken (Strapi's "This
attribute must be unique"), which the capture cannot show, so serving refuses it, state unchanged,
saying what would be accepted. A repeat differing only in letter case is refused too: whether the
application compares letter case the capture cannot show either. A reference whose holder copies the
named entity's members (``DistinctMember.names``: a dashboard's app) is refused naming an entity
another held holder names: the application may take it from that one."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import WritePlan
from capenv.serving.state.edits import values_held

from .calls import WriteRefusal


def refuse_repeated_values(plan: WritePlan, sent: dict[str, Any], collection: Any, own_key: str | None = None) -> None:
    """``sent``: the members the call sent; ``collection``: the held collection it writes in (None:
    none held yet); ``own_key``: the entity an update writes, which may keep its own value."""
    if collection is None:
        return
    for distinct in plan.distinct_members:
        value = sent.get(distinct.member)
        if not isinstance(value, str):
            continue
        folded = value.lower()
        if distinct.group is None and folded not in values_held(collection, distinct.member):
            continue  # every held text counts lower-cased too
        clash = next((k for k in collection.order if k != own_key
                      and isinstance(held := _value(collection.entities[k], distinct.member, distinct.group), str)
                      and held.lower() == folded), None)
        if clash is not None and distinct.names is not None:
            raise WriteRefusal(
                f"member {distinct.member!r} is {value!r}, which the {plan.type} entity "
                f"{collection.ids.get(clash, clash)!r} already holds: it names that {distinct.names} entity, and every "
                f"{distinct.names} entity the capture shows is named by one {plan.type} entity only, whose members it "
                f"shows as copies, so whether the application lets a second one name it, takes it from the first or "
                f"refuses the capture cannot show; a {distinct.member} no held {plan.type} entity names is accepted",
                where={"collection": collection.path, "id": collection.ids.get(clash, clash)})
        if clash is not None:
            shown = _value(collection.entities[clash], distinct.member, distinct.group)
            alike = "" if shown == value else f" (as {shown!r}, differing only in letter case)"
            raise WriteRefusal(
                f"member {distinct.member!r} is {value!r}, which the {plan.type} entity "
                f"{collection.ids.get(clash, clash)!r} already holds{alike}: every {distinct.member} the capture "
                f"shows is distinct, so whether the application takes a second entity with it or refuses it as taken "
                f"the capture cannot show; a {distinct.member} no held {plan.type} entity has is accepted",
                where={"collection": collection.path, "id": collection.ids.get(clash, clash)})


def _value(entity: dict[str, Any], member: str, group: str | None) -> Any:
    """The member's value in the entity, inside its ``group`` object field when one is named."""
    holder = entity.get(group) if group is not None else entity
    return holder.get(member) if isinstance(holder, dict) else None
