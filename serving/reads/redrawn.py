"""Entities the application names anew at each read of its list (``EntityType.redrawn_ids``: the
gate saw a later whole list show a held entity, all else alike, under a new id - Alerta's configured
roles). An item call naming an id a read showed may find nothing there by the time it is made, so
serving answers such entities in their lists only."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import EntityType


def redrawn_refusal(entity_type: EntityType, key: str, shown: Any) -> str | None:
    """Why an item call naming the held entity ``key`` (shown as ``shown``) is not answered, or None."""
    if key not in entity_type.redrawn_ids:
        return None
    return (f"the {entity_type.name} entity {shown!r} is one the application names anew at each read of its list (a "
            "later list of the capture showed it, all else alike, under a new id): an item call naming an id a read "
            "showed may find nothing there, so it is not answered; its lists are")
