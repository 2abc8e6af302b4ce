"""Whether a write at an item path that also takes another key member (``EitherKey``: Superset's
/api/v1/dashboard/{id_or_slug}) was recorded naming its entity by that member
(``WritePlan.either_key_named``).

Reads taking the other member say nothing of a write: Superset answers a dashboard read by its slug
but a DELETE by it 404. Serving takes the other member in a write only where a successful recorded
call of that write did, and otherwise refuses it, naming the identity to send instead.
"""

from __future__ import annotations

from urllib.parse import unquote

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.paths import split_path

from .context import PlanContext
from .references import _calls

ITEM_EFFECTS = ("update", "delete", "action")


def with_either_key_use(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    types = {t.name: t for t in ctx.view.types}
    result = []
    for plan in plans:
        entity_type = types.get(plan.type) if plan.type is not None else None
        if plan.effect not in ITEM_EFFECTS or entity_type is None or entity_type.either_key is None \
                or plan.address is None or plan.address.by not in ("path", "action") or plan.address.member:
            result.append(plan)
            continue
        depth = plan.address.segments_after_item()
        named = False
        for record in _calls(plan, ctx):
            parts = split_path(record.path)
            if record.succeeded and len(parts) > depth and \
                    not entity_type.either_key.names_identity(unquote(parts[len(parts) - 1 - depth])):
                named = True
                break
        result.append(plan.model_copy(update={"either_key_named": True}) if named else plan)
    return result
