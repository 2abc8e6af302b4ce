"""Refuse an update that sends only values the entity already holds, where the plan would still
change a field the call did not send (a clock, a counter).

The capture shows such fields moving with updates that changed something. Whether the application
moves them for an update that changes nothing, and answers them, it does not show: many do not
(an ORM saving no changed column writes no ``updatedAt``; n8n-like APIs then answer the entity
without it), some do. Serving the plan would stamp a new clock into the state and the answer,
a value the application may never give, so the call is refused with the state unchanged, saying
what it would accept: a call changing a member. The gate replays recorded calls and never runs
this check (``WriteEnv.checks_references``)."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.values import same_json

from .calls import WriteRefusal


def refuse_unchanged(entity: dict[str, Any], body: Any, values: dict[str, Any]) -> None:
    """Refuse when every member ``body`` sends equals the entity's and ``values`` still change a field."""
    if not isinstance(body, dict) or not body:
        return
    if any(member not in entity or not same_json(entity[member], sent) for member, sent in body.items()):
        return
    moved = sorted(field for field, value in values.items()
                   if field not in body and not (field in entity and same_json(entity[field], value)))
    if moved:
        raise WriteRefusal(f"this update sends only values the entity already holds ({', '.join(sorted(body))}); "
                           f"the capture shows {', '.join(repr(f) for f in moved)} changing only with updates that "
                           "changed something, not whether the application changes or answers it for an update "
                           "that changes nothing: send a member with a new value")
