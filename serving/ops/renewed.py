"""``renewed``: every UUID at the rule's pointers replaced by a new one, as child rows an
update rewrites are (seeds, "Updates" and "Clock and generators").

The replacement hashes the state Evidence id, the tool, the write counter and the UUID's
order in the call; ``OpContext.renewals`` keeps it for the whole call, so a UUID renewed in
two fields, or spelled in both letter cases, gets one replacement, spelled in each place's
case. Held values are not skipped. UUIDs elsewhere (a row's references) are kept.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.op_params import RenewedParams

from .context import UNCHANGED, OpContext, copy_json
from .generated_ids import is_uuid, renewal_uuid
from .pointers import parse_pointer, replace_each
from .registry import serving_op


def renew(ctx: OpContext, old: str) -> str:
    """The call's replacement for ``old``, drawn at its first sight, in ``old``'s letter case."""
    key = old.lower()
    new = ctx.renewals.get(key)
    if new is None:
        new = renewal_uuid(ctx.evidence_id, ctx.tool, ctx.write_counter, len(ctx.renewals))
        ctx.renewals[key] = new
    return new.upper() if old.isupper() else new


@serving_op("renewed")
def renewed(params: RenewedParams, ctx: OpContext) -> Any:
    if ctx.entity_before is None or ctx.field not in ctx.entity_before:
        return UNCHANGED  # an entity without the field is left without it

    def replace(value: Any) -> Any:
        return renew(ctx, value) if is_uuid(value) else value

    value = copy_json(ctx.entity_before[ctx.field])
    for pointer in params.pointers:
        value = replace_each(value, parse_pointer(pointer), replace)
    return value
