"""Refuse a delete of an entity marked as a default or built-in one, or an update of one marked
as not editable (``WritePlan.protected``, learned by ``interpreter/plans/protected`` with the
``delete-protected`` and ``update-protected`` tables).

Applications refuse to delete the entity they fall back on or ship with (a default stack, a
default profile, a built-in group), which a delete (the entity alone) would answer with success.
What marks one is data in the plan (a member's pointer, the words or the flag value that protect
it): nothing is judged here but that. The gate does not run this check
(``WriteEnv.checks_references``): it replays the calls the application accepted.
"""

from __future__ import annotations

import re
from typing import Any

from capenv.interpreter.bundle import pointers
from capenv.interpreter.bundle.models import ProtectedEntity, WritePlan

from .calls import WriteRefusal


def marks(protection: ProtectedEntity, entity: dict[str, Any]) -> Any:
    """The member's value when it marks ``entity`` as protected, else None."""
    value = pointers.resolve(entity, pointers.parse(protection.pointer))
    if protection.words:
        if isinstance(value, str) and {w.lower() for w in re.split(protection.separators, value) if w} & set(
                protection.words):
            return value
        return None
    return value if isinstance(value, bool) and value == protection.value else None


def refuse_protected(plan: WritePlan, entity: dict[str, Any], shown_id: Any) -> None:
    """Refuse the delete or update when a protection of the plan marks ``entity``."""
    verb, noun = ("update", "updates") if plan.effect == "update" else ("delete", "deletes")
    kind = "not editable" if plan.effect == "update" else "a default or built-in one, or not editable"
    for protection in plan.protected:
        value = marks(protection, entity)
        if value is not None:
            raise WriteRefusal(
                f"the {plan.type} entity {shown_id!r} is marked as {kind} ({protection.described}; "
                f"here {protection.pointer} is {value!r}): applications refuse to {verb} such an entity, and the "
                f"capture shows no {verb} of one, so this environment does not serve it; {noun} of other "
                f"{plan.type} entities are served")
